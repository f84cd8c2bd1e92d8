"""Timings of the card-game computations: ``python benchmarks/bench_cards.py``.

Exact deal odds for phases 1-10 (10 and 11 cards, disk cache off), exact deal odds of phases
mixing a color group with sets/runs (the sweep over numbers, and its ratio against counting
full number-and-color profiles on a small deck), simulated deals, draw-by-draw odds per policy
and whole simulated games.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("PHASE10MATH_CACHE_DIR", "off")

from phase10math.cards.dealt import dealt_odds, simulate_dealt  # noqa: E402
from phase10math.cards.draws import simulate_draws  # noqa: E402
from phase10math.cards.game import play_game  # noqa: E402


def timed(label: str, fn) -> float:
    t = time.perf_counter()
    fn()
    dt = time.perf_counter() - t
    print(f"{label:<56}{dt:>8.2f} s")
    return dt


def mixed_ratio() -> None:
    """The sweep vs full number-and-color profiles, same small deck, same answer."""
    from phase10math.cards.dealt import count_by_card_types, count_mixed
    from phase10math.cards.deck import DeckSpec
    from phase10math.cards.phases import parse_phase

    deck = DeckSpec(numbers=5, colors=("red", "blue", "green"), copies=1, wilds=2, skips=1)
    ph = parse_phase("set of 2 + run of 2 + 2 of one color", deck)
    out = {}
    fast = timed(
        "mixed, small deck, 5 cards: sweep",
        lambda: out.setdefault("sweep", count_mixed(ph, 5, deck, False)),
    )
    slow = timed(
        "mixed, small deck, 5 cards: all card profiles",
        lambda: out.setdefault("profiles", count_by_card_types(ph, 5, deck)),
    )
    assert out["sweep"] == out["profiles"]
    print(f"{'  ratio (profiles / sweep)':<56}{slow / fast:>8.1f} x")


def main() -> None:
    for h in (10, 11):
        timed(
            f"exact deal odds, phases 1-10, {h} cards",
            lambda h=h: [dealt_odds(k, h, use_cache=False) for k in range(1, 11)],
        )
    for text in (
        "set of 3 + 5 of one color",
        "2 sets of 3 + 4 of one color",
        "run of 4 + 4 of one color",
    ):
        timed(f"exact deal odds, {text}", lambda t=text: dealt_odds(t, use_cache=False))
    mixed_ratio()
    timed("simulated deals, phase 1, 100k", lambda: simulate_dealt(1, trials=100_000))
    timed(
        "simulated deals, run of 4 + 4 of one color, 100k",
        lambda: simulate_dealt("run of 4 + 4 of one color", trials=100_000),
    )
    for pol in ("greedy", "outs", "random"):
        timed(
            f"draw odds, phase 1, 2000 trials x 20, {pol}",
            lambda pol=pol: simulate_draws(1, 20, 2000, pol),
        )
    for n in (2, 4, 6):
        timed(f"5 games, {n} players", lambda n=n: [play_game(n, s) for s in range(5)])


if __name__ == "__main__":
    main()
