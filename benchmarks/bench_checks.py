"""What the argument checks of the public API cost: warm advice (the solution cached, phase 1
and phase 8 on the compact layout) and a few light calls, each timed with the checks on and
with them off (:func:`phase10math._base.checks.unchecked`) in the same run; prints the ratios.

    python benchmarks/bench_checks.py [--reps 30]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def paired(fn, reps: int, unchecked) -> tuple[float, float]:
    """The fastest seconds of ``fn()`` with the checks on and off, the two interleaved run by
    run (after a warm-up) so that the machine's other load falls on both alike."""
    fn()
    on, off = [], []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        on.append(time.perf_counter() - t)
        with unchecked():
            t = time.perf_counter()
            fn()
            off.append(time.perf_counter() - t)
    return min(on), min(off)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    os.environ.setdefault("PHASE10MATH_CACHE_DIR", tempfile.mkdtemp(prefix="p10-bench-"))
    from phase10math import cards
    from phase10math._base.checks import unchecked
    from phase10math.dice.faces import parse_faces
    from phase10math.dice.layouts import COMPACT_LAYOUT
    from phase10math.dice.meld import score
    from phase10math.exact import show
    from phase10math.turn.advisor import advise

    roll = parse_faces("5o 5o 5o 5g 5g 5b 1g 1g 1g 1r")
    work = {
        "advice, phase 1 (warm)": lambda: advise(roll, 2, 1, layout=COMPACT_LAYOUT),
        "advice, phase 8 (warm)": lambda: advise(roll, 2, 8, layout=COMPACT_LAYOUT),
        "score of one roll": lambda: score(1, roll),
        "show a fraction": lambda: show(1 / 3),
        "parse a card hand": lambda: cards.parse_hand("R1 R2 R3 B3 B3 Y3 G7 G8 W S"),
    }
    print(f"machine: {os.cpu_count()} cores; fastest of {args.reps} interleaved runs each")
    print(f"{'call':<26}{'checked':>12}{'unchecked':>12}{'ratio':>8}")
    for name, fn in work.items():
        on, off = paired(fn, args.reps, unchecked)
        print(f"{name:<26}{1e3 * on:>10.3f}ms{1e3 * off:>10.3f}ms{on / off:>8.3f}")
    print("target: warm advice within 5% (ratio <= 1.05)")


if __name__ == "__main__":
    main()
