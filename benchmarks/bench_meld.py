"""Time the meld engine over every distinct final roll of each phase (the compact dice: the
recorded ones have 6**10 distinct rolls in a color phase, which the tensor engine scores by
halves instead).

Our vectorised engine (`meld.best_scores` on all profiles at once) against the straightforward
reference: one roll at a time through `meld.explain` (timed on a random sample of the same rolls
and scaled up). Prints rolls, seconds and the speed ratio per phase, then the same for
phrases made only of color groups (their closed form against the exhaustive search, sampled
less: a roll of four color groups takes the search about a second).

    python benchmarks/bench_meld.py [--sample 300] [--phrase-sample 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from phase10math.dice.faces import COLORS, Face
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.meld import best_scores, explain
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.turn.maxima import roll_profiles

COLOR_PHRASES = [
    "2 of one color + 2 of one color",
    "3 of one color + 3 of one color + 4 of one color",
    "2 of one color + 2 of one color + 2 of one color + 2 of one color",
]


def _label(ph) -> str:
    """A short name of a color-only phrase: ``2+2 col`` for two color groups of 2."""
    return "+".join(str(g.size) for g in ph.groups) + " col"


def faces_of(profile: np.ndarray) -> list[Face]:
    return [
        Face(v, COLORS[c]) for v in range(11) for c in range(4) for _ in range(int(profile[v, c]))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--phrase-sample", type=int, default=20)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"{'phase':>11} {'rolls':>10} {'engine s':>9} {'per roll µs':>12} {'naive s (est.)':>15}"
        f" {'ratio':>8}"
    )
    tot_fast = tot_naive = 0.0
    items = [(n, ph, args.sample) for n, ph in PHASES.items()] + [
        (_label(parse_phase(text)), parse_phase(text), args.phrase_sample) for text in COLOR_PHRASES
    ]
    for n, ph, sample in items:
        profiles = np.concatenate(list(roll_profiles(COMPACT_LAYOUT, ph)))
        t0 = time.perf_counter()
        fast = best_scores(ph, profiles)
        t_fast = time.perf_counter() - t0
        idx = rng.choice(len(profiles), size=min(sample, len(profiles)), replace=False)
        t0 = time.perf_counter()
        for i in idx:
            m = explain(ph, faces_of(profiles[i]))
            assert (m.score if m.complete else -1) == fast[i]
        t_naive = (time.perf_counter() - t0) / len(idx) * len(profiles)
        tot_fast += t_fast
        tot_naive += t_naive
        print(
            f"{n:>11} {len(profiles):>10,} {t_fast:>9.2f} {1e6 * t_fast / len(profiles):>12.2f}"
            f" {t_naive:>15.1f} {t_naive / t_fast:>7.0f}x"
        )
    print(
        f"total: engine {tot_fast:.1f} s, naive (est.) {tot_naive:.0f} s, "
        f"ratio {tot_naive / tot_fast:.0f}x"
    )


if __name__ == "__main__":
    main()
