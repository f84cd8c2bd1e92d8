"""Refinement of a color phase's family: exact solves of the turns whose intervals are wide
(:func:`refine`), in chunks between checkpoints (:func:`exact_chunks`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from phase10math.game.duel.setting import DuelGame, families
from phase10math.turn.family import TurnFamily

REFINE_ALL = (8, 4, 2, 1, 1, 1, 1)  # coarse to fine: neighbours' cuts may suffice


def wide_weighed(
    fam: TurnFamily, U: np.ndarray, rows: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ``rows`` of ``U`` the family finds wide, and each one's ``weight`` times its
    interval's margin (one pass of the family's bounds)."""
    wide, margin = fam.wide_margins(U[rows])
    rows = rows[wide]
    return rows, weight[rows] * margin


REFINE_CHUNK = 16  # exact solves between checkpoints
COSTLY_CHUNK = 2  # ... where each costs far more than a check (the tensor engine)


def refine(
    g: DuelGame,
    *sides,
    stride: int,
    save: Callable[[], None] | None,
    least: float | None = None,
    log: Callable[[str], None] | None = None,
) -> int:
    """Exact solves of the color phases' turns whose family interval is wider than its
    ``tol``, every ``stride``-th of them (by state order), at the current fail values; each
    ``side`` is (utilities, phases, fail values, weights). With ``least``: instead, those
    whose weight (the state's estimated visits) times interval width is more than ``least``.
    Returns how many were solved."""
    fams = families(g)
    added = 0
    for U, kk, fail, weight in sides:
        for k, fam in fams.items():
            idx = np.flatnonzero(kk == k)
            if least is not None:  # a width is at most 1: lighter states cannot count
                idx = idx[weight[idx] > least]
            if not len(idx):
                continue
            W = U[idx, 0].copy()
            W[:, 0] = fail[idx]
            if least is None:
                added += solve_wide(fam, W, stride, save, log=log)
            else:
                added += solve_wide(fam, W, 1, save, (weight[idx], least), log)
    return added


def solve_wide(
    fam: TurnFamily,
    W: np.ndarray,
    stride: int,
    save: Callable[[], None] | None = None,
    weighs: tuple[np.ndarray, float] | None = None,
    log: Callable[[str], None] | None = None,
) -> int:
    """Exact solves of every ``stride``-th row of ``W`` whose family interval is wide (and,
    with ``weighs`` = (a weight per row, least), whose weight times interval width is more
    than ``least``), in chunks (``save`` after each, and for a costly family a ``log``
    line); how many were solved."""

    def left(rows: np.ndarray) -> np.ndarray:
        if weighs is None:
            return rows[fam.wide(W[rows])]
        rows, weighed = wide_weighed(fam, W, rows, weighs[0])
        return rows[weighed > weighs[1]]

    rows = left(np.arange(len(W)))[::stride]
    before, began, done = fam.exact_solves, time.monotonic(), [0]
    values_before = fam.value_solves

    def after(n: int) -> None:
        if save is not None:
            save()
        done[0] += n
        if log is not None and fam.costly:  # minutes a chunk: say how far it is
            alone = fam.value_solves - values_before
            log(
                f"  exact solves: {fam.exact_solves - before} solved"
                + (f" ({alone} by their value alone)" if alone else "")
                + f", {done[0]} of {len(rows)} wide turns done, "
                f"{time.monotonic() - began:.0f} s"
            )

    exact_chunks(fam, W, after, rows, left)
    return fam.exact_solves - before


def exact_chunks(
    fam: TurnFamily,
    W: np.ndarray,
    after: Callable[[int], None] | None,
    rows: np.ndarray | None = None,
    left: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:
    """Exact solves of the rows ``rows`` of ``W`` (default all), ``REFINE_CHUNK`` at a time,
    ``after(rows done)`` after each (a checkpoint, the progress). Where an exact solve costs
    far more than a check (:attr:`~phase10math.turn.family.TurnFamily.costly`: the tensor
    engine's 25 s), ``COSTLY_CHUNK`` at a time, and the rows left are checked again after
    each chunk (``left``: those still to solve; default the family's wide ones): the others
    are done without a solve."""
    size = COSTLY_CHUNK if fam.costly else REFINE_CHUNK
    rows = np.arange(len(W)) if rows is None else rows
    if fam.costly:  # spread out: the rows between two solved ones are the likeliest covered
        rows = rows[spread_order(len(rows))]
    while len(rows):
        chunk, rows = rows[:size], rows[size:]
        fam.exact(W[chunk])
        done = len(chunk)
        if fam.costly and len(rows):
            keep = left(rows) if left is not None else rows[fam.wide(W[rows])]
            done += len(rows) - len(keep)
            rows = keep
        if after:
            after(done)


def spread_order(n: int) -> np.ndarray:
    """``0 .. n - 1`` in bisection order: the first, then every 2**k-th for k from the largest
    down (each position after those with more trailing zero bits), so that a prefix is spread
    evenly over the range.

    >>> spread_order(8).tolist()
    [0, 4, 2, 6, 1, 3, 5, 7]
    """
    i = np.arange(n, dtype=np.int64)
    low = np.where(i == 0, np.int64(1) << 62, i & -i)  # the lowest set bit
    return np.argsort(-low, kind="stable")
