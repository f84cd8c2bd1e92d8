"""How the compact dice layout was chosen: a documented, reproducible search.

The face-to-color layout of the real dice is not printed in the manual (RULES.md section 1).
Before a transcription of a physical set was found (the recorded layout, now the default), the
kit shipped a layout that satisfies every published fact, and among those one with as many
identical dice as possible (identical dice make the solver's state space small). It stays as
the named layout ``compact``: its solves take a second.

Requirements (a layout is *valid* when all four hold)
-----------------------------------------------------
1. **Example hand.** "2, 4, W, 5, 8, 9, 10, all orange" is rollable on seven different dice:
   three low dice show 2o, 4o, Wo and four high dice show 5o, 8o, 9o, 10o.
2. **Even colors.** Each color is on exactly 15 of the 60 faces.
3. **Wild colors.** The 8 W faces come in all four colors.
4. **Phase 8 = 56.** The best score of "7 of one color" over all rolls is 56 (so that the
   manual's game maximum 649 = 513 + 56 + 40 + 40 holds). For a color c every die offers its
   best face of color c (W scores 0; a die without c cannot be used); the best score is the sum
   of the 7 best dice, maximised over c.

Preference among valid layouts
------------------------------
(a) fewest distinct die types (dice are identical when they have the same multiset of
    (value, color) faces); (b) then fewest solver states for color-aware play,
    ``prod_t C(m_t + f_t, f_t)`` over die types t (m_t dice of the type, f_t distinct faces:
    6, or 5 for a low die whose two W share a color); (c) then, if possible, every
    (value, color) face on one die type only, so that a roll written as faces tells which
    kind of die shows each face; (d) then, if possible, every die shows all four colors (so
    "7 of one color" can be made in every color, as players expect); (e) remaining ties: the
    first layout met by the deterministic depth-first search below.

A *type structure* is the list of multiplicities of the high types (a partition of 6), of the
low types (a partition of 4) and, per low type, whether its two W share a color. The state
count (b) depends on the structure only.

Minimality proof (the three necessary conditions; :func:`admissible` checks them)
---------------------------------------------------------------------------------
* **W colors.** A low type shows 2 W colors (1 if its W share a color), so the low types must
  show at least 4 W colors in all. In particular the 4 low dice are not all identical.
* **Orange count.** The seven faces of the example hand sit on distinct dice. If k_t of the
  four high hand faces (5o, 8o, 9o, 10o) are on dice of type t, then k_t <= m_t (distinct dice)
  and each of the m_t dice of type t carries those k_t orange faces: at least
  ``sum m_t k_t`` orange faces. Minimised over all assignments (:func:`min_hand_faces`) for
  the high types and for the low types (2o, 4o, Wo), the two minima add up to at most 15.
* **Parity.** The number of faces of a color is ``sum_t m_t a_t`` (a_t faces of that color on
  a die of type t), which is even when all multiplicities are even; but 15 is odd.

Examples: six identical high dice need 4 orange faces on each of 6 dice (24 > 15); high types
(4, 2) or (3, 3) need >= 12 orange faces, which leaves 3 for the low dice, so the low hand
faces are on three single dice: 4 low types. :func:`minimality_table` applies the conditions to
every structure; no structure with 4 or fewer types passes, and with 5 types exactly three pass
(all with two W colors on each low type):

=====================  ===========  ==========
high + low types       states (b)   valid?
=====================  ===========  ==========
(3, 2, 1) + (3, 1)       9 680 832  yes (chosen)
(3, 2, 1) + (2, 2)      12 907 776  yes
(2, 2, 2) + (3, 1)      12 907 776  yes
=====================  ===========  ==========

The depth-first search :func:`search_layout` (exhaustive; prunes on color counts, on the
phase-8 bound, on face uniqueness and on the four-colors-per-die preference) finds a valid
layout for the first structure with both preferences (c) and (d), so the minimum is 5 types
(a), the best state count is 9 680 832 (b), and (c) and (d) are compatible. The other two
admissible structures are valid too (the search finds layouts for them), and for the
structures the argument rules out, the exhaustive search finds nothing (tested on a sample).

Recorded output of ``python -m phase10math.dice.layout_search`` (:func:`find_compact_layout`;
46 placements of the example hand tried, 22 931 search nodes, 1.7 s on one core)::

    chosen: (3, 2, 1) + (3, 1)  states 9,680,832  unique faces: True  all colors on every die: True

    3 x 5o 6g 7b 8b 9r 10r
    2 x 5g 6r 7r 8o 9o 10b
    1 x 5b 6b 7g 8r 9b 10o
    3 x 1g 2o 3b 4o Wr Wg
    1 x 1r 2g 3g 4g Wo Wb

(The exact text lives in :mod:`phase10math.dice.layouts`; ``tests/dice/test_layout_search.py``
checks that the search reproduces it.)
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from phase10math.dice.faces import COLORS, WILD, Layout, parse_layout

PER_COLOR = 15
PHASE8_MAX = 56
HIGH_HAND = (5, 8, 9, 10)  # orange faces of the example hand on high dice
LOW_HAND = (2, 4, WILD)  # ... and on low dice
HAND_COLOR = "o"
HIGH_ORDER = (10, 9, 8, 7, 6, 5)  # search order of the faces of a high die (best first)
LOW_ORDER = (4, 3, 2, 1)  # then the W pair of a low die
_O = COLORS.index(HAND_COLOR)
_W_PAIRS = tuple(itertools.combinations_with_replacement(range(4), 2))


# --------------------------------------------------------------------------- structures


@dataclass(frozen=True, order=True)
class Structure:
    """Multiplicities of the high and low die types; per low type, whether its W W share a color."""

    high: tuple[int, ...]
    low: tuple[int, ...]
    low_double_w: tuple[bool, ...]

    @property
    def n_types(self) -> int:
        return len(self.high) + len(self.low)

    @property
    def states(self) -> int:
        """``prod C(m + f, f)``: kept sub-multisets, the solver's state count for color play."""
        n = 1
        for m in self.high:
            n *= math.comb(m + 6, 6)
        for m, dbl in zip(self.low, self.low_double_w, strict=True):
            f = 5 if dbl else 6
            n *= math.comb(m + f, f)
        return n

    def __str__(self) -> str:
        lows = ", ".join(
            f"{m}{'*' if d else ''}" for m, d in zip(self.low, self.low_double_w, strict=True)
        )
        return f"{self.high} + ({lows})"


