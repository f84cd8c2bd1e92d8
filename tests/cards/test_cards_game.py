"""The card-game simulator and the ``cards`` command line (issue #6)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from phase10math.cards import (
    InvalidCardError,
    dealt_probability,
    hand_points,
    parse_hand,
    validate_laydown,
)
from phase10math.cards.game import play_game
from phase10math.cli import main


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")


@pytest.fixture(scope="module")
def games():
    return [play_game(n, seed) for n, seed in ((2, 1), (3, 2), (4, 3), (6, 4))]


def test_same_seed_same_game():
    a, b, c = play_game(2, 11), play_game(2, 11), play_game(2, 12)
    assert [str(e) for e in a.log] == [str(e) for e in b.log]
    assert [str(e) for e in a.log] != [str(e) for e in c.log]


def test_winner_and_tie_break_rule(games):
    for g in games:
        assert g.phases_done[g.winner] == 10
        finishers = [i for i in range(g.players) if g.phases_done[i] == 10]
        if "tie-break" not in g.reason:
            assert g.scores[g.winner] == min(g.scores[i] for i in finishers)
        assert all(s % 5 == 0 for s in g.scores)


def test_log_replays_scoring_laydowns_and_phases(games):
    for g in games:
        phase_of = [1] * g.players
        totals = [0] * g.players
        went_out = None
        for e in g.log:
            if e.action == "deal":
                shown = dict(re.findall(r"P(\d+):(\d+)", e.detail))
                assert {int(k) - 1: int(v) for k, v in shown.items()} == dict(enumerate(phase_of))
            elif e.action.startswith("lays down phase"):
                k = int(e.action.split()[-1].rstrip(":"))
                assert k == phase_of[e.player]
                groups = [grp.split(": ", 1)[1] for grp in e.detail.split("; ")]
                assert sum(len(parse_hand(x)) for x in groups) <= 10
                validate_laydown(k, [parse_hand(x) for x in groups])
            elif e.action == "goes out":
                went_out = e.player
            elif e.action == "scores":
                m = re.match(
                    r"(\d+) for (.*) \(total (\d+)\); phase (\d+) (made|not made)", e.detail
                )
                pts, cards, total, k, made = m.groups()
                left = [] if cards == "no cards" else list(parse_hand(cards))
                # leftover points recomputed by the rules' table: 1-9: 5, 10-12: 10, S 15, W 25
                by_hand = sum(
                    25 if c.is_wild else 15 if c.is_skip else 10 if c.number >= 10 else 5
                    for c in left
                )
                assert int(pts) == by_hand == hand_points(left)
                if e.player == went_out:
                    assert int(pts) == 0
                totals[e.player] += int(pts)
                assert totals[e.player] == int(total)
                if made == "made":
                    phase_of[e.player] += 1
        assert totals == g.scores


def test_skip_rules_in_the_log(games):
    for g in games:
        pending = [False] * g.players
        for e in g.log:
            assert not (e.action == "takes" and e.detail.startswith("S ")), e
            if e.action == "discards" and "skipping" in e.detail:
                target = int(e.detail.split("skipping P")[1]) - 1
                assert target != e.player and not pending[target]
                pending[target] = True
            elif e.action == "will be skipped":
                pending[e.player] = True
            elif e.action == "is skipped":
                assert pending[e.player]
                pending[e.player] = False
            elif e.action == "deal":
                pending = [False] * g.players
            elif e.player is not None and e.action in ("draws", "takes"):
                assert not pending[e.player]  # a skipped player cannot play


def test_turned_up_skip_skips_the_first_player():
    for seed in range(400):
        g = play_game(3, seed, max_hands=1)
        if "starts with S;" in g.log[0].detail:
            break
    else:  # pragma: no cover
        pytest.fail("no turned-up Skip in 400 deals")
    first = g.log[1]
    assert first.action == "will be skipped"
    turn1 = [e for e in g.log if e.turn == 1]
    assert turn1[0].action == "is skipped" and turn1[0].player == first.player
    # dealer P1 in hand 1, so the first player is P2
    assert first.player == 1


def test_bad_game_input():
    with pytest.raises(InvalidCardError, match="players must be 2..6, got 7"):
        play_game(7)
    with pytest.raises(InvalidCardError, match="players must be 2..6, got 1"):
        play_game(1)


# ------------------------------------------------------------ command line


def test_cli_dealt_table(capsys):
    assert main(["cards", "dealt", "--phase", "4", "--phase", "8"]) == 0
    out = capsys.readouterr().out
    assert "phase 4: 1 run of 7" in out and "phase 8: 7 of one color" in out


def test_cli_dealt_json(capsys):
    assert main(["cards", "dealt", "--hand-size", "6", "--phase", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # the same hand-worked count as in test_cards_dealt: two sets of 3 in 6 cards
    from math import comb

    one = sum(comb(8, a) * comb(8, 6 - a) for a in range(1, 7))
    two = sum(
        comb(8, a) * comb(8, b) * comb(8, 6 - a - b) for a in range(1, 4) for b in range(1, 4)
    )
    expected = Fraction(comb(8, 6) + 12 * one + 66 * two, comb(108, 6))
    assert Fraction(data[0]["probability"]["fraction"]) == expected
    assert data[0]["hand_size"] == 6


def test_cli_dealt_mixed_phase(capsys, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")
    text = "set of 2 + 2 of one color"
    assert main(["cards", "dealt", "--hand-size", "5", "--phase", text, "--json"]) == 0
    got = capsys.readouterr()
    data = json.loads(got.out)  # the progress bar goes to stderr, not into the JSON

    assert Fraction(data[0]["probability"]["fraction"]) == dealt_probability(text, 5)
    assert data[0]["text"] == "1 set of 2 + 2 of one color" and data[0]["phase"] is None
    assert (
        main(
            [
                "cards",
                "draws",
                "--phase",
                "run of 4 + 4 of one color",
                "--draws",
                "2",
                "--trials",
                "300",
            ]
        )
        == 0
    )
    assert "95% interval" in capsys.readouterr().out


def test_cli_game_and_draws(capsys):
    assert main(["cards", "game", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    g = play_game(2, 1)
    assert out.count("\n") > len(g.log)
    assert f"P{g.winner + 1} wins" in out
    assert main(["cards", "game", "--players", "3", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    assert main(["cards", "draws", "--phase", "4", "--draws", "3", "--trials", "200"]) == 0
    assert "95% interval" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["cards", "dealt", "--hand-size", "0"], "--hand-size: 0 is out of range"),
        (["cards", "dealt", "--phase", "3 pairs"], "cannot read '3 pairs'"),
        (["cards", "game", "--players", "9"], "--players: 9 is out of range; allowed 2..6"),
        (["cards", "draws", "--policy", "smart"], "unknown policy"),
        (
            ["cards", "dealt", "--phase", "run of 4 + 3 of one color + 3 of one color"],
            "estimate it by simulation",
        ),
    ],
)
def test_cli_bad_input_exit_2(argv, fragment, capsys):
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err
