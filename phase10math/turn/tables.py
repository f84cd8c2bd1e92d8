"""Per-phase tables: single-roll probability, optimal completion probability, optimal expected
score and that policy's completion probability, and a greedy baseline - all exact.

The optimal turns are lexicographic (:func:`~phase10math.turn.solver.solve_turn`): the
score-optimal turn's completion probability is its second key, the best completion
probability among the holds of highest expected score.

The rows of phases 1-20 on the recorded dice with the default rules ship with the package
(exact fractions, solved by this module: ``python tools/ship_phase_rows.py`` solves them
again), so that the table prints at once; ``shipped=False`` solves instead. The tests solve
every phase without colors again and compare, and a sample of the color phases.

Solved turns and table rows are cached on disk (:mod:`phase10math.cache`), keyed by the
phase, objective, rules, layout, engine (turns) and package code, each entry carrying that
description, which the loader compares with the request; the large solutions of ten different dice
(a color phase on the recorded dice: its utilities and the roll values with one reroll left,
both keys, in the smallest integer dtypes their bounds allow, the 0/1 utility as bits,
526 MiB, and the margins that rank a roll's holds by lookup,
:mod:`~phase10math.turn.tensor.margins`) as ``.npy`` files, memory-mapped read-only, so that
processes share one copy (the 0/1 utility kept as its bits, read where a lookup needs it).
The memory cache keeps the solutions and hold tables asked for last (:data:`MEMORY_KEEP`,
:data:`HOLDS_KEEP`): a game moves on through the phases.

>>> row = phase_row(1)
>>> row["p_optimal"] > row["p_greedy"] > row["p_single_roll"]
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from phase10math import cache
from phase10math._base.checks import check_int, public
from phase10math._base.progress import progress_bar
from phase10math._base.workers import WorkerPool
from phase10math.dice.faces import Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES, Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules
from phase10math.errors import InvalidArgumentError, InvalidPhaseError, StateSpaceTooLargeError
from phase10math.exact import percent, to_json
from phase10math.guards import check_expected_score, check_probability
from phase10math.turn.engine import engine_for, final_scores
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.kernels import utility_from_scores
from phase10math.turn.policy import greedy_policy
from phase10math.turn.projection import projection_for
from phase10math.turn.solver import TurnSolution, check_size, solve_turn
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.holdvalues import LazyHoldValues

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "cached_holds",
    "cached_solution",
    "completion_utility",
    "forget_large_solutions",
    "format_table",
    "greedy_holds",
    "heavy_phase",
    "phase_row",
    "phase_table",
    "shipped_row",
    "solution_key",
    "table_json",
    "too_large",
    "values_by_rolls_left",
]

_MEMORY: dict[str, TurnSolution] = {}  # the memory cache of solved turns, over the disk cache
#: solutions the memory cache keeps, the most recently asked for (a phase's two objectives
#: and the phase's before): a game moves on through the phases, and a solution asked for
#: again is read from the disk cache (a phase without colors: a few MB, tens of milliseconds)
MEMORY_KEEP = 4
_HOLDS: dict[str, HoldTable] = {}  # hold tables read by decisions (a color phase's: mapped)
#: hold tables kept, the most recently asked for: the live phases of six players, each with
#: both objectives (a game's players move on; a table asked for again is read again)
HOLDS_KEEP = 12
BIG_ROLLS = 5_000_000


def solution_key(kind: str, phase: Phase, rules: Rules, layout: Layout, **extra: Any) -> str:
    return cache.cache_key(
        kind=kind, phase=phase.key(), rules=rules.to_dict(), layout=layout.fingerprint(), **extra
    )


@lru_cache(maxsize=512)  # every look-up of a solved turn asks for it: the space is built once
def turn_key(
    phase: Phase,
    objective: Objective,
    rules: Rules,
    layout: Layout,
    worst_second: bool = False,
    kind: str = "turn",
) -> str:
    """The cache key of a solved turn (``kind`` "turn": its values; "holds": its best holds,
    :func:`cached_holds`): its phase, objective and keys, rules, dice and the engine that
    solves it (with the code's fingerprint, :func:`~phase10math.cache.cache_key`)."""
    extra = {"worst_second": True} if worst_second else {}
    engine = engine_for(StateSpace.build(layout, projection_for(phase, objective)), rules)
    return solution_key(
        kind, phase, rules, layout, objective=str(objective), engine=engine.kind.value, **extra
    )


@public
def cached_solution(
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress: Callable[[str], None] | None = None,
    worst_second: bool = False,
    store_large: bool = True,
) -> TurnSolution:
    """:func:`~phase10math.turn.solver.solve_turn`, cached in memory and on disk (the same
    :class:`~phase10math.turn.solver.TurnSolution` either way, with its phase, objective and
    layout). ``store_large=False``: a large solution is not written to disk.

    A large solution (ten different dice) is kept as two entries: its values, and its best
    holds (:func:`cached_holds`), so that a decision maps the 242 MB of hold codes alone."""
    phase = as_phase(phase)
    objective = Objective.parse(objective)
    key = turn_key(phase, objective, rules, layout, worst_second)
    sol = _MEMORY.pop(key, None)
    if sol is None:
        sol = cache.load(key, TurnSolution) or _load_large(
            phase, objective, rules, layout, worst_second
        )
        if sol is None:
            sol = solve_turn(
                phase, objective, rules, layout, progress=progress, worst_second=worst_second
            )
            if not _is_big(sol):
                cache.save(key, sol)
            elif store_large and _save_large(sol, key, worst_second):
                # gigabytes of roll values: kept on disk and memory-mapped from there (pages
                # are read as they are used and can be dropped), not held in memory
                sol = _load_large(phase, objective, rules, layout, worst_second) or sol
    _remember(key, sol)
    return sol


def _remember(key: str, sol: TurnSolution) -> None:
    """Keep a solution in memory as the most recently asked for: at most
    :data:`MEMORY_KEEP`, of which at most two large ones (a phase's two objectives); the
    longest unasked are dropped."""
    if _is_big(sol):
        big = [k for k, v in _MEMORY.items() if _is_big(v)]
        for k in big[:-1]:
            del _MEMORY[k]
    _MEMORY[key] = sol
    for k in list(_MEMORY)[:-MEMORY_KEEP]:
        del _MEMORY[k]


def _is_big(sol: TurnSolution) -> bool:
    """Whether a solution's roll values are too large to pickle or to keep many of."""
    return len(sol.roll_num[0]) > BIG_ROLLS


def _save_large(sol: TurnSolution, key: str, worst: bool) -> bool:
    """Write a large solution as its two entries: the best holds, then the values (without
    the holds: they are not written twice), with the margins that rank a roll's holds by
    lookup (:meth:`~phase10math.turn.tensor.holdvalues.LazyHoldValues.prepare`)."""
    for k in sol.keys:
        for values in k.hold_num.values():
            if isinstance(values, LazyHoldValues):
                values.prepare()
    args = (sol.phase, sol.objective, sol.rules, sol.layout, worst)
    holds_key = turn_key(*args, kind="holds")
    cache.save_large(holds_key, sol.hold_table())
    return cache.save_large(key, replace(sol, roll_arg={}))


def _load_large(
    phase: Phase, objective: Objective, rules: Rules, layout: Layout, worst: bool
) -> TurnSolution | None:
    """A large solution from its two entries (the best holds found again from the values
    where their entry is missing or damaged, and stored again)."""
    # the 0/1 utility kept as its bits (cache.PackedBits): read where a lookup needs it
    key = turn_key(phase, objective, rules, layout, worst)
    sol = cache.load_large(key, TurnSolution, packed=True)
    if sol is None:
        return None
    holds_key = turn_key(phase, objective, rules, layout, worst, kind="holds")
    table = cache.load_large(holds_key, HoldTable)
    if table is None:
        engine = engine_for(sol.space, sol.rules)
        arg = {
            r: engine.best_holds_again(
                [np.asarray(k.roll_num[r - 1]) for k in sol.keys],
                [k.hold_num[r] for k in sol.keys],
            )
            for r in range(1, sol.rolls)
        }
        table = HoldTable(sol.space, arg, sol.label)
        if cache.save_large(holds_key, table):
            table = cache.load_large(holds_key, HoldTable) or table
    return replace(sol, roll_arg=table.arg)


@public
def cached_holds(
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress: Callable[[str], None] | None = None,
) -> HoldTable:
    """The optimal turn's best holds (:class:`~phase10math.turn.holdtable.HoldTable`): the
    policy alone, what every decision reads. On ten different dice only the hold codes are
    mapped (not the roll values); solved (and cached) where not cached yet. The memory keeps
    the :data:`HOLDS_KEEP` tables asked for last."""
    phase = as_phase(phase)
    objective = Objective.parse(objective)
    key = turn_key(phase, objective, rules, layout, kind="holds")
    table = _HOLDS.pop(key, None)
    if table is None:
        table = cache.load_large(key, HoldTable)
        if table is None:
            table = cached_solution(phase, objective, rules, layout, progress).hold_table()
    _HOLDS[key] = table  # the most recently asked for, last
    for k in list(_HOLDS)[:-HOLDS_KEEP]:
        del _HOLDS[k]
    return table


def row_spaces(phase: Phase | int | str, layout: Layout) -> list[StateSpace]:
    """The state spaces of a phase's two solves (one per objective)."""
    phase = as_phase(phase)
    return [StateSpace.build(layout, projection_for(phase, o)) for o in Objective]


def heavy_phase(number: int, rules: Rules, layout: Layout) -> bool:
    """Whether a phase's row needs a large distinct-dice solve (rows like that run one at a
    time in one process, so their memory does not add up)."""
    spaces = row_spaces(number, layout)
    return rules.holds == "free" and any(sp.distinct and sp.n_states > BIG_ROLLS for sp in spaces)


def too_large(phase: Phase | int | str, rules: Rules, layout: Layout) -> str | None:
    """Why a phase's row cannot be solved on this machine (the refusal of the larger of its
    two solves, at once, before anything is allocated), or None when it can.

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
    >>> too_large(8, Rules(holds="sticky"), COMPACT_LAYOUT) is None
    True
    >>> too_large(8, Rules(holds="sticky"), RECORDED_LAYOUT)[:30]
    'this turn has 137,858,491,849 '
    """
    for space in row_spaces(phase, layout):
        try:
            check_size(space, rules)
        except StateSpaceTooLargeError as exc:
            return str(exc)
    return None


# --------------------------------------------------------------------------- rows


def completion_utility(phase: Phase, rules: Rules, layout: Layout) -> tuple[StateSpace, np.ndarray]:
    """The smallest state space for completion alone (colors only for pure color phases)
    and the 1/0 completion of its roll states: where the greedy and random baselines are
    evaluated (int8 on ten different dice: 60 million of them)."""
    space = StateSpace.build(layout, projection_for(phase, "complete", second_key=False))
    dtype = np.int8 if space.distinct else np.int64
    finals = utility_from_scores(final_scores(phase, space, rules), "complete", dtype)
    return space, finals


def forget_large_solutions() -> None:
    """Drop the large (distinct-dice) solutions from the memory cache: a table row needs only
    their totals, and two of them with the engine's buffers would double the peak memory."""
    for k in [k for k, v in _MEMORY.items() if _is_big(v)]:
        del _MEMORY[k]


def _row(ph: Phase, rules: Rules, layout: Layout, progress) -> dict[str, Fraction]:
    # the whole solutions are cached (a color phase's roll values, about 600 MB): the advice
    # and the strategies read them from there instead of solving the phase again
    comp = cached_solution(ph, "complete", rules, layout, progress)
    engine = engine_for(comp.space, rules)
    single = engine.mean_over_first_roll(np.asarray(comp.roll_num[0]), 1) / comp.utility_den
    p_optimal, e_complete_policy = comp.value(), comp.value2()
    del comp
    forget_large_solutions()
    score = cached_solution(ph, "score", rules, layout, progress)
    row = {
        "p_single_roll": single,
        "p_optimal": p_optimal,
        "e_score_optimal": score.value(),
        # the second keys of the lexicographic objectives
        "p_score_policy": score.value2(),
        "e_score_complete_policy": e_complete_policy,
    }
    del score
    forget_large_solutions()
    cspace, cfin = completion_utility(ph, rules, layout)
    gp = greedy_policy(cspace, ph, rules)
    holds = dict.fromkeys(range(1, rules.rolls), gp)
    row["p_greedy"] = engine_for(cspace, rules).policy_value(cfin, holds, rules.rolls)
    return row


ROWS_PACKAGE = "phase10math.turn.data"
ROWS_FILE = "phase_rows.json"
RECOMPUTE_ROWS = "python tools/ship_phase_rows.py"


def rows_setting(rules: Rules, layout: Layout) -> dict[str, Any]:
    """What a table row depends on besides its phase: the rules and the dice."""
    return {"rules": rules.to_dict(), "layout": layout.fingerprint()}


@lru_cache(maxsize=1)
def _shipped_file() -> dict[str, Any]:
    ref = resources.files(ROWS_PACKAGE).joinpath(ROWS_FILE)
    return json.loads(ref.read_text(encoding="utf-8")) if ref.is_file() else {}


def _shipped_entry(phase: Phase, rules: Rules, layout: Layout) -> dict[str, str] | None:
    data = _shipped_file()
    if data.get("setting") != rows_setting(rules, layout):
        return None
    entry = data["phases"].get(str(phase.number)) if phase.number else None
    return entry if entry and entry["phase"] == str(phase.key()) else None


@public
def shipped_row(
    phase: Phase | int | str, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> dict[str, Fraction] | None:
    """The shipped row of a phase (the same dict as :func:`phase_row`'s), or None where none
    ships for this phase, these rules and these dice.

    >>> shipped_row(1)["p_optimal"] == phase_row(1, shipped=False)["p_optimal"]
    True
    >>> from phase10math.dice.layouts import COMPACT_LAYOUT
    >>> shipped_row(1, layout=COMPACT_LAYOUT) is None
    True
    """
    entry = _shipped_entry(as_phase(phase), rules, layout)
    return None if entry is None else {k: Fraction(v) for k, v in entry["row"].items()}


@public
def phase_row(
    phase: Phase | int | str,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress=None,
    shipped: bool = True,
) -> dict[str, Fraction]:
    """The table row of one phase: the shipped one where there is one (``shipped``), else
    solved (cached on disk)."""
    phase = as_phase(phase)
    if shipped and (row := shipped_row(phase, rules, layout)) is not None:
        return row
    return cache.cached(
        solution_key("row", phase, rules, layout),
        lambda: _row(phase, rules, layout, progress),
        dict,
    )


COLUMNS = {
    "p_single_roll": "P(one roll)",
    "p_optimal": "P(complete), optimal",
    "e_score_optimal": "E[score], optimal",
    "p_score_policy": "P(complete) | score play",
    "p_greedy": "P(complete), greedy",
}


def _row_worker(args: tuple) -> list[tuple[int, dict[str, Fraction]]]:
    ns, rules, layout, shipped = args
    return [(n, phase_row(PHASES[n], rules, layout, shipped=shipped)) for n in ns]


@public
def phase_table(
    phases: Iterable[int] = range(1, 11),
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    show_progress: bool = False,
    workers: int | None = None,
    shipped: bool = True,
) -> dict[int, dict[str, Fraction]]:
    """Rows for several phases: the shipped ones (``shipped``), the others solved (cached) in
    ``workers`` processes (default: up to two, one per core) with a progress bar when asked
    (:func:`phase10math._base.progress.progress_bar`)."""
    phases = [check_int(n, "phases", 1, len(PHASES), InvalidPhaseError) for n in phases]
    if workers is not None:
        check_int(workers, "workers", 1, 64)
    todo = [
        n
        for n in phases
        if not (shipped and shipped_row(PHASES[n], rules, layout) is not None)
        and cache.load(solution_key("row", PHASES[n], rules, layout), dict) is None
    ]
    workers = min(2, os.cpu_count() or 1) if workers is None else workers
    bar = None
    if show_progress and todo:
        desc = f"solving phases ({rules.holds} holds)"
        bar = progress_bar(total=len(todo), desc=desc, unit="phase")
    rows: dict[int, dict[str, Fraction]] = {}
    if len(todo) > 1 and workers > 1 and cache.usable():
        # the slow color phases first, so that the two processes finish together
        order = sorted(todo, key=lambda n: not PHASES[n].uses_color)
        # rows needing a large distinct-dice solve go to one process, one after the other
        heavy = [n for n in order if heavy_phase(n, rules, layout)]
        tasks = ([heavy] if heavy else []) + [[n] for n in order if n not in heavy]
        with WorkerPool(workers) as pool:
            for done in pool.map(_row_worker, [(ns, rules, layout, shipped) for ns in tasks]):
                for n, row in done:
                    rows[n] = row
                    if bar is not None:
                        bar.update()
    for n in phases:
        if n not in rows:
            rows[n] = phase_row(PHASES[n], rules, layout, shipped=shipped)
            if bar is not None and n in todo:
                bar.update()
    if bar is not None:
        bar.close()
    return {n: rows[n] for n in phases}


def table_legend(rules: Rules) -> list[str]:
    """What each column of :func:`format_table` means, with its unit (lines of at most 100
    characters)."""
    return [
        "P(one roll): the chance to make the phase with one roll of the ten dice",
        f"P(complete), optimal: the chance to make it in a turn of {rules.rolls} rolls, holds "
        "chosen for it",
        "E[score], optimal: the points a turn scores on average, holds chosen for points",
        "  (points: a made phase scores the sum of the dice that make it, a failed one 0)",
        "P(complete) | score play: the chance to make it with those holds chosen for points",
        "P(complete), greedy: the chance with greedy holds (keep the dice of the placement that",
        "  uses the most dice), a baseline",
    ]


@public
def format_table(rows: dict[int, dict[str, Fraction]], rules: Rules, exact: bool = False) -> str:
    """The table as text: floats (percent / points), a legend of the columns, and with
    ``exact`` every value's exact fraction below (they are always in :func:`table_json`)."""
    for n, row in rows.items():
        check_int(n, "rows", 1, len(PHASES), InvalidPhaseError)
        missing = [c for c in COLUMNS if c not in row]
        if missing:
            raise InvalidArgumentError(
                f"format_table(): rows[{n}] lacks {', '.join(missing)} (a row of phase_row)"
            )
    check_rows(rows)
    width = {c: len(name) + 3 for c, name in COLUMNS.items()}  # each column as wide as its name
    head = f"{'phase':>5}  {'requirement':<28}" + "".join(
        f"{name:>{width[c]}}" for c, name in COLUMNS.items()
    )
    lines = [
        f"Phase 10 Dice, {rules.holds} holds, {rules.rolls} rolls: exact values, rounded",
        head,
    ]
    for n, row in rows.items():
        cells = []
        for c in COLUMNS:
            v, w = row[c], width[c]
            cells.append(f"{float(v):>{w}.4f}" if c.startswith("e_") else f"{percent(v, 3):>{w}}")
        lines.append(f"{n:>5}  {PHASES[n].text:<28}" + "".join(cells))
    lines += ["", *table_legend(rules)]
    if not exact:
        lines.append("every value is an exact fraction: --exact shows them (or --json)")
        return "\n".join(lines)
    lines += ["", "exact values:"]
    for n, row in rows.items():
        lines.append(f"  phase {n}: " + "; ".join(f"{c} = {row[c]}" for c in COLUMNS))
    return "\n".join(lines)


def check_rows(rows: dict[int, dict[str, Fraction]]) -> None:
    """Every value of the rows in its range (:mod:`phase10math.guards`): the ``e_`` columns
    expected scores, the others probabilities."""
    for n, row in rows.items():
        for c, v in row.items():
            what = f"phase {n}'s {c}"
            if c.startswith("e_"):
                check_expected_score(v, what)
            else:
                check_probability(v, what)


def table_json(rows: dict[int, dict[str, Fraction]], rules: Rules) -> dict:
    check_rows(rows)
    return {
        "rules": rules.to_dict(),
        "phases": {
            str(n): {"requirement": PHASES[n].text, **{c: to_json(v) for c, v in row.items()}}
            for n, row in rows.items()
        },
    }


@lru_cache(maxsize=64)
def greedy_holds(
    number: int, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> tuple[StateSpace, dict[int, np.ndarray]]:
    """The greedy policy of phase k on the completion state space (same hold every roll)."""
    space, _ = completion_utility(PHASES[number], rules, layout)
    gp = greedy_policy(space, PHASES[number], rules)
    return space, dict.fromkeys(range(1, rules.rolls), gp)


@public
def values_by_rolls_left(
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    shipped: bool = True,
) -> dict[int, Fraction]:
    """The value of a turn of ``phase`` started with 1, 2, ... ``rules.rolls`` rolls, with
    optimal holds: ``{rolls: value}``, read from one cached solution (the value of holding
    nothing with r rolls left; free holds); for the completion objective the shipped values
    where they ship (``shipped``; see :func:`shipped_row`).

    >>> v = values_by_rolls_left(1)
    >>> v[1] == phase_row(1)["p_single_roll"], v[3] == phase_row(1)["p_optimal"]
    (True, True)
    >>> v[1] < v[2] < v[3]
    True
    """
    entry = _shipped_entry(as_phase(phase), rules, layout) if shipped else None
    if entry is not None and Objective.parse(objective) == Objective.COMPLETE:
        return {int(r): Fraction(v) for r, v in entry["by_rolls"].items()}
    sol = cached_solution(phase, objective, rules, layout)
    empty = sol.space.state_id([[0] * len(c) for c in sol.space.counts_of(0)])
    values = {r: sol.hold_value(empty, r) for r in range(1, sol.rolls)}
    values[sol.rolls] = sol.value()
    return values
