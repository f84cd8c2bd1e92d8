"""Property-based tests (hypothesis): every sub-command driven in-process with arguments drawn
from a grammar of valid and invalid words exits 0 or 2, never with a traceback; with --json
stdout is strict JSON; no file is left behind. The public API lets only the package's own
errors escape. Kept to seconds: small phases, small counts; commands that would start a long
solve (turns, solitaire, full games) always get at least one bad word."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math

import census
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from phase10math.cli import build_parser, main  # noqa: E402
from phase10math.dice import meld, phases  # noqa: E402
from phase10math.dice.faces import parse_faces, parse_layout  # noqa: E402
from phase10math.dice.rules import Rules  # noqa: E402
from phase10math.errors import Phase10MathError  # noqa: E402
from phase10math.turn import advisor, solver  # noqa: E402
from phase10math.turn import maxima as maxscore  # noqa: E402

FAST = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

BAD_NUMBERS = ["-1", "-5", "²", "٣", "1e3", "True", "", "x", "9" * 60, "99999999999", "1.5"]
DICE = ["10o", "W", "Wg", "7", "5r", "1", "2", "3", "4", "8", "11", "x", "0", "10x", "²"]
PHASES = [
    "1",
    "2",
    "0",
    "21",
    "-1",
    "²",
    "2 sets of ²",
    "2 sets of 3",
    "10 sets of 1",
    "run of 4 + 4 of one color",
    "1" * 300,
    "",
    "9 of one color",
]


@pytest.fixture
def layout_files(tmp_path):
    files = {
        "good": "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo",
        "binary": b"\x00\xff\x00",
        "utf16": "6 x 5r 6o 7b 8g 9r 10o".encode("utf-16"),
        "latin1": "caf\xe9".encode("latin-1"),
        "huge": "99999999999999999999 x 5r 6o 7b 8g 9r 10o",
        "whigh": "10 x 5r 6o 7b 8g 9r Wo",
    }
    out = {}
    for name, text in files.items():
        p = tmp_path / f"{name}.txt"
        p.write_bytes(text if isinstance(text, bytes) else text.encode())
        out[name] = str(p)
    out["missing"] = str(tmp_path / "missing.txt")
    out["dir"] = str(tmp_path)
    return out


def _strict(text: str):
    def bad(c):
        raise ValueError(f"not strict JSON: {c}")

    return json.loads(text, parse_constant=bad)


def run_checked(argv: list[str], tmp_path) -> int:
    before = sorted(p.name for p in tmp_path.iterdir())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    e = err.getvalue()
    assert code in (0, 2), (argv, code, e)
    assert "Traceback" not in e and "internal error" not in e, (argv, e)
    if code == 2:
        assert e.strip(), argv
    if code == 0 and "--json" in argv:
        _strict(out.getvalue())
    assert sorted(p.name for p in tmp_path.iterdir()) == before, argv
    return code


def opt(name, values):
    return st.one_of(st.just([]), st.sampled_from(values).map(lambda v: [name, v]))


def layout_opt(files):
    return st.one_of(
        st.just([]), st.sampled_from(sorted(files)).map(lambda k: ["--layout", files[k]])
    )


def argv_for(files):
    json_flag = st.sampled_from([[], ["--json"]])
    dice = st.lists(st.sampled_from(DICE), min_size=0, max_size=12)
    check = st.tuples(
        st.just(["check"]), opt("--phase", PHASES), dice, json_flag, layout_opt(files)
    )
    advise = st.tuples(
        st.just(["advise"]),
        opt("--phase", ["1", "2", "0", "x"]),
        opt("--rolls-left", ["1", "2", "3", "0"] + BAD_NUMBERS),
        opt("--top", ["0", "3"] + BAD_NUMBERS),
        opt("--set-aside", ["10 10", "", "x", "10 10 10 10 10 10 10 10 10 10"]),
        opt("--holds", ["free", "x"]),
        dice,
        json_flag,
    )
    table = st.tuples(
        st.just(["table"]),
        opt("--phases", ["1", "2", "1-2", "3-1", "0", "21", "x", "9" * 50]),
        json_flag,
        layout_opt(files),
    )
    maxscore = st.tuples(
        st.just(["maxscore"]), opt("--phases", ["1-10", "x"]), json_flag, layout_opt(files)
    )
    game = st.tuples(  # random players only (no solve); always at least one bad word
        st.just(["game"]),
        opt("--players", ["1", "2", "9"] + BAD_NUMBERS),
        st.sampled_from([["--strategies", "random"], ["--strategies", "xx"], []]),
        st.sampled_from([["--seed", v] for v in BAD_NUMBERS]),
        json_flag,
    )
    turns = st.tuples(
        st.just(["turns"]),
        st.sampled_from([["--max-turns", v] for v in BAD_NUMBERS + ["0", "10001"]]),
        json_flag,
    )
    solitaire = st.tuples(
        st.just(["solitaire"]),
        st.sampled_from([["--simulate", v] for v in BAD_NUMBERS + ["1"]]),
        json_flag,
    )
    h2h = st.tuples(
        st.just(["headtohead"]),
        st.sampled_from([["--strategies", "random,random"], ["--strategies", "human,random"]]),
        st.sampled_from([["--games", v] for v in ["0"] + BAD_NUMBERS]),  # random games are slow
        opt("--phases", ["10", "x"]),
        st.just(["--seed", "1"]),
        json_flag,
    )
    cards = st.tuples(
        st.just(["cards"]),
        st.sampled_from(
            [
                ["dealt", "--hand-size", "0"],
                ["dealt", "--phase", "1"],
                ["dealt", "--phase", "x"],
                ["draws", "--trials", "5", "--draws", "3"],
                ["draws", "--trials", "-1"],
                ["draws", "--draws", "999"],
                ["game", "--players", "2", "--seed", "1", "--summary"],
                ["game", "--players", "9"],
                [],
            ]
        ),
        json_flag,
    )
    tenk = st.tuples(
        st.just(["tenk"]),
        st.sampled_from(
            [
                ["ev", "--dice", "3", "--turn-total", "300"],
                ["ev", "--three-pairs", "5000000"],
                ["ev", "--dice", "0"],
                ["thresholds", "--straight", "120"],
                ["duel", "--target", "150"],
                ["duel", "--target", "99999999"],
                [],
            ]
        ),
        opt("--open", ["500", "-1", "99999999"]),
        json_flag,
    )
    cmd = st.one_of(check, advise, table, maxscore, game, turns, solitaire, h2h, cards, tenk)
    return cmd.map(lambda parts: [w for part in parts for w in part])


@FAST
@given(data=st.data())
def test_every_command_exits_0_or_2_without_traceback(data, layout_files, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    argv = data.draw(argv_for(layout_files))
    code = run_checked(argv, tmp_path)
    if any(w in argv for w in ("9" * 60, "99999999999", "²", "-5")):
        assert code == 2, argv


# --------------------------------------------------------------------------- every option

#: The options the grammar of :func:`argv_for` draws, per command.
GRAMMAR = {
    "check": {"--phase", "--json", "--layout"},
    "advise": {"--phase", "--rolls-left", "--top", "--set-aside", "--holds", "--json"},
    "table": {"--phases", "--json", "--layout"},
    "maxscore": {"--phases", "--json", "--layout"},
    "game": {"--players", "--strategies", "--seed", "--json"},
    "turns": {"--max-turns", "--json"},
    "solitaire": {"--simulate", "--json"},
    "headtohead": {"--strategies", "--games", "--phases", "--seed", "--json"},
    "cards dealt": {"--hand-size", "--phase", "--json"},
    "cards draws": {"--trials", "--draws", "--json"},
    "cards game": {"--players", "--seed", "--summary", "--json"},
    "tenk ev": {"--dice", "--turn-total", "--three-pairs", "--open", "--json"},
    "tenk thresholds": {"--straight", "--open", "--json"},
    "tenk duel": {"--target", "--open", "--json"},
}

SHARED = ["--no-shared-sets", None]
TENK_RULES = {
    "--open": ["500", "-1"],
    "--straight": ["0", "3000", "120"],
    "--three-pairs": ["1500", "-1"],
    "--extra-of-a-kind": ["add", "x"],
    "--wipe": [None],
    "--no-wipe": [None],
    "--six-wins": [None],
    "--no-six-wins": [None],
}

#: The other options, per command, with words to give them (None: a flag), and the words one
#: of which every draw of that command gets (a refusal, so that no long work starts), or
#: None where any draw is quick.
OPTIONS: dict[str, tuple[dict[str, list[str | None]], list[list[str]] | None]] = {
    "": ({"--version": [None]}, None),
    "check": (
        {
            "--phase": ["1", "2 sets of 3", "x"],
            "--json": [None],
            "--layout": ["compact", "x"],
            "--no-shared-sets": [None],
        },
        [["--phase", "x"], ["--phase", "0"]],
    ),
    "maxscore": (
        {
            "--phases": ["1-10", "x"],
            "--json": [None],
            "--layout": ["compact", "x"],
            "--no-shared-sets": [None],
        },
        [["--phases", "x"]],
    ),
    "layout": (
        {
            "--json": [None],
            "--layout": ["compact", "", "x", "recorded"],
            "--no-shared-sets": [None],
        },
        None,
    ),
    "table": (
        {
            "--phases": ["1", "3-1", "x"],
            "--json": [None],
            "--layout": ["compact", "x"],
            "--holds": ["free", "sticky", "x"],
            "--progress": [None],
            "--exact": [None],
            "--solve": [None],
            "--no-shared-sets": [None],
        },
        [["--phases", "x"], ["--phases", "0"], ["--layout", ""]],
    ),
    "advise": (
        {
            "--phase": ["1", "x"],
            "--rolls-left": ["2", "0", "x"],
            "--top": ["3", "-1"],
            "--set-aside": ["10 10", "x"],
            "--holds": ["free", "x"],
            "--json": [None],
            "--objective": ["complete", "score", "win", "x"],
            "--me": ["9:0", "9:x", "11:0"],
            "--opponent": ["9:0", "10:40", "3:0"],
            "--second": [None],
            "--last-chance": [None],
            "--table": ["missing.npz", ""],
            "--keep": ["10 10", "x", "10 10 10 10 10 10 10 10 10 10 10"],
            "--by-die": [None],
            "--die": ["1=4", "1=99", "x"],
            "--layout": ["compact", "", "x"],
            "--no-shared-sets": [None],
        },
        [["--rolls-left", "9"], ["--phase", "x"], ["--layout", ""]],
    ),
    "game": (
        {
            "--players": ["1", "9", "x"],
            "--strategies": ["random", "xx"],
            "--seed": ["1", "-1"],
            "--json": [None],
            "--phases": ["10", "20", "x"],
            "--start-phase": ["9", "0", "21"],
            "--holds": ["free", "x"],
            "--log": [None],
            "--layout": ["compact", ""],
            "--no-shared-sets": [None],
        },
        [["--seed", "-1"], ["--players", "9"]],
    ),
    "solitaire": (
        {
            "--simulate": ["1", "-5"],
            "--json": [None],
            "--seed": ["1", "-1"],
            "--layout": ["compact", ""],
            "--no-shared-sets": [None],
        },
        [["--simulate", "1"], ["--simulate", "-5"]],
    ),
    "turns": (
        {
            "--max-turns": ["0", "x"],
            "--json": [None],
            "--strategy": ["greedy", "x"],
            "--phases": ["10", "x"],
            "--layout": ["compact", ""],
            "--no-shared-sets": [None],
        },
        [["--max-turns", "0"], ["--max-turns", "x"]],
    ),
    "headtohead": (
        {
            "--strategies": ["random,random", "human,random"],
            "--games": ["0", "-5"],
            "--phases": ["10", "x"],
            "--seed": ["1"],
            "--json": [None],
            "--start-phase": ["9", "0", "x"],
            "--layout": ["compact", ""],
            "--no-shared-sets": [None],
        },
        [["--games", "0"], ["--games", "-5"]],
    ),
    "duel": (
        {
            "--solve": [None],
            "--phases": ["9-10", "1-10", "11-12", "x"],
            "--checkpoint": ["/nonexistent/c", "c.npz"],
            "--write": ["/nonexistent/t.npz", "t.npz"],
            "--target": ["1e-3", "nan", "-1"],
            "--picks": ["3", "x"],
            "--layout": ["compact", "recorded", ""],
            "--family-from": ["missing"],
            "--family-phases": ["9-10", "x"],
            "--scheduler": ["tcp://127.0.0.1:8786", "http://x", ""],
            "--local-cluster": ["2", "0", "x"],
            "--pairs-per-task": ["100", "0"],
            "--table": ["missing.npz"],
            "--me": ["9:250", "x", "11:0"],
            "--opponent": ["9:235", "3:0"],
            "--second": [None],
            "--json": [None],
        },
        [["--phases", "x"], ["--me", "x", "--opponent", "9:0"], ["--target", "nan"]],
    ),
    "cards dealt": (
        {"--hand-size": ["0", "3"], "--phase": ["1", "x"], "--json": [None]},
        [["--hand-size", "0"], ["--phase", "x"]],
    ),
    "cards draws": (
        {
            "--trials": ["5", "-1"],
            "--draws": ["3", "999"],
            "--json": [None],
            "--phase": ["1", "x"],
            "--policy": ["greedy", "outs", "x"],
            "--seed": ["1", "-1"],
        },
        [["--trials", "-1"], ["--draws", "999"]],
    ),
    "cards game": (
        {"--players": ["2", "9"], "--seed": ["1"], "--summary": [None], "--json": [None]},
        [["--players", "9"]],
    ),
    "tenk ev": (
        {
            "--dice": ["3", "0"],
            "--turn-total": ["300", "-1"],
            "--json": [None],
            "--off-board": [None],
            "--exact": [None],
            **TENK_RULES,
        },
        None,
    ),
    "tenk thresholds": (
        {"--json": [None], "--exact": [None], **TENK_RULES, "--three-pairs": ["1500", "5000000"]},
        None,
    ),
    "tenk duel": (
        {
            "--target": ["150", "99999999"],
            "--json": [None],
            "--no-progress": [None],
            "--method": ["layered", "jacobi", "x"],
            "--preset": ["default", "facebook", "x"],
            "--checkpoint": ["/nonexistent/c.npz", "c.npz"],
            "--floor": ["-200", "-75"],
            "--three-pairs": ["1500", "-1"],
            **TENK_RULES,
        },
        [["--target", "99999999"], ["--target", "x"]],
    ),
    "tenk advise": (
        {
            "--me": ["100", "10000", "-50"],
            "--opponent": ["0", "5000"],
            "--turn-total": ["0", "75", "200"],
            "--dice": ["6", "3", "0"],
            "--roll": ["1,5,5", "1,2,x", "1,1,5,2,3,4"],
            "--json": [None],
            "--no-progress": [None],
            "--target": ["300", "0"],
            "--open": ["500", "-1"],
            **TENK_RULES,
        },
        [["--me", "10000"], ["--dice", "0"], ["--target", "0"]],
    ),
    "handouts": (
        {
            "--out": ["/nonexistent/out"],
            "--no-pdf": [None],
            "--paper": ["a4", "letter", "x"],
            "--only": ["x"],
            "--notebooks": ["missing"],
            "--chromium": ["/nonexistent/chromium"],
        },
        [["--paper", "x"], ["--out", "/nonexistent/out", "--only", "x"]],
    ),
    "card": (
        {
            "--out": ["/nonexistent/out"],
            "--json": [None],
            "--layout": ["recorded", "compact", "x"],
            "--no-pdf": [None],
            "--paper": ["a4", "letter", "x"],
        },
        [["--paper", "x"], ["--layout", "x"]],
    ),
}


def option_argv(command: str):
    """A draw of ``command`` with some of its :data:`OPTIONS` (and one refused word where
    any draw could start long work)."""
    options, refused = OPTIONS[command]

    def words(name: str):
        return st.sampled_from(options[name]).map(lambda v: [name] if v is None else [name, v])

    chosen = st.lists(st.sampled_from(sorted(options)), unique=True, max_size=5)
    parts = chosen.flatmap(lambda names: st.tuples(*[words(n) for n in names]))
    bad = st.just([]) if refused is None else st.sampled_from(refused)
    return st.tuples(st.just(command.split()), parts, bad).map(
        lambda t: [*t[0], *(w for part in t[1] for w in part), *t[2]]
    )


def parser_options() -> dict[str, set[str]]:
    """Every option of every command of the command line (``""``: the top level)."""
    out: dict[str, set[str]] = {}

    def walk(parser, prefix):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*prefix, name])
            elif action.option_strings and action.dest != "help":
                out.setdefault(" ".join(prefix), set()).update(action.option_strings)

    walk(build_parser(), [])
    return out


def test_the_fuzz_draws_every_option_of_every_command():
    drawn: dict[str, set[str]] = {}
    for command, names in GRAMMAR.items():
        drawn.setdefault(command, set()).update(names)
    for command, (options, _) in OPTIONS.items():
        drawn.setdefault(command, set()).update(options)
    missing = {c: sorted(o - drawn.get(c, set())) for c, o in parser_options().items()}
    assert {c: o for c, o in missing.items() if o} == {}


@FAST
@given(data=st.data())
def test_every_option_exits_0_or_2_without_traceback(data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("PHASE10MATH_SAVE_DIR", str(tmp_path / "saved"))
    command = data.draw(st.sampled_from(sorted(OPTIONS)))
    argv = data.draw(option_argv(command))
    run_checked(argv, tmp_path)


# --------------------------------------------------------------------------- each option alone

#: A refused word for the commands whose random draws need none (their draws are quick, but
#: each option with each of its words, below, would add up): the option is still read first.
ALONE_REFUSED = {
    "tenk ev": ["--dice", "0"],
    "tenk thresholds": ["--straight", "120"],
    "layout": ["--layout", ""],
}


def option_cases() -> list[tuple[str, str, list[str]]]:
    """Every option of every command of :data:`OPTIONS` with each of its words, alone with
    the command's first refused word (where a draw could start long work): ``(command,
    option, argv)``."""
    out = []
    for command, (options, refused) in OPTIONS.items():
        bad = refused[0] if refused else ALONE_REFUSED.get(command, [])
        for name, words in options.items():
            for word in words:
                argv = [*command.split(), name, *([] if word is None else [word]), *bad]
                out.append((command, name, argv))
    return out


OPTION_CASES = option_cases()


@pytest.mark.parametrize(
    "command, option, argv", OPTION_CASES, ids=[" ".join(a) or "-" for _, _, a in OPTION_CASES]
)
def test_each_option_with_each_word_exits_0_or_2_without_traceback(
    command, option, argv, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setenv("PHASE10MATH_SAVE_DIR", str(tmp_path / "saved"))
    run_checked(argv, tmp_path)


def test_fuzz_census_every_option_of_every_command_is_a_case(record_property):
    """Counts: the cases of the test above against the options of the command line, read
    from its parser (every option of every command and sub-command)."""
    members = {(c, o) for c, options in parser_options().items() for o in options}
    covered = {(c, o) for c, o, _ in OPTION_CASES}
    assert sorted(members - covered) == []
    census.record(
        record_property,
        "command-line options (tests/cli/test_fuzz.py)",
        len(OPTION_CASES),
        len(members),
        f"every option of the {len(parser_options())} commands and sub-commands of the "
        "parser, each with every word of it",
    )


def test_the_census_can_fail():
    """A category with fewer cases than members fails; cases are read from the marks."""
    with pytest.raises(AssertionError):
        census.record(lambda *a: None, "x", 2, 3, "three members")

    @pytest.mark.parametrize("b", [1, 2, 3])
    @pytest.mark.parametrize("a", ["x", "y"])
    def marked(a, b):
        pass

    assert len(census.parametrized_cases(marked)) == 6


# --------------------------------------------------------------------------- the API

JUNK = [None, True, -1, 0, 2, 10**50, "x", "sticky", "10 10", 1.5, [], [None], {"a": 1}, b"1"]


def _api_calls():
    roll = "10 10 W 5 6 7 1 2 3 8"
    return [
        lambda a: advisor.advise(a, 2, 1),
        lambda a: advisor.advise(roll, a, 1),
        lambda a: advisor.advise(roll, 2, a),
        lambda a: advisor.advise(roll, 2, 1, objective=a),
        lambda a: advisor.advise(roll, 2, 1, rules=a),
        lambda a: advisor.advise(roll, 2, 1, layout=a),
        lambda a: advisor.advise(roll, 2, 1, set_aside=a),
        lambda a: advisor.advise(roll, 2, 1).value_of(a),
        lambda a: advisor.advise(roll, 2, 1).table(top=a),
        lambda a: meld.explain(1, a),
        lambda a: meld.explain(a, roll),
        lambda a: meld.score(1, roll, rules=a),
        lambda a: maxscore.phase_maxima([a]),
        lambda a: phases.as_phase(a),
        lambda a: phases.parse_phase(a),
        lambda a: parse_faces(a),
        lambda a: parse_layout(a),
        lambda a: Rules(rolls=a),
        lambda a: Rules(holds=a),
        lambda a: solver.solve_turn(1, layout=a),
        lambda a: solver.solve_turn(1, objective=a),
    ]


@settings(max_examples=120, deadline=None)
@given(i=st.integers(0, 20), junk=st.sampled_from(JUNK))
def test_api_lets_only_package_errors_escape(i, junk):
    calls = _api_calls()
    try:
        calls[i % len(calls)](junk)
    except Phase10MathError:
        pass


def test_json_strict_helper_can_fail():
    with pytest.raises(ValueError):
        _strict('{"x": NaN}')
    assert math.isfinite(_strict('{"x": 1.5}')["x"])
