"""Card-game phases: what they require and whether a hand holds one.

A phase is a tuple of groups: *sets* (cards of one number, any colors), *runs* (consecutive
numbers, any colors) and *color groups* (cards of one color). Wilds stand for any number or
color; Skips never belong to a phase. The groups of a phase use different cards; two sets may
be of the same number.

A hand holds a phase when some *placement* (a number for each set, a first number for each run,
a color for each color group) needs no more Wilds than the hand has. For set/run phases the
Wilds needed are ``sum(max(0, need[n] - count[n]))`` over numbers ``n``, so only the count of
each number matters; for color phases only the count of each color.

>>> from phase10math.cards.deck import parse_hand
>>> phase(1)
Phase('2 sets of 3')
>>> holds_phase(parse_hand("R3 B3 G3 Y5 R5 W S"), 1)
True
>>> find_laydown(parse_hand("R3 B3 G3 Y5 R5 W S"), 1)
[[Card('R3'), Card('B3'), Card('G3')], [Card('Y5'), Card('R5'), Card('W')]]
>>> shortfall(parse_hand("R1 R2 R3 B9 B9 G11 W S S Y12"), 4)
3
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from phase10math._base.checks import public
from phase10math.cards.deck import STANDARD, Card, DeckSpec
from phase10math.cards.errors import InvalidCardError, InvalidCardPhaseError
from phase10math.dice.phases import PHASE_TEXTS as DICE_PHASE_TEXTS

GroupKind = Literal["set", "run", "color"]

# the ten phases of the card game are those of the dice game (RULES.md section 2)
PHASE_TEXTS: dict[int, str] = {n: t for n, t in DICE_PHASE_TEXTS.items() if n <= 10}

MIN_SIZE: dict[str, int] = {"set": 2, "run": 2, "color": 1}


@public
@dataclass(frozen=True)
class Group:
    """One group a phase needs, e.g. ``Group("run", 4)``."""

    kind: GroupKind
    size: int

    def __str__(self) -> str:
        if self.kind == "color":
            return f"{self.size} of one color"
        return f"{self.kind} of {self.size}"


@public
@dataclass(frozen=True)
class Phase:
    """A phase: its groups (minimum sizes) and, for the ten standard ones, its number.

    >>> p = parse_phase("1 set of 3 + 1 run of 4")
    >>> p.size, p.kind, p.number
    (7, 'number', 2)
    """

    groups: tuple[Group, ...]
    number: int | None = None

    @property
    def size(self) -> int:
        """Cards needed to lay the phase down (minimum)."""
        return sum(g.size for g in self.groups)

    @property
    def kind(self) -> str:
        """``'number'`` (sets/runs only), ``'color'`` (color groups only) or ``'mixed'``."""
        kinds = {g.kind for g in self.groups}
        if kinds <= {"set", "run"}:
            return "number"
        if kinds == {"color"}:
            return "color"
        return "mixed"

    @property
    def text(self) -> str:
        parts: list[str] = []
        for g, grp in itertools.groupby(self.groups):
            k = len(list(grp))
            if g.kind == "color":
                parts.append(" + ".join([str(g)] * k))
            else:
                parts.append(f"{k} {g.kind}{'s' if k > 1 else ''} of {g.size}")
        return " + ".join(parts)

    def __str__(self) -> str:
        return f"phase {self.number}: {self.text}" if self.number else self.text

    def __repr__(self) -> str:
        return f"Phase({self.text!r})"


_WORDS = {"one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_PART_PATTERNS = [
    (re.compile(r"^(?:(\d+)\s*x?\s*)?(set|run)s?\s+of\s+(\d+)$", re.ASCII), "setrun"),
    (
        re.compile(r"^(\d+)\s+(?:cards?\s+)?(?:of\s+)?(?:one|a|1|same)\s+colou?r$", re.ASCII),
        "color",
    ),
    (re.compile(r"^(?:(\d+)\s*x?\s*)?colou?r\s+groups?\s+of\s+(\d+)$", re.ASCII), "colorgroup"),
]


@public
def parse_phase(text: str | int | Phase, deck: DeckSpec = STANDARD) -> Phase:
    """A phase from its number 1-10 or a phrase such as ``'2 sets of 4'``,
    ``'1 set of 3 + 1 run of 4'``, ``'7 of one color'``, ``'run of 4 + 4 of one color'``.

    >>> parse_phase("two sets of 4") == phase(7)
    True
    >>> parse_phase("1 run of 13")
    Traceback (most recent call last):
    ...
    phase10math.cards.errors.InvalidCardPhaseError: run of 13 cannot be made: numbers are 1..12
    """
    if isinstance(text, Phase):
        ph = text
    elif isinstance(text, (int, np.integer)) and not isinstance(text, bool):
        k = int(text)
        if k not in PHASE_TEXTS:
            raise InvalidCardPhaseError(f"unknown phase {k}; the card game has phases 1..10")
        return _standard(k, deck)
    elif isinstance(text, str):
        s = text.strip().lower()
        m = re.fullmatch(r"(?:phase\s*)?([0-9]+)", s)
        if m:
            return parse_phase(_small(m.group(1), text), deck)
        groups: list[Group] = []
        for raw in re.split(r"\s*(?:\+|,|\band\b)\s*", s):
            groups += _part_groups(raw, text, deck)
        ph = Phase(tuple(groups))
    else:
        raise InvalidCardPhaseError(f"{text!r} is not a phase; give 1..10 or a phrase")
    _check_phase(ph, deck)
    # recognise the standard phases in any wording
    for k in PHASE_TEXTS:
        std = _standard(k, deck)
        if sorted(std.groups, key=_gkey) == sorted(ph.groups, key=_gkey):
            return std
    return Phase(tuple(sorted(ph.groups, key=_gkey)))


def _part_groups(raw: str, text: str, deck: DeckSpec) -> list[Group]:
    """The groups one part of phase phrase ``text`` names (``'2 sets of 3'``)."""
    part = raw.strip()
    for w, v in _WORDS.items():
        part = re.sub(rf"^{w}\b", str(v), part)
    for pat, how in _PART_PATTERNS:
        mm = pat.match(part)
        if not mm:
            continue
        if how == "setrun":
            count, kind, size = _small(mm.group(1) or "1", text), mm.group(2), mm.group(3)
        elif how == "color":
            count, kind, size = 1, "color", mm.group(1)
        else:
            count, kind, size = _small(mm.group(1) or "1", text), "color", mm.group(2)
        size = _small(size, text)
        if count < 1:
            raise InvalidCardPhaseError(
                f"{count} {kind} group(s) in {text[:60]!r}: a part names at least one "
                "group; leave out a part the phase does not have"
            )
        if count * size > deck.size:
            raise InvalidCardPhaseError(
                f"{count} {kind} group(s) of {size} in {text[:60]!r}: the deck has "
                f"{deck.size} cards"
            )
        return [Group(kind, size)] * count  # type: ignore[arg-type]
    raise InvalidCardPhaseError(
        f"cannot read {raw!r} in phase {text!r}; write parts like '2 sets of 3', "
        "'1 run of 4', '7 of one color', joined by '+'"
    )


#: The most digits a number in a phase phrase may have (plain ASCII digits 0-9 only).
MAX_PHRASE_DIGITS = 3


def _small(digits: str, text: str) -> int:
    """A number of a phrase: ASCII digits, at most :data:`MAX_PHRASE_DIGITS` of them."""
    if len(digits) > MAX_PHRASE_DIGITS:
        raise InvalidCardPhaseError(
            f"the number {digits[:12]}... in {text[:60]!r} is too large (at most "
            f"{MAX_PHRASE_DIGITS} digits)"
        )
    return int(digits)


def _gkey(g: Group) -> tuple[int, int]:
    return ({"set": 0, "run": 1, "color": 2}[g.kind], -g.size)


def _check_phase(ph: Phase, deck: DeckSpec) -> None:
    if not ph.groups:
        raise InvalidCardPhaseError("a phase needs at least one group")
    for g in ph.groups:
        if g.kind not in MIN_SIZE:
            raise InvalidCardPhaseError(f"unknown group kind {g.kind!r}; use set, run or color")
        if g.size < MIN_SIZE[g.kind]:
            raise InvalidCardPhaseError(
                f"{g} is too small: a {g.kind} has at least {MIN_SIZE[g.kind]} cards"
            )
        if g.kind == "run" and g.size > deck.numbers:
            raise InvalidCardPhaseError(f"{g} cannot be made: numbers are 1..{deck.numbers}")
        most = deck.wilds + (
            len(deck.colors) * deck.copies if g.kind == "set" else deck.numbers * deck.copies
        )
        if g.kind != "run" and g.size > most:
            raise InvalidCardPhaseError(
                f"{g} cannot be made: this deck has at most {most} cards for one "
                f"{'number' if g.kind == 'set' else 'color'}, wilds included"
            )
    need = sum(g.size for g in ph.groups)
    if need > deck.size:
        raise InvalidCardPhaseError(f"the phase needs {need} cards; the deck has {deck.size}")


@lru_cache(maxsize=64)
def _standard(k: int, deck: DeckSpec) -> Phase:
    groups: list[Group] = []
    for part in PHASE_TEXTS[k].split(" + "):
        m = re.match(r"(\d+) (set|run)s? of (\d+)", part)
        if m:
            groups += [Group(m.group(2), int(m.group(3)))] * int(m.group(1))  # type: ignore[arg-type]
        else:
            groups.append(Group("color", int(part.split()[0])))
    return Phase(tuple(groups), number=k)


@public
def phase(k: int | str | Phase, deck: DeckSpec = STANDARD) -> Phase:
    """Standard phase ``k`` (1-10), or any phrase :func:`parse_phase` reads."""
    return parse_phase(k, deck)


# ---------------------------------------------------------------- placements


@dataclass(frozen=True)
class Placements:
    """All placements of a phase on a deck.

    ``choices[i][g]`` is the number (set), first number (run) or color index (color group) of
    group ``g`` in placement ``i``. For ``'number'`` and ``'color'`` phases ``need[i]`` is the
    vector of cards needed per number (or color) and rows are distinct.
    """

    phase: Phase
    kind: str
    choices: tuple[tuple[int, ...], ...]
    need: np.ndarray  # (placements, numbers) or (placements, colors); empty for mixed
    num_need: np.ndarray  # (placements, numbers)
    col_need: np.ndarray  # (placements, colors)


@lru_cache(maxsize=256)
def placements(ph: Phase, deck: DeckSpec = STANDARD) -> Placements:
    """Distinct placements of ``ph`` (number phases: 78 for phase 1, 108 for phase 2).

    >>> placements(phase(1)).need.shape
    (78, 12)
    """
    N, C = deck.numbers, len(deck.colors)
    options = []
    for g in ph.groups:
        if g.kind == "set":
            options.append(range(1, N + 1))
        elif g.kind == "run":
            options.append(range(1, N - g.size + 2))
        else:
            options.append(range(C))
    # identical groups: choose a multiset of options (the order of equal groups is irrelevant)
    blocks: dict[Group, list[int]] = {}
    for i, g in enumerate(ph.groups):
        blocks.setdefault(g, []).append(i)
    per_block = [
        list(itertools.combinations_with_replacement(options[idx[0]], len(idx)))
        for idx in blocks.values()
    ]
    rows: dict[bytes, tuple[int, ...]] = {}
    for combo in itertools.product(*per_block):
        choice = [0] * len(ph.groups)
        for idx, picks in zip(blocks.values(), combo, strict=True):
            for i, v in zip(idx, picks, strict=True):
                choice[i] = v
        nn = np.zeros(N, dtype=np.int16)
        cn = np.zeros(C, dtype=np.int16)
        for g, v in zip(ph.groups, choice, strict=True):
            if g.kind == "set":
                nn[v - 1] += g.size
            elif g.kind == "run":
                nn[v - 1 : v - 1 + g.size] += 1
            else:
                cn[v] += g.size
        # distinct need vectors suffice for pure phases; mixed ones keep every placement
        key = nn.tobytes() + cn.tobytes() + (str(choice).encode() if ph.kind == "mixed" else b"")
        rows.setdefault(key, tuple(choice))
    choices = tuple(rows.values())
    num_need = np.zeros((len(choices), N), dtype=np.int16)
    col_need = np.zeros((len(choices), C), dtype=np.int16)
    for r, choice in enumerate(choices):
        for g, v in zip(ph.groups, choice, strict=True):
            if g.kind == "set":
                num_need[r, v - 1] += g.size
            elif g.kind == "run":
                num_need[r, v - 1 : v - 1 + g.size] += 1
            else:
                col_need[r, v] += g.size
    need = num_need if ph.kind == "number" else col_need if ph.kind == "color" else num_need[:0]
    for a in (need, num_need, col_need):
        a.setflags(write=False)
    return Placements(ph, ph.kind, choices, need, num_need, col_need)


def wilds_needed(counts: np.ndarray, need: np.ndarray) -> np.ndarray:
    """Fewest Wilds that complete the phase, for count vectors ``counts[..., D]``.

    >>> int(wilds_needed(np.array([3, 0, 2]), np.array([[3, 3, 0], [3, 0, 3]])))
    1
    """
    c = np.asarray(counts)[..., None, :]
    if need.shape[0] == 0:
        return np.full(np.shape(counts)[:-1], 10**6)
    return np.maximum(need - c, 0).sum(axis=-1).min(axis=-1)


# ---------------------------------------------------------------- hands


def _profile(cards: Iterable[Card], deck: DeckSpec) -> tuple[np.ndarray, np.ndarray, int, list]:
    num = np.zeros(deck.numbers, dtype=np.int16)
    col = np.zeros(len(deck.colors), dtype=np.int16)
    wild = 0
    naturals = []
    cidx = {c: i for i, c in enumerate(deck.colors)}
    for c in cards:
        if c.is_wild:
            wild += 1
        elif c.is_number:
            if not 1 <= c.number <= deck.numbers or c.color not in cidx:
                raise InvalidCardError(
                    f"card {c} is not in the deck (numbers 1..{deck.numbers}, colors "
                    f"{', '.join(deck.colors)})"
                )
            num[c.number - 1] += 1
            col[cidx[c.color]] += 1
            naturals.append(c)
    return num, col, wild, naturals


def _slots(ph: Phase, choice: Sequence[int], deck: DeckSpec) -> list[list[tuple[str, int]]]:
    out = []
    for g, v in zip(ph.groups, choice, strict=True):
        if g.kind == "set":
            out.append([("n", v)] * g.size)
        elif g.kind == "run":
            out.append([("n", v + i) for i in range(g.size)])
        else:
            out.append([("c", v)] * g.size)
    return out


def _match(slots: list[tuple[str, int]], cards: list[Card], deck: DeckSpec) -> list[int]:
    """Maximum matching of natural cards to slots (Kuhn); returns card index per slot or -1."""
    colors = deck.colors
    fits = [
        [
            j
            for j, c in enumerate(cards)
            if (kind == "n" and c.number == v) or (kind == "c" and c.color == colors[v])
        ]
        for kind, v in slots
    ]
    owner = [-1] * len(cards)

    def augment(s: int, seen: set[int]) -> bool:
        for j in fits[s]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = s
                return True
        return False

    for s in range(len(slots)):
        augment(s, set())
    got = [-1] * len(slots)
    for j, s in enumerate(owner):
        if s >= 0:
            got[s] = j
    return got


def _mixed_best(ph: Phase, cards: Sequence[Card], deck: DeckSpec):
    _, _, wild, nat = _profile(cards, deck)
    pl = placements(ph, deck)
    best = None
    for choice in pl.choices:
        slots = _slots(ph, choice, deck)
        flat = [s for grp in slots for s in grp]
        got = _match(flat, nat, deck)
        missing = sum(1 for g in got if g < 0)
        if best is None or missing < best[0]:
            best = (missing, choice, slots, got)
            if missing == 0:
                break
    return best, wild, nat


@public
def shortfall(cards: Iterable[Card], ph: int | str | Phase, deck: DeckSpec = STANDARD) -> int:
    """How many more cards (beyond the Wilds held) the hand lacks for the phase; 0 = holds it."""
    ph = parse_phase(ph, deck)
    cards = list(cards)
    num, col, wild, _ = _profile(cards, deck)
    if ph.kind == "number":
        need = int(wilds_needed(num, placements(ph, deck).need))
    elif ph.kind == "color":
        need = int(wilds_needed(col, placements(ph, deck).need))
    else:
        best, wild, _ = _mixed_best(ph, cards, deck)
        need = best[0] if best else 10**6
    return max(0, need - wild)


@public
def holds_phase(cards: Iterable[Card], ph: int | str | Phase, deck: DeckSpec = STANDARD) -> bool:
    """Whether the cards contain the phase (any size of hand)."""
    return shortfall(cards, ph, deck) == 0


@public
def find_laydown(
    cards: Iterable[Card], ph: int | str | Phase, deck: DeckSpec = STANDARD
) -> list[list[Card]] | None:
    """A minimal lay-down (one card list per group, in the phase's group order), or None.

    Runs are listed in number order with Wilds in the gaps.
    """
    ph = parse_phase(ph, deck)
    cards = list(cards)
    num, col, wild, nat = _profile(cards, deck)
    wild_cards = [c for c in cards if c.is_wild]
    if ph.kind == "mixed":
        best, _, _ = _mixed_best(ph, cards, deck)
        if best is None or best[0] > wild:
            return None
        _, choice, slots, got = best
        out, k, w = [], 0, 0
        for grp in slots:
            g_cards = []
            for _ in grp:
                if got[k] >= 0:
                    g_cards.append(nat[got[k]])
                else:
                    g_cards.append(wild_cards[w])
                    w += 1
                k += 1
            out.append(g_cards)
        return out
    pl = placements(ph, deck)
    counts = num if ph.kind == "number" else col
    deficits = np.maximum(pl.need - counts, 0).sum(axis=1)
    r = int(np.argmin(deficits))
    if deficits[r] > wild:
        return None
    pools: dict[tuple[str, int], list[Card]] = {}
    for c in nat:
        pools.setdefault(("n", c.number), []).append(c)
        pools.setdefault(("c", deck.colors.index(c.color)), []).append(c)
    out = []
    w = 0
    for grp in _slots(ph, pl.choices[r], deck):
        g_cards = []
        for key in grp:
            pool = pools.get(key, [])
            if pool:
                g_cards.append(pool.pop(0))
            else:
                g_cards.append(wild_cards[w])
                w += 1
        out.append(g_cards)
    return out


__all__ = [
    "PHASE_TEXTS",
    "Group",
    "Phase",
    "parse_phase",
    "phase",
    "Placements",
    "placements",
    "wilds_needed",
    "shortfall",
    "holds_phase",
    "find_laydown",
]