def partitions(n: int, k: int, largest: int | None = None) -> Iterator[tuple[int, ...]]:
    """Partitions of n into exactly k parts, non-increasing."""
    largest = n if largest is None else largest
    if k == 0:
        if n == 0:
            yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, k - 1, first):
            yield (first, *rest)


def structures(n_types: int) -> list[Structure]:
    """Every type structure with ``n_types`` die types (low types listed canonically)."""
    out = []
    for kh in range(1, n_types):
        for hp in partitions(6, kh):
            for lp in partitions(4, n_types - kh):
                seen = set()
                for dbl in itertools.product((False, True), repeat=len(lp)):
                    key = tuple(sorted(zip(lp, dbl, strict=True), key=lambda x: (-x[0], x[1])))
                    if key not in seen:
                        seen.add(key)
                        out.append(
                            Structure(hp, tuple(m for m, _ in key), tuple(d for _, d in key))
                        )
    return out


def min_hand_faces(mults: Sequence[int], n_faces: int) -> int | None:
    """Fewest orange faces forced by ``n_faces`` hand faces on distinct dice of these types.

    Exhaustive over assignments of the hand faces to types (k_t faces on type t, k_t <= m_t):
    ``min sum m_t k_t``; None if the dice are too few.

    >>> min_hand_faces((3, 3), 4), min_hand_faces((2, 2), 3), min_hand_faces((6,), 4)
    (12, 6, 24)
    """
    best = None
    for assign in itertools.product(range(len(mults)), repeat=n_faces):
        k = [assign.count(t) for t in range(len(mults))]
        if all(kt <= m for kt, m in zip(k, mults, strict=True)):
            cost = sum(kt * m for kt, m in zip(k, mults, strict=True))
            best = cost if best is None else min(best, cost)
    return best


def admissible(s: Structure) -> str | None:
    """None if the structure passes the three necessary conditions, else the failed one."""
    if sum(1 if d else 2 for d in s.low_double_w) < 4:
        return "W colors: fewer than 4 W colors possible"
    hi, lo = min_hand_faces(s.high, len(HIGH_HAND)), min_hand_faces(s.low, len(LOW_HAND))
    if hi is None or lo is None or hi + lo > PER_COLOR:
        return f"orange count: the example hand forces >= {hi} + {lo} orange faces"
    if all(m % 2 == 0 for m in s.high + s.low):
        return "parity: all multiplicities even, but 15 faces per color is odd"
    return None


def minimality_table(max_types: int = 5) -> list[tuple[Structure, int, str | None]]:
    """``(structure, states, reason it fails or None)`` for every structure up to max_types."""
    return [(s, s.states, admissible(s)) for k in range(2, max_types + 1) for s in structures(k)]


# --------------------------------------------------------------------------- the search


