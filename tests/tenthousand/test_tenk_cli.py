"""The ``phase10math tenk`` command line."""

import json
from fractions import Fraction

import pytest

from phase10math.cli import main
from phase10math.tenthousand import TenKRules, solve_turn


def run(capsys, *argv):
    code = main(["tenk", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ev_json_matches_solver(capsys):
    code, out, _ = run(capsys, "ev", "--dice", "3", "--turn-total", "350", "--json")
    assert code == 0
    d = json.loads(out)
    assert Fraction(d["value"]["fraction"]) == solve_turn(TenKRules()).value(350, 3)
    assert d["action"] == "roll" and d["bank_value"] == 350


def test_ev_text_and_bank(capsys):
    code, out, _ = run(capsys, "ev", "--dice", "1", "--turn-total", "1000", "--no-wipe")
    assert code == 0 and "best action: bank" in out and "(" in out


def test_ev_off_board_with_open(capsys):
    code, out, _ = run(
        capsys, "ev", "--turn-total", "450", "--dice", "1", "--open", "--off-board", "--json"
    )
    d = json.loads(out)
    assert d["bank_value"] == 0 and d["action"] == "roll" and d["rules"]["open_score"] == 500


def test_thresholds(capsys):
    code, out, _ = run(capsys, "thresholds", "--json", "--open", "600")
    d = json.loads(out)
    assert code == 0 and set(d) == {"on_board", "off_board", "rules"}
    th = solve_turn(TenKRules()).thresholds()
    assert {int(k): v for k, v in d["on_board"]["thresholds"].items()} == th
    assert all(v >= 600 for v in d["off_board"]["thresholds"].values())
    code, out, _ = run(capsys, "thresholds", "--extra-of-a-kind", "add")
    assert code == 0 and "6 dice" in out


def test_duel_small(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    code, out, _ = run(capsys, "duel", "--target", "300", "--json")
    d = json.loads(out)
    assert code == 0 and 0.5 < d["first_player_wins"] < 1 and d["last_change"] < 1e-9
    code, out, _ = run(capsys, "duel", "--target", "300", "--no-progress")
    assert "P(first player wins)" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["ev", "--dice", "7"], "--dice: 7 is out of range; allowed 1..6"),
        (["ev", "--turn-total", "75"], "turn_total=75"),
        (["ev", "--straight", "120"], "straight=120"),
        (["duel", "--target", "0"], "--target: 0 is out of range; allowed 100..20000"),
        (["thresholds", "--open", "499"], "open_score=499"),
    ],
)
def test_bad_input_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err


def test_tenk_alone_prints_help(capsys):
    assert main(["tenk"]) == 2


def test_duel_prints_proven_interval(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    code, out, _ = run(capsys, "duel", "--target", "400", "--json")
    d = json.loads(out)
    lo, hi = d["proven_interval"]
    assert code == 0 and lo <= d["first_player_wins"] <= hi and hi - lo < 1e-9
    code, out, _ = run(capsys, "duel", "--target", "400", "--no-progress", "--method", "jacobi")
    assert code == 0 and "not a proof" in out


def test_advise_matches_the_solution(capsys, tmp_path, monkeypatch):
    from phase10math.tenthousand.duel import solve_duel

    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    rules = TenKRules(target=600)
    sol = solve_duel(rules, progress=False)
    args = ["advise", "--target", "600", "--me", "100", "--opponent", "350"]
    code, out, _ = run(capsys, *args, "--turn-total", "200", "--dice", "3", "--json")
    d = json.loads(out)
    assert code == 0
    assert d["bank"] == pytest.approx(sol.bank_value(100, 350, 200), abs=1e-12)
    assert d["roll"] == pytest.approx(sol.roll_value(100, 350, 200, 3), abs=1e-12)
    assert d["best"] == ("roll" if sol.should_roll(100, 350, 200, 3) else "bank")
    code, out, _ = run(capsys, *args, "--turn-total", "50", "--dice", "4", "--roll", "1,5,5,3")
    assert code == 0 and "best: keep" in out
    code, out, _ = run(
        capsys, *args, "--turn-total", "50", "--dice", "4", "--roll", "1553", "--json"
    )
    keep = json.loads(out)["keep"]
    assert {tuple(k["kept"]) for k in keep} == {(1,), (5,), (1, 5), (5, 5), (1, 5, 5)}
    for k in keep:
        want = sol.win_probability(100, 350, 50 + k["points"], k["dice_next"])
        assert k["win"] == pytest.approx(want, abs=1e-12)
    assert keep[0]["win"] == max(k["win"] for k in keep)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["advise", "--target", "300", "--roll", "1,2"], "--roll has 2 dice"),
        (["advise", "--target", "300", "--roll", "1,2,x,4,5,6"], "--roll"),
        (["advise", "--target", "300", "--me", "300"], "below the target"),
        (["advise", "--target", "300", "--turn-total", "75", "--dice", "2"], "multiple of 50"),
        (["advise", "--me", "-50"], "--me: -50 is out of range"),
    ],
)
def test_advise_bad_input_exit_2(capsys, tmp_path, monkeypatch, argv, words):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_duel_facebook_preset(capsys, tmp_path, monkeypatch):
    from phase10math.tenthousand.penalty import solve_penalty

    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    argv = ["duel", "--preset", "facebook", "--target", "400", "--floor", "-200"]
    code, out, _ = run(capsys, *argv, "--json")
    d = json.loads(out)
    want = solve_penalty(TenKRules.preset("facebook", target=400, floor=-200))
    lo, hi = d["proven_interval"]
    assert code == 0 and d["floor"] == -200 and d["rules"]["farkle_penalty"] == 500
    assert lo <= d["first_player_wins"] <= hi and hi - lo < 1e-9
    assert d["first_player_wins"] == pytest.approx(want.value, abs=1e-12)
    code, out, _ = run(capsys, *argv, "--no-progress")
    assert code == 0 and "floored at -200" in out and "proven:" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["duel", "--floor", "-500"], "without a farkle penalty"),
        (["duel", "--preset", "facebook", "--floor", "-75"], "floor=-75"),
        (["duel", "--preset", "facebook", "--floor", "-20050"], "allowed -20000..0"),
        (["duel", "--preset", "facebook", "--wipe"], "wipe=False"),
        (["duel", "--preset", "facebook", "--method", "jacobi"], "allowed: layered"),
        (["duel", "--checkpoint", "duel.ckpt"], "--checkpoint without a farkle penalty"),
        (["duel", "--preset", "facebook", "--checkpoint", "/no/such/dir/c"], "nothing can be"),
    ],
)
def test_facebook_bad_input_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and err.count("\n") == 1


