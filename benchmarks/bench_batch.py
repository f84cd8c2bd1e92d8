"""Batched turn solves: the compiled steps against their plain numpy form and against one
float solve per utility, in the same run.

A game solver asks for many turns of one phase, each with its own utility of the outcome
(failed, or made with score s). :class:`phase10math.turn.batch.TurnBatch` solves ``B`` at
once on the batch engine (:class:`phase10math.turn.engine.BatchEngine`, compiled steps, the
one backward induction), and also returns each policy's outcome distribution. Two
references run beside it:

- ``plain``: the same recurrence written with numpy array operations (``np.take`` along one
  type's axis, one face at a time), the form the kit used before the compiled steps (the
  same tie rules);
- ``single``: the kit's float64 turn one utility at a time
  (:func:`phase10math.turn.policy.float_optimal_turn`: the value and the policy).

Prints milliseconds of CPU and of wall time per utility, the ratios, the largest
differences of the values and distributions (against the proven margins) and peak memory.

    python benchmarks/bench_batch.py [--phase 10] [--batch 64] [--reference 8]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from phase10math.dice.phases import PHASES
from phase10math.turn.batch import TurnBatch
from phase10math.turn.engine import BatchEngine, Ties
from phase10math.turn.policy import float_optimal_turn


class PlainEngine(BatchEngine):
    """The batch engine with its steps as plain numpy array operations (the reference)."""

    def _axis(self, t: int, i) -> tuple:
        return (slice(None),) * t + (i,)

    def expectation(self, values: np.ndarray) -> np.ndarray:
        sp, B = self.space, values.shape[1]
        T = np.zeros((sp.n_states, B))
        T[sp.full_ids] = values
        T = T.reshape(self.shape + [B])
        for t, typ in enumerate(sp.types):
            add = sp.add_tables[t]
            for idx in self.levels(t, descending=True)[1:]:
                dst = T[self._axis(t, idx)]
                for f, wt in enumerate(typ.weights):
                    term = np.take(T, add[idx, f], axis=t) * wt
                    dst = term if f == 0 else dst + term
                T[self._axis(t, idx)] = dst / 6.0
        return T.reshape(sp.n_states, B)

    def subset_maximum(
        self,
        hold_values: np.ndarray,
        tie: float = 0.0,
        overwrite: bool = False,
        ties: Ties = Ties.KEEP,
    ) -> tuple[np.ndarray, np.ndarray]:
        sp, B = self.space, hold_values.shape[1]
        M = hold_values.reshape(self.shape + [B]).copy()
        key = np.broadcast_to(self.keys.reshape(self.shape + [1]), M.shape).copy()
        for t, typ in enumerate(sp.types):
            rem = sp.remove_tables[t]
            for idx in self.levels(t, descending=False)[1:]:
                cur, kcur = M[self._axis(t, idx)], key[self._axis(t, idx)]
                for f in range(len(typ.faces)):
                    j = rem[idx, f]
                    jj = np.where(j >= 0, j, idx)  # no such hold: compare with itself
                    cand, kcand = np.take(M, jj, axis=t), np.take(key, jj, axis=t)
                    better = cand > cur + tie
                    if ties is Ties.KIT:
                        better |= (cand >= cur - tie) & (kcand > kcur)
                    cur = np.where(better, cand, cur)
                    kcur = np.where(better, kcand, kcur)
                M[self._axis(t, idx)], key[self._axis(t, idx)] = cur, kcur
        M, key = M.reshape(sp.n_states, B), key.reshape(sp.n_states, B)
        return M[sp.full_ids], key[sp.full_ids] % sp.n_states


class PlainTurn(TurnBatch):
    """The batched turn on the plain engine, its forward pass in plain numpy too."""

    def __init__(self, *args):
        super().__init__(*args)
        self.engine = PlainEngine(self.space, self.rules)

    def forward(self, holds: dict[int, np.ndarray], B: int) -> np.ndarray:
        sp, eng = self.space, self.engine
        m = np.repeat(self.first[:, None], B, axis=1)
        cols = np.arange(B)
        for r in range(self.rolls - 1, 0, -1):
            flat = holds[r].astype(np.int64) * B + cols
            H = np.bincount(flat.ravel(), weights=m.ravel(), minlength=sp.n_states * B)
            H = H.reshape(eng.shape + [B])
            for t, typ in enumerate(sp.types):
                rem = sp.remove_tables[t]
                levels = eng.levels(t, descending=False)
                for idx in levels[1:]:
                    for f, wt in enumerate(typ.weights):
                        j = rem[idx, f]
                        ok = np.flatnonzero(j >= 0)
                        H[eng._axis(t, idx[ok])] += np.take(H, j[ok], axis=t) * (wt / 6.0)
                for idx in levels[:-1]:
                    H[eng._axis(t, idx)] = 0.0
            m = H.reshape(sp.n_states, B)[self.full_ids]
        onehot = np.zeros((len(self.outcome), self.n_outcomes))
        onehot[np.arange(len(self.outcome)), self.outcome] = 1.0
        return (onehot.T @ m).T


def timed(fn):
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phase", type=int, default=10)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--reference", type=int, default=8, help="utilities solved one at a time")
    args = ap.parse_args()
    os.environ.setdefault("PHASE10MATH_THREADS", "1")  # one core each, unless asked
    tb = TurnBatch.for_phase(PHASES[args.phase])
    plain = PlainTurn(tb.space, tb.outcome, tb.scores, tb.rules)
    rng = np.random.default_rng(0)
    U = rng.random((args.batch, tb.n_outcomes))
    tb.solve(U[:2])  # the compiled steps load (or compile) once per machine
    res, cpu, wall = timed(lambda: tb.solve(U))
    ref, pcpu, pwall = timed(lambda: plain.solve(U))
    one, scpu, _ = timed(
        lambda: [
            float_optimal_turn(tb.space, U[b, tb.outcome], tb.rolls)[0]
            for b in range(args.reference)
        ]
    )
    B, R = args.batch, args.reference
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"phase {args.phase}: {tb.space.n_states:,} holds, {tb.n_outcomes} outcomes, B={B}")
    print("per utility:")
    print(f"compiled steps:   {1000 * cpu / B:6.1f} ms CPU, {1000 * wall / B:6.1f} ms wall")
    print(f"plain numpy form: {1000 * pcpu / B:6.1f} ms CPU, {1000 * pwall / B:6.1f} ms wall")
    print(
        f"one float solve per utility (value + policy): {1000 * scpu / R:6.1f} ms CPU per utility"
    )
    print(
        f"ratios: plain / compiled {pcpu / cpu:.1f}x (CPU), {pwall / wall:.1f}x (wall); "
        f"single / compiled {(scpu / R) / (cpu / B):.1f}x (CPU)"
    )
    dv = np.abs(res.values - ref.values).max()
    dd = np.abs(res.dist - ref.dist).max()
    ds = np.abs(np.array(one) - res.values[:R]).max()
    print(
        f"largest differences: values {dv:.1e} from the plain form, {ds:.1e} from the single "
        f"solves (margin {res.margin.max():.1e}); distributions {dd:.1e} "
        f"(margin {res.dist_margin:.1e})"
    )
    print(f"peak memory {peak:.2f} GiB")


if __name__ == "__main__":
    main()
