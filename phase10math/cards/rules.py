"""Checking a lay-down and hits on laid-down groups.

A lay-down gives one list of cards per group of the phase. Each group may hold more than its
minimum, but only cards that fit it (more of the set's number, numbers extending the run, more
of the color). A run's cards may be given in order (``'W 5 6 7'`` is 4-7) or in any order (Wilds
then go at the top end where they fit). Once played, a Wild keeps the number or color it stands for.

>>> from phase10math.cards.deck import parse_hand as h
>>> groups = validate_laydown(2, [h("R7 B7 W"), h("G3 W Y5 R6")])
>>> [str(g) for g in groups]
['set of 7s: R7 B7 W', 'run 3-6: G3 W Y5 R6']
>>> run = groups[1]
>>> can_hit(run, h("B7")[0]), can_hit(run, h("B9")[0])
(True, False)
>>> validate_laydown(1, [h("R7 B7 W"), h("G3 G4 G5")])
Traceback (most recent call last):
...
phase10math.cards.errors.InvalidLayDownError: group 2 (set of 3): G3 G4 G5 do not show one number
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from phase10math._base.checks import public
from phase10math.cards.deck import STANDARD, Card, DeckSpec, format_cards, parse_card, parse_hand
from phase10math.cards.errors import InvalidHitError, InvalidLayDownError
from phase10math.cards.phases import Group, Phase, parse_phase

MAX_LAYDOWN = 10  # a player holds at most 11 cards and must keep one to discard


@public
@dataclass
class LaidGroup:
    """A group on the table. ``value`` is the set's number, the run's lowest number or the
    color-group's color (None while a set/color group is all Wilds); ``high`` ends a run."""

    kind: str
    cards: list[Card] = field(default_factory=list)
    value: int | str | None = None
    high: int | None = None
    owner: int | None = None

    def __str__(self) -> str:
        cards = format_cards(self.cards)
        if self.kind == "set":
            return f"set of {self.value if self.value is not None else '?'}s: {cards}"
        if self.kind == "run":
            return f"run {self.value}-{self.high}: {cards}"
        return f"{self.value or 'any'} color: {cards}"


def _label(i: int, g: Group) -> str:
    return f"group {i + 1} ({g})"


@public
def make_group(
    kind: str, cards: Sequence[Card], min_size: int = 1, deck: DeckSpec = STANDARD, label: str = ""
) -> LaidGroup:
    """A :class:`LaidGroup` from cards, or :class:`InvalidLayDownError` saying why not.

    >>> from phase10math.cards.deck import parse_hand as h
    >>> str(make_group("run", h("W W R11 r12"), 4))
    'run 9-12: W W R11 R12'
    """
    label = label or kind
    cards = list(cards)
    text = format_cards(cards)
    if len(cards) < min_size:
        raise InvalidLayDownError(
            f"{label}: {text or 'no cards'} is {len(cards)} cards, at least {min_size} are needed"
        )
    skips = [c for c in cards if c.is_skip]
    if skips:
        raise InvalidLayDownError(f"{label}: a Skip can never be part of a phase ({text})")
    nat = [c for c in cards if c.is_number]
    if kind == "set":
        nums = {c.number for c in nat}
        if len(nums) > 1:
            raise InvalidLayDownError(f"{label}: {text} do not show one number")
        return LaidGroup("set", cards, nums.pop() if nums else None)
    if kind == "color":
        cols = {c.color for c in nat}
        if len(cols) > 1:
            raise InvalidLayDownError(f"{label}: {text} are not all one color")
        return LaidGroup("color", cards, cols.pop() if cols else None)
    if kind != "run":
        raise InvalidLayDownError(f"unknown group kind {kind!r}")
    L = len(cards)
    dup = [n for n, k in Counter(c.number for c in nat).items() if k > 1]
    if dup:
        raise InvalidLayDownError(f"{label}: number {dup[0]} appears twice in the run {text}")
    if L > deck.numbers:
        raise InvalidLayDownError(f"{label}: a run has at most {deck.numbers} cards, got {L}")
    lo = max([1] + [c.number - L + 1 for c in nat])
    hi = min([deck.numbers - L + 1] + [c.number for c in nat])
    if lo > hi:
        nums = sorted(c.number for c in nat)
        raise InvalidLayDownError(
            f"{label}: the numbers {', '.join(map(str, nums))} cannot make one run of {L} "
            f"within 1..{deck.numbers} with {L - len(nat)} Wild(s)"
        )
    # cards listed in order decide the start; otherwise Wilds go on top where they fit
    starts = {c.number - i for i, c in enumerate(cards) if c.is_number}
    if len(starts) == 1 and lo <= min(starts) <= hi:
        start = starts.pop()
    else:
        start = min(hi, max(lo, min((c.number for c in nat), default=lo)))
    ordered = _order_run(cards, start)
    return LaidGroup("run", ordered, start, start + L - 1)


def _order_run(cards: Sequence[Card], start: int) -> list[Card]:
    nat = {c.number: c for c in cards if c.is_number}
    wilds = [c for c in cards if c.is_wild]
    out = []
    for n in range(start, start + len(cards)):
        out.append(nat[n] if n in nat else wilds.pop())
    return out


