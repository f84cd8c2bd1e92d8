"""The meld engine: does a final roll complete a phase, with what best score, and how.

The engine works on *profiles*: an integer array ``counts[value, color]`` (values 0..10, 0 = W;
colors r, o, b, g) that says how many of the ten dice show each face. Whether a phase is made,
and its best score, depend only on that profile, so the solver evaluates every distinct
profile at once (:func:`best_scores`, vectorised over profiles with numpy).

How it works. A *placement* fixes the number of every set and the start of every run, which
gives a demand ``d[n]`` of dice showing n. Real dice are never worse than wilds in a number
slot, so ``min(count[n], d[n])`` real dice fill the number slots and wilds fill the rest.
A color group of k dice of color x then takes the x-colored dice that the number slots do not
need ("surplus", best values first); if there are fewer than k, each missing die costs one more
wild (an x-colored die moves over from a number slot and a wild takes its place, or an
x-colored wild joins the group directly). The best score is the maximum over placements.

>>> from phase10math.dice.faces import parse_faces
>>> m = explain(1, parse_faces("8 8 8 10 W W 1 2 5 6"))
>>> m.complete, m.score
(True, 34)
>>> print(m)
phase 1 (2 sets of 3): complete, score 34
  set of 3: 8 8 8
  set of 3: 10 W(=10) W(=10)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from phase10math._base.checks import check_int, public
from phase10math.dice.faces import COLORS, WILD, Face, parse_faces
from phase10math.dice.phases import Phase, as_phase, require_colors
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidDiceError, StateSpaceTooLargeError

VALUES = np.arange(11)  # value index 0 (W) .. 10
NOT_COMPLETE = -1


# --------------------------------------------------------------------------- placements


@dataclass(frozen=True)
class Placement:
    """Numbers for the sets, starts for the runs; ``demand[n]`` dice showing n are needed."""

    set_numbers: tuple[int, ...]
    run_starts: tuple[int, ...]
    demand: tuple[int, ...]  # length 11, index 0 unused


@cache
def placements(phase: Phase, sets_may_share_number: bool = True) -> tuple[Placement, ...]:
    """Every distinct placement of a phase's sets and runs (one per distinct demand vector).

    >>> len(placements(as_phase(1)))  # two sets of 3 on numbers n1 <= n2
    55
    """
    sets = [g.size for g in phase.groups if g.kind == "set"]
    runs = [g.size for g in phase.groups if g.kind == "run"]
    seen: dict[tuple[int, ...], Placement] = {}
    # groups of one kind and size are interchangeable: their numbers/starts are chosen as
    # non-decreasing tuples (a multiset), not in every order
    set_choices = _ordered_choices(sets, lambda k: range(1, 11))
    run_choices = list(_ordered_choices(runs, lambda k: range(1, 12 - k)))
    for nums in set_choices:
        if not sets_may_share_number and len(set(nums)) < len(nums):
            continue
        for starts in run_choices:
            d = [0] * 11
            for k, n in zip(sets, nums):
                d[n] += k
            for k, s in zip(runs, starts):
                for n in range(s, s + k):
                    d[n] += 1
            key = tuple(d)
            if key not in seen:
                seen[key] = Placement(tuple(nums), tuple(starts), key)
    return tuple(seen.values())


def _ordered_choices(sizes: list[int], labels) -> Iterable[tuple[int, ...]]:
    """Label tuples for groups of the given sizes, one per multiset of labels among groups of
    equal size (in the order of ``sizes``)."""
    classes: dict[int, list[int]] = {}
    for i, k in enumerate(sizes):
        classes.setdefault(k, []).append(i)
    parts = [
        list(itertools.combinations_with_replacement(labels(k), len(idx)))
        for k, idx in classes.items()
    ]
    for combo in itertools.product(*parts):
        out = [0] * len(sizes)
        for idx, labs in zip(classes.values(), combo, strict=True):
            for i, lab in zip(idx, labs, strict=True):
                out[i] = lab
        yield tuple(out)


# --------------------------------------------------------------------------- profiles


def profile(faces: Iterable[Face | str], need_color: bool = False) -> np.ndarray:
    """The ``(11, 4)`` count array of some faces (a face without color counts as red unless
    ``need_color``, in which case it is an error).

    >>> int(profile(parse_faces("W W 5"))[0].sum())
    2
    """
    faces = parse_faces(faces) if isinstance(faces, str) else tuple(faces)
    counts = np.zeros((11, 4), dtype=np.int16)
    for i, f in enumerate(faces, 1):
        if not isinstance(f, Face):
            f = parse_faces([f])[0]
        if f.color is None:
            if need_color:
                raise InvalidDiceError(
                    f"die {i} ({f}) has no color; this phase counts colors, so write the "
                    "color letter r/o/b/g after the number (e.g. 7r)"
                )
            ci = 0
        else:
            ci = COLORS.index(f.color)
        counts[f.value, ci] += 1
    return counts


def _at_least(avail: np.ndarray) -> np.ndarray:
    """``out[n-1]``: how many of the dice counted in ``avail[:, m-1]`` (m = 1..10) show at
    least n (int16, one contiguous row per n)."""
    return _at_least_rows(avail.T)


def _at_least_rows(rows: np.ndarray) -> np.ndarray:
    """:func:`_at_least` of the counts given one row per value (``rows[n-1]``, n = 1..10)."""
    out = np.empty(rows.shape, dtype=np.int16)
    out[9] = rows[9]
    for n in range(8, -1, -1):
        np.add(out[n + 1], rows[n], out=out[n], casting="unsafe")
    return out


def _top_k_score(
    avail: np.ndarray | None, k: int, at_least: np.ndarray | None = None
) -> np.ndarray:
    """Sum of the k highest values from per-value counts ``avail[:, n-1]`` (n = 1..10).

    A value v adds 1 for each n = 1..v, so the k highest sum to the count, over n, of those
    showing at least n: ``sum_n min(#(value >= n), k)`` (one pass, no loop over the values).

    >>> _top_k_score(np.array([[0, 1, 0, 0, 2, 0, 0, 0, 0, 1]]), 3).tolist()  # 2 5 5 10
    [20]
    """
    c = _at_least(avail) if at_least is None else at_least
    return np.minimum(c, k).sum(axis=0, dtype=np.int64)


def _placement_scores(
    counts: np.ndarray, pl: Placement, color: int | None, k: int, tot: np.ndarray | None = None
) -> np.ndarray:
    """Best score of every profile under one placement (and color group), or -1.

    ``tot`` (the per-value totals ``counts.sum(axis=2)``) may be passed in when it is reused."""
    if tot is None:
        tot = counts.sum(axis=2, dtype=np.int32)  # (P, 11)
    w = tot[:, 0]
    d = np.asarray(pl.demand[1:], dtype=np.int32)
    nz = np.flatnonzero(d)
    used = np.minimum(tot[:, 1:][:, nz], d[nz])
    deficit = int(d.sum()) - used.sum(axis=1, dtype=np.int32)
    score = used @ (nz + 1).astype(np.int32)
    if color is None:
        ok = deficit <= w
    else:
        b = counts[:, 1:, color].astype(np.int32)
        surplus = np.clip(np.minimum(b, tot[:, 1:] - d), 0, None)
        s = surplus.sum(axis=1, dtype=np.int32)
        contested = b.sum(axis=1, dtype=np.int32) - s
        short = np.clip(k - s, 0, None)
        ok = (deficit + short <= w) & (short <= contested + counts[:, 0, color])
        score = score + _top_k_score(surplus, k)
    return np.where(ok, score, NOT_COMPLETE)


@public
def best_scores(
    phase: Phase | int | str,
    counts: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    complete_only: bool = False,
    chunk: int = 1 << 18,
    group_colors: Sequence[int] | None = None,
) -> np.ndarray:
    """Best score of each profile in ``counts`` (shape ``(P, 11, 4)``), -1 where not complete.
    With ``complete_only`` the result is 0 (complete) or -1, without the scoring work.
    ``group_colors`` (color indices into ``COLORS``) restricts the color of a phase's one color
    group to these (default: any); the best score is the maximum over the colors.

    >>> c = profile(parse_faces("8 8 8 10 W W 1 2 5 6"))[None]
    >>> best_scores(1, c).tolist()
    [34]
    """
    phase = as_phase(phase)
    chunk = check_int(chunk, "chunk", 1, error=InvalidDiceError)
    counts = np.asarray(counts)
    if counts.ndim == 2:
        counts = counts[None]
    if counts.ndim != 3 or counts.shape[1:] != (11, len(COLORS)):
        raise InvalidDiceError(
            f"counts of shape {counts.shape}: expected (11, {len(COLORS)}) or (n, 11, "
            f"{len(COLORS)}), count arrays of profile()"
        )
    colors = [g.size for g in phase.groups if g.kind == "color"]
    if len(colors) > 1 and not phase.uses_numbers:
        out = _color_only_scores(counts, colors)
        return np.where(out >= 0, 0, -1) if complete_only else out
    if len(colors) > 1:
        check_generic_work(phase, counts.shape[0])
        out = np.array([_generic_best(phase, c, rules) for c in counts], dtype=np.int64)
        return np.where(out >= 0, 0, -1) if complete_only else out
    pls = placements(phase, rules.sets_may_share_number)
    out = np.empty(counts.shape[0], dtype=np.int64)
    for lo in range(0, counts.shape[0], chunk):
        part = counts[lo : lo + chunk].astype(np.int16)
        out[lo : lo + chunk] = _best_chunk(
            part, pls, colors[0] if colors else 0, complete_only, group_colors
        )
    return out


def color_demands(sizes: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """Every way to give the color groups of ``sizes`` colors, as dice wanted per color.

    Groups given one color merge (two groups of 2 in red want 4 red dice):

    >>> sorted(color_demands([2, 2]))[:3]
    [(0, 0, 0, 4), (0, 0, 2, 2), (0, 0, 4, 0)]
    """
    out = set()
    for cs in itertools.product(range(len(COLORS)), repeat=len(sizes)):
        d = [0] * len(COLORS)
        for c, k in zip(cs, sizes):
            d[c] += k
        out.add(tuple(d))
    return sorted(out)


def _color_only_scores(counts: np.ndarray, sizes: Sequence[int]) -> np.ndarray:
    """Best score of every profile for a phase made only of color groups, or -1.

    The dice of different colors are disjoint, so with each group's color chosen the best
    score is, per color, the sum of its ``d`` highest numbers (its wilds fill the rest, worth
    nothing); feasible when the color has ``d`` dice. Polynomial: at most 4 x 11 top-k sums and
    one maximum over the color choices (:func:`color_demands`)."""
    by_face = np.moveaxis(counts, 0, -1).astype(np.int8, order="C")  # (11, 4, P): one pass
    at_least = [_at_least_rows(by_face[1:, x]) for x in range(len(COLORS))]
    # dice of each color, wilds included: those showing at least 1, and the wilds
    per_color = [at_least[x][0] + by_face[0, x] for x in range(len(COLORS))]
    # value[x, d]: the d highest numbers of color x, or far below zero where color x has
    # fewer than d dice; a color choice's score is then one sum (int16: at most 100 points)
    value: dict[tuple[int, int], np.ndarray] = {}
    best = np.full(counts.shape[0], _INFEASIBLE, dtype=np.int16)
    score = np.empty(counts.shape[0], dtype=np.int16)
    for demand in color_demands(sizes):
        score.fill(0)
        for x, d in enumerate(demand):
            if d:
                if (x, d) not in value:
                    top = _top_k_score(None, d, at_least[x]).astype(np.int16)
                    value[x, d] = np.where(per_color[x] >= d, top, _INFEASIBLE)
                score += value[x, d]
        np.maximum(best, score, out=best)
    return np.where(best >= 0, best, NOT_COMPLETE).astype(np.int64)


#: A color group's value where its color has too few dice: four of them still fit in int16
#: and stay below zero whatever the other groups score.
_INFEASIBLE = np.int16(-5000)


#: The most profile x assignment steps the exhaustive meld search (a phase with number groups
#: and several color groups) is allowed before it is refused; ``docs/cli-bounds.md``.
MAX_GENERIC_WORK = 2_000_000


def generic_work(phase: Phase, profiles: int) -> int:
    """An upper estimate of the exhaustive search's steps over ``profiles`` rolls: the ways to
    choose each group's dice from ten (the product of binomials), times the profiles."""
    left, ways = 10, 1
    for g in phase.groups:
        ways *= math.comb(left, g.size)
        left -= g.size
    return ways * profiles


#: The fewest distinct rolls any turn solve scores (ten dice of one kind, six faces each).
FEWEST_SOLVE_ROLLS = math.comb(15, 5)


def check_solvable(phase: Phase) -> None:
    """Refuse at once, before any state space is built, a phase whose meld search over a whole
    turn's rolls would pass :data:`MAX_GENERIC_WORK` (see :func:`check_generic_work`).

    >>> check_solvable(as_phase("2 of one color + 2 of one color"))  # closed form: fine
    >>> check_solvable(as_phase("1 run of 3 + 2 of one color + 2 of one color"))
    Traceback (most recent call last):
    ...
    phase10math.errors.StateSpaceTooLargeError: phase '1 run of 3 + 2 of one color + 2 of one \
color' mixes sets or runs with 2 color groups: its meld search over 3,003 rolls needs about \
75,675,600 steps, past the bound of 2,000,000 (docs/cli-bounds.md); score single rolls with \
explain/score, or use at most one color group beside sets and runs
    """
    if phase.uses_numbers and sum(g.kind == "color" for g in phase.groups) > 1:
        check_generic_work(phase, FEWEST_SOLVE_ROLLS)


def check_generic_work(phase: Phase, profiles: int) -> None:
    """Refuse at once a phase with number groups and several color groups whose exhaustive
    meld search over ``profiles`` rolls would pass :data:`MAX_GENERIC_WORK`."""
    work = generic_work(phase, profiles)
    if work > MAX_GENERIC_WORK:
        n_colors = sum(g.kind == "color" for g in phase.groups)
        raise StateSpaceTooLargeError(
            f"phase {phase.text!r} mixes sets or runs with {n_colors} "
            f"color groups: its meld search over {profiles:,} rolls needs about {work:,} steps, "
            f"past the bound of {MAX_GENERIC_WORK:,} (docs/cli-bounds.md); score single rolls "
            "with explain/score, or use at most one color group beside sets and runs"
        )


def _best_chunk(
    counts: np.ndarray, pls, k: int, complete_only: bool, group_colors=None
) -> np.ndarray:
    """:func:`best_scores` on one chunk of int16 profiles: the formulas of
    :func:`_placement_scores`, on value-major contiguous rows (one array per number), with the
    per-color arrays computed once."""
    P = counts.shape[0]
    cv = np.ascontiguousarray(counts.transpose(1, 2, 0))  # (11, 4, P)
    num = cv.sum(axis=1, dtype=np.int16)  # (11, P), num[0] = wilds
    w = num[0]
    best = np.full(P, NOT_COMPLETE, dtype=np.int16)
    colors = (range(4) if group_colors is None else group_colors) if k else [None]
    btot = {x: cv[1:, x].sum(axis=0, dtype=np.int16) for x in colors if x is not None}
    zero = np.zeros(P, dtype=np.int16)
    for pl in pls:
        d = pl.demand
        nz = [n for n in range(1, 11) if d[n]]
        used = {n: np.minimum(num[n], np.int16(d[n])) for n in nz}
        deficit = np.int16(sum(d)) - sum(used.values(), zero)
        numscore = None if complete_only else sum((np.int16(n) * used[n] for n in nz), zero)
        for x in colors:
            if x is None:
                ok = deficit <= w
                score = numscore
            else:
                b = cv[:, x]
                sur = {n: np.maximum(np.minimum(b[n], num[n] - np.int16(d[n])), 0) for n in nz}
                s = btot[x] - sum((b[n] - sur[n] for n in nz), zero)
                short = np.maximum(np.int16(k) - s, 0)
                ok = (deficit + short <= w) & (short <= (btot[x] - s) + b[0])
                if not complete_only:
                    left = np.full(P, k, dtype=np.int16)
                    score = numscore.copy()
                    for n in range(10, 0, -1):
                        take = np.minimum(sur[n] if n in sur else b[n], left)
                        score += np.int16(n) * take
                        left -= take
            if complete_only:
                best[ok] = 0
            else:
                np.maximum(best, np.where(ok, score, np.int16(NOT_COMPLETE)), out=best)
    return best.astype(np.int64)


# --------------------------------------------------------------------------- explanation


@dataclass(frozen=True)
class GroupMeld:
    """One group of a meld: which dice, what each W stands for, and the number/start/color."""

    kind: str
    size: int
    dice: tuple[Face, ...]
    stands_for: tuple[int | str | None, ...]  # per die: the number (or color) a W stands for
    label: int | str  # set number, run start, or color letter

    @property
    def score(self) -> int:
        return sum(f.points for f in self.dice)

    def __str__(self) -> str:
        shown = " ".join(
            f"{f}(={s})" if f.is_wild and s is not None else str(f)
            for f, s in zip(self.dice, self.stands_for)
        )
        name = (
            f"{self.size} of one color" if self.kind == "color" else f"{self.kind} of {self.size}"
        )
        return f"{name}: {shown}"


@dataclass(frozen=True)
class Meld:
    """The result of checking a final roll against a phase."""

    phase: Phase
    complete: bool
    score: int  # 0 when not complete
    groups: tuple[GroupMeld, ...] = field(default=())
    unused: tuple[Face, ...] = field(default=())

    def to_dict(self) -> dict:
        return {
            "phase": self.phase.number,
            "phase_text": self.phase.text,
            "complete": self.complete,
            "score": self.score,
            "groups": [
                {
                    "kind": g.kind,
                    "size": g.size,
                    "label": g.label,
                    "dice": [str(f) for f in g.dice],
                    "wild_stands_for": [
                        s if f.is_wild else None for f, s in zip(g.dice, g.stands_for)
                    ],
                    "score": g.score,
                }
                for g in self.groups
            ],
            "unused": [str(f) for f in self.unused],
        }

    def __str__(self) -> str:
        head = (
            f"phase {self.phase.number} ({self.phase.text})"
            if self.phase.number
            else (f"phase ({self.phase.text})")
        )
        if not self.complete:
            return f"{head}: not complete"
        return "\n".join(
            [f"{head}: complete, score {self.score}"] + [f"  {g}" for g in self.groups]
        )


def _check_showable(faces: Sequence[Face]) -> None:
    """Ten dice are six high dice (5-10) and four low dice (1-4, W): refuse rolls no set of
    dice can show (e.g. ten 10s)."""
    low = sum(1 for f in faces if f.value == WILD or f.value <= 4)
    if len(faces) - low > 6:
        raise InvalidDiceError(
            f"{len(faces) - low} dice show 5-10 but only the 6 high dice show those numbers"
        )
    if low > 4:
        raise InvalidDiceError(f"{low} dice show 1-4 or W but only the 4 low dice show those")


@public
def explain(
    phase: Phase | int | str, faces: Sequence[Face | str] | str, rules: Rules = DEFAULT_RULES
) -> Meld:
    """Check a final roll of ten dice: complete?, best score, and the dice of each group."""
    phase = as_phase(phase)
    faces = parse_faces(faces)
    if len(faces) != 10:
        raise InvalidDiceError(f"a final roll has 10 dice; got {len(faces)}")

    check_rules(rules)
    _check_showable(faces)
    require_colors(faces, phase)
    colors = [g for g in phase.groups if g.kind == "color"]
    if len(colors) > 1:
        return _generic_explain(phase, faces, rules)
    counts = profile(faces)[None]
    best, choice = NOT_COMPLETE, None
    for pl in placements(phase, rules.sets_may_share_number):
        for x in range(4) if colors else [None]:
            s = int(_placement_scores(counts, pl, x, colors[0].size if colors else 0)[0])
            if s > best:
                best, choice = s, (pl, x)
    if best < 0:
        return Meld(phase, False, 0, (), tuple(faces))
    pl, x = choice
    return _assign(phase, faces, pl, x, best)


def _assign(ph: Phase, faces: Sequence[Face], pl: Placement, x: int | None, best: int) -> Meld:
    """Build the groups of the best placement (mirrors :func:`_placement_scores`)."""
    xc = COLORS[x] if x is not None else None
    pool = sorted(faces, key=lambda f: (-f.value, f.color == xc))
    slots = _fill_number_slots(pool, pl, xc)
    color_dice = _take_color_dice(ph, pool, slots, xc) if xc is not None else []
    _fill_slots_with_wilds(pool, slots, pl, xc)
    groups = _group_melds(ph, pl, slots, color_dice, xc)
    meld = Meld(ph, True, best, tuple(groups), tuple(pool))
    assert sum(gm.score for gm in groups) == best, "internal error: assignment does not match score"
    return meld


def _fill_number_slots(pool: list[Face], pl: Placement, xc: str | None) -> dict[int, list[Face]]:
    """Real dice into the number slots the placement demands: non-x dice first, then x ones."""
    slots: dict[int, list[Face]] = {n: [] for n in range(1, 11)}
    for n in range(1, 11):
        need = pl.demand[n]
        for prefer_x in (False, True):
            for f in [f for f in pool if f.value == n and (f.color == xc) == prefer_x]:
                if len(slots[n]) < need:
                    slots[n].append(f)
                    pool.remove(f)
    return slots


def _take_color_dice(
    ph: Phase, pool: list[Face], slots: dict[int, list[Face]], xc: str
) -> list[Face]:
    """The color group's dice: surplus x dice, then x dice moved out of number slots, then x
    wilds."""
    k = next(g.size for g in ph.groups if g.kind == "color")
    surplus = sorted([f for f in pool if f.color == xc and not f.is_wild], key=lambda f: -f.value)
    color_dice = surplus[:k]
    for f in color_dice:
        pool.remove(f)
    for n in range(10, 0, -1):
        for f in [f for f in slots[n] if f.color == xc]:
            if len(color_dice) < k:
                slots[n].remove(f)
                color_dice.append(f)
    for f in [f for f in pool if f.is_wild and f.color == xc]:
        if len(color_dice) < k:
            color_dice.append(f)
            pool.remove(f)
    return color_dice


def _fill_slots_with_wilds(
    pool: list[Face], slots: dict[int, list[Face]], pl: Placement, xc: str | None
) -> None:
    """Wilds (non-x first) into the number slots still short of the placement's demand."""
    wilds = sorted([f for f in pool if f.is_wild], key=lambda f: f.color == xc)
    for n in range(1, 11):
        while len(slots[n]) < pl.demand[n]:
            f = wilds.pop(0)
            pool.remove(f)
            slots[n].append(f)


def _group_melds(
    ph: Phase,
    pl: Placement,
    slots: dict[int, list[Face]],
    color_dice: list[Face],
    xc: str | None,
) -> list[GroupMeld]:
    """One :class:`GroupMeld` per group of the phase, from the filled slots, in phase order."""
    groups: list[GroupMeld] = []
    set_iter = iter(pl.set_numbers)
    run_iter = iter(pl.run_starts)
    for g in ph.groups:
        if g.kind == "set":
            n = next(set_iter)
            dice = [slots[n].pop(0) for _ in range(g.size)]
            wild_as = tuple(n if f.is_wild else None for f in dice)
            groups.append(GroupMeld("set", g.size, tuple(dice), wild_as, n))
        elif g.kind == "run":
            s = next(run_iter)
            dice = [slots[n].pop(0) for n in range(s, s + g.size)]
            wild_as = tuple(s + i if f.is_wild else None for i, f in enumerate(dice))
            groups.append(GroupMeld("run", g.size, tuple(dice), wild_as, s))
        else:
            no_wilds = tuple(None for _ in color_dice)
            groups.append(GroupMeld("color", g.size, tuple(color_dice), no_wilds, xc))
    return groups


@public
def score(
    phase: Phase | int | str, faces: Sequence[Face | str] | str, rules: Rules = DEFAULT_RULES
) -> int | None:
    """Best score of a final roll, or None when the phase is not complete.

    >>> score(4, "1 2 3 4 5 6 7 8 8 8")  # the run 2..8
    35
    """
    m = explain(phase, faces, rules)
    return m.score if m.complete else None


# --------------------------------------------------------------------------- generic path


def _fits(kind: str, dice: Sequence[Face], size: int) -> list[int | str]:
    """Labels (set number / run start / color) under which ``dice`` form the group."""
    real = [f.value for f in dice if not f.is_wild]
    if kind == "set":
        return [real[0]] if real and len(set(real)) == 1 else ([] if real else list(range(1, 11)))
    if kind == "run":
        if len(set(real)) < len(real):
            return []
        return [s for s in range(1, 12 - size) if all(s <= v < s + size for v in real)]
    cols = {f.color for f in dice}
    return list(cols) if len(cols) == 1 else []


def _generic_search(ph: Phase, faces: Sequence[Face], rules: Rules):
    """Exhaustive search over assignments of dice to groups (used for phases with several
    color groups, where the closed form of :func:`_placement_scores` does not apply)."""
    best: list = [NOT_COMPLETE, None]
    groups = ph.groups

    def rec(gi: int, left: tuple[int, ...], acc: list, used_numbers: tuple[int, ...]) -> None:
        if gi == len(groups):
            total = sum(sum(faces[i].points for i in idx) for idx, _ in acc)
            if total > best[0]:
                best[0], best[1] = total, list(acc)
            return
        g = groups[gi]
        for idx in itertools.combinations(left, g.size):
            labels = _fits(g.kind, [faces[i] for i in idx], g.size)
            if g.kind == "set" and not rules.sets_may_share_number:
                labels = [n for n in labels if n not in used_numbers]
            if not labels:
                continue
            rest = tuple(i for i in left if i not in idx)
            un = used_numbers + ((labels[0],) if g.kind == "set" else ())
            rec(gi + 1, rest, acc + [(idx, labels[0])], un)

    rec(0, tuple(range(len(faces))), [], ())
    return best


def _generic_best(ph: Phase, counts: np.ndarray, rules: Rules) -> int:
    faces = [
        Face(int(v), COLORS[c])
        for v in range(11)
        for c in range(4)
        for _ in range(int(counts[v, c]))
    ]
    return _generic_search(ph, faces, rules)[0]


def _generic_explain(ph: Phase, faces: Sequence[Face], rules: Rules) -> Meld:
    total, acc = _generic_search(ph, faces, rules)
    if total < 0:
        return Meld(ph, False, 0, (), tuple(faces))
    used = {i for idx, _ in acc for i in idx}
    groups = []
    for g, (idx, label) in zip(ph.groups, acc):
        dice = tuple(faces[i] for i in idx)
        if g.kind == "run":
            real = {f.value for f in dice if not f.is_wild}
            free = iter(n for n in range(label, label + g.size) if n not in real)
            stands = tuple(next(free) if f.is_wild else None for f in dice)
        elif g.kind == "set":
            stands = tuple(label if f.is_wild else None for f in dice)
        else:
            stands = tuple(None for _ in dice)
        groups.append(GroupMeld(g.kind, g.size, dice, stands, label))
    unused = tuple(f for i, f in enumerate(faces) if i not in used)
    return Meld(ph, True, total, tuple(groups), unused)


def is_wild(f: Face) -> bool:  # small helper used by notebooks
    return f.value == WILD
