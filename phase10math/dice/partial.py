"""How far some dice go towards a phase: the best partial placement, a plain-words
description of a hold, and the greedy "keep what fits" baseline policy.

>>> from phase10math.dice.faces import parse_faces
>>> print(describe_progress(1, parse_faces("10 10 W"), parse_faces("10 10 W 5 6 7 1 2 3 8")))
keeps 10, 10, W: first set (10s) done; rerolls 7 dice for the second set
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phase10math._base.checks import public
from phase10math.dice.faces import COLOR_NAMES, COLORS, Face, parse_faces
from phase10math.dice.meld import Placement, placements, profile
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Rules

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"]  # MAX_GROUPS of a phase


@dataclass(frozen=True)
class GroupProgress:
    kind: str
    size: int
    label: int | str | None  # set number, run start, color
    have: int

    @property
    def done(self) -> bool:
        return self.have >= self.size


def _color_choices(ph: Phase):
    return list(range(4)) if ph.uses_color else [None]


def partial(
    phase: Phase | int | str, faces: Sequence[Face], rules: Rules = DEFAULT_RULES
) -> list[GroupProgress]:
    """The placement that uses the most of ``faces`` (ties: more points), per group."""
    phase = as_phase(phase)
    counts = profile(faces)
    best_key, best = None, None
    for pl in placements(phase, rules.sets_may_share_number):
        for x in _color_choices(phase):
            prog = _fill(phase, counts, pl, x)
            used = sum(min(g.have, g.size) for g in prog)
            key = (used, sum(g.done for g in prog))
            if best_key is None or key > best_key:
                best_key, best = key, prog
    return best


def _fill(ph: Phase, counts: np.ndarray, pl: Placement, x: int | None) -> list[GroupProgress]:
    tot = counts.sum(axis=1)
    left = tot.copy()
    wild = int(tot[0])
    xcnt = counts[:, x].copy() if x is not None else None
    out = []
    sets = iter(pl.set_numbers)
    runs = iter(pl.run_starts)
    for g in ph.groups:
        if g.kind == "set":
            n = next(sets)
            have = min(int(left[n]), g.size)
            left[n] -= have
            out.append([g, n, have])
        elif g.kind == "run":
            s = next(runs)
            have = 0
            for n in range(s, s + g.size):
                if left[n] > 0:
                    left[n] -= 1
                    have += 1
            out.append([g, s, have])
        else:
            out.append([g, COLORS[x], 0])
    if x is not None:
        # x-colored dice not used by the number groups
        spare = sum(min(int(xcnt[n]), int(left[n])) for n in range(1, 11))
        for item in out:
            if item[0].kind == "color":
                item[2] = min(spare, item[0].size)
                spare -= item[2]
    # wilds complete the groups closest to done first
    for item in sorted(out, key=lambda it: it[0].size - it[2]):
        g = item[0]
        take = min(wild if g.kind != "color" else min(wild, int(counts[0, x])), g.size - item[2])
        item[2] += take
        wild -= take
    prog = [GroupProgress(g.kind, g.size, lab, have) for g, lab, have in out]
    # among interchangeable groups (same kind and size) list the most advanced first
    for kind, size in {(g.kind, g.size) for g in ph.groups}:
        idx = [i for i, g in enumerate(ph.groups) if (g.kind, g.size) == (kind, size)]
        ranked = sorted((prog[i] for i in idx), key=lambda gp: -gp.have)
        for i, gp in zip(idx, ranked):
            prog[i] = gp
    return prog


def _group_name(ph: Phase, i: int) -> str:
    g = ph.groups[i]
    same = [j for j, h in enumerate(ph.groups) if h.kind == g.kind]
    kind = "color group" if g.kind == "color" else g.kind
    if len(same) == 1:
        return f"the {kind}"
    return f"{ORDINALS[same.index(i)]} {kind}"


def describe_progress(
    phase: Phase | int | str,
    keep: Sequence[Face],
    dice: Sequence[Face],
    rules: Rules = DEFAULT_RULES,
) -> str:
    """One line in plain words: what a hold keeps, what it already makes, what is rerolled."""
    phase = as_phase(phase)
    keep = list(keep)
    rerolled = len(dice) - len(keep)
    if not keep:
        return f"rerolls all {len(dice)} dice: nothing kept helps enough"
    prog = partial(phase, keep, rules)
    parts, todo = [], []
    for i, gp in enumerate(prog):
        name = _group_name(phase, i)
        label = ""
        if gp.kind == "set" and gp.have:
            label = f" ({gp.label}s)"
        elif gp.kind == "run" and gp.have:
            label = f" ({gp.label}-{gp.label + gp.size - 1})"
        elif gp.kind == "color" and gp.have:
            label = f" ({COLOR_NAMES[gp.label]})"
        if gp.done:
            parts.append(f"{name}{label} done")
        else:
            if gp.have:
                parts.append(f"{name}{label} {gp.have} of {gp.size}")
            todo.append(name if name.startswith("the ") else f"the {name}")
    shown = ", ".join(str(f) for f in keep)
    status = "; ".join(parts) if parts else "a start"
    if not todo:
        tail = "phase complete" + (f"; rerolls {rerolled} dice for more points" if rerolled else "")
        return f"keeps {shown}: {tail}"
    need = " and ".join(todo)
    if rerolled == 0:
        return f"keeps {shown}: {status}"
    return f"keeps {shown}: {status}; rerolls {rerolled} dice for {need}"


# --------------------------------------------------------------------------- greedy policy


def greedy_cells_value_major(
    cv: np.ndarray, d: np.ndarray, x: np.ndarray | None, k: int
) -> np.ndarray:
    """Kept counts per cell ``(11, 4, P)`` of the greedy's placements, for the value-major
    profiles ``cv`` ``(11, 4, P)`` (int16): profile p keeps for the placement of demand
    ``d[:, p]`` (``(11, P)``) and the color group (of ``k`` dice) in color ``x[p]`` (``x``
    None: no color group). Number slots take the colors other than x first (in color order),
    then x; spare x-colored dice fill the color group, highest first, then x-colored wilds;
    the other wilds fill the number slots left, in the same color order. Every step is one
    operation on all profiles (contiguous rows of P)."""
    P = cv.shape[2]
    # 1 where color c is the group's color x, else 0 (int16: masks by multiplication)
    is_x = None if x is None else [(x == c).astype(np.int16) for c in range(4)]
    keep = np.zeros_like(cv)
    need = np.array(d[1:], dtype=np.int16)
    for c in range(4):  # number slots: colors other than x first
        take = np.minimum(cv[1:, c], need)
        if is_x is not None:
            take -= take * is_x[c]
        keep[1:, c] = take
        need -= take
    if is_x is not None:
        xc = sum(cv[:, c] * is_x[c] for c in range(4))  # the x-colored dice of every value
        kx = np.zeros_like(xc)
        kx[1:] = np.minimum(xc[1:], need)
        need -= kx[1:]
    slots_left = need.sum(axis=0, dtype=np.int16)
    if is_x is not None:
        spare = xc[1:] - kx[1:]
        room = np.full(P, k, dtype=np.int16)
        for n in range(10, 0, -1):  # highest spare x-colored dice first
            take = np.minimum(spare[n - 1], room)
            kx[n] += take
            room -= take
        kx[0] = np.minimum(xc[0], room)  # x-colored wilds for the color group
    for c in range(4):  # remaining wilds fill number slots, x last
        take = np.minimum(cv[0, c], slots_left)
        if is_x is not None:
            take -= take * is_x[c]
        keep[0, c] = take
        slots_left -= take
    if is_x is not None:
        kx[0] += np.minimum(xc[0] - kx[0], slots_left)
        for c in range(4):  # keep[:, x] is still 0
            keep[:, c] += kx * is_x[c]
    return keep


def greedy_choices(ph: Phase | int | str, rules: Rules = DEFAULT_RULES) -> list[tuple]:
    """The greedy baseline's candidate placements ``(placement, color or None)``, in the order
    that breaks its ties (the first of the best wins)."""
    ph = as_phase(ph)
    k = sum(g.size for g in ph.groups if g.kind == "color")
    return [
        (pl, x)
        for pl in placements(ph, rules.sets_may_share_number)
        for x in (range(4) if k else [None])
    ]


CHOICE_BITS = 10  # greedy_codes: the choice index takes the low bits


def greedy_codes(
    ph: Phase | int | str,
    profiles: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    group_colors: Sequence[int] | None = None,
) -> np.ndarray:
    """For every profile, the greedy choice as one int32 code ``key << CHOICE_BITS | (1023 -
    index)`` (key: dice used * 1000 + points; index into :func:`greedy_choices`): the larger
    code is the greedy's preference, so the codes of several subsets of the choices combine
    by a maximum. ``group_colors`` restricts the choices to a color group of these colors."""
    ph = as_phase(ph)
    k = sum(g.size for g in ph.groups if g.kind == "color")
    choices = greedy_choices(ph, rules)
    assert len(choices) < 1 << CHOICE_BITS
    allowed = [ci for ci, (_, x) in enumerate(choices) if group_colors is None or x in group_colors]
    counts = np.asarray(profiles, dtype=np.int16)  # no copy when already int16
    choice, key = _greedy_choice(counts, [choices[ci] for ci in allowed], k)
    index = np.asarray(allowed, dtype=np.int32)[choice]
    return (key << CHOICE_BITS) | ((1 << CHOICE_BITS) - 1 - index)


def greedy_cells(
    ph: Phase | int | str, profiles: np.ndarray, codes: np.ndarray, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """Kept counts (shape of ``profiles``) of the greedy choices given by :func:`greedy_codes`
    (each profile's placement and color read from its code;
    :func:`greedy_cells_value_major`)."""
    counts = np.asarray(profiles, dtype=np.int16)  # no copy when already int16
    cv = np.ascontiguousarray(counts.transpose(1, 2, 0))
    keep = greedy_cells_value_major(cv, *greedy_demands(ph, codes, rules))
    return np.ascontiguousarray(keep.transpose(2, 0, 1))


def greedy_demands(
    ph: Phase | int | str, codes: np.ndarray, rules: Rules = DEFAULT_RULES
) -> tuple[np.ndarray, np.ndarray | None, int]:
    """``(d, x, k)`` of :func:`greedy_cells_value_major` for the choices given by
    :func:`greedy_codes`: each one's demand ``(11, P)``, its group color ``(P,)`` (None for a
    phase without a color group) and the color group's size."""
    ph = as_phase(ph)
    k = sum(g.size for g in ph.groups if g.kind == "color")
    choices = greedy_choices(ph, rules)
    index = (1 << CHOICE_BITS) - 1 - (np.asarray(codes).ravel() & ((1 << CHOICE_BITS) - 1))
    demand = np.array([pl.demand for pl, _ in choices], dtype=np.int16).T[:, index]
    x = np.array([c for _, c in choices], dtype=np.intp)[index] if k else None
    return demand, x, k


