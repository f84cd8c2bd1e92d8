"""Final scores of every roll state of distinct dice, from pairs of half-profiles (per color)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from phase10math.dice.faces import COLORS
from phase10math.dice.meld import best_scores
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.slabs import in_slabs


def die_cells(space: StateSpace, d: int) -> np.ndarray:
    """Meld cell (value * 4 + color) of every face of die ``d`` (through representatives)."""

    reps = [space.projection.representative(k) for k in space.types[d].faces]
    return np.array([f.value * 4 + COLORS.index(f.color) for f in reps], dtype=np.int64)


def half_profiles(space: StateSpace, axes: list[int]) -> np.ndarray:
    """``(P, 44)`` int16 profiles of every roll of the dice ``axes`` (C order)."""
    fs = [len(space.types[a].faces) for a in axes]
    idx = np.indices(fs).reshape(len(axes), -1)
    prof = np.zeros((idx.shape[1], 44), dtype=np.int16)
    rows = np.arange(idx.shape[1])
    for i, a in enumerate(axes):
        np.add.at(prof, (rows, die_cells(space, a)[idx[i]]), 1)
    return prof


def pair_gather(
    table: np.ndarray, inv_a: np.ndarray, inv_b: np.ndarray, nb: int, out: np.ndarray | None = None
) -> np.ndarray:
    """``table[inv_a[i] * nb + inv_b[j]]`` for every (i, j), C order, in ``table``'s dtype; with
    ``out`` (flat) the element-wise maximum with it, in place. The columns are gathered once per
    distinct ``a`` (``table[:, inv_b]``), then whole rows are copied (in threads)."""
    G = table.reshape(-1, nb)[:, inv_b]
    first = out is None
    res = np.empty(len(inv_a) * len(inv_b), dtype=table.dtype) if first else out
    step = max(1, (1 << 20) // max(1, len(inv_b)))

    def fill(i: int, o: np.ndarray, ia: np.ndarray) -> None:
        for lo in range(0, len(ia), step):
            blk = o[lo : lo + step]
            if first:
                np.take(G, ia[lo : lo + step], axis=0, out=blk)
            else:
                np.maximum(blk, G[ia[lo : lo + step]], out=blk)

    in_slabs(fill, res.reshape(len(inv_a), len(inv_b)), np.asarray(inv_a, dtype=np.intp), axis=0)
    return res


def final_scores_tensor(ph, space: StateSpace, rules) -> np.ndarray:
    """Best score (-1 = not made; int16) of every roll state of a distinct-dice space,
    ``full_ids`` order, without a meld pass per roll: the dice are split in two halves, the
    profiles of each half are made distinct, and the meld engine runs once per pair of
    distinct half-profiles (for a phase that is one color group alone, a per-color formula
    on smaller summaries)."""

    n = len(space.types)
    h = n // 2
    pa, pb = half_profiles(space, list(range(h))), half_profiles(space, list(range(h, n)))
    kinds = [g.kind for g in ph.groups]
    if kinds == ["color"]:
        return _one_color_group(ph.groups[0].size, pa, pb)
    if kinds.count("color") == 1:
        return _per_color(ph, rules, pa, pb)
    ua, inv_a = np.unique(pa, axis=0, return_inverse=True)
    ub, inv_b = np.unique(pb, axis=0, return_inverse=True)
    table = np.empty(len(ua) * len(ub), dtype=np.int16)
    step = max(1, (1 << 18) // len(ub))

    def fill(i: int, tab: np.ndarray, rows: np.ndarray) -> None:  # in threads
        tab = tab.reshape(-1)
        for lo in range(0, len(rows), step):
            pairs = (rows[lo : lo + step, None, :] + ub[None, :, :]).reshape(-1, 11, 4)
            tab[lo * len(ub) : lo * len(ub) + len(pairs)] = best_scores(ph, pairs, rules)

    in_slabs(fill, table.reshape(len(ua), len(ub)), ua, axis=0)
    return pair_gather(table, inv_a.ravel(), inv_b.ravel(), len(ub))


def _per_color(ph, rules, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Final scores of a phase with one color group besides sets or runs: the maximum over the
    group's color x of the best score with the group in x. With x fixed, the meld needs only
    the x-colored dice and the count of every value, so each half is summarised by its
    profile with the other three colors merged into one column (a color the group may not
    take): far fewer distinct halves, and one color per pair instead of four."""
    return max_over_colors(
        pa, pb, lambda pairs, x: best_scores(ph, pairs, rules, group_colors=[x]), np.int16
    )