@dataclass
class SearchStats:
    hand_assignments: int = 0
    nodes: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def _hand_assignments(mults: Sequence[int], n_faces: int) -> Iterator[tuple[int, ...]]:
    for assign in itertools.product(range(len(mults)), repeat=n_faces):
        if all(assign.count(t) <= m for t, m in enumerate(mults)):
            yield assign


def search_layout(
    s: Structure,
    unique_faces: bool = False,
    all_colors: bool = False,
    stats: SearchStats | None = None,
) -> Layout | None:
    """First valid layout with structure ``s`` (depth-first, deterministic), or None.

    The search is exhaustive: None means that no valid layout has this structure (with
    ``unique_faces``: none in which every (value, color) face is on a single die type; with
    ``all_colors``: none in which every die shows all four colors).
    For every way to put the example hand on distinct dice it fixes those faces orange, then
    colors the faces type by type (high dice 10..5, low dice 4..1 then the W pair), colors in
    the order r, o, b, g, pruning when a color cannot end at exactly 15 faces, when the
    phase-8 score of the dice so far already exceeds 56, (with ``unique_faces``) when a face
    is already on another type, or (with ``all_colors``) when a die can no longer get all four
    colors.
    """
    stats = stats or SearchStats()
    t0 = time.perf_counter()
    types = [("high", m, False) for m in s.high] + [
        ("low", m, d) for m, d in zip(s.low, s.low_double_w, strict=True)
    ]
    nh = len(s.high)
    # slots: (type, value) ; value None = the W pair of a low die
    slots = [(t, v) for t in range(nh) for v in HIGH_ORDER] + [
        (t, v) for t in range(nh, len(types)) for v in (*LOW_ORDER, None)
    ]
    memo: dict = {}  # color-count reachability of slot suffixes, shared by the hand placements
    try:
        for ha in _hand_assignments(s.high, len(HIGH_HAND)):
            for la in _hand_assignments(s.low, len(LOW_HAND)):
                stats.hand_assignments += 1
                forced = {(t, v) for t, v in zip(ha, HIGH_HAND, strict=True)}
                forced |= {
                    (nh + t, None if v == WILD else v) for t, v in zip(la, LOW_HAND, strict=True)
                }
                found = _dfs(types, slots, forced, unique_faces, all_colors, stats, memo)
                if found is not None:
                    return found
        return None
    finally:
        stats.seconds += time.perf_counter() - t0


def _domain(types, slot, forced) -> list[tuple[int, ...]]:
    t, v = slot
    if v is not None:
        return [(_O,)] if slot in forced else [(c,) for c in range(4)]
    dbl = types[t][2]
    pairs = [p for p in _W_PAIRS if (p[0] == p[1]) == dbl]
    if slot in forced:
        pairs = [p for p in pairs if _O in p]
    return pairs


def _dfs(types, slots, forced, unique_faces, all_colors, stats, memo) -> Layout | None:
    domains = [_domain(types, sl, forced) for sl in slots]
    # how many more colors the later slots of the same die type can still bring
    cap_after = [
        sum(len(set(domains[j][0])) for j in range(i + 1, len(slots)) if slots[j][0] == slots[i][0])
        for i in range(len(slots))
    ]
    # reach[i]: color-count vectors (each <= 15) the slots i.. can add, ignoring other rules
    reach: list[set[tuple[int, ...]]] = [set() for _ in range(len(slots) + 1)]
    reach[-1].add((0, 0, 0, 0))
    for i in range(len(slots) - 1, -1, -1):
        key = (i, tuple(tuple(d) for d in domains[i:]))
        if key not in memo:
            m = types[slots[i][0]][1]
            here = set()
            for vec in reach[i + 1]:
                for choice in domains[i]:
                    w = list(vec)
                    for c in choice:
                        w[c] += m
                    if max(w) <= PER_COLOR:
                        here.add(tuple(w))
            memo[key] = here
        reach[i] = memo[key]
    n_types = len(types)
    counts = [0, 0, 0, 0]
    best: list[list[int | None]] = [[None] * 4 for _ in range(n_types)]
    owner: dict[tuple[int, int], int] = {}  # (value, color) -> type, for unique_faces
    colors: list[tuple[int, ...]] = [()] * len(slots)

    def top7(c: int) -> int | None:
        vals = sorted(
            (
                b[c]
                for b, (_, m, _) in zip(best, types, strict=True)
                for _ in range(m)
                if b[c] is not None
            ),
            reverse=True,
        )
        return sum(vals[:7]) if len(vals) >= 7 else None

    def rec(i: int) -> bool:
        stats.nodes += 1
        need = tuple(PER_COLOR - x for x in counts)
        if need not in reach[i]:
            return False
        if i == len(slots):
            scores = [top7(c) for c in range(4)]
            if max((x for x in scores if x is not None), default=None) != PHASE8_MAX:
                return False
            wcols = {c for (t, v), ch in zip(slots, colors, strict=True) if v is None for c in ch}
            return len(wcols) == 4
        t, v = slots[i]
        m = types[t][1]
        value = WILD if v is None else v
        for choice in domains[i]:
            if unique_faces and any(owner.get((value, c), t) != t for c in choice):
                continue
            saved = [best[t][c] for c in range(4)]
            new_owner = [c for c in set(choice) if (value, c) not in owner]
            for c in choice:
                counts[c] += m
                if best[t][c] is None:
                    best[t][c] = value
            for c in new_owner:
                owner[(value, c)] = t
            colors[i] = choice
            ok = all((x := top7(c)) is None or x <= PHASE8_MAX for c in set(choice))
            if all_colors:
                ok = ok and sum(b is None for b in best[t]) <= cap_after[i]
            if ok and rec(i + 1):
                return True
            for c in choice:
                counts[c] -= m
            for c in range(4):
                best[t][c] = saved[c]
            for c in new_owner:
                del owner[(value, c)]
        return False

    if not rec(0):
        return None
    return _to_layout(types, slots, colors)


