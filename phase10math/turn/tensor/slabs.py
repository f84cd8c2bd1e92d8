"""Threads of the tensor passes: arrays cut in slabs, axis passes cut in cache-sized blocks."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from phase10math._base.checks import public
from phase10math._base.workers import result_of
from phase10math.errors import InvalidArgumentError

_POOL: list[ThreadPoolExecutor] = []
MIN_SLAB = 1 << 18  # arrays smaller than this are not split among threads
BLOCK = 1 << 15  # entries per slot in one block of an axis pass (its scratch stays in cache)


@public
def threads() -> int:
    """Threads of the tensor passes: ``$PHASE10MATH_THREADS`` (a whole number 1..256) or one
    per core, at most two (the passes are bound by memory bandwidth; numpy releases the GIL in
    their loops); a malformed setting is refused (:class:`InvalidArgumentError`)."""
    env = os.environ.get("PHASE10MATH_THREADS")
    if env:
        text = env.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= 256):
            raise InvalidArgumentError(
                f"PHASE10MATH_THREADS={env[:40]!r}; allowed: a whole number 1..256"
            )
        return int(text)
    return max(1, min(2, os.cpu_count() or 1))


def in_slabs(fn: Callable, *arrays: np.ndarray, axis: int | None = None) -> None:
    """``fn(i, *slabs)`` on ``threads()`` independent slabs of ``arrays`` (equally long on the
    axis cut), in parallel: the slabs split the first axis (or, when it is shorter than the
    number of threads, the last; ``axis`` forces one). ``fn`` writes only into its slabs."""
    k = threads()
    shape = arrays[0].shape
    if axis is None:
        axis = 0 if shape and shape[0] >= k else len(shape) - 1
    if k == 1 or not shape or shape[axis] < k or arrays[0].size < MIN_SLAB:
        fn(0, *arrays)
        return
    cut = [shape[axis] * i // k for i in range(k + 1)]

    def part(i: int) -> None:
        sl = (slice(None),) * axis + (slice(cut[i], cut[i + 1]),)
        fn(i, *(a[sl] for a in arrays))

    in_threads(part, k)


def in_threads(part: Callable[[int], None], k: int) -> None:
    """``part(0)``, ..., ``part(k - 1)`` at once on the kit's thread pool (in this thread when
    ``k`` is 1); each part writes only its own share."""
    if k == 1:
        part(0)
        return
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(threads(), thread_name_prefix="phase10math-tensor"))
    for fut in [_POOL[0].submit(part, i) for i in range(k)]:
        result_of(fut)


def blocks(shape: tuple[int, ...], target: int | None = None) -> list[tuple]:
    """Index tuples cutting an axis view ``(lead.., mid, slots, rest)`` into blocks of about
    ``target`` entries per slot (all slots of an entry in the same block; :data:`BLOCK` when
    not given, read at call time)."""
    target = BLOCK if target is None else target
    rest = shape[-1]
    if rest >= target:
        return [
            idx + (slice(None), slice(lo, lo + target))
            for idx in np.ndindex(*shape[:-2])
            for lo in range(0, rest, target)
        ]
    a, inner = len(shape) - 3, rest
    while a > 0 and inner * shape[a] < target:
        inner *= shape[a]
        a -= 1
    g = max(1, target // inner)
    return [
        idx + (slice(lo, lo + g),) for idx in np.ndindex(*shape[:a]) for lo in range(0, shape[a], g)
    ]


def blockwise(step: Callable, *views: np.ndarray) -> None:
    """``step(thread, *blocks)`` over the cache-sized blocks of equally shaped axis views, the
    blocks shared out among :func:`threads` threads (each writes only into its own blocks)."""
    cuts = blocks(views[0].shape)
    k = min(threads(), len(cuts))
    cut = [len(cuts) * i // k for i in range(k + 1)]

    def part(i: int) -> None:
        for ix in cuts[cut[i] : cut[i + 1]]:
            step(i, *(v[ix] for v in views))

    in_threads(part, k)
