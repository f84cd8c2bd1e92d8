"""Exact probabilities that a dealt hand already holds a phase, by counting card profiles.

Whether a hand holds a set/run phase depends only on its *number profile* (how many cards of
each number) and its number of Wilds; a color phase only on its color profile and Wilds. The
number of hands with number profile ``(k_1, ..., k_12)``, ``w`` Wilds and ``s`` Skips is

    C(8, k_1) * ... * C(8, k_12) * C(8, w) * C(4, s)

(8 cards of each number: 4 colors x 2 copies). So we enumerate the profiles of the number
cards (646,490 for 10 cards; a numpy array), find for each the fewest Wilds that complete the
phase, and add up the hands whose Wilds/Skips split makes up the rest -- exact integers over
``C(108, 10)``. Phases that mix one color group with sets/runs (``'1 run of 4 + 4 of one
color'``) are counted exactly by a sweep over the numbers (:mod:`phase10math.cards.mixed`);
mixed phases with two or more color groups by full number-and-color profiles, on small decks.

>>> from phase10math.exact import show
>>> show(dealt_probability(1))
'321667650359/1760128146855 (0.182752)'
>>> small = DeckSpec(numbers=4, colors=("red", "blue"), copies=1, wilds=1, skips=1)
>>> dealt_probability("2 sets of 2", hand_size=4, deck=small)
Fraction(1, 7)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, sqrt

import numpy as np

from phase10math._base.checks import check_int, check_seed, public
from phase10math._base.progress import progress_bar
from phase10math.cache import cache_key, cached
from phase10math.cards import mixed
from phase10math.cards.deck import STANDARD, Card, DeckSpec, card_categories, category_count
from phase10math.cards.errors import InvalidCardError
from phase10math.cards.phases import Phase, parse_phase, placements, shortfall
from phase10math.errors import StateSpaceTooLargeError
from phase10math.exact import to_json

MAX_PROFILES = 12_000_000  # rows of the profile array (about 150 MB for 12 numbers)
MAX_MIXED_PROFILES = 300_000
MAX_BRUTE_HANDS = 3_000_000


@public
@dataclass(frozen=True)
class DealtOdds:
    """How far a dealt hand is from a phase, exactly.

    ``shortfall[k]`` is the probability that the hand lacks exactly ``k`` cards (beyond its
    Wilds); ``probability`` is ``shortfall[0]``, the chance that the hand holds the phase.
    """

    phase: Phase
    hand_size: int
    deck: DeckSpec
    hands: int  # hands that hold the phase
    total: int  # all hands, C(deck.size, hand_size)
    shortfall: dict[int, Fraction] = field(default_factory=dict)

    @property
    def probability(self) -> Fraction:
        return Fraction(self.hands, self.total)

    @property
    def one_in(self) -> float:
        """``1 / probability`` (inf if impossible)."""
        return float("inf") if self.hands == 0 else self.total / self.hands

    def to_json(self) -> dict:
        return {
            "phase": self.phase.number,
            "text": self.phase.text,
            "hand_size": self.hand_size,
            "hands": self.hands,
            "total": self.total,
            "probability": to_json(self.probability),
            "shortfall": {str(k): to_json(v) for k, v in sorted(self.shortfall.items())},
        }


def count_profiles(parts: int, cap: int, max_total: int) -> int:
    """How many vectors of ``parts`` entries in ``0..cap`` have sum ``<= max_total``.

    >>> count_profiles(12, 8, 10)
    646490
    """
    ways = [1] + [0] * max_total
    for _ in range(parts):
        ways = [sum(ways[t - c] for c in range(0, min(cap, t) + 1)) for t in range(max_total + 1)]
    return sum(ways)


def profiles(parts: int, cap: int, max_total: int) -> np.ndarray:
    """All vectors of ``parts`` entries in ``0..cap`` with sum ``<= max_total`` (int8 rows).

    >>> profiles(2, 1, 1).tolist()
    [[0, 0], [0, 1], [1, 0]]
    """
    rows = np.zeros((1, 0), dtype=np.int8)
    sums = np.zeros(1, dtype=np.int64)
    for _ in range(parts):
        reps = np.minimum(cap, max_total - sums) + 1
        idx = np.repeat(np.arange(len(rows)), reps)
        offs = np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps)
        rows = np.concatenate([rows[idx], offs[:, None].astype(np.int8)], axis=1)
        sums = sums[idx] + offs
    return rows


def _min_deficit(rows: np.ndarray, need: np.ndarray) -> np.ndarray:
    """Fewest Wilds completing the phase for every profile row (min over placements)."""
    dtype = np.int16
    best = np.full(len(rows), np.iinfo(dtype).max, dtype=dtype)
    parts: dict[tuple[int, int], np.ndarray] = {}  # (column, need) -> max(0, need - count)
    for p in need:
        d = np.zeros(len(rows), dtype=dtype)
        for col in np.flatnonzero(p):
            key = (int(col), int(p[col]))
            if key not in parts:
                parts[key] = np.maximum(np.int16(p[col]) - rows[:, col], 0).astype(dtype)
            d += parts[key]
        np.minimum(best, d, out=best)
    return best


def _extras_table(deck: DeckSpec, hand_size: int, max_def: int) -> np.ndarray:
    """``U[r, d, k]``: ways to pick ``r`` cards from Wilds+Skips so that a profile needing
    ``d`` Wilds lacks exactly ``k`` cards."""
    U = np.zeros((hand_size + 1, max_def + 1, max_def + 1), dtype=object)
    for r in range(hand_size + 1):
        for w in range(0, min(r, deck.wilds) + 1):
            ways = comb(deck.wilds, w) * comb(deck.skips, r - w)
            if ways == 0:
                continue
            for d in range(max_def + 1):
                U[r, d, max(0, d - w)] += ways
    return U


def _aggregate(
    weights: np.ndarray, m: np.ndarray, deficit: np.ndarray, deck: DeckSpec, hand_size: int
) -> dict[int, int]:
    """Sum ``weights`` by (cards used, Wilds needed), then spread over Wild/Skip choices.

    Returns ``{cards lacking: number of hands}``."""
    by_m_need = mixed.sum_by_cards_and_need(weights, m, deficit, hand_size + 1)
    return _spread(by_m_need, deck, hand_size)


def _spread(by_m_need: dict[tuple[int, int], int], deck: DeckSpec, hand_size: int):
    """``{(number cards, Wilds needed): ways}`` -> ``{cards lacking: hands}``: the other
    ``hand_size - m`` cards are Wilds and Skips in every possible split."""
    max_def = hand_size + 1
    U = _extras_table(deck, hand_size, max_def)
    out: dict[int, int] = {}
    for (mm, dd), wsum in by_m_need.items():
        for lack in range(max_def + 1):
            ways = U[hand_size - mm, min(dd, max_def), lack]
            if ways:
                out[lack] = out.get(lack, 0) + wsum * ways
    return out


def _count_pure(ph: Phase, hand_size: int, deck: DeckSpec) -> dict[int, int]:
    pl = placements(ph, deck)
    if ph.kind == "number":
        parts, cap = deck.numbers, deck.per_number
    else:
        parts, cap = len(deck.colors), deck.per_color
    n_rows = count_profiles(parts, cap, hand_size)
    if n_rows > MAX_PROFILES:
        raise StateSpaceTooLargeError(
            f"{n_rows:,} card profiles for {hand_size}-card hands exceed the limit "
            f"{MAX_PROFILES:,}; use simulate_dealt() or a smaller hand"
        )
    rows = profiles(parts, cap, hand_size)
    m = rows.sum(axis=1, dtype=np.int64)
    big = comb(deck.size, hand_size) >= 2**62
    binom = np.array([comb(cap, c) for c in range(cap + 1)], dtype=object if big else np.int64)
    weights = binom[rows[:, 0]]
    for j in range(1, parts):
        weights = weights * binom[rows[:, j]]
    if pl.need.shape[0] == 0:
        deficit = np.full(len(rows), hand_size + 1, dtype=np.int16)
    else:
        deficit = _min_deficit(rows, pl.need)
    return _aggregate(weights, m, deficit, deck, hand_size)


def count_mixed(ph: Phase, hand_size: int, deck: DeckSpec, progress: bool) -> dict[int, int]:
    if mixed.supports(ph):
        bar = None
        if progress:
            bar = progress_bar(total=deck.numbers, desc=f"counting {ph.text}", unit="number")

        def tick(n: int, states: int) -> None:
            if bar is not None:
                bar.set_postfix(states=states, refresh=False)
                bar.update(1)

        try:
            by_m_need = mixed.count_one_color_mixed(ph, hand_size, deck, tick)
        finally:
            if bar is not None:
                bar.close()
        return _spread(by_m_need, deck, hand_size)
    return count_by_card_types(ph, hand_size, deck)


def count_by_card_types(ph: Phase, hand_size: int, deck: DeckSpec) -> dict[int, int]:
    """Any phase, over full number-and-color profiles (small decks)."""
    types = [Card("number", n, c) for n in range(1, deck.numbers + 1) for c in deck.colors]
    n_rows = count_profiles(len(types), deck.copies, hand_size)
    if n_rows > MAX_MIXED_PROFILES:
        raise StateSpaceTooLargeError(
            f"{ph.text!r} mixes two or more color groups with sets/runs, so it is counted "
            f"over full number-and-color profiles: {n_rows:,} of them exceed the limit "
            f"{MAX_MIXED_PROFILES:,}; estimate it by simulation (simulate_dealt() in Python, "
            "'phase10math cards draws --phase ... --draws 0' on the command line) or use a "
            "smaller deck (phases with one color group are counted exactly on any deck)"
        )
    rows = profiles(len(types), deck.copies, hand_size)
    m = rows.sum(axis=1, dtype=np.int64)
    binom = np.array([comb(deck.copies, c) for c in range(deck.copies + 1)], dtype=object)
    weights = np.ones(len(rows), dtype=object)
    for j in range(len(types)):
        weights = weights * binom[rows[:, j]]
    deficit = np.empty(len(rows), dtype=np.int16)
    for i, row in enumerate(rows):
        cards = [t for t, k in zip(types, row.tolist(), strict=True) for _ in range(k)]
        deficit[i] = min(shortfall(cards, ph, deck), hand_size + 1)
    return _aggregate(weights, m, deficit, deck, hand_size)


def _check_size(hand_size: int, deck: DeckSpec) -> None:
    if (
        isinstance(hand_size, bool)
        or not isinstance(hand_size, int)
        or not 1 <= hand_size <= deck.size
    ):
        raise InvalidCardError(
            f"hand size {hand_size!r} is not allowed; give 1..{deck.size} for this deck"
        )


@public
def dealt_odds(
    ph: int | str | Phase,
    hand_size: int = 10,
    deck: DeckSpec = STANDARD,
    use_cache: bool = True,
    progress: bool = False,
) -> DealtOdds:
    """Exact odds that ``hand_size`` random cards hold phase ``ph`` (and how far off they are).

    Results are cached on disk; ``progress=True`` shows a progress bar while a mixed phase is
    counted (the slowest case, up to a minute for runs with a color group).

    >>> o = dealt_odds(4)
    >>> o.hands, o.total
    (6028742383702, 38722819230810)
    >>> from phase10math.exact import show
    >>> show(dealt_odds("1 set of 3 + 5 of one color").probability)
    '14310166553/195569794095 (0.073172)'
    """
    ph = parse_phase(ph, deck)
    _check_size(hand_size, deck)

    def compute() -> dict[int, int]:
        if ph.kind == "mixed":
            return count_mixed(ph, hand_size, deck, progress)
        return _count_pure(ph, hand_size, deck)

    if use_cache:
        key = cache_key(kind="cards-dealt", phase=repr(ph.groups), hand=hand_size, deck=repr(deck))
        counts = cached(key, compute)
    else:
        counts = compute()
    total = comb(deck.size, hand_size)
    assert sum(counts.values()) == total, "profile counts must cover every hand"
    dist = {k: Fraction(v, total) for k, v in sorted(counts.items()) if v}
    return DealtOdds(ph, hand_size, deck, counts.get(0, 0), total, dist)


@public
def dealt_probability(
    ph: int | str | Phase, hand_size: int = 10, deck: DeckSpec = STANDARD
) -> Fraction:
    """Exact probability that ``hand_size`` random cards hold the phase."""
    return dealt_odds(ph, hand_size, deck).probability


@public
def dealt_table(
    hand_size: int = 10, deck: DeckSpec = STANDARD, phases: list | None = None
) -> list[DealtOdds]:
    """:func:`dealt_odds` for phases 1-10 (or the given ones)."""
    return [dealt_odds(p, hand_size, deck) for p in (phases or list(range(1, 11)))]


@public
def brute_force_odds(ph: int | str | Phase, hand_size: int, deck: DeckSpec) -> DealtOdds:
    """The same odds by listing every hand (``itertools.combinations``); small decks only."""
    ph = parse_phase(ph, deck)
    _check_size(hand_size, deck)
    total = comb(deck.size, hand_size)
    if total > MAX_BRUTE_HANDS:
        raise StateSpaceTooLargeError(f"{total:,} hands are too many to list one by one")
    counts: dict[int, int] = {}
    for hand in itertools.combinations(deck.cards(), hand_size):
        k = shortfall(hand, ph, deck)
        counts[k] = counts.get(k, 0) + 1
    dist = {k: Fraction(v, total) for k, v in sorted(counts.items())}
    return DealtOdds(ph, hand_size, deck, counts.get(0, 0), total, dist)


@public
@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: ``hits`` of ``trials``, with its standard error."""

    hits: int
    trials: int

    @property
    def p(self) -> float:
        return self.hits / self.trials

    @property
    def stderr(self) -> float:
        return sqrt(max(self.p * (1 - self.p), 1e-300) / self.trials)

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval."""
        n, p = self.trials, self.p
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def agrees(self, exact: Fraction | float, sigmas: float = 4.0) -> bool:
        """Within ``sigmas`` standard errors of ``exact`` (using the exact p's error)."""
        q = float(exact)
        se = sqrt(max(q * (1 - q), 1.0 / self.trials) / self.trials)
        return abs(self.p - q) <= sigmas * se


def deal_category_counts(
    deck: DeckSpec, hand_size: int, trials: int, rng: np.random.Generator, by: str
) -> np.ndarray:
    """Random deals as count rows ``(trials, D + 2)``: per number (``by='number'``), color or
    number x color type (:func:`~phase10math.cards.deck.card_categories`), then Wilds, then
    Skips."""
    cat = card_categories(deck, by)
    D = category_count(deck, by)
    keys = rng.random((trials, len(cat)))
    hands = np.argpartition(keys, hand_size - 1, axis=1)[:, :hand_size]
    flat = cat[hands] + (D + 2) * np.arange(trials)[:, None]
    return np.bincount(flat.ravel(), minlength=trials * (D + 2)).reshape(trials, D + 2)


@public
def simulate_dealt(
    ph: int | str | Phase,
    hand_size: int = 10,
    trials: int = 100_000,
    seed: int = 0,
    deck: DeckSpec = STANDARD,
) -> Estimate:
    """Seeded Monte Carlo estimate of :func:`dealt_probability` (shuffles the physical deck)."""
    ph = parse_phase(ph, deck)
    _check_size(hand_size, deck)
    trials = check_int(trials, "trials", 1, 10**8, InvalidCardError)
    rng = np.random.default_rng(check_seed(seed))
    hits = 0
    if ph.kind == "mixed":
        N, C = deck.numbers, len(deck.colors)
        for start in range(0, trials, 20_000):
            n = min(20_000, trials - start)
            counts = deal_category_counts(deck, hand_size, n, rng, "type")
            need = mixed.wilds_needed(counts[:, : N * C].reshape(n, N, C), ph, deck)
            hits += int((need <= counts[:, N * C]).sum())
        return Estimate(hits, trials)
    need = placements(ph, deck).need
    for start in range(0, trials, 20_000):
        n = min(20_000, trials - start)
        counts = deal_category_counts(deck, hand_size, n, rng, ph.kind)
        D = counts.shape[1] - 2
        if need.shape[0]:
            d = _min_deficit(counts[:, :D].astype(np.int16), need)
            hits += int((d <= counts[:, D]).sum())
    return Estimate(hits, trials)


__all__ = [
    "DealtOdds",
    "Estimate",
    "dealt_odds",
    "dealt_probability",
    "dealt_table",
    "brute_force_odds",
    "simulate_dealt",
    "profiles",
    "count_profiles",
]
