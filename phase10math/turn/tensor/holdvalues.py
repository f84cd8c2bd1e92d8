"""Hold values on demand from the roll values below (an exact solve's read from the stored
margins, :mod:`.margins`, however many holds are asked; a float stage's by a restricted
transform over the asked holds), and a stage's best holds again from them."""

from __future__ import annotations

import numpy as np

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import HoldIds
from phase10math.turn.tensor.margins import hold_margins, margin_hold_values
from phase10math.turn.tensor.memory import face_shape
from phase10math.turn.tensor.stages import split_stage

#: holds looked up at a time (a roll's sub-holds at once: at most ``2**10``); a request of
#: more holds is answered in pieces of this many, so what a lookup reads stays bounded
FEW = 1 << 11


class LazyHoldValues:
    """``hold_num[r]`` of a tensor solve: ``self[gids]`` computes the hold values asked for
    from the roll values with ``r - 1`` rolls left.

    Integer roll values (an exact solve) answer every request by lookup
    (:func:`~.margins.margin_hold_values`: a ranking of a roll's ``2**10`` sub-holds reads a
    few hundred thousand entries, not the tensor; a request of more holds in pieces of
    :data:`FEW`) from ``margins`` (:func:`~.margins.hold_margins`), which :meth:`prepare`
    computes once: a solution stored on disk keeps them beside its roll values,
    memory-mapped; a solution in memory computes them at its first request. float64 roll
    values (the means of a float stage) give the hold values as means by the restricted
    transform (:meth:`transform`: per die only the faces some asked hold shows, plus the
    'not held' sum over 6)."""

    #: the stored margins of the integer roll values below (None: not computed yet)
    margins: np.ndarray | None = None

    def __init__(self, space: StateSpace, below: np.ndarray):
        self.space, self.below = space, below

    def __len__(self) -> int:
        return self.space.n_states

    @property
    def exact(self) -> bool:
        """Integer roll values below (not the float64 means of a float stage)."""
        return self.below.dtype.kind in "iu"  # (an array, or its bits: cache.PackedBits)

    def prepare(self) -> None:
        """Compute the margins of integer roll values (once; a float stage has none)."""
        if self.margins is None and self.exact:
            self.margins = hold_margins(self.space, self.below)

    def __getitem__(self, gids):
        scalar = np.ndim(gids) == 0
        g = np.atleast_1d(np.asarray(gids, dtype=np.int64))
        if not self.exact:
            return self.transform(g, scalar)
        self.prepare()
        vals = np.zeros(len(g), dtype=np.int64)
        for at in range(0, len(g), FEW):
            part = g[at : at + FEW]
            vals[at : at + FEW] = margin_hold_values(self.space, self.below, self.margins, part)
        return int(vals[0]) if scalar else vals

    def transform(self, g: np.ndarray, scalar: bool = False):
        """The values of the holds ``g`` by the restricted transform (every roll value
        read): the float stages' hold values; for integer roll values the same numbers as
        the lookup, which tests compare."""
        sp = self.space
        n = len(sp.types)
        slots = [(g // int(st)) % (len(t.faces) + 1) for st, t in zip(sp.strides, sp.types)]
        W = np.asarray(self.below).reshape(face_shape(sp))
        floats = W.dtype.kind == "f"
        maps = []
        for d, typ in enumerate(sp.types):
            used = np.unique(slots[d][slots[d] > 0]) - 1
            w = np.asarray(typ.weights, dtype=np.int64).reshape(
                (1,) * d + (-1,) + (1,) * (n - d - 1)
            )
            # int64 from the first axis on (the stored values may be small or unsigned)
            dt = np.float64 if floats else np.int64
            tot = (
                (W * w).sum(axis=d, keepdims=True, dtype=dt)
                if (w != 1).any()
                else W.sum(d, keepdims=True, dtype=dt)
            )
            if floats:
                tot /= 6.0
            W = np.concatenate([W.take(used, axis=d).astype(dt), tot], axis=d)
            m = np.full(len(typ.faces) + 1, -1, dtype=np.int64)
            m[used + 1] = np.arange(len(used))
            m[0] = len(used)
            maps.append(m[slots[d]])
        held = sum((s > 0).astype(np.int64) for s in slots)
        if floats:
            vals = W[tuple(maps)]
            return float(vals[0]) if scalar else vals
        vals = W[tuple(maps)] * (6 ** held.astype(np.int64) if n < 24 else 1)
        return int(vals[0]) if scalar else vals


def best_hold_codes(space: StateSpace, below: list[np.ndarray]) -> HoldIds:
    """The best holds of one stage of a tensor solve (as :class:`~.codes.HoldIds`) from the
    roll values of every key with one roll less (the stage again, with the codes of its best
    holds, :func:`~.stages.split_stage`): for a stored solution whose codes were lost."""
    return HoldIds(space, split_stage(space, below, None, totals=False)[2])


def sub_holds(space: StateSpace, gid: int) -> np.ndarray:
    """State ids of every sub-hold of the roll state ``gid`` of a distinct-dice space: each
    die held showing its face or not held (``2**n`` ids)."""
    ids = np.zeros(1, dtype=np.int64)
    for st, t in zip(space.strides, space.types):
        slot = (int(gid) // int(st)) % (len(t.faces) + 1)
        ids = (ids[:, None] + np.array([0, int(st) * slot], dtype=np.int64)[None, :]).ravel()
    return ids