def test_duel_facebook_checkpoint_goes_on_from_its_file(capsys, tmp_path, monkeypatch):
    """With --checkpoint the run keeps its table in the file; the same command run again
    reads it (no sweep left to do) and prints the same proven interval; a file that is not
    a checkpoint is refused in one line (exit 2)."""
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path / "cache"))
    ck = tmp_path / "duel.ckpt"
    argv = ["duel", "--preset", "facebook", "--target", "400", "--floor", "-200", "--json"]
    code, out, _ = run(capsys, *argv, "--checkpoint", str(ck))
    first = json.loads(out)
    assert code == 0 and ck.is_file()
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path / "cache2"))  # no cached answer
    code, out, _ = run(capsys, *argv, "--checkpoint", str(ck))
    again = json.loads(out)
    assert code == 0 and again["proven_interval"] == first["proven_interval"]
    assert again["sweeps"] == first["sweeps"]
    bad = tmp_path / "bad.ckpt"
    bad.write_text("not a checkpoint")
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path / "cache3"))
    code, _, err = run(capsys, *argv, "--checkpoint", str(bad))
    assert code == 2 and "not a tenk-penalty-checkpoint" in err and err.count("\n") == 1


def never_solve(*args, **kwargs):
    raise AssertionError("solved before the request was checked")


@pytest.mark.parametrize(
    "argv, words",
    [
        (["advise", "--me", "10000", "--opponent", "0"], "below the target 10000"),
        (["advise", "--me", "100", "--opponent", "10000"], "below the target 10000"),
        (["advise", "--me", "5000", "--target", "5000"], "below the target 5000"),
        (["advise", "--turn-total", "0", "--dice", "3"], "a turn starts with all 6 dice"),
        (["advise", "--turn-total", "100", "--dice", "2", "--roll", "2,2"], None),
    ],
)
def test_advise_refuses_a_state_before_solving(capsys, monkeypatch, argv, words):
    monkeypatch.setattr("phase10math.tenthousand.duel.solve_duel", never_solve)
    code, out, err = run(capsys, *argv)
    if words is None:  # a valid request: it reaches the solve
        assert code == 1 and "solved before the request was checked" in err
    else:
        assert code == 2 and words in err and out == "", err


def test_ev_shows_no_wall_of_digits_unless_asked(capsys):
    code, out, _ = run(capsys, "ev")
    assert code == 0 and max(len(line) for line in out.splitlines()) < 120, out
    assert "--exact shows it" in out
    want = solve_turn(TenKRules()).value(0, 6)
    code, out, _ = run(capsys, "ev", "--exact")
    assert code == 0 and str(want) in out
    code, out, _ = run(capsys, "thresholds")
    assert code == 0 and max(len(line) for line in out.splitlines()) < 120, out


def test_the_duel_commands_say_their_target_first(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr("phase10math.tenthousand.cli.DUEL_TARGET", 300)
    code, out, _ = run(capsys, "advise", "--no-progress")
    first = out.splitlines()[0]
    assert code == 0 and "to 300 points (the default; --target sets another)" in first, first
    code, out, _ = run(capsys, "advise", "--no-progress", "--target", "400")
    first = out.splitlines()[0]
    assert code == 0 and "to 400 points:" in first, first


#: The game's name: the target the two-player commands play to unless told otherwise.
GAME_NAME_TARGET = 10_000


class Solved(Exception):
    """Raised by the stand-in solve, with the rules it was asked to solve."""


@pytest.mark.parametrize(
    "argv",
    [["duel"], ["duel", "--json"], ["advise"], ["advise", "--me", "9950", "--json"]],
)
def test_the_duel_commands_play_to_the_10000_of_the_games_name(capsys, monkeypatch, argv):
    """Without --target the solve asked for is the game to 10,000 (the solve itself is
    replaced: the first one takes minutes)."""
    asked = []

    def solve(rules, *args, **kwargs):
        asked.append(rules)
        raise Solved(rules)

    monkeypatch.setattr("phase10math.tenthousand.duel.solve_duel", solve)
    monkeypatch.setenv("PHASE10MATH_DEBUG", "1")  # the stand-in's exception escapes
    with pytest.raises(Solved):
        run(capsys, *argv, "--no-progress")
    (rules,) = asked
    assert rules.target == GAME_NAME_TARGET and rules == TenKRules()


@pytest.mark.parametrize("command", ["duel", "advise"])
def test_the_help_says_the_default_target_and_its_cost(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "points to win (default 10000, the game's name;" in text, text
    assert "about 2 minutes for 10000" in text, text
