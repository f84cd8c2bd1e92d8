"""The command line starts at once: ``--help``, ``--version``, every sub-command's ``--help``
and the refusals of bad input answer before the heavy modules are imported (numpy, numba,
scipy, beartype, the solvers). Read from ``sys.modules`` of a fresh interpreter after the
command ran; no timing here (``benchmarks/bench_cli_start.py`` times it)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: imported by no answer below: third-party modules and the kit's solvers
HEAVY = (
    "numpy",
    "numba",
    "scipy",
    "beartype",
    "tqdm",
    "dask",
    "distributed",
    "phase10math.turn.engine",
    "phase10math.turn.tensor",
    "phase10math.turn.tables",
    "phase10math.turn.advisor",
    "phase10math.dice.meld",
    "phase10math.game.duel",
    "phase10math.game.strategies",
    "phase10math.cards.dealt",
    "phase10math.cards.phases",
    "phase10math.tenthousand.duel",
    "phase10math.tenthousand.turn",
)

RUN = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from phase10math.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(sys.argv[1:])
    print(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue(),
                      "modules": sorted(sys.modules)}))
    """
)


def run_fresh(*argv: str) -> dict:
    """Run the command line in a fresh interpreter (this checkout's package): exit code,
    output and the modules it imported."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def heavy_in(modules: list[str]) -> list[str]:
    """The modules of ``modules`` that are (or lie inside) one of :data:`HEAVY`."""
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


HELP = [
    ["--help"],
    ["--version"],
    *(
        [command, "--help"]
        for command in (
            "check",
            "maxscore",
            "layout",
            "table",
            "advise",
            "game",
            "solitaire",
            "turns",
            "headtohead",
            "duel",
            "cards",
            "tenk",
            "handouts",
        )
    ),
    ["cards", "dealt", "--help"],
    ["tenk", "duel", "--help"],
]

DICE = "1 2 3 4 5 6 7 8 9 10"
REFUSED = {  # the words of each command line (quoted words as one, with ' ')
    "no command": "",
    "unknown command": "chekc",
    "bad phase": f"check --phase 99 {DICE}",
    "bad phase phrase": "advise --phase '3 sets of' --rolls-left 2 1",
    "too few dice": "check --phase 1 1 2 3",
    "a face that is no face": "check --phase 1 1 2 3 4 5 6 7 8 9 q",
    "too many low dice": "check --phase 1 1 1 1 1 1 1 1 1 1 1",
    "a color phase without colors": f"advise --phase 8 --rolls-left 2 {DICE}",
    "rolls left out of range": "advise --phase 1 --rolls-left 9 1",
    "bad --die": f"advise --phase 1 --rolls-left 2 --die 1=99 {DICE}",
    "unknown layout": "check --phase 1 --layout nosuch 1",
    "unknown strategy": "game --strategies foo",
    "strategies for the wrong number of players": "game --players 3 --strategies a,b",
    "table of phase 30": "table --phases 30",
    "a duel state without the opponent": "duel --me 3:10",
    "a bad player in a duel": "duel --me x --opponent 1:0",
    "win advice without the players": "advise --phase 1 --rolls-left 2 --objective win 1",
    "bad 10,000 option": "tenk duel --preset nosuch",
}


@pytest.mark.parametrize("argv", HELP, ids=" ".join)
def test_help_and_version_import_nothing_heavy(argv):
    got = run_fresh(*argv)
    assert got["code"] == 0, got["err"]
    assert got["out"].strip()
    assert heavy_in(got["modules"]) == []


@pytest.mark.parametrize("line", REFUSED.values(), ids=REFUSED.keys())
def test_refused_input_imports_nothing_heavy(line):
    got = run_fresh(*shlex.split(line))
    assert got["code"] == 2, got
    assert got["err"].startswith(("phase10math: error", "phase10math ", "usage:")), got["err"]
    assert heavy_in(got["modules"]) == []


def test_the_package_imports_its_public_names_on_first_use():
    """``import phase10math`` is light; a public name imports its module when first used."""
    got = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, json, phase10math as p10; light = sorted(sys.modules); "
            "p10.solve_turn; print(json.dumps([light, sorted(sys.modules), p10.__version__]))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    light, later, version = json.loads(got.stdout)
    assert heavy_in(light) == []
    assert "phase10math.turn.solver" in later and "numpy" in later
    assert version


def test_the_parser_default_of_picks_is_the_solver_s():
    from phase10math.cli.duel import ROUND_PICKS as shown
    from phase10math.game.duel import ROUND_PICKS

    assert shown == ROUND_PICKS