def max_over_colors(pa: np.ndarray, pb: np.ndarray, fn: Callable, dtype) -> np.ndarray:
    """``max over x of fn(profiles, x)`` for every pair of half-profiles (C order), where
    ``fn(., x)`` reads only the x-colored dice and the count of every value: per color, the
    halves are merged as described in :func:`_per_color` and ``fn`` runs once per pair of
    distinct merged halves (in threads)."""
    best = None
    for x in range(4):
        y = (x + 1) % 4
        summ = []
        for p in (pa, pb):
            q = np.zeros((len(p), 11, 4), dtype=np.int16)
            p3 = p.reshape(-1, 11, 4)
            q[:, :, x] = p3[:, :, x]
            q[:, :, y] = p3.sum(axis=2) - p3[:, :, x]
            u, inv = np.unique(q.reshape(len(p), 44), axis=0, return_inverse=True)
            summ.append((u, inv.ravel()))
        (ua, ia), (ub, ib) = summ
        table = np.empty(len(ua) * len(ub), dtype=dtype)
        step = max(1, (1 << 18) // len(ub))

        def fill(i: int, tab: np.ndarray, rows: np.ndarray, ub=ub, x=x, step=step) -> None:
            tab = tab.reshape(-1)
            for lo in range(0, len(rows), step):
                pairs = (rows[lo : lo + step, None, :] + ub[None, :, :]).reshape(-1, 11, 4)
                tab[lo * len(ub) : lo * len(ub) + len(pairs)] = fn(pairs, x)

        in_slabs(fill, table.reshape(len(ua), len(ub)), ua, axis=0)
        best = pair_gather(table, ia, ib, len(ub), out=best)
    return best


def _one_color_group(k: int, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """'k of one color' alone: per color, the sum of the k best values of that color (W = 0)
    when at least k dice show it. Each half is summarised per color by (count, sum, its m
    smallest values), m = dice - k; the best k of a pair drop the c - k smallest of both."""
    n_a = int(pa[0].sum())
    n_b = int(pb[0].sum())
    m = n_a + n_b - k
    best = None
    big = 99
    for x in range(4):
        summ = []
        for p in (pa, pb):
            cnt = p[:, x::4]  # (P, 11) counts of color x per value 0..10
            c = cnt.sum(axis=1).astype(np.int64)
            s = (cnt * np.arange(11)).sum(axis=1).astype(np.int64)
            small = np.full((len(p), max(m, 0)), big, dtype=np.int64)
            left = np.zeros(len(p), dtype=np.int64)
            for v in range(11):
                for _ in range(max(m, 0)):
                    put = (cnt[:, v] > 0) & (left < m)
                    rows = np.flatnonzero(put)
                    small[rows, left[rows]] = v
                    left[rows] += 1
                    cnt = cnt.copy()
                    cnt[rows, v] -= 1
            key = np.concatenate([c[:, None], s[:, None], small], axis=1)
            u, inv = np.unique(key, axis=0, return_inverse=True)
            summ.append((u, inv.ravel()))
        (ua, ia), (ub, ib) = summ
        c = ua[:, None, 0] + ub[None, :, 0]
        s = ua[:, None, 1] + ub[None, :, 1]
        merged = np.sort(
            np.concatenate(
                [
                    np.broadcast_to(ua[:, None, 2:], (len(ua), len(ub), max(m, 0))),
                    np.broadcast_to(ub[None, :, 2:], (len(ua), len(ub), max(m, 0))),
                ],
                axis=2,
            ),
            axis=2,
        )
        drop = np.concatenate(
            [np.zeros((len(ua), len(ub), 1), np.int64), np.cumsum(merged, axis=2)], axis=2
        )
        ndrop = np.clip(c - k, 0, max(m, 0))
        score = s - np.take_along_axis(drop, ndrop[..., None], axis=2)[..., 0]
        table = np.where(c >= k, score, -1).astype(np.int16).ravel()
        best = pair_gather(table, ia, ib, len(ub), out=best)
    return best
