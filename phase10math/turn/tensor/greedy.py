"""The greedy baseline's hold for every roll state of distinct dice, in chunks of rolls."""

from __future__ import annotations

import math

import numpy as np

from phase10math.dice.partial import greedy_cells, greedy_codes
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
    :func:`phase10math.turn.policy.policy_holds` does."""

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
    ida = np.indices(fs[:h]).reshape(h, -1) if h else np.zeros((0, 1), np.int64)
    idb = np.indices(fs[h:]).reshape(n - h, -1)
    cells = [die_cells(space, d) for d in range(n)]
    strides = [int(s) for s in space.strides]
    out = np.empty(Pa * Pb, dtype=np.int32 if space.n_states < 2**31 else np.int64)
    step = max(1, chunk // Pb)

    def run(i: int, o: np.ndarray, rows_all: np.ndarray) -> None:
        o = o.reshape(-1)
        for lo in range(0, len(rows_all), step):
            ra = rows_all[lo : lo + step]
            P = len(ra) * Pb
            prof = (pa[ra][:, None, :] + pb[None, :, :]).reshape(P, 11, 4)
            c = greedy_codes(ph, prof, rules) if codes is None else codes[ra].reshape(-1)
            keep = greedy_cells(ph, prof, c, rules).reshape(-1)
            base = np.arange(P, dtype=np.int64) * 44
            gid = np.zeros(P, dtype=np.int64)
            for d in range(n):
                if d < h:
                    face = np.repeat(ida[d][ra], Pb)
                else:
                    face = np.tile(idb[d - h], len(ra))
                at = base + cells[d][face]
                take = keep[at] > 0
                keep[at[take]] -= 1
                gid += np.where(take, strides[d] * (face + 1), 0)
            o[lo * Pb : lo * Pb + P] = gid

    in_slabs(run, out.reshape(Pa, Pb), np.arange(Pa), axis=0)
    return out
