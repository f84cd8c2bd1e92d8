"""Cards, decks and leftover-hand scoring for the Phase 10 card game.

The standard deck has 108 cards: numbers 1-12 in four colors, two of each (96), 8 Wild and
4 Skip. :class:`DeckSpec` makes every count a parameter, so small decks can be enumerated.

>>> STANDARD.size
108
>>> parse_hand("R7 b7 W S")
(Card('R7'), Card('B7'), Card('W'), Card('S'))
>>> hand_points(parse_hand("R7 B12 W S"))
55
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from phase10math._base.checks import public
from phase10math.cards.errors import InvalidCardError, InvalidDeckError

COLORS: tuple[str, ...] = ("red", "blue", "yellow", "green")

# leftover-card penalties (RULES.md section 2), as data
POINTS_LOW = 5  # numbers 1-9
POINTS_HIGH = 10  # numbers 10-12
POINTS_SKIP = 15
POINTS_WILD = 25
HIGH_FROM = 10

Kind = Literal["number", "wild", "skip"]


@public
@dataclass(frozen=True, order=True)
class Card:
    """One card: a number card (number + color), a Wild or a Skip.

    >>> Card("number", 7, "red").points
    5
    >>> str(Card("wild"))
    'W'
    """

    kind: Kind
    number: int = 0
    color: str = ""

    @property
    def is_wild(self) -> bool:
        return self.kind == "wild"

    @property
    def is_skip(self) -> bool:
        return self.kind == "skip"

    @property
    def is_number(self) -> bool:
        return self.kind == "number"

    @property
    def points(self) -> int:
        """Penalty if left in hand: 1-9: 5, 10-12: 10, Skip: 15, Wild: 25."""
        if self.kind == "wild":
            return POINTS_WILD
        if self.kind == "skip":
            return POINTS_SKIP
        return POINTS_HIGH if self.number >= HIGH_FROM else POINTS_LOW

    def __str__(self) -> str:
        if self.kind == "wild":
            return "W"
        if self.kind == "skip":
            return "S"
        return f"{self.color[:1].upper()}{self.number}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


WILD = Card("wild")
SKIP = Card("skip")


@public
@dataclass(frozen=True)
class DeckSpec:
    """A deck: numbers 1..``numbers`` in each color, ``copies`` of each, plus Wilds and Skips.

    >>> d = DeckSpec(numbers=4, colors=("red", "blue"), copies=1, wilds=2, skips=1)
    >>> d.size, d.per_number, d.per_color
    (11, 2, 4)
    """

    numbers: int = 12
    colors: tuple[str, ...] = COLORS
    copies: int = 2
    wilds: int = 8
    skips: int = 4

    def __post_init__(self) -> None:
        for name in ("numbers", "copies"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise InvalidDeckError(f"deck {name} must be a whole number >= 1, got {v!r}")
        for name in ("wilds", "skips"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise InvalidDeckError(f"deck {name} must be a whole number >= 0, got {v!r}")
        if not self.colors:
            raise InvalidDeckError("a deck needs at least one color")
        letters = [c[:1].upper() for c in self.colors]
        if len(set(letters)) != len(letters) or any(not c.isalpha() for c in letters):
            raise InvalidDeckError(
                f"deck colors {self.colors!r} must start with different letters (e.g. red, blue)"
            )
        if {"W", "S"} & set(letters):
            raise InvalidDeckError(
                "a color may not start with W or S (those letters mean Wild/Skip)"
            )

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return self.numbers * len(self.colors) * self.copies + self.wilds + self.skips

    @property
    def per_number(self) -> int:
        """Cards showing one given number (all colors)."""
        return len(self.colors) * self.copies

    @property
    def per_color(self) -> int:
        """Number cards of one given color."""
        return self.numbers * self.copies

    def cards(self) -> list[Card]:
        """Every physical card, numbers first (by number, then color), then Wilds, then Skips."""
        out = [
            Card("number", n, c)
            for n in range(1, self.numbers + 1)
            for c in self.colors
            for _ in range(self.copies)
        ]
        return out + [WILD] * self.wilds + [SKIP] * self.skips

    def copies_of(self, card: Card) -> int:
        """How many physical copies of ``card`` the deck holds."""
        if card.is_wild:
            return self.wilds
        if card.is_skip:
            return self.skips
        return self.copies if card.color in self.colors and 1 <= card.number <= self.numbers else 0

    def describe(self) -> str:
        return (
            f"{self.size} cards: numbers 1-{self.numbers} in {len(self.colors)} colors "
            f"x {self.copies}, {self.wilds} Wild, {self.skips} Skip"
        )


STANDARD = DeckSpec()


def category_count(deck: DeckSpec, by: str) -> int:
    """Categories of number cards: numbers, colors or number x color types."""
    C = len(deck.colors)
    return {"number": deck.numbers, "color": C, "type": deck.numbers * C}[by]


def card_categories(deck: DeckSpec, by: str) -> np.ndarray:
    """Category of every card of ``deck.cards()``: its number (``by='number'``), its color
    (``'color'``) or its number x color type (``'type'``), counted from 0; then Wild, then Skip.

    >>> card_categories(DeckSpec(numbers=2, colors=("red", "blue"), copies=1), "type").tolist()
    [0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5]
    """
    C, D = len(deck.colors), category_count(deck, by)

    def category(c: Card) -> int:
        if not c.is_number:
            return D if c.is_wild else D + 1
        color = deck.colors.index(c.color)
        return {"number": c.number - 1, "color": color, "type": (c.number - 1) * C + color}[by]

    return np.array([category(c) for c in deck.cards()], dtype=np.int64)


_CARD_RE = re.compile(
    r"^\s*([a-z]+)?\s*-?\s*(\d{1,3})?\s*([a-z]+)?\s*$", re.IGNORECASE | re.ASCII
)  # digits 0-9 only (the rule of every number the kit reads)


def _allowed(deck: DeckSpec) -> str:
    letters = ", ".join(c[:1].upper() for c in deck.colors)
    return (
        f"write a color letter ({letters}) and a number 1..{deck.numbers} (e.g. "
        f"'{deck.colors[0][:1].upper()}7' or '{deck.colors[0]} 7'), "
        "'W' for a Wild or 'S' for a Skip"
    )


@public
def parse_card(text: str | Card, deck: DeckSpec = STANDARD) -> Card:
    """A card from text such as ``'R7'``, ``'red 7'``, ``'7r'``, ``'W'``/``'wild'``, ``'S'``.

    >>> parse_card("g12"), parse_card("blue 3"), parse_card("wild")
    (Card('G12'), Card('B3'), Card('W'))
    >>> parse_card("R13")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    phase10math.cards.errors.InvalidCardError: card 'R13': number 13 is not allowed; ...
    """
    if isinstance(text, Card):
        if deck.copies_of(text) == 0:
            raise InvalidCardError(f"card {text} is not in this deck ({deck.describe()})")
        return text
    if not isinstance(text, str):
        raise InvalidCardError(f"card {text!r} is not a card; {_allowed(deck)}")
    s = text.strip().lower()
    if s in ("w", "wild"):
        return WILD
    if s in ("s", "skip"):
        return SKIP
    m = _CARD_RE.match(s)
    if not m or not m.group(2) or bool(m.group(1)) == bool(m.group(3)):
        raise InvalidCardError(f"unknown card {text!r}; {_allowed(deck)}")
    word = m.group(1) or m.group(3)
    colors = [c for c in deck.colors if c.lower() == word or (len(word) == 1 and c[0] == word)]
    if not colors:
        raise InvalidCardError(
            f"card {text!r}: unknown color {word!r}; colors are {', '.join(deck.colors)}"
        )
    number = int(m.group(2))
    if not 1 <= number <= deck.numbers:
        raise InvalidCardError(
            f"card {text!r}: number {number} is not allowed; numbers are 1..{deck.numbers}"
        )
    return Card("number", number, colors[0])


@public
def parse_hand(
    cards: str | Iterable[str | Card], deck: DeckSpec = STANDARD, max_cards: int | None = None
) -> tuple[Card, ...]:
    """Cards from a space/comma separated string or an iterable; checks deck multiplicities.

    >>> parse_hand("R1, R1")
    (Card('R1'), Card('R1'))
    >>> parse_hand("R1 R1 R1")
    Traceback (most recent call last):
    ...
    phase10math.cards.errors.InvalidCardError: the hand holds 3 copies of R1; the deck has only 2
    """
    if isinstance(cards, str):
        items: list[str | Card] = [t for t in re.split(r"[\s,;]+", cards.strip()) if t]
    else:
        items = list(cards)
    # allow 'red 7' style when given as a string with spaces: re-join colour words with numbers
    if isinstance(cards, str):
        merged: list[str | Card] = []
        for t in items:
            if (
                merged
                and isinstance(t, str)
                and t.isascii()
                and t.isdigit()
                and isinstance(merged[-1], str)
            ):
                prev = str(merged[-1]).lower()
                if prev.isalpha() and prev not in ("w", "wild", "s", "skip"):
                    merged[-1] = f"{merged[-1]} {t}"
                    continue
            merged.append(t)
        items = merged
    hand = tuple(parse_card(t, deck) for t in items)
    if max_cards is not None and len(hand) > max_cards:
        raise InvalidCardError(
            f"a hand holds at most {max_cards} cards here, got {len(hand)}: "
            + " ".join(map(str, hand))
        )
    for card, k in Counter(hand).items():
        if k > deck.copies_of(card):
            raise InvalidCardError(
                f"the hand holds {k} copies of {card}; the deck has only {deck.copies_of(card)}"
            )
    return hand


@public
def hand_points(cards: Iterable[Card]) -> int:
    """Penalty points of cards left in hand (1-9: 5, 10-12: 10, Skip: 15, Wild: 25).

    >>> hand_points([Card("number", 9, "red"), Card("number", 10, "red")])
    15
    """
    return sum(c.points for c in cards)


@public
def format_cards(cards: Iterable[Card]) -> str:
    """``'R7 B7 W'``."""
    return " ".join(str(c) for c in cards)


__all__ = [
    "COLORS",
    "Card",
    "DeckSpec",
    "STANDARD",
    "WILD",
    "SKIP",
    "parse_card",
    "parse_hand",
    "hand_points",
    "format_cards",
]
