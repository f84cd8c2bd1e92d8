"""Exact solves of a color phase's family on the recorded dice: in full (the straightforward
form, the reference: the best holds and the forward pass every time) against the value alone
first (:meth:`~phase10math.turn.family.TensorFamily.value_one`; the full solve only where no
policy kept is within ``tol`` of it), in the same run, utility by utility, each side from the
same family.

The workload is the recorded end game's own: the utilities of its exact solves number
``--first`` to ``--first + --solves - 1`` (``tools/solves/duel_1_10_recorded.families`` keeps
them in the order they were solved: its phase 8 began with the end game's 403; the end game's
own checkpoint, ``duel_8_10_recorded.ckpt`` in git history, holds those alone), each side
starting from the family as it was before them. Then a
replay of all the checkpoint's exact solves in their order: how many a policy kept already
solved (the value alone would have done), and what the adaptive rule
(:meth:`~phase10math.turn.family.TensorFamily.value_first_now`) would have spent, in full
solves, for the time ratio measured here.

    python benchmarks/bench_value_first.py [--first 344] [--solves 6]
"""

from __future__ import annotations

import argparse
import collections
import resource
import statistics
import time
from pathlib import Path

import numpy as np

from phase10math._base.savefile import read_safe
from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.game.duel import Bonus, Play
from phase10math.game.duel.checkpoint import KIND
from phase10math.turn.family import VALUE_FIRST_SHARE, VALUE_FIRST_WINDOW, TensorFamily
from phase10math.turn.tensor.memory import held_heap

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--checkpoint", default=str(ROOT / "tools" / "solves" / "duel_1_10_recorded.families")
    )
    ap.add_argument("--first", type=int, default=344)
    ap.add_argument("--solves", type=int, default=6)
    args = ap.parse_args()
    kept = read_safe(args.checkpoint, KIND, (Play, Bonus))[1]["families"][8]
    M, C, H = (np.asarray(kept[k], dtype=np.float64) for k in ("members", "cuts", "highs"))
    off = len(M) - len(C)  # policies kept without a cut (the per-turn objectives')
    # the replay: was each exact solve's optimum attained by a policy kept before it?
    attained = [bool(H[i] - (M[: i + off] @ C[i]).max() <= 1e-7) for i in range(len(C))]

    fam = TensorFamily.for_phase(PHASES[8], layout=RECORDED_LAYOUT)
    lo, hi = args.first, args.first + args.solves
    start = {"members": M[: lo + off], "cuts": C[:lo], "highs": H[:lo]}
    sides = {False: dict(start), True: dict(start)}
    times: dict[bool, list[float]] = {False: [], True: []}
    alone: list[bool] = []
    print(f"exact solves {lo} to {hi - 1} of the recorded end game, phase 8 (tol {fam.tol:g})")
    print(f"{'solve':>5} {'full s':>8} {'value first s':>14} {'by the value':>13} {'replay':>7}")
    with held_heap():
        for i in range(lo, hi):
            u = C[i][None]
            for first in (False, True):
                fam.load(sides[first])
                fam.value_first, before = first, fam.value_solves
                t = time.perf_counter()
                fam.exact(u)
                times[first].append(time.perf_counter() - t)
                assert not len(fam.wide(u)) and fam.solve(u).margin[0] <= fam.tol  # closed
                sides[first] = fam.state()
                if first:
                    alone.append(fam.value_solves > before)
            print(
                f"{i:>5} {times[False][-1]:>8.1f} {times[True][-1]:>14.1f} "
                f"{'yes' if alone[-1] else 'no':>13} {'yes' if attained[i] else 'no':>7}",
                flush=True,
            )
    full, first = sum(times[False]), sum(times[True])
    print(f"in all: full {full:.1f} s, value first {first:.1f} s (ratio {first / full:.2f})")
    by_value = [t for t, a in zip(times[True], alone) if a]
    r = statistics.median(by_value) / statistics.median(times[False]) if by_value else 0.55
    print(f"the value alone against a full solve: {r:.2f} (median; 0.55 if none was closed)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak memory {peak:.2f} GiB")

    seen: collections.deque[bool] = collections.deque(maxlen=VALUE_FIRST_WINDOW)
    cost = tried = 0.0
    for a in attained:
        if 2 * len(seen) >= VALUE_FIRST_WINDOW and sum(seen) >= VALUE_FIRST_SHARE * len(seen):
            tried += 1
            cost += r + (0 if a else 1)
        else:
            cost += 1
        seen.append(a)
    n = len(attained)
    print(
        f"replay of the checkpoint's {n} exact solves: {sum(attained)} attained by a policy "
        f"kept before them ({sum(attained[-100:])} of the last 100); the adaptive rule tries "
        f"the value first {tried:.0f} times and spends {cost:.1f} full solves' time "
        f"({100 * (1 - cost / n):.1f}% less; a replay: the policies it would not add are not "
        "followed)"
    )


if __name__ == "__main__":
    main()
