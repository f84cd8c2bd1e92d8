"""The greedy baseline's hold for every roll state of distinct dice, in chunks of rolls."""

from __future__ import annotations

import math

import numpy as np

from phase10math.dice.partial import greedy_cells_value_major, greedy_codes, greedy_demands
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.finals import die_cells, half_profiles, max_over_colors
from phase10math.turn.tensor.memory import face_shape
from phase10math.turn.tensor.slabs import in_slabs


def greedy_holds_tensor(space: StateSpace, ph, rules, chunk: int = 1 << 18) -> np.ndarray:
    """The greedy baseline's hold id for every roll state of a distinct-dice space
    (``full_ids`` order), in chunks of rolls (no per-state tables), in :func:`threads`
    threads. A roll's profile is the sum of the profiles of its two halves (dice split as in
    :func:`final_scores_tensor`); for a phase with one color group besides sets or runs the
    greedy's choice is found one color at a time on merged half-profiles
    (:func:`max_over_colors` on :func:`phase10math.dice.partial.greedy_codes`). Kept counts
    per meld cell go to the dice in type order, as
    :func:`phase10math.turn.policy.policy_holds` does: a die is kept when fewer dice before
    it show its cell than the greedy keeps of that cell (:func:`half_dice`)."""

    n = len(space.types)
    h = n // 2
    fs = face_shape(space)
    Pa, Pb = math.prod(fs[:h]), math.prod(fs[h:])
    pa, pb = half_profiles(space, list(range(h))), half_profiles(space, list(range(h, n)))
    kinds = [g.kind for g in ph.groups]
    codes = None
    if kinds.count("color") == 1 and len(kinds) > 1:
        codes = max_over_colors(
            pa, pb, lambda pairs, x: greedy_codes(ph, pairs, rules, group_colors=[x]), np.int32
        ).reshape(Pa, Pb)
    cell_a, before_a, part_a = half_dice(space, list(range(h)))
    cell_b, before_b, part_b = half_dice(space, list(range(h, n)))
    pav, pbv = np.ascontiguousarray(pa.T), np.ascontiguousarray(pb.T)  # (44, P): value-major
    out = np.empty(Pa * Pb, dtype=np.int32 if space.n_states < 2**31 else np.int64)
    step = max(1, chunk // Pb)
    cols = np.arange(Pb)

    def run(i: int, o: np.ndarray, rows_all: np.ndarray) -> None:
        o = o.reshape(-1)
        for lo in range(0, len(rows_all), step):
            ra = rows_all[lo : lo + step]
            R = len(ra)
            cv = (pav[:, ra, None] + pbv[:, None, :]).reshape(11, 4, R * Pb)
            if codes is None:
                c = greedy_codes(ph, cv.transpose(2, 0, 1), rules)
            else:
                c = codes[ra].reshape(-1)
            keep = greedy_cells_value_major(cv, *greedy_demands(ph, c, rules))
            keep = keep.reshape(44, R, Pb)
            rows = np.arange(R)[:, None]
            gid = np.zeros((R, Pb), dtype=np.int64)
            for d in range(len(cell_a)):  # the first half's dice: earlier dice all in it
                cell = cell_a[d, ra][:, None]
                kept = before_a[d, ra][:, None] < keep[cell, rows, cols[None, :]]
                gid += kept * part_a[d, ra][:, None]
            for d in range(len(cell_b)):  # the second half's: also the first half's dice
                cell = cell_b[d][None, :]
                before = pa[ra[:, None], cell] + before_b[d][None, :]
                gid += (before < keep[cell, rows, cols[None, :]]) * part_b[d][None, :]
            o[lo * Pb : lo * Pb + R * Pb] = gid.reshape(-1)

    in_slabs(run, out.reshape(Pa, Pb), np.arange(Pa), axis=0)
    return out


def half_dice(space: StateSpace, axes: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the dice ``axes`` and every roll of them (C order, as :func:`half_profiles`), each
    die's meld cell, how many dice before it (in ``axes``) show the same cell, and its term
    of the hold id when kept: three ``(len(axes), rolls)`` int64 arrays."""
    fs = [len(space.types[a].faces) for a in axes]
    if not axes:  # no dice: one empty roll
        return (np.zeros((0, 1), np.int64),) * 3
    idx = np.indices(fs).reshape(len(axes), -1)
    cell = np.stack([die_cells(space, a)[idx[i]] for i, a in enumerate(axes)])
    before = np.zeros_like(cell)
    for i in range(len(axes)):
        before[i] = (cell[:i] == cell[i]).sum(axis=0)
    part = np.stack([int(space.strides[a]) * (idx[i] + 1) for i, a in enumerate(axes)])
    return cell, before, part
