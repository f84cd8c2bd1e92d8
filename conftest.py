"""How the test run is shared between two pytest-xdist workers (README's test command,
``python -m pytest --nbval -n 2 --dist loadfile``; pytest-xdist is in the ``test`` extra;
``-n 0`` runs everything in one process): every file (a notebook with all its cells, in order,
in one kernel) is one unit of work for one worker, and the tests that solve color phases on
the ten different recorded dice and simulate their best holds (notebook 3b: phase 8, whose
best holds of 60 million rolls take a minute or more and up to 2 GB; then the simulated whole
games of notebook 5 and the tests that read the same solve from the result cache) are one
unit, run one after the other in one worker, so that the solve is done once and never twice
at the same time. That
unit is the longest: it is handed out first, then the other long units (``LONG_UNITS``), then
the rest in the order of the collection.

Memory the test processes free stays with them for their next arrays (``held_heap`` in each
worker, the same glibc settings for the processes they start: notebook kernels, the command
line, the app's server): on a virtual machine that hands freed memory back to its host, every
gigabyte touched again costs seconds in the kernel, and the tests allocate and free gigabytes
again and again (``tests/turn`` took 405 s on the 2-core machine, 284 s holding the heap).
The tests check results only; ``held_heap`` itself is tested in a fresh process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from phase10math.turn.tensor import held_heap
from phase10math.turn.tensor.memory import HELD_TUNABLES

ROOT = Path(__file__).parent

# the processes the tests start keep the memory they free, as the workers do (the process's
# own setting if it has one)
os.environ.setdefault("GLIBC_TUNABLES", HELD_TUNABLES)


@pytest.fixture(scope="session", autouse=True)
def _held_heap_for_the_run():
    with held_heap():
        yield


# the tests (node id prefixes) solving recorded color phases and simulating them with their
# best holds, in the order they run
RECORDED_SOLVES = (
    "notebooks/3b_full_table.ipynb::",
    # whole games on the recorded dice: phase 8's best holds (completion), and phase 8 on
    # the recorded dice again: read from the result cache notebook 3b filled (on the other
    # worker, or before it, each would solve it again: a minute or more)
    "notebooks/5_whole_game.ipynb::",
    "tests/turn/test_real_dice.py::test_phase_8_on_the_recorded_dice_two_ways",
    "tests/turn/test_real_dice.py::test_a_face_on_two_different_dice_names_the_die_to_keep",
    "tests/turn/test_advisor.py::test_shown_holds_are_the_dice_the_values_are_for[8-recorded]",
)
RECORDED_UNIT = "recorded-solves"

# the next longest units (about 35-125 s each in a run of the test command on the 2-core
# machine, 2026-12-04), longest first: handed out before the others, so that the run does
# not end with one worker on a long unit while the other waits
LONG_UNITS = (
    "tests/play/test_app_class.py",
    "tests/play/test_app_browser.py",
    "tests/game/test_duel.py",
    "tests/turn/test_solver_montecarlo.py",
    "tests/lessons/test_handouts.py",
    "tests/turn/test_sticky_montecarlo.py",
    "notebooks/3_optimal_turn.ipynb",
    "tests/turn/test_real_dice.py",
    "tests/cards/test_cards_dealt.py",
    "tests/game/test_duel_montecarlo.py",
    "tests/cli/test_cli_game.py",
    "tests/lessons/test_site.py",
    "notebooks/card_game.ipynb",
)


def work_unit(nodeid: str) -> str:
    """The unit of work of a test (by its node id): the recorded solves, or its file."""
    return RECORDED_UNIT if nodeid.startswith(RECORDED_SOLVES) else nodeid.split("::", 1)[0]


def recorded_place(nodeid: str) -> int:
    """Where a test of the recorded solves runs among them (their order in ``RECORDED_SOLVES``;
    0 for the others)."""
    return next((i for i, p in enumerate(RECORDED_SOLVES) if nodeid.startswith(p)), 0)


FIRST_UNITS = (RECORDED_UNIT, *LONG_UNITS)


def hand_out_order(unit: str) -> int:
    """Where a unit of work comes in the order they are handed out: the recorded solves, then
    the long units, longest first, then the others (all in one place: in collection order)."""
    return FIRST_UNITS.index(unit) if unit in FIRST_UNITS else len(FIRST_UNITS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # under xdist (a worker's collection is what the scheduler hands out)
    if "PYTEST_XDIST_WORKER" in os.environ or config.getoption("dist", "no") != "no":
        # the longest units first (a stable sort keeps the order within every file)
        items.sort(key=lambda it: (hand_out_order(work_unit(it.nodeid)), recorded_place(it.nodeid)))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadfile`` with the recorded solves as one unit, units in collection order."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling  # only where xdist runs the tests

    class FileUnits(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False  # not by number of tests: the longest first
    return FileUnits(config, log)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """The fuzz census (``tests/census.py``): per category, the cases the fuzz tests ran
    against the members they promise to cover, as the census tests recorded them."""
    lines = sorted(
        {
            value
            for report in terminalreporter.stats.get("passed", [])
            for name, value in getattr(report, "user_properties", ())
            if name == "fuzz census"
        }
    )
    if lines:
        terminalreporter.write_sep("=", "fuzz census")
        for line in lines:
            terminalreporter.write_line(line)
