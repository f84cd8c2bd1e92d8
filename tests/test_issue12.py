"""Issue 12: crashes, tracebacks, hangs, wrong results and unclear messages found with ~470
hostile inputs. One test (or a few) per category of the issue."""

from __future__ import annotations

import functools
import io
import itertools
import json
import os
import time
from fractions import Fraction

import numpy as np
import pytest

from phase10math import cache
from phase10math.cards.dealt import simulate_dealt
from phase10math.cli import main
from phase10math.dice.faces import Die, Face, parse_faces, parse_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import score
from phase10math.dice.phases import as_phase, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import (
    InvalidDiceError,
    InvalidHoldError,
    InvalidLayoutError,
    InvalidPhaseError,
    InvalidRulesError,
    Phase10MathError,
)
from phase10math.game.engine import Game
from phase10math.game.solitaire import solve_solitaire
from phase10math.game.strategies import HumanStrategy, SolitaireStrategy, get_strategy
from phase10math.turn.advisor import advise
from phase10math.turn.projection import VALUE
from phase10math.turn.solver import solve_custom, solve_turn

SAME_LAYOUT = "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo"
HIGH = parse_layout(SAME_LAYOUT).dice[0]


def run(argv, stdin: str | None = None, monkeypatch=None):
    """main(argv) in-process: (exit code, stdout, stderr)."""
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def one_line_error(err: str, code: int) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------- single die type


def brute_turn(dice: list[Die], utility, rolls: int) -> Fraction:
    """Naive reference: ordered dice, every subset of positions kept, every outcome listed."""

    n = len(dice)

    @functools.cache
    def value(faces: tuple, r: int) -> Fraction:
        if r == 0:
            return Fraction(utility(list(faces)))
        best = None
        for keep in itertools.product([False, True], repeat=n):
            free = [i for i in range(n) if not keep[i]]
            tot = Fraction(0)
            for out in itertools.product(*[dice[i].faces for i in free]):
                new = list(faces)
                for i, f in zip(free, out, strict=True):
                    new[i] = f
                tot += value(tuple(new), r - 1)
            v = tot / 6 ** len(free)
            best = v if best is None or v > best else best
        return best

    total = Fraction(0)
    for roll in itertools.product(*[d.faces for d in dice]):
        total += value(roll, rolls - 1)
    return total / 6**n


def _util(faces):
    vals = [f.value for f in faces]
    top = max(vals.count(v) for v in vals)
    return 10 * top + max(vals)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_n_identical_dice_against_brute_force(n):
    dice = [HIGH] * n
    sol = solve_custom(_util, Rules(rolls=3), dice)
    assert sol.value() == brute_turn(dice, _util, 3)


def test_single_type_after_projection_and_sticky():
    other = parse_layout("5o 6b 7g 8r 9o 10b\n" + SAME_LAYOUT.replace("6 x", "5 x")).dice[0]
    dice = [HIGH, other]  # two types, one under the value projection
    v = solve_custom(_util, Rules(rolls=2), dice, projection=VALUE).value()
    assert v == brute_turn([HIGH, HIGH], _util, 2)
    sticky = solve_custom(_util, Rules(rolls=2, holds="sticky"), [HIGH] * 3)
    assert sticky.value() == brute_turn([HIGH] * 3, _util, 2)  # two rolls: free = sticky


def test_identical_dice_layout_from_the_command_line(tmp_path):
    f = tmp_path / "same.txt"
    f.write_text(SAME_LAYOUT)
    code, out, err = run(["table", "--phases", "8", "--layout", str(f), "--json"])
    assert code == 0, err
    assert json.loads(out)


def test_ten_distinct_dice_refused_at_once_with_the_whole_message(tmp_path):
    lines = []
    for i in range(6):
        c = "robg"
        lines.append(" ".join(f"{v}{c[(i + j) % 4]}" for j, v in enumerate(range(5, 11))))
    for i in range(4):
        c = "robg"
        lines.append(" ".join(f"{v}{c[(i + j) % 4]}" for j, v in enumerate("1234WW")))
    f = tmp_path / "distinct.txt"
    f.write_text("\n".join(lines))
    t = time.time()
    code, _out, err = run(["table", "--phases", "8", "--layout", str(f)])
    assert time.time() - t < 5
    line = one_line_error(err, code)
    assert line.endswith("or the other hold rule.") and "holds" in line


# --------------------------------------------------------------------------- solitaire


@pytest.fixture(scope="module")
def small_solitaire(tmp_path_factory):
    """Optimal solitaire under reduced rules (two rolls, no five-phase bonus): 11 states."""
    rules = Rules(rolls=2, five_phase_threshold=10**6)
    return rules, solve_solitaire(rules, show_progress=False)


