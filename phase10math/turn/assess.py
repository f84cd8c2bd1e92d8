"""Beat the solver: a strategy written as a small Python function, evaluated exactly.

A student's *strategy* is a function ``strategy(roll, rolls_left, phase) -> dice to keep``:

- ``roll``: the ten dice showing, as a tuple of texts sorted high to low, W last
  (``("10", "10", "9", "7", "6", "5", "4", "2", "W", "W")``);
- ``rolls_left``: how many rolls remain after this one (2 after the first roll, 1 after the
  second);
- ``phase``: the phase number (1-20; a phase without a number is passed as it is).

It returns the dice to keep: a list of faces of the roll (``["10", "10", "W"]``, numbers or
texts; ``"10 10 W"`` also works), the others are rolled again. :func:`assess_strategy` asks the
strategy once for every distinct roll and every number of rolls left, and evaluates the policy
it gives **exactly** with the turn engine's fixed-policy evaluation
(:meth:`~phase10math.turn.engine.Engine.policy_value`): P(complete) and E[score] as fractions.
Beside them it puts the optimum (the solver's completion-optimal turn), the rolls where the
strategy loses most (each roll's loss weighted by how often the strategy meets it; the weighted
losses add up to the whole gap) and a seeded simulation of the strategy on physical dice, which
scores the final dice with the meld engine and never uses the state space for the outcome.

A strategy that keeps a die the roll does not show is refused, naming the roll:

>>> from phase10math.turn.assess import assess_strategy
>>> assess_strategy(lambda roll, rolls_left, phase: ["10"] * 7, 1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10math.errors.InvalidStrategyError: the strategy kept 10 10 10 10 10 10 10 ...

Phases with a color group are not assessed: there the dice must be told apart by their colors,
and a roll is no longer a list of numbers. Any layout works for the other phases (the compact
and the recorded dice look alike to them), and so does a reduced game (a list of dice and a
:class:`~phase10math.dice.phases.Phase`), which is how the tests check the evaluation by brute
force.

Grading (:func:`grade`, :func:`class_table`) computes the optimum at grading time, so a
student's copy of an assignment holds no expected value to aim at; the class table ranks the
hand-ins by P(complete), then E[score].
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import binomtest

from phase10math._base.checks import check_int, check_seed
from phase10math.dice.faces import Die, Face, Layout, check_layout, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Holds, Objective, Rules, check_rules
from phase10math.errors import InvalidArgumentError, InvalidStrategyError
from phase10math.turn.engine import engine_for, final_scores
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.policy import play_physical_turns
from phase10math.turn.projection import VALUE
from phase10math.turn.solver import TurnSolution, solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution

__all__ = [
    "Assessment",
    "Loss",
    "Simulated",
    "assess_strategy",
    "class_table",
    "grade",
    "load_hand_in",
    "solver_strategy",
    "strategy_policy",
]

Strategy = Callable[[tuple[str, ...], int, Any], Any]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Loss:
    """One roll where the strategy keeps another hold than the optimum: ``loss`` is what its
    hold costs in P(complete) when the roll happens (the best hold's value minus the kept
    hold's, both followed by optimal play), ``often`` the chance that the strategy meets the
    roll in a turn, ``weighted`` their product (its share of the whole gap)."""

    roll: str
    rolls_left: int
    kept: str
    best: str
    often: float
    loss: float

    @property
    def weighted(self) -> float:
        return self.often * self.loss


@dataclass(frozen=True)
class Simulated:
    """``turns`` seeded turns of the strategy on physical dice: how many made the phase, the
    mean score, and the 95% Wilson interval of P(complete)."""

    turns: int
    seed: int
    made: int
    mean_score: float
    interval: tuple[float, float]

    @property
    def p_complete(self) -> float:
        return self.made / self.turns


@dataclass(frozen=True)
class Assessment:
    """A strategy's exact value on one phase, beside the optimum's (the completion-optimal
    turn: the most P(complete), then the most E[score]). ``losses``: the rolls where the
    strategy loses most, largest weighted loss first; ``lost_by_rolls_left``: the sum of the
    weighted losses over every roll met with that many rolls left (float); together they
    make :attr:`explained`, which equals :attr:`gap`."""

    phase: Phase
    p_complete: Fraction
    e_score: Fraction
    best_p_complete: Fraction
    best_e_score: Fraction
    losses: list[Loss] = field(repr=False, default_factory=list)
    lost_by_rolls_left: dict[int, float] = field(default_factory=dict)
    simulated: Simulated | None = None

    @property
    def explained(self) -> float:
        """The weighted losses of every roll added up (equal to :attr:`gap`, in floats)."""
        return sum(self.lost_by_rolls_left.values())

    @property
    def gap(self) -> Fraction:
        """How much P(complete) the strategy leaves to the optimum (0 for an optimal one)."""
        return self.best_p_complete - self.p_complete

    def report(self, top: int = 5) -> str:
        """The values, the rolls that cost the most, the simulation; in plain words."""
        name = f"phase {self.phase.number} " if self.phase.number else ""
        lines = [
            f"{name}({self.phase.text}): P(complete) {_pct(self.p_complete)} (the optimum "
            f"{_pct(self.best_p_complete)}), E[score] {float(self.e_score):.2f} (the "
            f"optimum's {float(self.best_e_score):.2f})",
        ]
        if self.losses:
            lines.append(
                "where it loses most: the roll, what it keeps and the best hold, the cost if "
                "the roll happens x how often it happens = points of P(complete) lost"
            )
            for x in self.losses[:top]:
                lines.append(
                    f"  {x.roll} with {x.rolls_left} roll{'s' * (x.rolls_left > 1)} left: keeps "
                    f"{x.kept or 'nothing'}, best {x.best or 'nothing'}: "
                    f"{100 * x.loss:.3g} x {_pct(x.often, 3)} = {100 * x.weighted:.3g}"
                )
        if self.simulated:
            s = self.simulated
            lo, hi = s.interval
            lines.append(
                f"simulated, {s.turns} turns (seed {s.seed}): made {_pct(s.p_complete)}, "
                f"95% interval {_pct(lo)} to {_pct(hi)}; mean score {s.mean_score:.2f}"
            )
        return "\n".join(lines)


def _pct(x, digits: int = 2) -> str:
    return f"{100 * float(x):.{digits}f}%"


# --------------------------------------------------------------------------- the game


@dataclass
class _Game:
    """A phase on its dice: the state space (numbers only), final scores, the optimum."""

    phase: Phase
    dice: tuple[Die, ...]
    rules: Rules
    space: StateSpace
    best: np.ndarray
    optimum: TurnSolution

    @property
    def argument(self) -> Any:
        return self.phase.number if self.phase.number is not None else self.phase


def _game(phase, layout, rules: Rules) -> _Game:
    check_rules(rules)
    if isinstance(layout, Layout):
        check_layout(layout)
    elif not (
        isinstance(layout, (list, tuple)) and layout and all(isinstance(d, Die) for d in layout)
    ):
        raise InvalidArgumentError(
            f"layout={layout!r:.60}; allowed: a Layout or a non-empty list of dice"
        )
    phase = as_phase(phase) if not isinstance(phase, Phase) else phase
    if phase.uses_color:
        raise InvalidArgumentError(
            f"phase {phase.number or phase} has a color group: a strategy is assessed on "
            "phases of numbers only (sets and runs)"
        )
    if rules.holds != Holds.FREE:
        raise InvalidArgumentError("a strategy is assessed with free holds (the default rule)")
    dice = layout.dice if isinstance(layout, Layout) else tuple(layout)
    if isinstance(layout, Layout) and phase.number is not None:
        optimum = cached_solution(phase, Objective.COMPLETE, rules, layout)
        space = optimum.space
        best = final_scores(phase, space, rules)
    else:  # a reduced game: solved here (small)
        space = StateSpace.build(dice, VALUE)
        best = final_scores(phase, space, rules)
        first, second = lexicographic_utilities(best, Objective.COMPLETE)
        optimum = solve_utility(space, first, rules, second=second)
    shared = Counter(k for typ in space.types for k in typ.faces) - Counter(range(11))
    if shared:
        raise InvalidArgumentError(
            f"the number {_text(min(shared))} shows on two kinds of dice: a roll of numbers "
            "would not say which dice to keep"
        )
    return _Game(phase, dice, rules, space, best, optimum)


def _text(key: int) -> str:
    return "W" if key == 0 else str(key)


def _order(key: int) -> int:
    return -key if key else 1  # high to low, W last


def _faces(space: StateSpace, gid: int) -> tuple[str, ...]:
    keys = [k for _, k in space.faces_of(int(gid))]
    return tuple(_text(k) for k in sorted(keys, key=_order))


_KEYS = {**{str(v): v for v in range(1, 11)}, "W": 0, "w": 0}  # the usual texts, fast


def _kept_keys(keep: Any, roll: tuple[str, ...], rolls_left: int) -> list[int]:
    """The numbers a strategy returned (0 for W), from texts, numbers or faces; an
    :class:`~phase10math.errors.InvalidStrategyError` for anything else."""
    if keep is None:
        return []
    if isinstance(keep, str):
        keep = keep.split()
    elif isinstance(keep, Face):
        keep = [keep]
    out = []
    try:
        for item in keep:
            if isinstance(item, str) and item in _KEYS:
                out.append(_KEYS[item])
            elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
                out.append(parse_faces([str(int(item))])[0].value)
            else:
                item = [item] if isinstance(item, Face) else str(item)
                out += [f.value for f in parse_faces(item)]
    except Exception as exc:  # not faces at all: say what came back
        raise InvalidStrategyError(
            f"strategy(roll={' '.join(roll)}, rolls_left={rolls_left}) returned {keep!r}, "
            f"which is not a list of dice ({exc})"
        ) from None
    return out


def strategy_policy(
    strategy: Strategy,
    phase: Phase | int | str,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    rules: Rules = DEFAULT_RULES,
) -> dict[int, np.ndarray]:
    """The strategy as a fixed policy of the turn engine: ``{rolls left: hold id per roll
    state}`` (``full_ids`` order), asking the strategy once per distinct roll and number of
    rolls left. Raises :class:`~phase10math.errors.InvalidStrategyError` naming the first
    roll where the strategy returns something that is not a hold of that roll."""
    return _policy(strategy, _game(phase, layout, rules))


def _policy(strategy: Strategy, game: _Game) -> dict[int, np.ndarray]:
    if not callable(strategy):
        raise InvalidStrategyError(f"a strategy is a function; got {type(strategy).__name__}")
    space = game.space
    have = np.zeros((len(space.full_ids), 11), dtype=np.int64)  # per roll: dice per number
    for t, counts in enumerate(space.counts_per_type(space.full_ids)):
        have[:, list(space.types[t].faces)] += counts
    order = sorted(range(11), key=_order)
    rolls = [tuple(_text(k) for k in order for _ in range(row[k])) for row in have.tolist()]
    holds = {}
    for r in range(game.rules.rolls - 1, 0, -1):
        kept = np.zeros_like(have)
        for i, roll in enumerate(rolls):
            try:
                keep = strategy(roll, r, game.argument)
            except Exception as exc:  # the student's bug, named with the roll that showed it
                raise InvalidStrategyError(
                    f"strategy(roll={' '.join(roll)}, rolls_left={r}) raised "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            for k in _kept_keys(keep, roll, r):
                kept[i, k] += 1
        bad = np.flatnonzero((kept > have).any(axis=1))
        if bad.size:
            i = int(bad[0])
            shown = " ".join(_text(k) for k in order for _ in range(kept[i, k]))
            raise InvalidStrategyError(
                f"the strategy kept {shown} but the roll is {' '.join(rolls[i])}: a hold keeps "
                f"dice of the roll (strategy(roll={' '.join(rolls[i])}, rolls_left={r}))"
            )
        holds[r] = space.ids_of([kept[:, list(t.faces)] for t in space.types])
    return holds


# --------------------------------------------------------------------------- exact values


def _finals(game: _Game) -> tuple[np.ndarray, np.ndarray]:
    made = (game.best >= 0).astype(np.int64)
    return made, np.maximum(game.best, 0).astype(np.int64)


def _values(game: _Game, holds: dict[int, np.ndarray]) -> tuple[Fraction, Fraction]:
    engine = engine_for(game.space, game.rules)
    made, score = _finals(game)
    R = game.rules.rolls
    return engine.policy_value(made, holds, R), engine.policy_value(score, holds, R)


def _transitions(space: StateSpace, t: int) -> np.ndarray:
    """``A[i, j]``: the chance that rolling the dice type ``t``'s sub-multiset ``i`` lacks
    gives the full multiset ``j`` (of that type's full multisets, in ``sub`` order)."""
    typ, sub = space.types[t], space.sub[t].astype(np.int64)
    full = sub[sub.sum(axis=1) == typ.count]
    diff = full[None, :, :] - sub[:, None, :]
    ok = (diff >= 0).all(axis=2)
    d = np.where(ok[..., None], diff, 0)
    lf = np.vectorize(math.lgamma)
    logp = lf(d.sum(axis=2) + 1.0) - lf(d + 1.0).sum(axis=2)
    logp += (d * np.log(np.array(typ.weights) / 6.0)).sum(axis=2)
    return np.where(ok, np.exp(logp), 0.0)


def _reach(game: _Game, holds: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """Per rolls left, the chance that the strategy meets each roll state in a turn."""
    space = game.space
    sizes = [len(s) for s in space.sub]
    A = [_transitions(space, t) for t in range(len(sizes))]
    full_pos = [np.cumsum(s.sum(axis=1) == typ.count) - 1 for s, typ in zip(space.sub, space.types)]
    digits = [full_pos[t][space.digits_of(t, space.full_ids)] for t in range(len(sizes))]
    R = game.rules.rolls
    reach = {R - 1: space.roll_weights.astype(np.float64) / 6.0**space.n_dice}
    for r in range(R - 1, 1, -1):
        mass = np.zeros(space.n_states)
        np.add.at(mass, holds[r], reach[r])
        grid = mass.reshape(sizes)
        for t, a in enumerate(A):  # roll the missing dice, one type at a time
            grid = np.moveaxis(np.tensordot(grid, a, axes=([t], [0])), -1, t)
        reach[r - 1] = grid[tuple(digits)]
    return reach


def _losses(
    game: _Game, holds: dict[int, np.ndarray], top: int
) -> tuple[list[Loss], dict[int, float]]:
    """The ``top`` rolls of the largest weighted loss, and per rolls left the sum of all
    weighted losses (together the whole gap in P(complete): the performance difference
    identity)."""
    space, opt = game.space, game.optimum
    reach = _reach(game, holds)
    found, total = [], {}
    for r, ids in holds.items():
        best = np.asarray(opt.roll_arg[r])
        values = np.asarray(opt.hold_num[r], dtype=np.float64) / float(opt.denominator(r))
        loss = values[best] - values[ids]
        weighted = reach[r] * loss
        total[r] = float(weighted.sum())
        for pos in np.argsort(-weighted, kind="stable")[:top]:
            if weighted[pos] > 0:
                found.append((float(weighted[pos]), r, int(pos), float(loss[pos])))
    found.sort(key=lambda x: -x[0])
    rows = []
    for _, r, pos, loss in found[:top]:
        text = [" ".join(_faces(space, int(g))) for g in (space.full_ids[pos], holds[r][pos])]
        best = " ".join(_faces(space, int(opt.roll_arg[r][pos])))
        rows.append(Loss(text[0], r, text[1], best, float(reach[r][pos]), loss))
    return rows, total


def _simulate(game: _Game, holds: dict[int, np.ndarray], turns: int, seed: int) -> Simulated:
    """``turns`` seeded turns on the physical dice, the final dice scored by the meld engine."""
    played = replace(game.optimum, roll_arg=holds)
    prof = play_physical_turns(played, game.dice, turns, seed)
    scores = best_scores(game.phase, prof, game.rules)
    made = int((scores >= 0).sum())
    ci = binomtest(made, turns).proportion_ci(method="wilson")
    mean = float(np.maximum(scores, 0).mean())
    return Simulated(turns, seed, made, mean, (float(ci.low), float(ci.high)))


# --------------------------------------------------------------------------- the API


def assess_strategy(
    strategy: Strategy,
    phase: Phase | int | str,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    rules: Rules = DEFAULT_RULES,
    turns: int = 20_000,
    seed: int = 2026,
    top: int = 20,
) -> Assessment:
    """The strategy's exact P(complete) and E[score] on ``phase`` (played on ``layout``),
    the optimum beside them, the rolls where it loses (largest weighted loss first) and,
    with ``turns`` > 0, a seeded simulation of that many turns; ``top``: how many rolls the
    losses list."""
    turns = check_int(turns, "turns", 0, 10**7, InvalidArgumentError)
    seed = check_seed(seed)
    top = check_int(top, "top", 0, 10**6, InvalidArgumentError)
    game = _game(phase, layout, rules)
    holds = _policy(strategy, game)
    p, e = _values(game, holds)
    opt = game.optimum
    sim = _simulate(game, holds, turns, seed) if turns > 0 else None
    losses, explained = _losses(game, holds, top)
    return Assessment(game.phase, p, e, opt.value(0), opt.value(1), losses, explained, sim)


def solver_strategy(
    phase: Phase | int | str,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    rules: Rules = DEFAULT_RULES,
) -> Strategy:
    """The solver's completion-optimal turn written as a strategy function (what a hand-in
    would have to match): the best hold of every roll, ties to the larger hold."""
    game = _game(phase, layout, rules)
    space, sol = game.space, game.optimum

    def strategy(roll: tuple[str, ...], rolls_left: int, phase: Any) -> list[str]:
        have = Counter(_KEYS[f] for f in roll)
        gid = space.state_id([[have[k] for k in t.faces] for t in space.types])
        return list(_faces(space, sol.best_hold_id(gid, rolls_left)))

    return strategy


def grade(
    submissions: Mapping[str, Strategy],
    phase: Phase | int | str,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    rules: Rules = DEFAULT_RULES,
) -> list[dict[str, Any]]:
    """Every hand-in evaluated exactly against the optimum computed now, ranked by
    P(complete), then E[score]: rows with ``name``, ``p_complete``, ``e_score`` (Fractions),
    ``share`` (of the optimum's P(complete)), ``gap`` (percentage points) and ``refused``
    (why a hand-in could not be evaluated, else None); refused hand-ins last."""
    if not isinstance(submissions, Mapping) or not all(isinstance(n, str) for n in submissions):
        raise InvalidArgumentError(
            f"submissions={submissions!r:.60}; allowed: a dict of names to strategy functions"
        )
    game = _game(phase, layout, rules)
    best = game.optimum.value(0)
    rows = []
    for name, strategy in submissions.items():
        try:
            p, e = _values(game, _policy(strategy, game))
        except Exception as exc:  # a hand-in's own bug is its row, not the grader's crash
            rows.append({"name": name, "refused": f"{type(exc).__name__}: {exc}"})
            continue
        row = {"name": name, "p_complete": p, "e_score": e, "refused": None}
        rows.append({**row, "share": p / best, "gap": 100 * float(best - p)})
    rows.sort(
        key=lambda r: (r["refused"] is not None, -r.get("p_complete", 0), -r.get("e_score", 0))
    )
    return rows


def load_hand_in(path: str | Path, name: str = "strategy") -> Strategy:
    """The function ``name`` of a hand-in: a Python file, or a notebook whose code cells tagged
    ``strategy`` (all code cells where none is tagged; lines of IPython magics skipped) define
    it. The hand-in's code runs here: grade in a throwaway account or container. Raises
    :class:`~phase10math.errors.InvalidStrategyError` when the file does not define it."""
    if not isinstance(path, (str, Path)) or not str(path) or not isinstance(name, str):
        raise InvalidArgumentError(
            f"load_hand_in(path={path!r:.60}, name={name!r:.40}); allowed: a file's path and "
            "a function's name"
        )
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        cells = json.loads(text)["cells"] if path.suffix == ".ipynb" else []
        cells = [c for c in cells if c["cell_type"] == "code"]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise InvalidStrategyError(f"{path.name}: cannot be read as a hand-in ({exc})") from None
    if path.suffix == ".ipynb":
        tagged = [c for c in cells if "strategy" in c.get("metadata", {}).get("tags", [])]
        sources = ["".join(c["source"]) for c in tagged or cells]
        lines = "\n".join(sources).splitlines()
        text = "\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!")))
    space: dict[str, Any] = {"__name__": "hand_in"}
    try:
        exec(compile(text, str(path), "exec"), space)  # the hand-in's code, by design
    except Exception as exc:
        raise InvalidStrategyError(
            f"{path.name} does not run: {type(exc).__name__}: {exc}"
        ) from None
    if not callable(space.get(name)):
        raise InvalidStrategyError(f"{path.name} defines no function {name}()")
    return space[name]


def class_table(rows: Iterable[Mapping[str, Any]]) -> str:
    """The rows of :func:`grade` as a Markdown table, ranked."""
    ok = isinstance(rows, (list, tuple)) and all(
        isinstance(r, Mapping)
        and "name" in r
        and (r.get("refused") or all(k in r for k in ("p_complete", "e_score", "share", "gap")))
        for r in rows
    )
    if not ok:
        raise InvalidArgumentError(f"rows={rows!r:.60}; allowed: the rows grade() returns")
    lines = [
        "| rank | hand-in | P(complete) | E[score] | of the optimum | behind it |",
        "|---|---|---|---|---|---|",
    ]
    for i, r in enumerate(rows, 1):
        if r.get("refused"):
            lines.append(f"| - | {r['name']} | refused: {r['refused']} | | | |")
            continue
        lines.append(
            f"| {i} | {r['name']} | {100 * float(r['p_complete']):.2f}% | "
            f"{float(r['e_score']):.2f} | {100 * float(r['share']):.1f}% | "
            f"{r['gap']:.2f} points |"
        )
    return "\n".join(lines)
