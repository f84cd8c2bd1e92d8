"""The facebook preset's duel (Busche's rules): the full solve and the trend as the floor drops.

    python benchmarks/run_facebook_duel.py full [--floor -2500] [--target 10000] [--checkpoint F]
    python benchmarks/run_facebook_duel.py floors --target 2000 --floors 0 -250 -500 -1000
    python benchmarks/run_facebook_duel.py variants --target 2000 --floor -1000

``full`` solves one duel as ``phase10math tenk duel --preset facebook --checkpoint F`` does
(the same function, :func:`~phase10math.tenthousand.penalty.solve_penalty_duel`: a checkpoint
after every sweep, kill it and run the same command again and it goes on from the last sweep)
and prints P(first player wins) with its proven interval beside Busche's published 53.487%;
``floors`` prints the first player's chance for each floor and the differences between
successive floors (Busche reports that they shrink exponentially); ``variants`` prints how
much each open rule choice of the preset moves the first player's chance (docs/rules.md
section 3.5). Long: run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import resource
import time

from phase10math.tenthousand.layered import solve_layered
from phase10math.tenthousand.penalty import solve_penalty, solve_penalty_duel
from phase10math.tenthousand.rules import TenKRules

BUSCHE = 0.53487  # Busche (2016), floor -2500, target 10,000
VARIANTS = [
    ("the preset", {}),
    ("four of a kind + pair not three pairs", {"four_and_pair": False}),
    ("of a kind adds the triple per die", {"extra_of_a_kind": "add"}),
    ("two triples score 2500", {"two_triplets": 2500}),
    ("no three-farkle penalty (and no floor)", {"farkle_penalty": 0}),
]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_full(target: int, floor: int, checkpoint=None, **changes):
    """The command line's solve (its tolerance, certificate and narrowing), no cache."""
    rules = TenKRules.preset("facebook", **{"target": target, "floor": floor, **changes})
    t0, c0 = time.perf_counter(), time.process_time()
    s = solve_penalty_duel(rules, progress=False, use_cache=False, checkpoint=checkpoint)
    return rules, s, time.perf_counter() - t0, time.process_time() - c0


def solve(target: int, floor: int, checkpoint=None, tol=1e-12, **changes):
    if changes.get("farkle_penalty") == 0:
        changes["floor"] = 0
    rules = TenKRules.preset("facebook", **{"target": target, "floor": floor, **changes})
    t0, c0 = time.perf_counter(), time.process_time()
    if not rules.penalised:
        s = solve_layered(rules)
        return rules, s, time.perf_counter() - t0, time.process_time() - c0

    def report(passes: int, change: float) -> None:
        print(
            f"  sweep {passes}: change {change:.1e}, {time.perf_counter() - t0:.0f} s", flush=True
        )

    s = solve_penalty(rules, tol=tol, progress=report, refine=1, width=1e-10, checkpoint=checkpoint)
    return rules, s, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["full", "floors", "variants"])
    ap.add_argument("--target", type=int, default=10000)
    ap.add_argument("--floor", type=int, default=-2500)
    ap.add_argument("--floors", type=int, nargs="+", default=[0, -250, -500, -1000, -1500, -2000])
    ap.add_argument("--checkpoint", default=None)
    ap.add_argument(
        "--tol", type=float, default=1e-10, help="floors, variants: stop the sweeps below this"
    )
    ap.add_argument(
        "--no-four-and-pair", action="store_true", help="4 of a kind + pair is not three pairs"
    )
    args = ap.parse_args()
    changes = {"four_and_pair": False} if args.no_four_and_pair else {}
    if args.what == "variants":
        base = None
        for label, ch in VARIANTS:
            _, s, wall, _ = solve(args.target, args.floor, None, args.tol, **ch)
            base = s.value if base is None else base
            print(
                f"facebook target {args.target} floor {args.floor}, {label}: "
                f"P(first wins) = {s.value:.9f} ({s.value - base:+.2e} from the preset), "
                f"{wall:.0f} s",
                flush=True,
            )
        return
    floors = [args.floor] if args.what == "full" else args.floors
    prev = None
    for floor in floors:
        if args.what == "full":
            rules, s, wall, cpu = solve_full(args.target, floor, args.checkpoint, **changes)
        else:
            rules, s, wall, cpu = solve(args.target, floor, args.checkpoint, args.tol, **changes)
        line = (
            f"facebook target {rules.target} floor {floor}"
            f"{' (4+2 not three pairs)' if changes else ''}: P(first wins) = {s.value:.12f}, "
            f"proven [{s.lower:.12f}, {s.upper:.12f}] (width {s.upper - s.lower:.1e}, "
            f"certified {s.certified}), {s.passes} sweeps, {s.states:,} states, {wall:.0f} s "
            f"({cpu:.0f} s CPU), peak RSS {peak_mb():,.0f} MB"
        )
        if prev is not None:
            line += f"; change from the floor above {s.value - prev:+.3e}"
        prev = s.value
        print(line, flush=True)
        if args.what == "full" and rules.target == 10000 and floor == -2500:
            print(
                f"  Busche (2016): 53.487%; ours {100 * s.value:.3f}%, difference "
                f"{100 * (s.value - BUSCHE):+.3f} percentage points",
                flush=True,
            )


if __name__ == "__main__":
    main()
