"""Draw-by-draw odds: one player draws from the pile and discards by a policy.

The player is dealt ``hand_size`` cards, then each turn draws the top card of the pile (11
cards), stops if the hand holds the phase, else discards one card by the policy. We estimate
``P(holding the phase after n draws)`` by seeded simulation, all trials at once with numpy.

A hand is kept as counts per *category*: per number for set/run phases, per color for color
phases (only those counts matter, see :mod:`phase10math.cards.phases`), and per card type
(number x color) for *mixed* phases, which combine color groups with sets/runs; plus Wilds and
Skips. For a mixed phase the Wilds a placement needs are the slots a matching of natural cards
cannot fill; by max-flow/min-cut that is

    max over sets B of colors of   G_B + sum_n max(r[n] - k[n], -V_B[n])

with ``r[n]`` the cards of number ``n`` its sets/runs need, ``k[n]`` the hand's cards of number
``n``, ``V_B[n]`` those of a color in ``B`` and ``G_B`` the color-group slots of a color in
``B`` (``B`` empty: the number slots unfilled). Only subsets of the placement's colors matter,
so with one color group (color ``c``, size ``g``) it is ``max(a, e + g - V[c])``, ``a = sum_n
max(0, r[n] - k[n])``, ``e = a + sum_n max(0, v[n, c] - max(0, k[n] - r[n]))``. This is
evaluated for all trials and placements at once, and for the next-draw outs incrementally
(a drawn card lowers the need of a placement iff it lowers every maximal term).

Policies (the same for every kind of phase):

* ``'greedy'``: discard a card that leaves the fewest cards missing (Wilds count), preferring a
  Skip, then a card that keeps the most placements of the phase at that distance; never a Wild
  unless it costs nothing more.
* ``'outs'``: keep the 10 cards that maximise the exact probability that the *next* draw
  completes the phase, counting the unseen cards (deck minus own hand minus own discards);
  ties broken as ``'greedy'``.
* ``'random'``: discard a random card (a baseline): each category held (number, color or card
  type; Wild; Skip) is equally likely.

>>> r = simulate_draws(4, draws=5, trials=400, seed=1)
>>> bool(r.p[0] < r.p[5])
True
>>> m = simulate_draws("1 run of 4 + 4 of one color", draws=5, trials=400, seed=1)
>>> bool(m.p[0] < m.p[5])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from phase10math._base.checks import check_seed, public
from phase10math.cards.deck import STANDARD, DeckSpec, card_categories, category_count
from phase10math.cards.errors import InvalidCardError
from phase10math.cards.mixed import MixedTables, mixed_tables, placement_needs
from phase10math.cards.phases import Phase, holds_phase, parse_phase, placements
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


# ---------------------------------------------------------------- mixed phases


def _mixed_completions(top, k, VB, tight, mx: MixedTables) -> np.ndarray:
    """Which number-card types complete the phase when drawn: ``(M, N, C)`` bool.

    ``tight[m, p]``: placement ``p`` is one card short of the Wilds held. A drawn card of
    number ``n`` and color ``c`` lowers the term of every color set ``B`` containing ``c`` by
    one, and the others by one where ``r[n] - k[n] + V_B[n] > 0``; the placement's need drops
    iff every set reaching the maximum (``top``) loses one.
    """
    M = len(k)
    out = np.zeros((M, mx.N * mx.C), dtype=bool)
    mi, pi = np.nonzero(tight)  # sorted by hand
    if len(mi) == 0:
        return out.reshape(M, mx.N, mx.C)
    rel = mx.rel[pi]  # (L, J)
    lowers = mx.r[mx.q[pi]][:, None, :] - k[mi][:, None, :] + VB[mi[:, None], rel] > 0
    stay = top[mi, pi][:, :, None] & ~lowers  # (L, J, N): a maximal set some draws keep
    fail = np.zeros((len(mi), mx.N, mx.C), dtype=bool)
    for j in range(rel.shape[1]):
        fail |= stay[:, j, :, None] & mx.notin[pi, j][:, None, :]
    starts = np.flatnonzero(np.r_[True, mi[1:] != mi[:-1]])
    out[mi[starts]] = np.logical_or.reduceat(~fail.reshape(len(mi), -1), starts, axis=0)
    return out.reshape(M, mx.N, mx.C)


def _choose_mixed(
    H: np.ndarray, U: np.ndarray, mx: MixedTables, policy: str, rng: np.random.Generator
) -> np.ndarray:
    """Like :func:`_choose`, for hands counted by card type (number x color, Wild, Skip)."""
    T, K = H.shape
    noise = rng.random((T, K)) * 0.1
    if policy == "random":
        key = np.where(H > 0, noise, np.inf)
        return key.argmin(axis=1)
    out = np.empty(T, dtype=np.int64)
    for a in range(0, T, _CHUNK):
        b = min(T, a + _CHUNK)
        short, nmin, outs = _mixed_scores(H[a:b], U[a:b], mx, policy == "outs")
        key = short * 1000.0 - nmin + noise[a:b] - outs * 1e7
        out[a:b] = np.where(H[a:b] > 0, key, np.inf).argmin(axis=1)
    return out


def _mixed_scores(H: np.ndarray, U: np.ndarray, mx: MixedTables, with_outs: bool):
    """For every discard (category ``k`` with ``H[:, k] > 0``): cards then missing ``short``,
    placements at that distance ``nmin`` (with the Wild/Skip adjustments of :func:`_choose`)
    and, if ``with_outs``, unseen cards completing the phase on the next draw: ``(T, K)`` each.
    """
    T, K = H.shape
    NC = K - 2
    W, S = NC, NC + 1
    wild = H[:, W].astype(np.int16)
    v = H[:, :NC].reshape(T, mx.N, mx.C)

    def parts(x):
        if with_outs:
            return placement_needs(x, mx, detail=True)
        return placement_needs(x, mx), None, None, None

    full = parts(v)  # the 11-card hand: need, maximal sets, k, V_B
    need = full[0]
    base = need.min(axis=1)
    # discard one number card of type kk: the hands v - e_kk
    ti, kk = np.nonzero(H[:, :NC] > 0)
    vk = v[ti].copy()
    vk[np.arange(len(ti)), kk // mx.C, kk % mx.C] -= 1
    less = parts(vk)
    nk = less[0]
    best = nk.min(axis=1)
    short = np.full((T, K), np.inf)
    nmin = np.zeros((T, K))
    short[ti, kk] = np.maximum(best - wild[ti], 0)
    nmin[ti, kk] = (nk == best[:, None]).sum(axis=1)
    short[:, W] = np.maximum(base - (wild - 1), 0) + 0.5  # a Wild only if nothing is lost
    short[:, S] = np.maximum(base - wild, 0)
    nmin[:, W] = nmin[:, S] = (need == base[:, None]).sum(axis=1)
    nmin[:, S] += 0.5  # prefer discarding a Skip
    outs = np.zeros((T, K))
    if not with_outs:
        return short, nmin, outs

    def count(hands, sel, rows, w):
        """Unseen cards completing ``hands[sel]`` (of trials ``rows``, ``w`` Wilds held, one
        card short): the number cards that do, and every Wild."""
        nd, top, k, vb = (a[sel] for a in hands)
        comp = _mixed_completions(top, k, vb, nd == w[:, None] + 1, mx)
        return (comp.reshape(len(sel), NC) * U[rows, :NC]).sum(axis=1) + U[rows, W]

    # only a hand one card short can be completed by one draw
    sel = np.flatnonzero(short[ti, kk] == 1)
    if len(sel):
        outs[ti[sel], kk[sel]] = count(less, sel, ti[sel], wild[ti[sel]])
    for col, w in ((W, wild - 1), (S, wild)):  # discard a Wild or a Skip: same number cards
        one = np.flatnonzero(np.maximum(base - w, 0) == 1)
        if len(one):
            outs[one, col] = count(full, one, one, w[one])
    return short, nmin, outs


@public
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

    Every phase is supported: set/run phases and color phases (hands counted per number or
    color), and mixed phases such as ``'1 run of 4 + 4 of one color'`` (hands counted per card
    type; 2000 trials x 20 draws take well under a second for that phase, a few seconds for
    ``'2 sets of 3 + 4 of one color'`` with its 312 placements). The first ``hand_size``
    cards are the deal, so ``p[0]`` and ``p[1]`` estimate the dealt odds for ``hand_size`` and
    ``hand_size + 1`` cards whatever the policy.
    """
    ph = parse_phase(ph, deck)
    seed = _check_draw_args(draws, trials, policy, seed, deck, hand_size)
    cat, K, holding, choose = _draw_rules(ph, policy, deck)
    full = np.bincount(cat, minlength=K).astype(np.int16)
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((trials, len(cat))), axis=1)[:, : hand_size + draws]
    seq = cat[order]
    rows = np.arange(trials)
    H = np.zeros((trials, K), dtype=np.int16)
    np.add.at(H, (np.repeat(rows, hand_size), seq[:, :hand_size].ravel()), 1)
    U = full[None, :] - H
    hits = np.zeros(draws + 1, dtype=np.int64)
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
            k = choose(H[rest], U[rest], rng)
            H[rest, k] -= 1
    return DrawOdds(ph, policy, trials, seed, hand_size, hits)


