"""Hold codes: the arg-max of the subset maximum as the dice not held, and hold ids from them."""

from __future__ import annotations

import math

import numpy as np

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.memory import code_dtype, face_shape
from phase10math.turn.tensor.slabs import in_slabs


def hold_code(n: int, mask):
    """The code of a sub-hold of an entry that shows every die of ``mask``'s bits: ``mask``
    (bit ``d`` = die ``d`` not held) as ``popcount << n | (bit d moved to bit n - 1 - d)``.
    For sub-holds of one entry a smaller code keeps more dice, or as many and has the larger
    state id (ids are C order, die 0 has the largest stride, so the larger id holds the lowest
    die where the two differ). Codes of disjoint masks add up (``code(a | b) = code(a) +
    code(b)``), so a pass adds the code of its die. Works on ints and arrays."""
    m = np.asarray(mask, dtype=np.int64)
    code = np.zeros_like(m)
    for d in range(n):
        bit = (m >> d) & 1
        code += (bit << n) + (bit << (n - 1 - d))
    return int(code) if code.ndim == 0 else code.astype(code_dtype(n))


def holds_from_codes(
    space: StateSpace, code: np.ndarray, dtype=np.int64, face: int | None = None
) -> np.ndarray:
    """Hold ids from the arg-max :func:`hold_code` s of the roll states (``full_ids`` order):
    the roll's id minus, for every die not held, its slot times its stride. The code's low
    ``n`` bits name the dice not held (bit ``n - 1 - d`` for die ``d``); two lookup tables
    (dice split in halves), indexed by those bits directly, keep it to two gathers.
    ``face``: only the roll states showing that face of die 0 (a contiguous sixth)."""
    n = len(space.types)
    fs = face_shape(space)
    if face is not None and n < 2:  # one die: its faces are the rolls
        return holds_from_codes(space, code, dtype)[face : face + 1]
    h = n // 2
    strides = [int(s) for s in space.strides]
    whole = math.prod(fs)

    def table(axes: list[int]) -> np.ndarray:
        # row m: the dice of ``axes`` whose bit is set in m (bit len - 1 - i for axes[i],
        # as in the code) not held; column: the roll of those dice (C order)
        sub = [fs[a] for a in axes]
        combos = np.indices(sub).reshape(len(axes), -1) if axes else np.zeros((0, 1), int)
        tab = np.zeros((2 ** len(axes), combos.shape[1]), dtype=np.int64)
        for m in range(2 ** len(axes)):
            for i, a in enumerate(axes):
                if m >> (len(axes) - 1 - i) & 1:
                    tab[m] += strides[a] * (combos[i] + 1)
        return tab

    P1, P2 = math.prod(fs[:h]), math.prod(fs[h:])
    first, last = (0, P1) if face is None else (face * P1 // fs[0], (face + 1) * P1 // fs[0])
    out = np.empty(whole // P1 * (last - first), dtype=dtype)
    tab_lo, tab_hi = table(list(range(h))), table(list(range(h, n)))
    # the roll's own id: every die held (all bits set)
    id_lo, id_hi = tab_lo[-1].astype(dtype), tab_hi[-1].astype(dtype)
    t_lo = tab_lo.astype(dtype).ravel()
    t_hi = tab_hi.astype(dtype).ravel()
    col = np.arange(P2, dtype=np.int64)[None, :]
    step = max(1, (1 << 20) // P2)

    def part(i: int, o2: np.ndarray, c2: np.ndarray, rows: np.ndarray) -> None:  # in threads
        for lo in range(0, len(rows), step):
            cb = c2[lo : lo + step].astype(np.int64)
            row = rows[lo : lo + step, None]
            np.add(id_lo[row], id_hi[None, :], out=o2[lo : lo + step])
            o2[lo : lo + step] -= t_lo[((cb >> (n - h)) & ((1 << h) - 1)) * P1 + row]
            o2[lo : lo + step] -= t_hi[(cb & ((1 << (n - h)) - 1)) * P2 + col]

    rows = np.arange(first, last)
    in_slabs(part, out.reshape(-1, P2), code.reshape(P1, P2)[first:last], rows, axis=0)
    return out


class HoldIds:
    """``roll_arg[r]`` of a tensor solve kept as its :func:`hold_code` s (2 bytes a roll state
    instead of a 4- or 8-byte hold id): ``self[pos]`` gives the hold ids of the roll states at
    positions ``pos`` (``full_ids`` order), ``np.asarray(self)`` all of them
    (:func:`holds_from_codes`)."""

    def __init__(self, space: StateSpace, codes: np.ndarray):
        self.space, self.codes = space, codes

    def __len__(self) -> int:
        return len(self.codes)

    def __array__(self, dtype=None, copy=None):
        ids = holds_from_codes(self.space, self.codes, np.int64 if dtype is None else dtype)
        return ids

    def __getitem__(self, pos):
        if isinstance(pos, slice):
            pos = np.arange(len(self))[pos]
        scalar = np.ndim(pos) == 0
        p = np.atleast_1d(np.asarray(pos, dtype=np.int64))
        code = np.asarray(self.codes[p]).astype(np.int64)
        n = len(self.space.types)
        fs = face_shape(self.space)
        ids = np.zeros(len(p), dtype=np.int64)
        rest = p.copy()
        for d in reversed(range(n)):
            slot = rest % fs[d] + 1
            rest //= fs[d]
            held = ((code >> (n - 1 - d)) & 1) == 0
            ids += np.where(held, int(self.space.strides[d]) * slot, 0)
        return int(ids[0]) if scalar else ids
