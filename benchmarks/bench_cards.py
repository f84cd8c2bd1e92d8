"""Timings of the card-game computations: ``python benchmarks/bench_cards.py``.

Exact deal odds for phases 1-10 (10 and 11 cards, disk cache off), simulated deals, draw-by-draw
odds per policy and whole simulated games.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("PHASE10MATH_CACHE_DIR", "off")

from phase10math.cards.dealt import dealt_odds, simulate_dealt  # noqa: E402
from phase10math.cards.draws import simulate_draws  # noqa: E402
from phase10math.cards.game import play_game  # noqa: E402


def timed(label: str, fn) -> None:
    t = time.perf_counter()
    fn()
    print(f"{label:<48}{time.perf_counter() - t:>8.2f} s")


def main() -> None:
    for h in (10, 11):
        timed(
            f"exact deal odds, phases 1-10, {h} cards",
            lambda h=h: [dealt_odds(k, h, use_cache=False) for k in range(1, 11)],
        )
    timed("simulated deals, phase 1, 100k", lambda: simulate_dealt(1, trials=100_000))
    for pol in ("greedy", "outs", "random"):
        timed(
            f"draw odds, phase 1, 2000 trials x 20, {pol}",
            lambda pol=pol: simulate_draws(1, 20, 2000, pol),
        )
    for n in (2, 4, 6):
        timed(f"5 games, {n} players", lambda n=n: [play_game(n, s) for s in range(5)])


if __name__ == "__main__":
    main()
