"""Per-phase tables: single-roll probability, optimal completion probability, optimal expected
score and that policy's completion probability, and a greedy baseline - all exact.

Solved turns and table rows are cached on disk (:mod:`phase10math.cache`), keyed by the
phase, objective, rules, layout and package version.

>>> row = phase_row(1)
>>> row["p_optimal"] > row["p_greedy"] > row["p_single_roll"]
True
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from phase10math import cache
from phase10math.dice.faces import Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.phases import phase as as_phase
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules
from phase10math.exact import percent, to_json
from phase10math.progress import progress_bar
from phase10math.turn.kernels import final_scores, utility_from_scores
from phase10math.turn.policy import evaluate_free_policy, greedy_policy
from phase10math.turn.projection import projection_for
from phase10math.turn.solver import TurnSolution, solve_turn
from phase10math.turn.statespace import StateSpace
from phase10math.turn.sticky import evaluate_sticky_policies
from phase10math.turn.tensor import (
    exact_total,
    greedy_holds_tensor,
    is_tensor_space,
    tensor_weights,
)

_MEMORY: dict[str, TurnSolution] = {}


def solution_key(kind: str, ph: Phase, rules: Rules, layout: Layout, **extra: Any) -> str:
    return cache.cache_key(
        kind=kind, phase=ph.key(), rules=rules.to_dict(), layout=layout.fingerprint(), **extra
    )


def cached_solution(
    ph: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress: Callable[[str], None] | None = None,
) -> TurnSolution:
    """:func:`~phase10math.turn.solver.solve_turn`, cached in memory and on disk."""
    ph = as_phase(ph)
    objective = Objective.parse(objective)
    key = solution_key("turn", ph, rules, layout, objective=str(objective))
    if key in _MEMORY:
        return _MEMORY[key]
    sol = cache.load(key)
    if sol is None:
        sol = solve_turn(ph, objective, rules, layout, progress=progress)
        sol.meta.pop("layout", None)
        if not _is_big(sol):  # gigabytes of roll values are recomputed rather than pickled
            cache.save(key, sol)
    if _is_big(sol):  # keep at most two large solutions (a phase's two objectives) in memory
        big = [k for k, v in _MEMORY.items() if _is_big(v)]
        for k in big[:-1]:
            del _MEMORY[k]
    _MEMORY[key] = sol
    return sol


BIG_ROLLS = 5_000_000


def _is_big(sol: TurnSolution) -> bool:
    return len(sol.roll_num[0]) > BIG_ROLLS


def _tensor_space(space: StateSpace, rules: Rules) -> bool:
    return rules.holds == "free" and is_tensor_space(space)


def _weights(space: StateSpace, rules: Rules) -> np.ndarray | None:
    """Roll weights, ``None`` for a distinct-dice space whose weights are all 1."""
    return tensor_weights(space) if _tensor_space(space, rules) else space.roll_weights


def heavy_phase(n: int, rules: Rules, layout: Layout) -> bool:
    """Whether a phase's row needs a large distinct-dice solve (rows like that run one at a
    time in one process, so their memory does not add up)."""
    spaces = [StateSpace.build(layout, projection_for(PHASES[n], o)) for o in Objective]
    return rules.holds == "free" and any(sp.distinct and sp.n_states > BIG_ROLLS for sp in spaces)


# --------------------------------------------------------------------------- rows


def _row(ph: Phase, rules: Rules, layout: Layout, progress) -> dict[str, Fraction]:
    comp = cached_solution(ph, "complete", rules, layout, progress)
    single = Fraction(
        exact_total(comp.roll_num[0], _weights(comp.space, rules)),
        6**comp.space.n_dice * comp.utility_den,
    )
    row = {"p_single_roll": single, "p_optimal": comp.value()}
    if rules.holds == "free":
        if _tensor_space(comp.space, rules):
            gp = greedy_holds_tensor(comp.space, ph, rules)
        else:
            gp = greedy_policy(comp.space, ph, rules)
        cfin = comp.roll_num[0]
        p_greedy = evaluate_free_policy(
            comp.space, cfin, dict.fromkeys(range(1, rules.rolls), gp), rules.rolls
        )
        del gp, cfin
        if _is_big(comp):  # done with it: its memory goes before the score solve
            for k in [k for k, v in _MEMORY.items() if v is comp]:
                del _MEMORY[k]
            del comp
    score = cached_solution(ph, "score", rules, layout, progress)
    row["e_score_optimal"] = score.value()
    # completion probability of the score-optimal policy, evaluated on the score's space
    sp = score.space
    finals = utility_from_scores(final_scores(ph, sp, rules, layout.fingerprint()), "complete")
    if rules.holds == "free":
        row["p_score_policy"] = evaluate_free_policy(sp, finals, score.roll_arg, rules.rolls)
        row["p_greedy"] = p_greedy
    else:
        row.update(evaluate_sticky_policies(ph, rules, layout, comp, score))
    return row


def phase_row(
    ph: Phase | int | str,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress=None,
) -> dict[str, Fraction]:
    """The table row of one phase (cached on disk)."""
    ph = as_phase(ph)
    return cache.cached(
        solution_key("row", ph, rules, layout), lambda: _row(ph, rules, layout, progress)
    )


COLUMNS = {
    "p_single_roll": "P(one roll)",
    "p_optimal": "P(complete), optimal",
    "e_score_optimal": "E[score], optimal",
    "p_score_policy": "P(complete) | score play",
    "p_greedy": "P(complete), greedy",
}


def _row_worker(args: tuple) -> list[tuple[int, dict[str, Fraction]]]:
    ns, rules, layout = args
    return [(n, phase_row(PHASES[n], rules, layout)) for n in ns]


def phase_table(
    phases: Iterable[int] = range(1, 11),
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    show_progress: bool = False,
    workers: int | None = None,
) -> dict[int, dict[str, Fraction]]:
    """Rows for several phases (cached), solved in ``workers`` processes (default: up to two,
    one per core) with a progress bar when asked (:func:`phase10math.progress.progress_bar`)."""
    phases = list(phases)
    todo = [n for n in phases if cache.load(solution_key("row", PHASES[n], rules, layout)) is None]
    workers = min(2, os.cpu_count() or 1) if workers is None else workers
    bar = None
    if show_progress and todo:
        desc = f"solving phases ({rules.holds} holds)"
        bar = progress_bar(total=len(todo), desc=desc, unit="phase")
    rows: dict[int, dict[str, Fraction]] = {}
    if len(todo) > 1 and workers > 1 and cache.cache_dir() is not None:
        ctx = multiprocessing.get_context("spawn")
        # the slow color phases first, so that the two processes finish together
        order = sorted(todo, key=lambda n: not PHASES[n].uses_color)
        # rows needing a large distinct-dice solve go to one process, one after the other
        heavy = [n for n in order if heavy_phase(n, rules, layout)]
        tasks = ([heavy] if heavy else []) + [[n] for n in order if n not in heavy]
        with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            for done in pool.map(_row_worker, [(ns, rules, layout) for ns in tasks]):
                for n, row in done:
                    rows[n] = row
                    if bar is not None:
                        bar.update()
    for n in phases:
        if n not in rows:
            rows[n] = phase_row(PHASES[n], rules, layout)
            if bar is not None and n in todo:
                bar.update()
    if bar is not None:
        bar.close()
    return {n: rows[n] for n in phases}


def format_table(rows: dict[int, dict[str, Fraction]], rules: Rules) -> str:
    """The table as text: floats (percent / points) with the exact fraction listed below."""
    head = f"{'phase':>5}  {'requirement':<28}" + "".join(f"{c:>26}" for c in COLUMNS.values())
    lines = [f"Phase 10 Dice, {rules.holds} holds, {rules.rolls} rolls: exact values", head]
    for n, row in rows.items():
        cells = []
        for c in COLUMNS:
            v = row[c]
            cells.append(f"{float(v):>26.4f}" if c.startswith("e_") else f"{percent(v, 3):>26}")
        lines.append(f"{n:>5}  {PHASES[n].text:<28}" + "".join(cells))
    lines.append("")
    lines.append("exact values:")
    for n, row in rows.items():
        lines.append(f"  phase {n}: " + "; ".join(f"{c} = {row[c]}" for c in COLUMNS))
    return "\n".join(lines)


def table_json(rows: dict[int, dict[str, Fraction]], rules: Rules) -> dict:
    return {
        "rules": rules.to_dict(),
        "phases": {
            str(n): {"requirement": PHASES[n].text, **{c: to_json(v) for c, v in row.items()}}
            for n, row in rows.items()
        },
    }


@lru_cache(maxsize=64)
def greedy_holds(
    k: int, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> tuple[StateSpace, dict[int, np.ndarray]]:
    """The greedy policy of phase k on the completion state space (same hold every roll)."""
    space = cached_solution(k, "complete", rules, layout).space
    gp = greedy_policy(space, PHASES[k], rules)
    return space, dict.fromkeys(range(1, rules.rolls), gp)


def values_by_rolls_left(
    ph: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> dict[int, Fraction]:
    """The value of a turn of phase ``ph`` started with 1, 2, ... ``rules.rolls`` rolls, with
    optimal holds: ``{rolls: value}``, read from one cached solution (the value of holding
    nothing with r rolls left; free holds).

    >>> v = values_by_rolls_left(1)
    >>> v[1] == phase_row(1)["p_single_roll"], v[3] == phase_row(1)["p_optimal"]
    (True, True)
    >>> v[1] < v[2] < v[3]
    True
    """
    sol = cached_solution(ph, objective, rules, layout)
    empty = sol.space.state_id([[0] * len(c) for c in sol.space.counts_of(0)])
    values = {r: sol.hold_value(empty, r) for r in range(1, sol.rolls)}
    values[sol.rolls] = sol.value()
    return values
