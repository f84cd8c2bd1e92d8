"""What the compiled passes are worth to an exact solve of a color phase on the recorded dice:
the same solves with one key's best-hold codes kept in one compiled pass per block
(``phase10math.turn.tensor.passes.COMPILED_CODES``) and the forward pass's spread as one
compiled loop per axis (``phase10math.turn.tensor.forward.COMPILED_SPREAD``), the defaults,
and with numpy's array operations for both (the straightforward reference: greater, equal,
less and masked copies; a division and additions slab by slab), alternately in one process
inside ``held_heap`` (as the two-player solver runs them), after a first solve that pays the
family's first touch.

Prints each solve's seconds per way (min/median/max), the ratio of the medians, one float
stage with its best holds and one forward pass each way, and the peak memory of the process.
The values, the distributions and the stage's codes of both ways must agree exactly (the same
operations in the same order).

    python benchmarks/bench_compiled_passes.py [--phase 8] [--solves 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np
from bench_tensor_family import stats  # min / median / max, as that benchmark prints them

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.turn.engine import Stage
from phase10math.turn.family import TensorFamily
from phase10math.turn.tensor import forward, passes
from phase10math.turn.tensor.memory import held_heap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phase", type=int, default=8)
    ap.add_argument("--solves", type=int, default=3)
    a = ap.parse_args()
    fam = TensorFamily.for_phase(PHASES[a.phase], layout=RECORDED_LAYOUT)
    rng = np.random.default_rng(0)
    U = rng.integers(0, 100, size=(a.solves + 1, fam.n_outcomes)).astype(float)
    times: dict[bool, list[float]] = {True: [], False: []}
    with held_heap():
        fam.exact(U[:1])  # the first touch of the family's memory, in neither figure
        for u in U[1:]:
            got = {}
            for compiled in (True, False):
                passes.COMPILED_CODES = forward.COMPILED_SPREAD = compiled
                t = time.monotonic()
                got[compiled] = fam.exact(u[None, :])
                times[compiled].append(time.monotonic() - t)
            a_, b_ = got[True], got[False]
            assert np.array_equal(a_.values, b_.values) and np.array_equal(a_.dist, b_.dist)
        engine = fam.engine
        stage = Stage([U[0][fam.outcome]])
        seconds, spread, args, dists = {}, {}, {}, {}
        for compiled in (True, False):
            passes.COMPILED_CODES = forward.COMPILED_SPREAD = compiled
            t = time.monotonic()
            s = engine.float_stage(stage, 1)
            seconds[compiled] = time.monotonic() - t
            args[compiled] = np.asarray(s.arg)
            holds = {r: args[compiled] for r in range(1, fam.rolls)}
            t = time.monotonic()
            dists[compiled] = forward.push_forward(
                fam.space, holds, fam.outcome, fam.n_outcomes, fam.rolls
            )
            spread[compiled] = time.monotonic() - t
        assert np.array_equal(args[True], args[False])
        assert np.array_equal(dists[True], dists[False])
    passes.COMPILED_CODES = forward.COMPILED_SPREAD = True
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"phase {a.phase} on the recorded dice, {fam.space.n_states:,} holds; "
        f"{a.solves} exact solves each way, alternately (inside held_heap)"
    )
    print(f"compiled passes:                   {stats(times[True])}")
    print(f"array operations (the reference): {stats(times[False])}")
    ratio = statistics.median(times[False]) / statistics.median(times[True])
    print(f"ratio of the medians: {ratio:.2f}; values and distributions equal")
    print(
        f"one float stage with its best holds: {seconds[True]:.1f} s compiled, "
        f"{seconds[False]:.1f} s array operations; best holds equal"
    )
    print(
        f"one forward pass (two rerolls of a policy): {spread[True]:.1f} s compiled, "
        f"{spread[False]:.1f} s array operations; distributions equal"
    )
    print(f"peak memory of the process: {peak:.2f} GiB")


if __name__ == "__main__":
    main()
