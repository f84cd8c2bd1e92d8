"""Packed two-player tables (``.npz``: optimal play's values as arrays in the game's own
state order): written and read back, they answer exactly as the solution they came from, and
on a reduced game as the rational brute force of ``test_duel``."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest
from test_duel import SETS, reduced_game

from phase10math.dice.faces import parse_faces
from phase10math.errors import InvalidRulesError, OutsideTableError
from phase10math.game.duel import (
    MATCHUPS,
    PLAYS,
    DuelSolution,
    Play,
    read_packed,
    read_table,
    solve_duel,
    table_payload,
    win_advice,
    write_packed,
    write_table,
)
from phase10math.game.duel.files import TableForm

OPT = (Play.OPTIMAL, Play.OPTIMAL)


@pytest.fixture(scope="module")
def from_start():
    """A reduced game from its start (players with undecided bonuses keep their totals)."""
    return solve_duel(reduced_game(reachable=True))


@pytest.fixture(scope="module")
def packed_reduced(from_start, tmp_path_factory):
    path = tmp_path_factory.mktemp("packed") / "reduced.npz"
    write_table(from_start, path, form=TableForm.PACKED)
    return read_packed(path, reduced_game(reachable=True))[0]


def test_a_packed_reduced_game_equals_the_brute_force(from_start, packed_reduced):
    assert packed_reduced.packed and not from_start.packed
    # the brute force (absolute totals, Fractions) from the start, read from the arrays
    brute = type(SETS)(SETS.scorers)
    g = packed_reduced.game
    brute.duel_value(0, g.lo, 0, g.lo, 0)
    # every value (float32) within its own error, which now holds its rounding too
    for (s, ka, ta, kb, tb), exact in brute.solved.items():
        key = g.key_of(s, (ka, ta), (kb, tb))
        got = packed_reduced.value(key)[0]
        assert abs(got - float(exact)) <= packed_reduced.error(key) + 1e-15
    for (k, t, f, e), exact in brute.chances.items():
        key = (g.player(k, t), t - f, int(e))
        got = packed_reduced.last_value(Play.OPTIMAL, *key)[0]
        assert abs(got - float(exact)) <= packed_reduced.error(key) + 1e-15


def test_a_packed_table_holds_every_state_and_value_of_its_solution(from_start, packed_reduced):
    for table, packed in (
        (from_start.values[OPT], packed_reduced.values[OPT]),
        (from_start.last[Play.OPTIMAL], packed_reduced.last[Play.OPTIMAL]),
    ):
        assert len(packed) == len(table) and set(packed) == set(table)
        # each value the nearest float32 of the solution's float64, the start's in full
        start = from_start.game.start()
        assert all(
            packed[k] == (table[k] if k == start else tuple(float(np.float32(x)) for x in table[k]))
            for k in table
        )
        assert any(packed[k] != table[k] for k in table)
        for key in table:  # its error widened by that rounding, then rounded up to float32
            e, got = from_start.error(key), packed_reduced.error(key)
            floor = e + abs(float(np.float32(table[key][0])) - table[key][0])
            assert floor <= got <= floor * (1 + 2.0**-22) + 1e-45
        tie_rounding = max(abs(float(np.float32(t)) - t) for _, t in table.values())
        assert packed_reduced.tie_bound >= from_start.tie_bound + tie_rounding > 0
    assert packed_reduced.bound >= max(packed_reduced.errors.values())
    assert packed_reduced.headline()["matchups"] == from_start.headline()["matchups"]


def test_a_packed_table_refuses_what_it_does_not_hold(packed_reduced):
    g, vals = packed_reduced.game, packed_reduced.values[OPT]
    start = g.start()
    inside = next(iter(vals))
    s, me, opp, d = inside
    assert (s, me, opp, d + 10**6) not in vals and vals.get((s, me, opp, d + 10**6)) is None
    assert ("not", "a", "key") not in vals and None not in vals
    with pytest.raises(KeyError):
        vals[(s, me, opp, d + 10**6)]
    # the per-turn matchups: at the start, not elsewhere
    m = (Play.COMPLETE, Play.SCORE)
    assert packed_reduced.value(start, m) == tuple(packed_reduced.values[m][start])
    other = next(k for k in vals if k != start)
    with pytest.raises(OutsideTableError, match="matchups"):
        packed_reduced.value(other, m)


def test_an_unfinished_solve_or_another_game_is_refused(tmp_path, from_start):
    with pytest.raises(InvalidRulesError, match="not solved"):
        write_table(DuelSolution(reduced_game(reachable=True)), tmp_path / "none.npz")
    assert not (tmp_path / "none.npz").exists()
    write_table(from_start, tmp_path / "t.npz")
    with pytest.raises(InvalidRulesError, match="another game"):
        read_packed(tmp_path / "t.npz", reduced_game("1 set of 3", reachable=True))
    with pytest.raises(InvalidRulesError, match="another game"):
        read_packed(tmp_path / "t.npz")  # not the kit's phases: found only with its game
    # a table whose state count does not match its game
    with np.load(tmp_path / "t.npz") as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"][()]))
    meta["states"] += 1
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(tmp_path / "bad.npz", **arrays)
    with pytest.raises(InvalidRulesError, match="holds"):
        read_packed(tmp_path / "bad.npz", reduced_game(reachable=True))
    (tmp_path / "junk.npz").write_bytes(b"not a table")
    with pytest.raises(InvalidRulesError, match="not a packed"):
        read_packed(tmp_path / "junk.npz", reduced_game(reachable=True))


def test_the_shipped_table_packed_answers_as_its_rows(tmp_path):
    """The shipped table in full (float64) packed: every value its nearest float32 (the
    start's in full), the answers of the command line and of the advisor within that
    rounding, each error at least the full table's error."""
    sol, data = read_table()  # phases 9-10, in full
    path = tmp_path / "t.npz"
    write_table(sol, path, data["command"], TableForm.PACKED)
    packed, meta = read_table(path)
    assert packed.packed and meta["command"] == data["command"]
    start = sol.game.start()
    for k, v in sol.values[OPT].items():
        near32 = tuple(float(np.float32(x)) for x in v)
        assert packed.values[OPT][k] == (v if k == start else near32)
    near = 2.0**-25 + 1e-15  # the most a value in [0, 1] moves to its nearest float32
    run = [sys.executable, "-m", "phase10math", "duel", "--me", "9:40", "--opponent", "10:25"]
    rows = subprocess.run(run + ["--json"], capture_output=True, text=True, check=True)
    arrays = subprocess.run(
        run + ["--table", str(path), "--json"], capture_output=True, text=True, check=True
    )
    a, b = json.loads(rows.stdout), json.loads(arrays.stdout)
    assert abs(a["chance_to_win"] - b["chance_to_win"]) <= near
    assert abs(a["p_tie"] - b["p_tie"]) <= near
    assert a["bound"] <= b["bound"] <= a["bound"] + 2 * near
    # the advisor's chance of each hold from either form, in a game and a last chance
    faces = parse_faces("7b 8b 10r 6r 9o 7g Wg 1g 3b 2g")
    for args in (((9, 60), (10, 40), False), ((10, 75), (10, 90), True)):
        me, opp, last = args
        want = win_advice(sol, me, opp, faces, 2, last_chance=last)
        got = win_advice(packed, me, opp, faces, 2, last_chance=last)
        assert len(want["options"]) > 10
        by_keep = {str(o["keep"]): o for o in want["options"]}
        assert set(by_keep) == {str(o["keep"]) for o in got["options"]}
        for o in got["options"]:
            p = by_keep[str(o["keep"])]
            assert abs(o["chance_to_win"] - p["chance_to_win"]) <= near
            assert p["error"] <= o["error"] <= p["error"] + 2 * near
        best = by_keep[str(got["options"][0]["keep"])]  # the best within the rounding
        assert best["chance_to_win"] >= want["options"][0]["chance_to_win"] - 2 * near


def test_a_range_whose_file_is_not_in_the_package_is_not_shipped(monkeypatch):
    import phase10math.game.duel as duel

    monkeypatch.setitem(duel.TABLE_FILES, (3, 10), "duel_table_3_10_missing.npz")
    assert (3, 10) not in duel.shipped_ranges() and (9, 10) in duel.shipped_ranges()
    with pytest.raises(OutsideTableError, match="no table of phases 3-10 ships"):
        duel.read_table(phases=(3, 10))


def test_the_advisors_bound_is_that_of_the_states_after_the_turn():
    """Every hold's chance to win is a mean of the chances after the turn's outcomes (the
    partner's on a fail), so it is within the largest of their errors, not the table's."""
    sol, _ = read_table(phases=(6, 10))
    g = sol.game
    faces = parse_faces("7b 8b 10r 6r 9o 7g Wg 1g 3b 2g")
    me, opp = (7, 40), (6, 75)
    key = g.key_of(0, me, opp)
    errors = [sol.error(n) for _, n in sol.after(key)] + [sol.error((1, key[2], key[1], -key[3]))]
    for rolls_left in (1, 2):
        adv = win_advice(sol, me, opp, faces, rolls_left, layout=g.layout)
        # a mean of the outcomes' errors, or (a roll to come) a mean of best choices of them
        for o in adv["options"]:
            assert min(errors) <= o["error"] <= max(errors) + 1e-11
        assert adv["bound"] == max(o["error"] for o in adv["options"]) < sol.bound / 4
        assert adv["best"] == adv["options"][0]


def test_a_full_table_keeps_every_matchup_and_error_exactly(from_start, tmp_path):
    """``TableForm.FULL`` (the shipped tables of few phases): every matchup's (win, tie) at
    every state and every error read back as the solution holds them, not rounded."""
    path = tmp_path / "full.npz"
    write_packed(from_start, path, form=TableForm.FULL)
    full = read_packed(path, reduced_game(reachable=True))[0]
    assert not full.packed and full.bound == from_start.bound
    assert full.tie_bound == from_start.tie_bound
    for m in MATCHUPS:
        assert dict(full.values[m]) == from_start.values[m]
        assert len(full.values[m]) == len(from_start.values[m]) > 100
    for p in PLAYS:
        assert dict(full.last[p]) == from_start.last[p]
    for key in from_start.values[MATCHUPS[0]]:
        assert full.error(key) == from_start.error(key)
    assert full.headline() == from_start.headline()


def test_a_table_is_written_in_full_by_default_and_rows_of_json_still_read(from_start, tmp_path):
    """``write_table`` writes a game of few states in full (whatever the file's name); a
    table of rows of JSON written before is still read, by its content."""
    path = tmp_path / "t.json.gz"
    write_table(from_start, path)
    with open(path, "rb") as fh:
        assert fh.read(2) == b"PK"
    full = read_packed(path, reduced_game(reachable=True))[0]
    assert not full.packed and dict(full.values[OPT]) == from_start.values[OPT]
    shipped, _ = read_table()  # phases 9-10
    rows = tmp_path / "rows.npz"  # the name does not matter either
    with gzip.open(rows, "wt", encoding="utf-8") as fh:
        json.dump(table_payload(shipped), fh)
    again, _ = read_table(rows)
    assert dict(again.values[OPT]) == dict(shipped.values[OPT])
    assert len(again.values[OPT]) > 1000
