"""The two-player solve's pairs without a color phase: as it is, against its previous form
(the reference), in the same run.

Most of a two-player solve's time is its pairs of states without a color phase: policy
iteration and the pair certificate, each a batched turn solve
(:class:`phase10math.turn.batch.TurnBatch`, on the batch engine) of a few utilities per pair.
Three changes made them cheaper; the reference puts all three back for its runs:

- the batched turn's maximum over sub-holds (``max_step``) keeps the best value and its hold
  in two one-row buffers (the hold as a float); before, it wrote them in place into rows of
  the value and hold arrays, which kept the loop from vectorizing, and the step copied its
  input first (the same operations in the same order: the same floats);
- a fresh layer's seed pairs start policy iteration from the exact fixed point of the
  completion-optimal turns at their own utilities (``SEED_START``), not from 1/2;
- a pair one Newton step from a residual under ``VALUE_FIRST_BELOW`` checks its values
  alone first (a solve without the forward pass); only the pairs whose policies changed
  are solved again with their distributions.

The workload is a real solve: ``solve_duel`` of the recorded dice' end game, phases 9-10
with every total (1,060 pairs of states, 452 last-chance states), run ``--repeat`` times
each way, alternately. Prints the wall seconds (min / median / max), milliseconds a pair,
the ratio, the largest difference of the values (each within the proven bounds printed),
and peak memory.

    python benchmarks/bench_duel_pairs.py [--phases 9-10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import statistics
import time

from numba import njit

import phase10math.game.duel as duel
import phase10math.turn.engine as engine
from phase10math.dice.layouts import LAYOUTS
from phase10math.game.duel import DuelGame, Play, solve_duel


@njit(cache=True, nogil=True)
def reference_max_step(M, key, rem, order, tie, kit):  # pragma: no cover (compiled)
    """The previous maximum step: the best so far kept in place, in rows of ``M`` and
    ``key`` (the two-player solve's tie rule, ``Ties.KEEP``: ``kit`` is never set)."""
    pre, _, post = M.shape
    nf = rem.shape[1]
    for a in range(pre):
        for i in order:
            cur, kcur = M[a, i], key[a, i]
            for f in range(nf):
                j = rem[i, f]
                if j < 0:
                    continue
                cand, kcand = M[a, j], key[a, j]
                for c in range(post):
                    better = cand[c] > cur[c] + tie
                    cur[c] = cand[c] if better else cur[c]
                    kcur[c] = kcand[c] if better else kcur[c]


@contextlib.contextmanager
def reference_steps():
    """The previous form for the block: its maximum step (its input always copied), seeds
    from 1/2, no values first."""
    subset_maximum = engine.BatchEngine.subset_maximum

    def copying(self, W, tie=0.0, overwrite=False, ties=engine.Ties.KEEP):
        return subset_maximum(self, W, tie, ties=ties)

    saved = engine.max_step, duel.pair.SEED_START, duel.pair.VALUE_FIRST_BELOW
    engine.BatchEngine.subset_maximum, engine.max_step = copying, reference_max_step
    duel.pair.SEED_START, duel.pair.VALUE_FIRST_BELOW = None, 0.0
    try:
        yield
    finally:
        engine.BatchEngine.subset_maximum = subset_maximum
        engine.max_step, duel.pair.SEED_START, duel.pair.VALUE_FIRST_BELOW = saved


def solve_once(lo: int, hi: int) -> tuple[float, dict, float]:
    game = DuelGame.standard(lo, hi, layout=LAYOUTS["recorded"])
    t = time.perf_counter()
    sol = solve_duel(game)
    return time.perf_counter() - t, dict(sol.values[(Play.OPTIMAL, Play.OPTIMAL)]), sol.bound


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phases", default="9-10", help="a range without a color phase")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.phases.split("-"))
    solve_once(lo, hi)  # the compiled steps load (or compile) once per machine
    with reference_steps():
        solve_once(lo, hi)
    now, ref, diff = [], [], 0.0
    for _ in range(args.repeat):
        t, v, bound = solve_once(lo, hi)
        now.append(t)
        with reference_steps():
            tr, vr, bound_ref = solve_once(lo, hi)
        ref.append(tr)
        diff = max(diff, max(abs(v[k][0] - vr[k][0]) for k in v))
    pairs = len(v) // 2  # each pair's two states (a mover and its partner)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    fmt = " / ".join
    print(f"phases {lo}-{hi}, recorded dice, {pairs:,} pairs; {args.repeat} runs each, alternately")
    for name, ts in (("now     ", now), ("previous", ref)):
        ms = 1000 * statistics.median(ts) / pairs
        print(f"{name}: {fmt(f'{x:.1f}' for x in sorted(ts))} s, {ms:.1f} ms a pair")
    print(f"ratio previous / now (medians): {statistics.median(ref) / statistics.median(now):.2f}")
    print(
        f"largest difference of the values {diff:.1e} (proven bounds {bound:.1e} now, "
        f"{bound_ref:.1e} before); peak memory {peak:.2f} GiB"
    )


if __name__ == "__main__":
    main()
