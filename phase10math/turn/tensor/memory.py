"""Sizes of the hold tensor, the memory budget and its check, work buffers and storage dtypes."""

from __future__ import annotations

import math
import os

import numpy as np

from phase10math.checks import public
from phase10math.errors import InvalidArgumentError, StateSpaceTooLargeError
from phase10math.turn.statespace import StateSpace

_BUFFERS: dict[str, np.ndarray] = {}


def is_tensor_space(space: StateSpace) -> bool:
    """Every type is a single die (no two dice alike after projection), at most 16 dice."""
    return all(t.count == 1 for t in space.types) and len(space.types) <= 16


def tensor_shape(space: StateSpace) -> tuple[int, ...]:
    return tuple(len(t.faces) + 1 for t in space.types)


def face_shape(space: StateSpace) -> tuple[int, ...]:
    return tuple(len(t.faces) for t in space.types)


@public
def memory_budget() -> int:
    """Bytes the engine may use: ``$PHASE10MATH_MEMORY_GB`` (GiB, a positive number) or 75% of
    physical memory; a malformed setting is refused (:class:`InvalidArgumentError`)."""
    env = os.environ.get("PHASE10MATH_MEMORY_GB")
    if env:
        try:
            gib = float(env) if env.isascii() else math.nan  # digits 0-9 only, as the CLI
        except ValueError:
            gib = math.nan
        if not 0 < gib <= 2**20:  # NaN and infinities fail too
            raise InvalidArgumentError(
                f"PHASE10MATH_MEMORY_GB={env[:40]!r}; allowed: a number of GiB, > 0 and at "
                "most 1048576 (e.g. 3 or 0.5)"
            )
        return int(gib * 2**30)
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 0.75)
    except (ValueError, OSError):  # pragma: no cover
        return 16 * 2**30


def estimate_bytes(space: StateSpace, rolls: int, second: bool = False) -> int:
    """Peak bytes of a tensor solve, die 0's face by face (:func:`~.stages.split_stage`): per
    key a work tensor of the other dice (int64) and its arg-max code when best holds are
    asked for (uint16 up to 12 dice), the roll values kept for rolls left 1 .. rolls - 2
    (int64 at most), the utilities and final scores (2 bytes a roll each), and per key three
    int64 arrays of one face of die 0 (the slices being compared), plus a fixed 256 MiB for the
    interpreter and the meld tables. The float and fixed-policy stages need no more (one key,
    values kept for one stage at a time)."""
    S = math.prod(tensor_shape(space))
    F = math.prod(face_shape(space))
    cb = code_dtype(len(space.types)).itemsize
    keys = 2 if second else 1
    types = space.types
    S9 = S // (len(types[0].faces) + 1) if types else 1
    P9 = F // len(types[0].faces) if types else 1
    kept = max(0, rolls - 2) * 8 * F * keys
    need = keys * 8 * S9 + cb * S9 + kept + 2 * F * (keys + 1) + (3 * keys + 2) * 8 * P9
    return need + cb * F + 256 * 2**20


def check_tensor_fits(space: StateSpace, rolls: int, second: bool = False, extra: int = 0) -> None:
    """Refuse (:class:`StateSpaceTooLargeError`, at once) a solve that would not fit in
    :func:`memory_budget` (see :func:`estimate_bytes`), with ``extra`` bytes the caller needs
    beside it."""
    need, have = estimate_bytes(space, rolls, second) + extra, memory_budget()
    if need > have:
        raise StateSpaceTooLargeError(
            f"this turn has {math.prod(tensor_shape(space)):,} holds "
            f"({space.describe()[:160]}); solving it"
            + (" with its second key" if second else "")
            + f" needs about {need / 2**30:.1f} GiB and "
            f"the limit on this machine is {have / 2**30:.1f} GiB (set PHASE10MATH_MEMORY_GB "
            "to change it)"
        )


def buffer(name: str, n: int, dtype) -> np.ndarray:
    """A reusable flat buffer (first touch of fresh memory is slow: keep one per process)."""
    buf = _BUFFERS.get(name)
    if buf is None or buf.dtype != np.dtype(dtype) or buf.size < n:
        _BUFFERS.pop(name, None)
        buf = np.empty(n, dtype=dtype)
        _BUFFERS[name] = buf
    return buf[:n]


@public
def release_buffers() -> None:
    """Free the reusable work buffers."""
    _BUFFERS.clear()


def scratch(name: str, shape, dtype) -> np.ndarray:
    return buffer(name, math.prod(shape), dtype).reshape(shape)


def code_dtype(n: int) -> np.dtype:
    """The dtype of :func:`hold_code` for ``n`` dice: uint16 up to 12 dice, else uint32."""
    return np.dtype(np.uint16 if n + n.bit_length() <= 16 else np.uint32)


def int_dtype(lo: int, hi: int) -> np.dtype:
    """The smallest integer dtype holding every integer in ``[lo, hi]`` (roll values are
    stored so, from their proven bounds: a stage's numerators lie within ``6**n`` times the
    bounds of the stage before).

    >>> int_dtype(0, 6**10), int_dtype(0, 70 * 6**10), int_dtype(-1, 6**20)
    (dtype('int32'), dtype('uint32'), dtype('int64'))
    """
    for dt in (np.int8, np.int16, np.int32, np.uint32):
        if np.iinfo(dt).min <= lo and hi <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)


def smallest_int(a: np.ndarray) -> np.ndarray:
    """``a`` (integers) in the smallest signed dtype that holds it (utilities of a tensor solve
    are kept so: 1 or 2 bytes a roll instead of 8).

    >>> smallest_int(np.array([0, 1])).dtype, smallest_int(np.array([-1, 300])).dtype
    (dtype('int8'), dtype('int16'))
    """
    lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
    for dt in (np.int8, np.int16, np.int32):
        if np.iinfo(dt).min <= lo and hi <= np.iinfo(dt).max:
            return a.astype(dt, copy=False)
    return a.astype(np.int64, copy=False)
