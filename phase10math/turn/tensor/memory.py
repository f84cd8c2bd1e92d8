"""Sizes of the hold tensor, the memory budget and its check, work buffers and storage dtypes."""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import sys
from collections.abc import Iterator, Sequence

import numpy as np

from phase10math._base.checks import public
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


#: an exact stage whose tensor of the other dice would have more entries than this is split
#: again (:func:`~.stages.split_stage`): on ten dice of six faces, tensors of ``7**8`` entries
SPLIT_HOLDS = 7**8


def splits_again(rest: Sequence, exact: bool = True) -> bool:
    """Whether a stage solves its sub-stages on the dice of the types ``rest`` (all but its
    die 0) face by face of their first die too, instead of on their hold tensor: exact
    stages of more than one die whose tensor would hold more than :data:`SPLIT_HOLDS`
    entries."""
    return exact and len(rest) > 1 and math.prod(len(t.faces) + 1 for t in rest) > SPLIT_HOLDS


def stage_bytes(space: StateSpace, keys: int, exact: bool = True) -> int:
    """Work bytes of one stage of :func:`~.stages.split_stage`: at each level of the split,
    per key three int64 arrays of the rolls of the other dice (the slices being compared)
    and two more (codes and temporaries); at the last level, per key a hold tensor of the
    other dice (int64) and its arg-max code."""
    total, types = 0, list(space.types)
    while types:
        rest = types[1:]
        total += (3 * keys + 2) * 8 * math.prod(len(t.faces) for t in rest)
        if not splits_again(rest, exact):
            holds = math.prod(len(t.faces) + 1 for t in rest)
            return total + keys * 8 * holds + code_dtype(len(rest)).itemsize * holds
        types = rest
    return total


def estimate_bytes(
    space: StateSpace, rolls: int, second: bool = False, value_bytes: list[int] | None = None
) -> int:
    """Peak bytes of a tensor solve, die 0's face by face (:func:`~.stages.split_stage`, an
    exact stage split again, :func:`stage_bytes`): the work of the larger stage (an exact
    one of one or two keys; with one key also a float stage, which is not split), the best
    holds' codes of every stage, the roll values kept for rolls left 1 .. rolls - 2
    (``value_bytes``: the bytes of one roll value of each key, summed over those stages, where
    the caller knows the utilities' bounds, :func:`kept_value_bytes`; else 8 a value: int64
    at most), the utilities and final scores (2 bytes a roll each), plus a fixed 256 MiB for
    the interpreter and the meld tables. The fixed-policy stages need no more (one key,
    values kept for one stage at a time)."""
    F = math.prod(face_shape(space))
    cb = code_dtype(len(space.types)).itemsize
    keys = 2 if second else 1
    work = stage_bytes(space, keys)
    if not second:
        work = max(work, stage_bytes(space, 1, exact=False))
    per_roll = sum(value_bytes) if value_bytes is not None else max(0, rolls - 2) * 8 * keys
    need = work + per_roll * F + 2 * F * (keys + 1)
    return need + (rolls - 1) * cb * F + 256 * 2**20


def kept_value_bytes(n_dice: int, rolls: int, bounds: list[tuple[int, int]]) -> list[int]:
    """The bytes of one kept roll value per key and stage (rolls left 1 .. rolls - 2) of an
    exact tensor solve of utilities within ``bounds`` (per key): each stage's values in the
    smallest integer dtype holding ``6**n`` times the bounds of the stage before
    (:func:`int_dtype`, as the engine stores them)."""
    out = []
    for lo, hi in bounds:
        for r in range(1, rolls - 1):
            scale = 6 ** (n_dice * r)
            out.append(int_dtype(scale * lo, scale * hi).itemsize)
    return out


def check_tensor_fits(
    space: StateSpace,
    rolls: int,
    second: bool = False,
    extra: int = 0,
    value_bytes: list[int] | None = None,
) -> None:
    """Refuse (:class:`StateSpaceTooLargeError`, at once) a solve that would not fit in
    :func:`memory_budget` (see :func:`estimate_bytes`), with ``extra`` bytes the caller needs
    beside it."""
    need = estimate_bytes(space, rolls, second, value_bytes) + extra
    have = memory_budget()
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


# glibc's mallopt parameters and their defaults (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
DEFAULT_TRIM_THRESHOLD, DEFAULT_MMAP_MAX = 128 * 1024, 65536
_HELD = [0]  # depth of nested held_heap blocks
# the same settings for a process yet to start (glibc's tunables, read at its start: put in
# its ``GLIBC_TUNABLES``): no mmap for large arrays, a trim threshold never reached
HELD_TUNABLES = f"glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold={2**62}"


def _glibc():
    """The C library where it is glibc (``mallopt``, ``malloc_trim``), else ``None``."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # pragma: no cover - musl and others
        return None
    return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


@public
@contextlib.contextmanager
def held_heap() -> Iterator[bool]:
    """Within the block, memory the process frees stays with it for its next arrays (glibc:
    large arrays from the heap, not from ``mmap``, and the heap never trimmed); after it the
    defaults come back and the free heap goes back to the system (``malloc_trim``). Yields
    whether it could (glibc on Linux; elsewhere it changes nothing).

    A long run of tensor solves allocates and frees arrays of gigabytes again and again; each
    fresh mapping is faulted in page by page, and on a virtual machine that hands freed memory
    back to its host each first touch is slow: on the 2-core development machine half of an
    exact solve of the recorded dice' phase 8 was spent in the kernel
    (``benchmarks/bench_held_heap.py``)."""
    libc = _glibc()
    if libc is None:
        yield False
        return
    if _HELD[0] == 0:
        libc.mallopt(M_MMAP_MAX, 0)
        libc.mallopt(M_TRIM_THRESHOLD, -1)  # -1: never trim (mallopt(3))
    _HELD[0] += 1
    try:
        yield True
    finally:
        _HELD[0] -= 1
        if _HELD[0] == 0:
            libc.mallopt(M_MMAP_MAX, DEFAULT_MMAP_MAX)
            libc.mallopt(M_TRIM_THRESHOLD, DEFAULT_TRIM_THRESHOLD)
            libc.malloc_trim(0)


def heap_is_held() -> bool:
    """Whether the process is inside a :func:`held_heap` block that took effect."""
    return _HELD[0] > 0


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