def greedy_keep(
    phase: Phase | int | str,
    profiles: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 1 << 18,
) -> np.ndarray:
    """The greedy baseline hold for many rolls at once: keep the dice that fit the placement
    using the most dice (ties: the most points), reroll the rest. Returns kept counts with the
    shape of ``profiles`` ``(P, 11, 4)``.

    >>> from phase10math.dice.faces import parse_faces
    >>> kept = greedy_keep(1, profile(parse_faces("10 10 W 5 6 7 1 2 3 8"))[None])[0]
    >>> int(kept[10].sum()), int(kept[0].sum()), int(kept[8].sum())  # 10 10 W, and 8 to build on
    (2, 1, 1)
    """
    phase = as_phase(phase)
    profiles = np.asarray(profiles)
    keep = np.zeros(profiles.shape, dtype=np.int16)
    for lo in range(0, profiles.shape[0], chunk):
        counts = profiles[lo : lo + chunk]
        keep[lo : lo + chunk] = greedy_cells(
            phase, counts, greedy_codes(phase, counts, rules), rules
        )
    return keep


def _greedy_choice(counts: np.ndarray, choices, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Index of the greedy placement for every profile (value-major arrays, as in meld), and
    its key (dice used * 1000 + points; the first of equal keys wins)."""
    P = counts.shape[0]
    cv = np.ascontiguousarray(counts.transpose(1, 2, 0))  # (11, 4, P)
    num = cv.sum(axis=1, dtype=np.int16)
    w = num[0]
    zero = np.zeros(P, dtype=np.int32)
    best_key = np.full(P, -1, dtype=np.int32)
    best_choice = np.zeros(P, dtype=np.int32)
    for ci, (pl, x) in enumerate(choices):
        d = pl.demand
        nz = [n for n in range(1, 11) if d[n]]
        used_n = {n: np.minimum(num[n], np.int16(d[n])) for n in nz}
        slots_left = sum(d) - sum(used_n.values(), zero)
        used = sum(used_n.values(), zero)
        pts = sum((n * used_n[n].astype(np.int32) for n in nz), zero)
        wild_left = w
        if x is not None:
            b = cv[:, x]
            room = np.full(P, k, dtype=np.int16)
            for n in range(10, 0, -1):
                spare = b[n] - np.maximum(used_n[n] - (num[n] - b[n]), 0) if n in used_n else b[n]
                take = np.minimum(spare, room)
                used = used + take
                pts = pts + n * take.astype(np.int32)
                room -= take
            xw = np.minimum(b[0], room)
            used = used + xw
            wild_left = w - xw
        used = used + np.minimum(wild_left, slots_left)
        key = used * 1000 + pts
        better = key > best_key
        best_key[better] = key[better]
        best_choice[better] = ci
    return best_choice, best_key


@public
def greedy_hold(
    phase: Phase | int | str, faces: Sequence[Face] | str, rules: Rules = DEFAULT_RULES
) -> list[Face]:
    """The faces the greedy baseline keeps from one roll (:func:`greedy_keep` for one roll,
    given back as the roll's own faces, in the roll's order).

    >>> from phase10math.dice.faces import parse_faces
    >>> " ".join(map(str, greedy_hold(1, "10 10 W 5 6 7 1 2 3 8")))
    '10 10 W 8'
    """
    roll = parse_faces(faces) if isinstance(faces, str) else list(faces)
    kept = greedy_keep(phase, profile(roll)[None], rules)[0]
    left = {(v, c): int(kept[v, c]) for v in range(kept.shape[0]) for c in range(kept.shape[1])}
    out = []
    for f in roll:
        key = (f.value, COLORS.index(f.color) if f.color in COLORS else 0)
        if left.get(key, 0) > 0:
            left[key] -= 1
            out.append(f)
    return out
