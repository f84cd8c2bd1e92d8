"""Card phases that mix color groups with sets and runs: the Wilds a hand needs, and exact
deal counting.

:func:`wilds_needed` handles any number of color groups, vectorised over hands (by the
min-cut form in :func:`placement_needs`). Exact counting over all deals,
:func:`count_one_color_mixed`, handles phases with one color group, on any deck.

A hand holds such a phase with ``w`` Wilds when some placement ``Q`` of the sets/runs (the
cards ``r[n]`` it needs of each number ``n``) and some color ``c`` for the color group (``g``
cards) leave at most ``w`` slots unfilled. Filling the slots is a bipartite matching; its
min-cut form gives, with ``k[n]`` the hand's cards of number ``n`` and ``v[n, c]`` those of
number ``n`` and color ``c``, the Wilds needed as

    max(a, e + g - V[c])      a = sum_n max(0, r[n] - k[n])          (number slots unfilled)
                              e = a + sum_n max(0, v[n, c] - max(0, k[n] - r[n]))
                              V[c] = cards of color c in the hand

(``e - a`` counts the color-``c`` cards the sets/runs cannot avoid using). Both ``a`` and
``e`` are sums over numbers, so we sweep the numbers 1..12 once, choosing how many cards
the hand has of that number and then, color by color, how many of them have that color
(weight ``prod C(2, v)``). The state after
number ``n`` keeps the cards so far, the color totals, and -- for every *class* of
placements that have placed the same groups so far (runs by how far they got) -- the Pareto
frontier of their ``(a, e)`` pairs per color: ``f[a0] = min e`` over placements with
``a <= a0``. Placements in a class share their future, so the frontier is all the future
needs. States equal up to a permutation of the colors are merged (the deck and the phase
are symmetric in the colors). Counts are exact integers; the result feeds the same
Wild/Skip aggregation as the other phases.

>>> from math import comb
>>> from phase10math.cards.phases import parse_phase
>>> counts = count_one_color_mixed(parse_phase("1 set of 2 + 2 of one color"), 4)
>>> sum(w for (m, need), w in counts.items() if m == 4) == comb(96, 4)  # 4 number cards
True
>>> counts[4, 0]  # 4 number cards that hold the phase: a pair and two more of one color
348072
>>> counts[0, 4]  # no number cards: all four slots need Wilds
1
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from phase10math._base.checks import public
from phase10math.cards.deck import STANDARD, DeckSpec
from phase10math.cards.errors import InvalidCardPhaseError
from phase10math.cards.phases import Group, Phase, placements
from phase10math.errors import StateSpaceTooLargeError

INF = 100  # "no placement in this class": larger than any reachable e (e <= cards needed)
MAX_STATE_BYTES = 600_000_000  # rows of merged states kept after a step (peak is ~3x this)


def supports(ph: Phase) -> bool:
    """Whether :func:`count_one_color_mixed` handles ``ph`` (exactly one color group).

    >>> from phase10math.cards.phases import parse_phase
    >>> supports(parse_phase("1 run of 4 + 4 of one color"))
    True
    """
    return ph.kind == "mixed" and sum(g.kind == "color" for g in ph.groups) == 1


@public
def wilds_needed(v: np.ndarray, ph: Phase, deck: DeckSpec = STANDARD) -> np.ndarray:
    """Fewest Wilds completing a mixed phase (any number of color groups) for hands given as
    number-card counts ``v[..., number, color]``, vectorised over hands.

    By max-flow/min-cut, a placement leaves ``max over color sets B of G_B + sum_n
    max(r[n] - k[n], -V_B[n])`` slots unfilled (:func:`placement_needs`); with one color group
    that is the ``max(a, e + g - V[c])`` above.

    >>> from phase10math.cards.phases import parse_phase
    >>> v = np.zeros((12, 4), dtype=int)
    >>> v[[2, 3, 4], 0] = 1       # red 3, 4, 5
    >>> v[8, 0] = v[9, 0] = 1     # red 9, 10
    >>> int(wilds_needed(v, parse_phase("1 run of 4 + 4 of one color")))
    3
    """
    if ph.kind != "mixed":
        raise InvalidCardPhaseError(f"{ph.text!r} does not mix color groups with sets/runs")
    mx = mixed_tables(ph, deck)
    v = np.asarray(v, dtype=np.int16)
    flat = v.reshape((-1, *v.shape[-2:]))
    step = max(1, 4_000_000 // (len(mx.q) * mx.G.shape[1] + len(mx.r) * mx.memb.shape[0] * 4))
    out = np.concatenate(
        [placement_needs(flat[i : i + step], mx).min(axis=1) for i in range(0, len(flat), step)]
    )
    return out.reshape(v.shape[:-2])


@dataclass(frozen=True)
class MixedTables:
    """Placement tables of a mixed phase for hands counted by card type.

    ``rn[q], rv[q]``: the numbers and counts needed by distinct set/run part ``q`` (padded with
    count 0); ``r[q]``: the same as a vector over numbers; ``q[p]``: the set/run part of
    placement ``p``; ``memb[s]``: the colors of color set ``B_s`` (``s = 0``: no color);
    ``rel[p]``: the color sets that matter for ``p`` (all subsets of its colors, padded with
    repeats); ``G[p, j]``: cards ``p``'s color groups need in colors ``B_rel[p, j]``;
    ``notin[p, j, c]``: color ``c`` is not in that set.
    """

    N: int
    C: int
    r: np.ndarray
    rn: np.ndarray
    rv: np.ndarray
    q: np.ndarray
    memb: np.ndarray
    rel: np.ndarray
    G: np.ndarray
    notin: np.ndarray


@lru_cache(maxsize=32)
def mixed_tables(ph: Phase, deck: DeckSpec) -> MixedTables:
    pl = placements(ph, deck)
    N, C = deck.numbers, len(deck.colors)
    r, q = np.unique(pl.num_need, axis=0, return_inverse=True)
    L = max(1, int((r > 0).sum(axis=1).max()))
    rn = np.zeros((len(r), L), dtype=np.int64)
    rv = np.zeros((len(r), L), dtype=np.int16)
    for i, row in enumerate(r):
        nz = np.flatnonzero(row)
        rn[i, : len(nz)], rv[i, : len(nz)] = nz, row[nz]
    col = np.asarray(pl.col_need)
    masks: dict[int, int] = {0: 0}
    per_p: list[list[int]] = []
    for row in col:
        supp = [c for c in range(C) if row[c] > 0]
        subs = []
        for size in range(len(supp) + 1):
            for combo in itertools.combinations(supp, size):
                m = sum(1 << c for c in combo)
                subs.append(masks.setdefault(m, len(masks)))
        per_p.append(subs)
    J = max(len(s) for s in per_p)
    rel = np.array([s + [0] * (J - len(s)) for s in per_p], dtype=np.int64)
    memb = np.array([[(m >> c) & 1 for c in range(C)] for m in masks], dtype=np.int16)
    G = (memb[rel] * col[:, None, :]).sum(axis=2).astype(np.int16)  # (P, J)
    notin = memb[rel] == 0  # (P, J, C)
    q = np.asarray(q).ravel()
    return MixedTables(N, C, r.astype(np.int16), rn, rv, q, memb, rel, G, notin)


def placement_needs(v: np.ndarray, mx: MixedTables, detail: bool = False):
    """Wilds needed by every placement, for number-card counts ``v[m, n, c]``: ``(M, P)``.

    A placement is a bipartite matching of cards to slots; by max-flow/min-cut its unfilled
    slots are ``max over color sets B of G_B + sum_n max(r[n] - k[n], -V_B[n])`` (``k[n]``:
    cards of number ``n``, ``V_B[n]``: those of a color in ``B``, ``G_B``: color-group slots of
    a color in ``B``). As ``V_B <= k``, a term is ``-V_B[n]`` where ``r[n] = 0``, so the sum is
    ``-V_B + sum over needed n of max(r[n] - k[n] + V_B[n], 0)``. With ``detail``, also which
    sets reach the maximum, ``k`` and ``V_B`` (for the next-draw outs in
    :mod:`phase10math.cards.draws`).
    """
    k = v.sum(axis=2, dtype=np.int16)  # (M, N)
    VB = np.einsum("mnc,sc->msn", v, mx.memb).astype(np.int16)  # (M, S, N)
    x = mx.rv[None, :, None, :] - k[:, mx.rn][:, :, None, :] + VB[:, :, mx.rn].transpose(0, 2, 1, 3)
    t = np.maximum(x, 0).sum(axis=3, dtype=np.int16) - VB.sum(axis=2, dtype=np.int16)[:, None, :]
    val = mx.G[None] + t[:, mx.q[:, None], mx.rel]  # (M, P, J)
    need = val.max(axis=2)
    if not detail:
        return need
    return need, val == need[:, :, None], k, VB


# ---------------------------------------------------------------- placement classes


def css_classes(groups: tuple[Group, ...]) -> list[tuple[int, ...]]:
    """Every class: a status per number group (sets 0/1, runs 0..length), canonical order."""
    ranges = [range(2) if g.kind == "set" else range(g.size + 1) for g in groups]
    seen = {_canon(groups, s) for s in itertools.product(*ranges)}
    return sorted(seen)


def _canon(groups: tuple[Group, ...], status: tuple[int, ...]) -> tuple[int, ...]:
    """Equal groups are interchangeable: sort their statuses."""
    out = list(status)
    for _, idx in itertools.groupby(range(len(groups)), key=lambda i: groups[i]):
        idx = list(idx)
        vals = sorted(out[i] for i in idx)
        for i, v in zip(idx, vals, strict=True):
            out[i] = v
    return tuple(out)


def _done(groups: tuple[Group, ...]) -> tuple[int, ...]:
    return tuple(1 if g.kind == "set" else g.size for g in groups)


def _transitions(
    groups: tuple[Group, ...], index: dict[tuple[int, ...], int], n: int, numbers: int
) -> list[tuple[int, int, int]]:
    """``(class before, class after, cards of number n needed)`` when number ``n`` is swept."""
    out = set()
    for a, ia in index.items():
        choices = []
        for g, s in zip(groups, a, strict=True):
            if g.kind == "set":
                choices.append([(1, 0)] if s == 1 else [(0, 0), (1, g.size)])
            elif 0 < s < g.size:
                choices.append([(s + 1, 1)])
            elif s == g.size:
                choices.append([(s, 0)])
            else:
                start_ok = n + g.size - 1 <= numbers
                choices.append([(0, 0)] + ([(1, 1)] if start_ok else []))
        for pick in itertools.product(*choices):
            b = _canon(groups, tuple(p[0] for p in pick))
            if not _viable(groups, b, n, numbers):
                continue
            out.add((ia, index[b], sum(p[1] for p in pick)))
    return sorted(out)


def _viable(groups: tuple[Group, ...], status: tuple[int, ...], n: int, numbers: int) -> bool:
    """After number ``n``, can every pending group still be placed on ``n+1..numbers``?"""
    for g, s in zip(groups, status, strict=True):
        if g.kind == "set" and s == 0 and n >= numbers:
            return False
        if g.kind == "run" and s == 0 and n + g.size > numbers:
            return False
    return True


# ---------------------------------------------------------------- the sweep


def count_one_color_mixed(
    ph: Phase,
    hand_size: int,
    deck: DeckSpec = STANDARD,
    progress: Callable[[int, int], None] | None = None,
) -> dict[tuple[int, int], int]:
    """Hands by (number cards ``m``, Wilds needed), counting only their number cards.

    Returns ``{(m, wilds needed): ways to pick the m number cards}`` (Wilds needed capped at
    ``hand_size + 1``); the caller spreads the other ``hand_size - m`` cards over Wilds and
    Skips. ``progress(n, states)`` is called after each number.

    Each number is added in sub-steps: first how many cards ``k`` of it the hand has, then
    color by color how many of those are that color, so a step touches one color's block.
    """
    if not supports(ph):
        raise InvalidCardPhaseError(
            f"{ph.text!r} does not mix exactly one color group with sets/runs"
        )
    num_groups = tuple(g for g in ph.groups if g.kind != "color")
    g_size = next(g.size for g in ph.groups if g.kind == "color")
    R = sum(g.size for g in num_groups)
    N, C, q, H = deck.numbers, len(deck.colors), deck.copies, hand_size
    start = tuple(0 for _ in num_groups)
    classes = [c for c in css_classes(num_groups) if c != start]  # class `start` is constant
    index = {c: i for i, c in enumerate(classes)}
    index[start] = -1
    K, A = len(classes), R + 1  # stored classes, frontier length (a0 = 0..R)
    B = 1 + K * A  # a color's block: its total, then its frontier in every class
    vcap = g_size + R  # colour totals beyond this never matter (e <= R)
    big = comb(deck.size, H) >= 2**62
    wdt = object if big else np.int64
    a0 = np.arange(A)

    # row: m, k (cards of the current number), cards of it still to colour, C colour blocks
    head = 3
    width = -(-(head + C * B) // 8) * 8  # padded to whole 64-bit words for hashing
    block = np.full((K, A), INF, dtype=np.int8)
    row0 = np.zeros(width, dtype=np.int8)
    row0[head : head + C * B] = np.tile(np.r_[0, block.ravel()], C)
    states = row0.astype(np.int8)[None, :]
    weights = np.ones(1, dtype=wdt)

    for n in range(1, N + 1):
        trans = _transitions(num_groups, index, n, N)
        # sub-step 0: how many cards of number n
        m = states[:, 0].astype(np.int16)
        ks = np.arange(q * C + 1)
        si, kk = np.nonzero(m[:, None] + ks[None, :] <= H)
        rows = states[si].copy()
        rows[:, 0] += kk
        rows[:, 1] = kk
        rows[:, 2] = kk
        states, weights = rows, weights[si]  # all distinct: no merge needed
        # sub-steps 1..C: how many of them have colour c
        for c in range(C):
            rem = states[:, 2].astype(np.int16)
            vs = np.arange(q + 1)
            last = c == C - 1
            ok = (vs[None, :] == rem[:, None]) if last else (vs[None, :] <= rem[:, None])
            si, vi = np.nonzero(ok)
            group = states[si, 1].astype(np.int64) * (q + 1) + vi  # (k, v): same shifts
            order = np.argsort(group, kind="stable")
            si, vi, group = si[order], vi[order], group[order]
            rows = states[si]
            rows[:, 2] -= vi
            lo = head + c * B
            rows[:, lo] = np.minimum(rows[:, lo] + vi, vcap)
            f_old = rows[:, lo + 1 : lo + B].reshape(len(si), K, A).astype(np.int16)
            cuts = np.flatnonzero(np.diff(group)) + 1
            bounds = zip(np.r_[0, cuts], np.r_[cuts, len(si)], strict=True)
            blocks = [(a, b, *divmod(int(group[a]), q + 1)) for a, b in bounds if b > a]
            rows[:, lo + 1 : lo + B] = _advance(f_old, trans, blocks).reshape(len(si), -1)
            wv = np.array([comb(q, int(x)) for x in vs], dtype=wdt)
            states, weights = _merge(rows, weights[si] * wv[vi], width)
            _check_size(ph, H, states)
        states[:, 1:3] = 0
        states = _sort_blocks(states, head, C, B)
        states, weights = _merge(states, weights, width)
        if progress is not None:
            progress(n, len(states))

    done = index[_done(num_groups)]
    blocks = states[:, head : head + C * B].reshape(len(states), C, B).astype(np.int16)
    V = blocks[:, :, 0]
    f_done = blocks[:, :, 1:].reshape(len(states), C, K, A)[:, :, done]
    val = np.maximum(a0[None, None, :], f_done + g_size - V[:, :, None])
    val = np.where(f_done >= INF, H + 1, np.minimum(val, H + 1))
    return sum_by_cards_and_need(weights, states[:, 0], val.min(axis=(1, 2)), H + 1)


def sum_by_cards_and_need(
    weights: np.ndarray, m: np.ndarray, need: np.ndarray, cap: int
) -> dict[tuple[int, int], int]:
    """``weights`` added up by (number cards ``m``, Wilds needed capped at ``cap``).

    >>> sum_by_cards_and_need(np.array([1, 2, 4]), np.array([1, 1, 2]), np.array([0, 0, 9]), 3)
    {(1, 0): 3, (2, 3): 4}
    """
    key = m.astype(np.int64) * (cap + 1) + np.minimum(need.astype(np.int64), cap)
    order = np.argsort(key, kind="stable")
    k_sorted, w_sorted = key[order], weights[order]
    cut = np.flatnonzero(np.diff(k_sorted)) + 1
    out: dict[tuple[int, int], int] = {}
    for ks, ws in zip(np.split(k_sorted, cut), np.split(w_sorted, cut), strict=True):
        if len(ks):
            out[divmod(int(ks[0]), cap + 1)] = int(sum(ws.tolist()))
    return out


def _check_size(ph: Phase, H: int, states: np.ndarray) -> None:
    if states.size > MAX_STATE_BYTES:
        raise StateSpaceTooLargeError(
            f"{ph.text!r} with {H}-card hands needs {len(states):,} counting states of "
            f"{states.shape[1]} bytes, over the limit of {MAX_STATE_BYTES:,} bytes; use "
            "simulate_dealt() or a smaller hand"
        )


def _advance(f_old: np.ndarray, trans: list, blocks: list) -> np.ndarray:
    """One colour's frontiers after the number: ``f_old`` is (rows, classes, A) int16.

    ``blocks`` are row ranges ``(start, end, k, v)`` sharing the cards ``k`` of this number
    and ``v`` of them in this colour, so every shift below is a slice."""
    P, K, A = f_old.shape
    f_new = np.full((P, K, A), INF, dtype=np.int16)
    for lo, hi, k, v in blocks:
        for ia, ib, r in trans:
            if ib < 0:
                continue  # the start class stays (0, 0)
            alpha = max(0, r - k)
            if alpha >= A:
                continue
            add = alpha + v - min(v, max(0, k - r))
            dst = f_new[lo:hi, ib, alpha:]
            if ia < 0:
                np.minimum(dst, add, out=dst)
            else:
                np.minimum(dst, f_old[lo:hi, ia, : A - alpha] + add, out=dst)
    np.minimum(f_new, INF, out=f_new)
    np.minimum.accumulate(f_new, axis=2, out=f_new)
    return f_new.astype(np.int8)


def _sort_blocks(rows: np.ndarray, head: int, C: int, B: int) -> np.ndarray:
    """Colour blocks of each row sorted (lexicographically): one row per colour relabelling."""
    blocks = rows[:, head : head + C * B].reshape(len(rows), C, B).copy()
    r = np.arange(len(rows))
    for _ in range(C):  # odd-even transposition sort: C rounds suffice
        for i in range(C - 1):
            a, b = blocks[:, i], blocks[:, i + 1]
            diff = a != b
            first = np.argmax(diff, axis=1)
            swap = diff[r, first] & (a[r, first] > b[r, first])
            if swap.any():
                tmp = a[swap].copy()
                a[swap] = b[swap]
                b[swap] = tmp
    out = rows.copy()
    out[:, head : head + C * B] = blocks.reshape(len(rows), -1)
    return out


def _merge(rows: np.ndarray, weights: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Identical rows merged, their weights added.

    Rows are sorted by a 64-bit hash and adjacent equal rows merged. A hash collision can
    only leave two copies of a state unmerged, which changes no count.
    """
    rows = np.ascontiguousarray(rows)
    if len(rows) == 0:
        return rows, weights
    words = rows.view(np.uint64)  # width is a multiple of 8
    mult = np.random.default_rng(width).integers(1, 2**63, size=words.shape[1], dtype=np.uint64)
    h = (words * (mult | np.uint64(1))).sum(axis=1)
    order = np.argsort(h)
    ws, hs = words[order], h[order]
    new = np.ones(len(ws), dtype=bool)
    new[1:] = (hs[1:] != hs[:-1]) | (ws[1:] != ws[:-1]).any(axis=1)
    rs = rows[order]
    starts = np.flatnonzero(new)
    return rs[starts], np.add.reduceat(weights[order], starts)


__all__ = [
    "MixedTables",
    "count_one_color_mixed",
    "mixed_tables",
    "placement_needs",
    "sum_by_cards_and_need",
    "supports",
    "wilds_needed",
]
