"""Draw-by-draw odds: one player draws from the pile and discards by a policy.

The player is dealt ``hand_size`` cards, then each turn draws the top card of the pile (11
cards), stops if the hand holds the phase, else discards one card by the policy. We estimate
``P(holding the phase after n draws)`` by seeded simulation, all trials at once with numpy.

Policies:

* ``'greedy'``: discard a card that leaves the fewest cards missing (Wilds count), preferring a
  Skip, then a card that keeps the most placements of the phase at that distance; never a Wild
  unless it costs nothing more.
* ``'outs'``: keep the 10 cards that maximise the exact probability that the *next* draw
  completes the phase, counting the unseen cards (deck minus own hand minus own discards);
  ties broken as ``'greedy'``.
* ``'random'``: discard a random card (a baseline).

>>> r = simulate_draws(4, draws=5, trials=400, seed=1)
>>> bool(r.p[0] < r.p[5])
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from phase10math.cards.deck import STANDARD, DeckSpec
from phase10math.cards.errors import InvalidCardError, InvalidCardPhaseError
from phase10math.cards.phases import Phase, parse_phase, placements
from phase10math.errors import InvalidRulesError

POLICIES = ("greedy", "outs", "random")
_CHUNK = 200  # trials per block when building (trials, placements, D, D) arrays


@dataclass(frozen=True)
class DrawOdds:
    """``hits[n]``: trials holding the phase after ``n`` draws (``n = 0``: the dealt hand)."""

    phase: Phase
    policy: str
    trials: int
    seed: int
    hand_size: int
    hits: np.ndarray

    @property
    def draws(self) -> np.ndarray:
        return np.arange(len(self.hits))

    @property
    def p(self) -> np.ndarray:
        return self.hits / self.trials

    @property
    def stderr(self) -> np.ndarray:
        p = self.p
        return np.sqrt(np.maximum(p * (1 - p), 1e-300) / self.trials)

    def interval(self, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
        """Wilson score intervals (95% by default) for every ``n``."""
        n, p = self.trials, self.p
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)

    def median_draws(self) -> int | None:
        """Fewest draws after which at least half the trials hold the phase (None if never)."""
        idx = np.flatnonzero(self.p >= 0.5)
        return int(idx[0]) if len(idx) else None

    def rows(self) -> list[tuple[int, float, float, float]]:
        """``(n, p, low, high)`` for every ``n``."""
        lo, hi = self.interval()
        return [
            (int(n), float(p), float(a), float(b))
            for n, p, a, b in zip(self.draws, self.p, lo, hi, strict=True)
        ]


def _categories(deck: DeckSpec, by: str) -> np.ndarray:
    D = deck.numbers if by == "number" else len(deck.colors)
    return np.array(
        [
            (c.number - 1 if by == "number" else deck.colors.index(c.color))
            if c.is_number
            else (D if c.is_wild else D + 1)
            for c in deck.cards()
        ],
        dtype=np.int64,
    )


def _deficits(H: np.ndarray, need: np.ndarray) -> np.ndarray:
    """Wilds needed by every placement: ``(trials, placements)``."""
    D = need.shape[1]
    return np.maximum(need[None, :, :] - H[:, None, :D], 0).sum(axis=2)


def _choose(
    H: np.ndarray, U: np.ndarray, need: np.ndarray, policy: str, rng: np.random.Generator
) -> np.ndarray:
    """The category each trial discards, for hands ``H`` (11 cards) and unseen counts ``U``."""
    T, K = H.shape
    D = K - 2
    noise = rng.random((T, K)) * 0.1
    if policy == "random":
        key = np.where(H > 0, noise, np.inf)
        return key.argmin(axis=1)
    dp = _deficits(H, need)  # (T, P)
    wild = H[:, D]
    # removing one card of number/color k adds 1 to placements that need at least H_k of it
    bump = need[None, :, :] >= H[:, None, :D]  # (T, P, D)
    dk = dp[:, :, None] + bump  # (T, P, D) deficits after discarding k
    short = np.empty((T, K))
    nmin = np.empty((T, K))
    best_k = dk.min(axis=1)
    short[:, :D] = np.maximum(best_k - wild[:, None], 0)
    nmin[:, :D] = (dk == best_k[:, None, :]).sum(axis=1)
    base = dp.min(axis=1)
    short[:, D] = np.maximum(base - (wild - 1), 0) + 0.5  # a Wild only if nothing is lost
    short[:, D + 1] = np.maximum(base - wild, 0)
    nmin[:, D] = nmin[:, D + 1] = (dp == base[:, None]).sum(axis=1)
    nmin[:, D + 1] += 0.5  # prefer discarding a Skip
    key = short * 1000.0 - nmin + noise
    if policy == "outs":
        outs = np.zeros((T, K))
        for a in range(0, T, _CHUNK):
            b = min(T, a + _CHUNK)
            outs[a:b] = _outs(H[a:b], U[a:b], need, dp[a:b], dk[a:b])
        key = key - outs * 1e7
    key = np.where(H > 0, key, np.inf)
    return key.argmin(axis=1)


def _outs(H, U, need, dp, dk) -> np.ndarray:
    """Unseen cards that complete the phase on the next draw, after each possible discard."""
    T, K = H.shape
    D = K - 2
    wild = H[:, D]
    out = np.zeros((T, K))
    # discard number/color k: hand H - e_k
    Hk = H[:, None, :D] - np.eye(D, dtype=H.dtype)[None]  # (T, k, D)
    # drawing j lowers placements needing more than Hk_j of it by one
    gain = need[None, None, :, :] > Hk[:, :, None, :]  # (T, k, P, j)
    after = dk.transpose(0, 2, 1)[:, :, :, None] - gain  # (T, k, P, j)
    ok_j = after.min(axis=2) <= wild[:, None, None]  # (T, k, j)
    ok_w = dk.min(axis=1) <= wild[:, None] + 1  # draw a Wild: (T, k)
    out[:, :D] = (ok_j * U[:, None, :D]).sum(axis=2) + ok_w * U[:, D : D + 1]
    # discard a Wild (one fewer) or a Skip (same numbers)
    gain0 = need[None, :, :] > H[:, None, :D]  # (T, P, j)
    best0 = (dp[:, :, None] - gain0).min(axis=1)  # (T, j)
    base = dp.min(axis=1)
    for k, w in ((D, wild - 1), (D + 1, wild)):
        ok = best0 <= w[:, None]
        out[:, k] = (ok * U[:, :D]).sum(axis=1) + (base <= w + 1) * U[:, D]
    return out


def simulate_draws(
    ph: int | str | Phase,
    draws: int = 20,
    trials: int = 2000,
    policy: str = "greedy",
    seed: int = 0,
    deck: DeckSpec = STANDARD,
    hand_size: int = 10,
) -> DrawOdds:
    """Seeded estimate of ``P(holding the phase after n draws)`` for ``n = 0..draws``.

    Set/run phases and color phases are supported (not phases mixing color groups with sets
    or runs).
    """
    ph = parse_phase(ph, deck)
    if policy not in POLICIES:
        raise InvalidRulesError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if ph.kind == "mixed":
        raise InvalidCardPhaseError(
            f"draw-by-draw odds cover set/run phases and color phases, not {ph.text!r}"
        )
    if not 1 <= hand_size < deck.size:
        raise InvalidCardError(f"hand size {hand_size} is not allowed; give 1..{deck.size - 1}")
    if not isinstance(draws, int) or not 0 <= draws <= deck.size - hand_size:
        raise InvalidCardError(
            f"draws must be 0..{deck.size - hand_size} (the pile has that many cards), got {draws}"
        )
    if not isinstance(trials, int) or trials < 1:
        raise InvalidCardError(f"trials must be a whole number >= 1, got {trials!r}")
    need = placements(ph, deck).need.astype(np.int16)
    cat = _categories(deck, ph.kind)
    K = (deck.numbers if ph.kind == "number" else len(deck.colors)) + 2
    D = K - 2
    full = np.bincount(cat, minlength=K).astype(np.int16)
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((trials, len(cat))), axis=1)[:, : hand_size + draws]
    seq = cat[order]
    rows = np.arange(trials)
    H = np.zeros((trials, K), dtype=np.int16)
    np.add.at(H, (np.repeat(rows, hand_size), seq[:, :hand_size].ravel()), 1)
    U = full[None, :] - H
    hits = np.zeros(draws + 1, dtype=np.int64)

    def holding(h: np.ndarray) -> np.ndarray:
        if need.shape[0] == 0:
            return np.zeros(len(h), dtype=bool)
        return _deficits(h, need).min(axis=1) <= h[:, D]

    done = holding(H)
    hits[0] = done.sum()
    for n in range(1, draws + 1):
        live = np.flatnonzero(~done)
        if len(live) == 0:
            hits[n:] = trials
            break
        card = seq[live, hand_size + n - 1]
        H[live, card] += 1
        U[live, card] -= 1
        got = holding(H[live])
        done[live[got]] = True
        hits[n] = done.sum()
        rest = live[~got]
        if len(rest):
            k = _choose(H[rest], U[rest], need, policy, rng)
            H[rest, k] -= 1
    return DrawOdds(ph, policy, trials, seed, hand_size, hits)


def exact_next_draw(hand, ph: int | str | Phase, deck: DeckSpec = STANDARD, seen=()) -> object:
    """Exact probability that one more card from the unseen cards completes the phase.

    ``seen`` are other cards known to be out of the pile (e.g. own discards).

    >>> from phase10math.cards.deck import parse_hand
    >>> exact_next_draw(parse_hand("R1 R2 R3 R4 R5 R6 S S S S"), 4)
    Fraction(8, 49)
    """
    from fractions import Fraction

    from phase10math.cards.phases import holds_phase

    ph = parse_phase(ph, deck)
    hand = list(hand)
    pool = deck.cards()
    for c in [*hand, *seen]:
        pool.remove(c)
    kinds = {c: pool.count(c) for c in set(pool)}
    good = sum(k for c, k in kinds.items() if holds_phase([*hand, c], ph, deck))
    return Fraction(good, len(pool))


__all__ = ["DrawOdds", "POLICIES", "simulate_draws", "exact_next_draw"]
