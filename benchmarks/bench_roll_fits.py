"""How typed faces are fitted to the dice (:func:`~phase10math.turn.advisor.roll_fits`, every
advice on typed faces goes through it): the faces split into parts that share no die
(:func:`~phase10math.turn.advisor.fit_parts`) and the parts' ways combined, against the
straightforward reference in the same run, one search over every assignment of all the faces
(the same function with every face in one part). Seeded rolls of the recorded dice (ten
different dice), typed as a player types them: numbers without colors, or with them.

    python benchmarks/bench_roll_fits.py [--rolls 30] [--seed 33]
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from phase10math.dice.faces import parse_faces
from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.turn import advisor
from phase10math.turn.projection import FULL, VALUE
from phase10math.turn.statespace import StateSpace


def one_part(cand):
    """The reference: every face in one part (one search over all the faces)."""
    return [list(range(len(cand)))]


def timed(space, rolls, parts) -> tuple[float, list]:
    real = advisor.fit_parts
    advisor.fit_parts = parts
    try:
        t0 = time.perf_counter()
        out = [advisor.roll_fits(space, faces, RECORDED_LAYOUT) for faces in rolls]
        return time.perf_counter() - t0, out
    finally:
        advisor.fit_parts = real


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rolls", type=int, default=30)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    dice = RECORDED_LAYOUT.dice
    print(f"{'typed':<14}{'rolls':>6}{'one search':>12}{'by parts':>10}{'ratio':>8}")
    for name, projection, colors in (("numbers", VALUE, False), ("with colors", FULL, True)):
        space = StateSpace.build(RECORDED_LAYOUT, projection)
        rolls = []
        for _ in range(args.rolls):
            faces = [d.faces[rng.integers(6)] for d in dice]
            text = " ".join(str(f) if colors else str(f)[:-1] for f in faces)
            rolls.append(parse_faces(text))
        t_ref, ref = timed(space, rolls, one_part)
        t_new, new = timed(space, rolls, advisor.fit_parts)
        assert [[(f.dice, f.on, f.ways) for f in x] for x in ref] == [
            [(f.dice, f.on, f.ways) for f in x] for x in new
        ], "the two disagree"
        print(
            f"{name:<14}{len(rolls):>6}{1000 * t_ref / len(rolls):>9.1f} ms"
            f"{1000 * t_new / len(rolls):>7.1f} ms{t_ref / t_new:>7.1f}x"
        )
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
