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
from typing import Any

import numpy as np

from phase10math import cache
from phase10math.dice import Layout
from phase10math.exact import percent, to_json
from phase10math.layouts import DEFAULT_LAYOUT
from phase10math.phases import PHASES, Phase
from phase10math.phases import phase as as_phase
from phase10math.progress import greedy_keep
from phase10math.rules import DEFAULT_RULES, Rules
from phase10math.solver import (
    TurnSolution,
    _expect,
    _normalise,
    final_scores,
    solve_turn,
    utility_from_scores,
)
from phase10math.statespace import StateSpace

_MEMORY: dict[str, TurnSolution] = {}


def _key(kind: str, ph: Phase, rules: Rules, layout: Layout, **extra: Any) -> str:
    return cache.cache_key(
        kind=kind, phase=ph.key(), rules=rules.to_dict(), layout=layout.fingerprint(), **extra
    )


def cached_solution(
    ph: Phase | int | str,
    objective: str = "complete",
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    progress: Callable[[str], None] | None = None,
) -> TurnSolution:
    """:func:`~phase10math.solver.solve_turn`, cached in memory and on disk."""
    ph = as_phase(ph)
    key = _key("turn", ph, rules, layout, objective=objective)
    if key in _MEMORY:
        return _MEMORY[key]
    sol = cache.load(key)
    if sol is None:
        sol = solve_turn(ph, objective, rules, layout, progress=progress)
        sol.meta.pop("layout", None)
        cache.save(key, sol)
    _MEMORY[key] = sol
    return sol


# --------------------------------------------------------------------------- policies


def policy_holds(space: StateSpace, kept_profiles: np.ndarray) -> np.ndarray:
    """Hold ids (one per roll state, ``full_ids`` order) from kept counts per meld cell."""
    ids = space.full_ids
    remaining = np.asarray(kept_profiles).astype(np.int64).copy()
    gid = np.zeros(len(ids), dtype=np.int64)
    for t, typ in enumerate(space.types):
        have = space.sub[t][space.digits[t][ids]].astype(np.int64)  # (P, f)
        take = np.zeros_like(have)
        for f, key in enumerate(typ.faces):
            rep = space.projection.representative(key)
            cell = (slice(None), rep.value, "robg".index(rep.color))
            got = np.minimum(have[:, f], remaining[cell])
            take[:, f] = got
            remaining[cell] -= got
        code = (take * (typ.count + 1) ** np.arange(len(typ.faces))).sum(axis=1)
        gid += space.strides[t] * space.type_index(t)[code]
    return gid


def greedy_policy(space: StateSpace, ph: Phase, rules: Rules) -> np.ndarray:
    """The greedy baseline's hold for every roll state."""
    prof = space.profiles(space.full_ids)
    return policy_holds(space, greedy_keep(ph, prof, rules))


def evaluate_free_policy(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> Fraction:
    """Exact value of a fixed free-hold policy (``holds[r]``: hold id per roll state with r
    rerolls left) for a utility given by integer ``finals`` on the roll states."""
    roll_val = np.asarray(finals, dtype=np.int64)
    for r in range(1, rolls):
        N = _normalise(space, _expect(space, roll_val))
        roll_val = N[holds[r]]
    total = int(np.dot(roll_val.astype(object), space.roll_weights.astype(object)))
    return Fraction(total, 6 ** (space.n_dice * rolls))


# --------------------------------------------------------------------------- rows


def _row(ph: Phase, rules: Rules, layout: Layout, progress) -> dict[str, Fraction]:
    comp = cached_solution(ph, "complete", rules, layout, progress)
    score = cached_solution(ph, "score", rules, layout, progress)
    weights = comp.space.roll_weights.astype(object)
    single = Fraction(
        int(np.dot(comp.roll_num[0].astype(object), weights)),
        6**comp.space.n_dice * comp.utility_den,
    )
    row = {"p_single_roll": single, "p_optimal": comp.value(), "e_score_optimal": score.value()}
    # completion probability of the score-optimal policy, evaluated on the score's space
    sp = score.space
    finals = utility_from_scores(final_scores(ph, sp, rules, layout.fingerprint()), "complete")
    if rules.holds == "free":
        row["p_score_policy"] = evaluate_free_policy(sp, finals, score.roll_arg, rules.rolls)
        gp = greedy_policy(comp.space, ph, rules)
        cfin = comp.roll_num[0]
        row["p_greedy"] = evaluate_free_policy(
            comp.space, cfin, dict.fromkeys(range(1, rules.rolls), gp), rules.rolls
        )
    else:
        from phase10math.sticky import evaluate_sticky_policies

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
    return cache.cached(_key("row", ph, rules, layout), lambda: _row(ph, rules, layout, progress))


COLUMNS = {
    "p_single_roll": "P(one roll)",
    "p_optimal": "P(complete), optimal",
    "e_score_optimal": "E[score], optimal",
    "p_score_policy": "P(complete) | score play",
    "p_greedy": "P(complete), greedy",
}


def _row_worker(args: tuple) -> tuple[int, dict[str, Fraction]]:
    n, rules, layout = args
    return n, phase_row(PHASES[n], rules, layout)


def phase_table(
    phases: Iterable[int] = range(1, 11),
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    show_progress: bool = False,
    workers: int | None = None,
) -> dict[int, dict[str, Fraction]]:
    """Rows for several phases (cached), solved in ``workers`` processes (default: up to two,
    one per core) with a tqdm progress bar when asked."""
    phases = list(phases)
    todo = [n for n in phases if cache.load(_key("row", PHASES[n], rules, layout)) is None]
    workers = min(2, os.cpu_count() or 1) if workers is None else workers
    bar = None
    if show_progress and todo:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(todo), desc=f"solving phases ({rules.holds} holds)", unit="phase")
    rows: dict[int, dict[str, Fraction]] = {}
    if len(todo) > 1 and workers > 1 and cache.usable():
        ctx = multiprocessing.get_context("spawn")
        # the slow color phases first, so that the two processes finish together
        order = sorted(todo, key=lambda n: not PHASES[n].uses_color)
        with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            for n, row in pool.map(_row_worker, [(n, rules, layout) for n in order]):
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