def test_solitaire_strategy_plays_games_and_matches_the_exact_value(small_solitaire):
    rules, sol = small_solitaire
    strat = SolitaireStrategy(rules, solution=sol)
    # in a game with another player
    res = Game([strat, get_strategy("greedy", rules)], rules=rules, seed=1).play()
    assert res.players[0].phase_done >= 1
    # simulated solitaire mean against the exact optimal value (4 standard errors)
    totals = [Game([strat], rules=rules, seed=s).play().players[0].total for s in range(300)]
    mean, se = np.mean(totals), np.std(totals, ddof=1) / np.sqrt(len(totals))
    assert abs(mean - float(sol.value)) < 4 * se


def test_solitaire_strategy_is_offered_and_builds_without_solving():
    assert isinstance(get_strategy("solitaire"), SolitaireStrategy)
    with pytest.raises(InvalidRulesError, match="free holds"):
        get_strategy("solitaire", Rules(holds="sticky"))


def test_solitaire_simulate_needs_two_games():
    for n in ("1", "-5"):
        code, out, err = run(["solitaire", "--simulate", n, "--json"])
        one_line_error(err, code)
        assert out == ""


# --------------------------------------------------------------------------- tracebacks


@pytest.mark.parametrize(
    "argv, words",
    [
        (["game", "--seed", "-1"], "--seed: -1 is out of range"),
        (["headtohead", "--seed", "-1"], "--seed: -1 is out of range"),
        (["cards", "game", "--seed", "-1"], "--seed: -1 is out of range"),
        (["cards", "draws", "--seed", "-1"], "--seed: -1 is out of range"),
        (["check", "--phase", "²"], "cannot read"),
        (["check", "--phase", "2 sets of ²"], "cannot read the number '²'"),
        (["check", "--phase", "1" * 5000], "too long"),
        (["check", "--phase", "2 sets of " + "9" * 5000], "too long"),
        (["game", "--seed", "9" * 5000], "not a whole number"),
        (["headtohead", "--games", "10000000000"], "--games: 10000000000 is out of range"),
        (["turns", "--max-turns", "99999999999"], "out of range"),
        (["cards", "draws", "--trials", "99999999999"], "out of range"),
        (["tenk", "duel", "--target", "99999999999"], "out of range"),
        (["tenk", "ev", "--straight", "99999999999"], "out of range"),
        (["tenk", "ev", "--open", "99999999999"], "out of range"),
        (["tenk", "ev", "--three-pairs", "5000000"], "out of range"),
        (["check", "--phase", "-1"], "phase -1 does not exist"),
        (["table", "--phases", "3-1"], "runs backwards"),
        (["turns", "--max-turns", "-5"], "-5 is out of range"),
        (["advise", "--phase", "1", "--rolls-left", "2", "--top", "-1"], "-1 is out of range"),
        (["check", "--phase", "10 sets of 1"], "at most 6"),
    ],
)
def test_bad_numbers_one_line_exit_2(argv, words):
    t = time.time()
    code, out, err = run(argv)
    assert words in one_line_error(err, code)
    assert time.time() - t < 10


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\x00\x01\x02binary", "not a text file"),
        (SAME_LAYOUT.encode("utf-16"), "not a text file"),
        ("6 x 5r 6o 7b 8g 9r 10o # caf\xe9".encode("latin-1"), "not UTF-8"),
        (b"99999999999999999999 x 5r 6o 7b 8g 9r 10o", "a layout has 10 dice"),
        (b"10 x 5r 6o 7b 8g 9r Wo", "mixes high numbers"),
    ],
)
def test_bad_layout_files(tmp_path, content, words):
    f = tmp_path / "layout.txt"
    f.write_bytes(content)
    code, _out, err = run(["maxscore", "--layout", str(f)])
    assert words in one_line_error(err, code)