@public
def validate_laydown(
    ph: int | str | Phase,
    groups: Sequence[Iterable[Card | str] | str],
    hand: Iterable[Card] | None = None,
    deck: DeckSpec = STANDARD,
) -> list[LaidGroup]:
    """Check a lay-down of phase ``ph``; return the laid groups (in the phase's group order).

    Groups may be given in any order. Raises :class:`InvalidLayDownError` naming the group and
    the reason, or :class:`~phase10math.cards.errors.InvalidCardError` for an unknown card.
    """
    ph = parse_phase(ph, deck)
    cards = [
        list(parse_hand(g, deck)) if isinstance(g, str) else [parse_card(c, deck) for c in g]
        for g in groups
    ]
    total = sum(len(g) for g in cards)
    if total > MAX_LAYDOWN:
        raise InvalidLayDownError(
            f"a lay-down has at most {MAX_LAYDOWN} cards (a player holds 11 after drawing and "
            f"must keep one to discard), got {total}"
        )
    if len(cards) != len(ph.groups):
        raise InvalidLayDownError(
            f"{ph} has {len(ph.groups)} group(s), the lay-down gives {len(cards)}"
        )
    for g in cards:
        for c in g:
            if c.is_skip:
                raise InvalidLayDownError(
                    f"a Skip can never be part of a phase ({format_cards(g)})"
                )
    if hand is not None:
        have = Counter(hand)
        for c, k in Counter(c for g in cards for c in g).items():
            if k > have[c]:
                raise InvalidLayDownError(
                    f"the lay-down uses {k} x {c} but the hand holds {have[c]}"
                )
    first_error: InvalidLayDownError | None = None
    for perm in itertools.permutations(range(len(ph.groups))):
        try:
            laid = [None] * len(ph.groups)
            for gi, ci in enumerate(perm):
                req = ph.groups[gi]
                laid[gi] = make_group(req.kind, cards[ci], req.size, deck, _label(ci, req))
            return laid  # type: ignore[return-value]
        except InvalidLayDownError as exc:
            if first_error is None:
                first_error = exc
    raise first_error or InvalidLayDownError("the phase has no groups to lay down")


@public
def can_hit(group: LaidGroup, card: Card, deck: DeckSpec = STANDARD) -> bool:
    """Whether ``card`` may be added to ``group``."""
    try:
        _hit_target(group, card, deck)
    except InvalidHitError:
        return False
    return True


def _hit_target(group: LaidGroup, card: Card, deck: DeckSpec, end: str | None = None):
    if card.is_skip:
        raise InvalidHitError("a Skip can never be added to a phase")
    if group.kind == "set":
        if card.is_wild or group.value is None or card.number == group.value:
            return None
        raise InvalidHitError(
            f"{card} does not fit the {group}: it needs a {group.value} or a Wild"
        )
    if group.kind == "color":
        if card.is_wild or group.value is None or card.color == group.value:
            return None
        raise InvalidHitError(f"{card} does not fit the {group}: it needs {group.value} or a Wild")
    if not isinstance(group.value, int) or group.high is None:
        raise InvalidHitError(f"the {group} has no numbers yet (a run needs its low and high card)")
    lo, hi = group.value, group.high
    if card.is_wild:
        if end in (None, "high") and hi < deck.numbers:
            return "high"
        if end in (None, "low") and lo > 1:
            return "low"
        raise InvalidHitError(f"the {group} cannot be extended at the {end or 'either'} end")
    if card.number == hi + 1 and end in (None, "high"):
        return "high"
    if card.number == lo - 1 and end in (None, "low"):
        return "low"
    want = " or ".join(str(n) for n in (lo - 1, hi + 1) if 1 <= n <= deck.numbers) or "nothing"
    raise InvalidHitError(f"{card} does not fit the {group}: it takes {want} (or a Wild)")


@public
def hit(
    group: LaidGroup,
    card: Card | str,
    deck: DeckSpec = STANDARD,
    end: str | None = None,
    hitter_laid_down: bool = True,
) -> LaidGroup:
    """Add ``card`` to ``group`` (in place; also returned). A Wild on a run goes on top unless
    ``end='low'``. Only a player whose own phase is down may hit.

    >>> g = make_group("set", [parse_card("R4"), parse_card("W")], 2)
    >>> str(hit(g, "B4"))
    'set of 4s: R4 W B4'
    >>> hit(g, "S")
    Traceback (most recent call last):
    ...
    phase10math.cards.errors.InvalidHitError: a Skip can never be added to a phase
    """
    card = parse_card(card, deck)
    if not hitter_laid_down:
        raise InvalidHitError("a player may hit only after laying down their own phase")
    if end not in (None, "low", "high"):
        raise InvalidHitError(f"end must be 'low' or 'high', got {end!r}")
    where = _hit_target(group, card, deck, end)
    if group.kind in ("set", "color"):
        if group.value is None and card.is_number:
            group.value = card.number if group.kind == "set" else card.color
        group.cards.append(card)
    elif where == "high":
        group.cards.append(card)
        group.high = (group.high or 0) + 1
    else:
        group.cards.insert(0, card)
        group.value = int(group.value or 0) - 1
    return group


__all__ = ["LaidGroup", "make_group", "validate_laydown", "can_hit", "hit", "MAX_LAYDOWN"]