def _to_layout(types, slots, colors) -> Layout:
    return parse_layout(layout_text(types, slots, colors), name="searched")


def layout_text(types, slots, colors) -> str:
    """``N x faces`` lines, high dice 5..10, low dice 1 2 3 4 W W."""
    faces: dict[int, dict] = {t: {} for t in range(len(types))}
    for (t, v), ch in zip(slots, colors, strict=True):
        faces[t][v] = ch
    lines = []
    for t, (kind, m, _) in enumerate(types):
        if kind == "high":
            parts = [f"{v}{COLORS[faces[t][v][0]]}" for v in sorted(HIGH_ORDER)]
        else:
            parts = [f"{v}{COLORS[faces[t][v][0]]}" for v in sorted(LOW_ORDER)]
            parts += [f"W{COLORS[c]}" for c in faces[t][None]]
        lines.append(f"{m} x " + " ".join(parts))
    return "\n".join(lines) + "\n"


@dataclass
class SearchResult:
    layout: Layout
    text: str
    structure: Structure
    unique_faces: bool
    all_colors: bool
    table: list[tuple[Structure, int, str | None]]
    stats: SearchStats


def find_compact_layout(max_types: int = 6) -> SearchResult:
    """The whole search: smallest type count, then fewest states, then unique faces.

    For n = 2, 3, ... it takes the admissible structures with n types by increasing state
    count and returns the first one for which :func:`search_layout` finds a layout, trying the
    preferences (c) and (d) first, then (c) alone, then (d) alone, then neither.
    """
    stats = SearchStats()
    table = minimality_table(max_types)
    for n in range(2, max_types + 1):
        cands = sorted(
            (s for s, _, why in table if s.n_types == n and why is None),
            key=lambda s: (s.states, s),
        )
        for s in cands:
            for unique, allc in ((True, True), (True, False), (False, True), (False, False)):
                lay = search_layout(s, unique_faces=unique, all_colors=allc, stats=stats)
                if lay is not None:
                    return SearchResult(lay, format_layout(lay), s, unique, allc, table, stats)
    raise RuntimeError(f"no valid layout with at most {max_types} die types")


def format_layout(lay: Layout) -> str:
    """``N x faces`` lines: high types first, more dice first; faces 5..10 or 1 2 3 4 W W."""
    groups = sorted(lay.groups(), key=lambda dn: (dn[0].kind != "high", -dn[1], dn[0].faces))
    lines = []
    for die, n in groups:
        faces = sorted(die.faces, key=lambda f: (f.value == WILD, f.value, COLORS.index(f.color)))
        lines.append(f"{n} x " + " ".join(str(f) for f in faces))
    return "\n".join(lines) + "\n"


def main() -> None:  # pragma: no cover - manual reproduction
    res = find_compact_layout()
    for s, states, why in res.table:
        if s.n_types <= 5:
            print(f"{s.n_types}  {str(s):28s} {states:>12,}  {why or 'admissible'}")
    print(
        f"\nchosen: {res.structure}  states {res.structure.states:,}  "
        f"unique faces: {res.unique_faces}  all colors on every die: {res.all_colors}"
    )
    print(
        f"search: {res.stats.hand_assignments} hand placements, {res.stats.nodes} nodes, "
        f"{res.stats.seconds:.2f} s\n"
    )
    print(res.text)


if __name__ == "__main__":  # pragma: no cover
    main()
