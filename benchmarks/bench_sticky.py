"""Timings of the sticky-holds layer (on the compact dice: sticky holds on the color phases of
the ten different recorded dice do not fit and are refused).

Run ``python benchmarks/bench_sticky.py [--no-full] [--naive-full]``.

For a value phase (phase 1, VALUE projection) and a color-aware phase (phase 14, FULL
projection), the new vectorised layer (:func:`phase10math.turn.sticky._sticky_layer`) beside the
old per-column implementation kept below as the naive reference (same exact numbers; the
naive one is only run on the full projection with ``--naive-full``: hours). Prints wall and
CPU seconds and the ratio, and checks that both give identical integers.
"""

from __future__ import annotations

import argparse
import math
import os
import time

os.environ.setdefault("PHASE10MATH_CACHE_DIR", "off")

import numpy as np  # noqa: E402

from phase10math.dice.layouts import COMPACT_LAYOUT  # noqa: E402
from phase10math.dice.phases import PHASES  # noqa: E402
from phase10math.dice.rules import Rules  # noqa: E402
from phase10math.errors import StateSpaceTooLargeError  # noqa: E402
from phase10math.turn.engine import final_scores  # noqa: E402
from phase10math.turn.kernels import expect_rerolls, normalise, utility_from_scores  # noqa: E402
from phase10math.turn.projection import FULL, VALUE  # noqa: E402
from phase10math.turn.solver import check_size  # noqa: E402
from phase10math.turn.statespace import StateSpace  # noqa: E402
from phase10math.turn.sticky import sticky_layer, sticky_pairs  # noqa: E402

# --------------------------------------------------------------------------- naive reference
# The implementation this module replaced (phase10math/solver.py before the rewrite), verbatim
# but for the names: a Python dict and lists per column of the (held, rolled) table.


def naive_sticky_layer(space: StateSpace, N_prev: np.ndarray, dtype) -> np.ndarray:
    """For sticky holds: for every set-aside hold A, E over the roll B of the other dice of
    max over K within B of N_prev(A + K). Returns numerators T(A) scaled like expect_rerolls."""
    out = np.zeros(space.n_states, dtype=dtype)
    # Group the holds A by how many dice of each type they hold; within a group the rolled
    # dice B range over the same sub-multisets, so the work is vectorised over A.
    keys = np.stack(space.type_sizes, axis=1)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.ravel()
    for g, sizes in enumerate(uniq):
        A = np.flatnonzero(inv == g)  # holds with these per-type sizes
        free = [t.count - int(s) for t, s in zip(space.types, sizes)]
        # sub-multisets of the free dice, per type, as (rows of sub) with size <= free
        opts = [np.flatnonzero(space.sub[t].sum(axis=1) <= free[t]) for t in range(len(free))]
        # enumerate B as the product of per-type options
        grids = np.meshgrid(*opts, indexing="ij")
        Bdig = [gr.ravel() for gr in grids]
        nb = len(Bdig[0])
        Bsize_t = [space.sub[t].sum(axis=1)[Bdig[t]] for t in range(len(free))]
        # value of A + B for every A (rows) and B (cols)
        Adig = [space.digits[t][A] for t in range(len(free))]
        sum_ids = np.zeros((len(A), nb), dtype=np.int64)
        for t in range(len(free)):
            comb = _naive_add_table(space, t)[Adig[t][:, None], Bdig[t][None, :]]
            sum_ids += comb.astype(np.int64) * space.strides[t]
        G = N_prev[sum_ids]  # (A, B)
        # running max over sub-multisets of B (within B's lattice), per type and face
        bpos = {tuple(int(Bdig[t][j]) for t in range(len(free))): j for j in range(nb)}
        for t in range(len(free)):
            for f in range(len(space.types[t].faces)):
                cnt = space.sub[t][Bdig[t], f]
                for v in range(1, free[t] + 1):
                    cols = np.flatnonzero(cnt == v)
                    if len(cols) == 0:
                        break
                    prev = []
                    for j in cols:
                        key = [int(Bdig[u][j]) for u in range(len(free))]
                        key[t] = int(space.remove_tables[t][key[t], f])
                        prev.append(bpos[tuple(key)])
                    G[:, cols] = np.maximum(G[:, cols], G[:, prev])
        # expectation over full B (every free die rolled): weights per B
        full_cols = np.flatnonzero(
            np.all([Bsize_t[t] == free[t] for t in range(len(free))], axis=0)
        )
        wts = np.ones(len(full_cols), dtype=object)
        for t in range(len(free)):
            rows = space.sub[t][Bdig[t][full_cols]]
            m = free[t]
            mult = np.array(
                [_naive_multinomial(m, r, space.types[t].weights) for r in rows], dtype=object
            )
            wts = wts * mult
        if np.dtype(dtype) == np.dtype(object):
            out[A] = G[:, full_cols].astype(object).dot(wts)
        else:
            out[A] = G[:, full_cols] @ wts.astype(np.int64)
    return out


def _naive_multinomial(m: int, row, weights) -> int:
    out = math.factorial(m)
    for c, w in zip(row, weights):
        out = out // math.factorial(int(c)) * w ** int(c)
    return out


_NAIVE_ADD_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _naive_add_table(space: StateSpace, t: int) -> np.ndarray:
    key = (id(space), t)
    if key not in _NAIVE_ADD_CACHE:
        sub = space.sub[t]
        idx = space._indexes[t]
        n = len(sub)
        tab = np.full((n, n), 0, dtype=np.int32)
        for i in range(n):
            for j in range(n):
                s = tuple(int(x) for x in sub[i] + sub[j])
                tab[i, j] = idx.get(s, 0)
        _NAIVE_ADD_CACHE[key] = tab
    return _NAIVE_ADD_CACHE[key]


# --------------------------------------------------------------------------- timing


def timed(fn):
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t, time.process_time() - c


def bench(n: int, objective: str, projection, naive: bool) -> None:
    space = StateSpace.build(COMPACT_LAYOUT, projection)
    label = f"phase {n} {objective}, {projection.name} projection"
    print(f"{label}: {space.describe()[:90]}")
    print(f"  (held, rolled) pairs: {sticky_pairs(space):,}")
    try:
        check_size(space, Rules(holds="sticky"))
    except StateSpaceTooLargeError as e:
        print(f"  refused: {e}")
        return
    fin = utility_from_scores(
        final_scores(PHASES[n], space, Rules(), COMPACT_LAYOUT.fingerprint()), objective
    )
    N1 = normalise(space, expect_rerolls(space, fin.astype(np.int64)))
    new, wall, cpu = timed(lambda: sticky_layer(space, N1, np.int64))
    print(f"  new   layer: {wall:8.2f} s wall {cpu:8.2f} s cpu")
    if not naive:
        return
    old, owall, ocpu = timed(lambda: naive_sticky_layer(space, N1, np.int64))
    print(f"  naive layer: {owall:8.2f} s wall {ocpu:8.2f} s cpu")
    print(
        f"  identical: {bool(np.array_equal(new, old))}; ratio naive/new: "
        f"{owall / wall:.1f}x wall, {ocpu / cpu:.1f}x cpu"
    )


def main() -> None:
    p = argparse.ArgumentParser(description="Timings of the sticky-holds layer.")
    p.add_argument("--no-full", action="store_true", help="skip the full-projection phase")
    p.add_argument("--naive-full", action="store_true", help="also run the naive layer there")
    args = p.parse_args()
    for objective in ("complete", "score"):
        bench(1, objective, VALUE, naive=True)
    if not args.no_full:
        bench(14, "complete", FULL, naive=args.naive_full)


if __name__ == "__main__":
    main()