def _check_draw_args(
    draws: int, trials: int, policy: str, seed: int, deck: DeckSpec, hand_size: int
) -> int:
    """:func:`simulate_draws`'s arguments checked (in this order); the seed."""
    if policy not in POLICIES:
        raise InvalidRulesError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if not isinstance(hand_size, int) or not 1 <= hand_size < deck.size:
        raise InvalidCardError(f"hand size {hand_size} is not allowed; give 1..{deck.size - 1}")
    if not isinstance(draws, int) or not 0 <= draws <= deck.size - hand_size:
        raise InvalidCardError(
            f"draws must be 0..{deck.size - hand_size} (the pile has that many cards), got {draws}"
        )

    seed = check_seed(seed)
    if isinstance(draws, bool) or isinstance(trials, bool) or isinstance(hand_size, bool):
        raise InvalidCardError("draws, trials and hand_size are whole numbers, not True/False")
    if not isinstance(trials, int) or trials < 1:
        raise InvalidCardError(f"trials must be a whole number >= 1, got {trials!r}")
    return seed


def _draw_rules(ph: Phase, policy: str, deck: DeckSpec):
    """What a simulation of ``ph`` draws needs: each card's category, the number of
    categories (with the two counters), whether hands hold the phase, and the card a hand
    gives up (``policy``)."""
    if ph.kind == "mixed":
        mx = mixed_tables(ph, deck)
        cat = card_categories(deck, "type")
        K = mx.N * mx.C + 2

        def holding(h: np.ndarray) -> np.ndarray:
            v = h[:, : K - 2].reshape(len(h), mx.N, mx.C)
            return placement_needs(v, mx).min(axis=1) <= h[:, K - 2]

        def choose(h, u, rng):
            return _choose_mixed(h, u, mx, policy, rng)

    else:
        need = placements(ph, deck).need.astype(np.int16)
        cat = card_categories(deck, ph.kind)
        K = category_count(deck, ph.kind) + 2
        D = K - 2

        def holding(h: np.ndarray) -> np.ndarray:
            if need.shape[0] == 0:
                return np.zeros(len(h), dtype=bool)
            return _deficits(h, need).min(axis=1) <= h[:, D]

        def choose(h, u, rng):
            return _choose(h, u, need, policy, rng)

    return cat, K, holding, choose


def exact_next_draw(hand, ph: int | str | Phase, deck: DeckSpec = STANDARD, seen=()) -> object:
    """Exact probability that one more card from the unseen cards completes the phase.

    ``seen`` are other cards known to be out of the pile (e.g. own discards).

    >>> from phase10math.cards.deck import parse_hand
    >>> exact_next_draw(parse_hand("R1 R2 R3 R4 R5 R6 S S S S"), 4)
    Fraction(8, 49)
    """

    ph = parse_phase(ph, deck)
    hand = list(hand)
    pool = deck.cards()
    for c in [*hand, *seen]:
        pool.remove(c)
    kinds = {c: pool.count(c) for c in set(pool)}
    good = sum(k for c, k in kinds.items() if holds_phase([*hand, c], ph, deck))
    return Fraction(good, len(pool))


__all__ = ["DrawOdds", "POLICIES", "simulate_draws", "exact_next_draw"]