def test_human_with_stdin_closed_and_prompts_on_stderr(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(["game", "--players", "1", "--strategies", "human", "--seed", "1"])
    assert code == 2 and "Traceback" not in err
    assert "stdin closed" in err.splitlines()[-1]
    assert "keep" not in out  # the prompt went to stderr


def test_human_bad_keep_is_asked_again(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("11 11\n4 4 4 4 4\nall\n" * 40))
    res = Game([HumanStrategy()], phases=1, seed=2).play()
    assert res.players[0].finished or res.players[0].failed_turns >= 1


def test_broken_pipe_is_quiet(monkeypatch):
    class Closed(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", Closed())
    monkeypatch.setattr("sys.stderr", err)
    assert main(["maxscore"]) == 0
    assert err.getvalue() == ""


def test_ctrl_c_prints_interrupted(monkeypatch):
    import phase10math.cli.dice as cd

    def boom(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cd, "cmd_maxscore", boom)
    code, _out, err = run(["maxscore"])
    assert code == 130 and err.strip() == "phase10math: interrupted"


# --------------------------------------------------------------------------- cache


def test_cache_folder_unusable_still_answers_with_one_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_WARNED", set())
    monkeypatch.setattr(cache, "_DEAD", set())
    monkeypatch.delenv("PHASE10MATH_WARNED_CACHE", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(blocker))
    code, out, err = run(["check", "--phase", "1", *"8 8 8 10 W W 1 2 5 6".split()])
    assert code == 0 and "complete" in out
    key = cache.cache_key(t="unusable")
    assert cache.cached(key, lambda: 5) == 5
    assert cache.cached(key, lambda: 6) == 6  # not cached, computed again
    assert sum("warning" in ln for ln in err.splitlines()) <= 1


def test_damaged_entry_in_read_only_folder_warns_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache, "_WARNED", set())
    monkeypatch.setattr(cache, "_DEAD", set())
    monkeypatch.delenv("PHASE10MATH_WARNED_CACHE", raising=False)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    keys = [cache.cache_key(t=i) for i in range(3)]
    for k in keys:
        (tmp_path / f"{k}.pkl").write_bytes(b"damaged")
    real_unlink = os.unlink

    def refuse(*a, **kw):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr("pathlib.Path.unlink", refuse)
    monkeypatch.setattr("tempfile.mkstemp", refuse)
    assert [cache.cached(k, lambda: 7) for k in keys] == [7, 7, 7]
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and "damaged" in err
    assert real_unlink


def test_stale_temporary_files_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_SWEPT", set())
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    old, new = tmp_path / ".tmp-old.pkl", tmp_path / ".tmp-new.pkl"
    old.write_bytes(b"x")
    new.write_bytes(b"x")
    t = time.time() - cache.STALE_TMP_SECONDS - 10
    os.utime(old, (t, t))
    cache.load(cache.cache_key(t="sweep"))
    assert not old.exists() and new.exists()  # a writer may still be busy with the new one


def test_cache_off_in_any_case(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "OFF")
    assert cache.cache_dir() is None
    cache.save(cache.cache_key(t="off"), 1)
    assert not (tmp_path / "OFF").exists()


# --------------------------------------------------------------------------- wrong results


def test_advise_top_and_set_aside_rules():
    roll = "10 10 W 5 6 7 1 2 3 8"
    adv = advise(roll, 2, 1)
    with pytest.raises(InvalidRulesError):
        adv.table(top=-1)
    assert "more holds" not in adv.table(top=0)
    sticky = Rules(holds="sticky")
    with pytest.raises(InvalidHoldError, match="first roll"):
        advise(roll, 2, 1, rules=sticky, set_aside="10 10")
    code, _out, err = run(
        [
            "advise",
            "--phase",
            "1",
            "--rolls-left",
            "2",
            "--holds",
            "sticky",
            "--set-aside",
            "10 10",
            *roll.split(),
        ]
    )
    assert "first roll" in one_line_error(err, code)
    code, _out, err = run(
        [
            "advise",
            "--phase",
            "1",
            "--rolls-left",
            "1",
            "--holds",
            "sticky",
            "--set-aside",
            roll,
            *roll.split(),
        ]
    )
    assert "nothing is left to roll" in one_line_error(err, code)


def test_scores_only_rolls_the_dice_can_show_and_trials_checked():
    with pytest.raises(InvalidDiceError, match="only the 6 high"):
        score(7, ["10"] * 10)
    with pytest.raises(Phase10MathError):
        simulate_dealt(1, trials=-1)


# --------------------------------------------------------------------------- API types


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(None, 2, 1),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, rules="sticky"
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, layout=None
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, layout=SAME_LAYOUT
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, set_aside=None
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", True, 1
        ),
        lambda: (
            __import__("phase10math.turn.advisor")
            .turn.advisor.advise("1 2 3 4 5 6 7 8 9 10", 2, 1)
            .value_of(None)
        ),
        lambda: solve_turn(1, layout=list(DEFAULT_LAYOUT.dice[:3])),
        lambda: __import__("phase10math.dice.meld").dice.meld.explain(1, [Face(5, "x")] * 10),
        lambda: __import__("phase10math.dice.meld").dice.meld.explain(1, [Face(11)] * 10),
        lambda: __import__("phase10math.turn.maxima").turn.maxima.phase_maxima([0, 21]),
        lambda: solve_custom(lambda faces: None, Rules(), [HIGH]),
        lambda: Rules(rolls=True),
        lambda: __import__("phase10math.cards.dealt").cards.dealt.dealt_odds(1, hand_size=True),
        lambda: as_phase(None),
        lambda: parse_phase("1 set of 3 + " * 40),
        lambda: parse_layout(None),
    ],
)
def test_api_raises_only_package_errors(call):
    with pytest.raises(Phase10MathError):
        call()


def test_solve_turn_accepts_ten_dice_as_a_list():
    assert solve_turn(4, layout=list(DEFAULT_LAYOUT.dice)).value() == solve_turn(4).value()


def test_phase_messages():
    with pytest.raises(InvalidPhaseError, match="phase -1 does not exist"):
        as_phase("-1")
    with pytest.raises(InvalidLayoutError, match="mixes high numbers"):
        parse_layout("5r 6o 7b 8g 9r Wo")
    assert parse_faces("10o W")[0] == Face(10, "o")


def test_help_without_sub_command_goes_to_stderr():
    for argv in (["cards"], ["tenk"]):
        code, out, err = run(argv)
        assert code == 2 and out == "" and "usage" in err
