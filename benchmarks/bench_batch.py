"""Batched turn solves against one float solve per utility, in the same run.

A game solver asks for many turns of one phase, each with its own utility of the outcome
(failed, or made with score s). The reference solves them one at a time with the kit's
float64 turn (:func:`phase10math.game.solitaire.float_turn`: the value and the policy);
:class:`phase10math.turn.batch.TurnBatch` solves ``B`` at once and also returns each policy's
outcome distribution. Prints seconds per utility, the ratio, the largest difference of the
values (against the proven margin) and peak memory.

    python benchmarks/bench_batch.py [--phase 10] [--batch 128] [--reference 8]
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from phase10math.dice.phases import PHASES
from phase10math.game.solitaire import float_turn
from phase10math.turn.batch import TurnBatch


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phase", type=int, default=10)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--reference", type=int, default=8, help="utilities solved one at a time")
    args = ap.parse_args()
    tb = TurnBatch.for_phase(PHASES[args.phase])
    rng = np.random.default_rng(0)
    U = rng.random((args.batch, tb.n_outcomes))
    t = time.process_time()
    res = tb.solve(U)
    batched = (time.process_time() - t) / args.batch
    t = time.process_time()
    ref = [float_turn(tb.space, U[b, tb.outcome], tb.rolls)[0] for b in range(args.reference)]
    single = (time.process_time() - t) / args.reference
    diff = np.abs(np.array(ref) - res.values[: args.reference]).max()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"phase {args.phase}: {tb.space.n_states:,} holds, {tb.n_outcomes} outcomes")
    print(
        f"batched (B={args.batch}, values + distributions): {1000 * batched:.1f} ms CPU per utility"
    )
    print(
        f"one float solve per utility (value + policy):    {1000 * single:.1f} ms CPU per utility"
    )
    print(
        f"ratio {single / batched:.1f}x; largest difference {diff:.1e} "
        f"(margin {res.margin.max():.1e})"
    )
    print(f"peak memory {peak:.2f} GiB")


if __name__ == "__main__":
    main()
