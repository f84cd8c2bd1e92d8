"""Typed rolls: faces typed by a player split into words, parsed, checked and fitted to the
dice of a layout; and which dice realise a hold.

The command line, the advisor, the strategies and the app read typed rolls through these
functions (:func:`parse_roll`, :func:`match_roll`, :func:`assign_faces`, :func:`dice_showing`);
typed faces are split and parsed by :func:`~phase10math.dice.faces.split_faces`,
:func:`~phase10math.dice.faces.parse_faces` and :func:`~phase10math.dice.faces.parse_face`.

>>> from phase10math.dice.layouts import DEFAULT_LAYOUT
>>> faces = parse_roll("10 o, W g 7 5 6 8 9 1 2 3", DEFAULT_LAYOUT)
>>> faces[:3]
(10o, Wg, 7)
>>> sorted(dice_showing(faces, parse_faces("7 10o")))
[0, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from phase10math._base.checks import public
from phase10math.dice.faces import COLOR_NAMES, WILD, Die, Face, Layout, parse_faces
from phase10math.dice.phases import Phase, require_colors
from phase10math.errors import InvalidDiceError


@public
def parse_roll(
    text: str | Iterable[str | Face],
    layout: Layout,
    n: int | None = None,
    phase: Phase | None = None,
) -> tuple[Face, ...]:
    """The faces of a typed roll (text, or a list of faces), ``n`` of them when given, with
    their colors when ``phase`` counts colors, checked against the dice of ``layout``
    (:func:`match_roll`). Raises InvalidDiceError naming the face and the reason."""
    faces = parse_faces(text)
    if n is not None and len(faces) != n:
        raise InvalidDiceError(
            f"give the {n} dice of the roll; got {len(faces)}"
            + ("" if faces else " (write e.g. 10o Wg 7 5 6 8 9 1 2 3)")
        )
    if phase is not None:
        require_colors(faces, phase)
    match_roll(faces, layout)
    return faces


@public
def match_roll(faces: Sequence[Face], layout: Layout) -> list[int]:
    """Which die of ``layout`` shows each face: a list of die indices, one per face.

    A face without a color matches any die showing its number. Raises InvalidDiceError, naming
    the die and value, when the faces cannot all show at once (more than six 5-10s, more than
    four 1-4/W, a color no die has for that number, ...).

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> len(match_roll(parse_faces("5 6 7 8 9 10 1 2 3 4"), DEFAULT_LAYOUT))
    10
    """
    n_dice = len(layout.dice)
    if len(faces) > n_dice:
        raise InvalidDiceError(f"a roll has at most {n_dice} dice; got {len(faces)}")
    for i, f in enumerate(faces, 1):
        if not (f.value == WILD or 1 <= f.value <= 10):
            raise InvalidDiceError(f"die {i}: value {f.value} is not 1-10 or W")
    n_low = sum(1 for f in faces if f.value == WILD or f.value <= 4)
    n_high = len(faces) - n_low
    if n_high > 6:
        raise InvalidDiceError(
            f"{n_high} dice show 5-10 but only the 6 high dice show those numbers "
            f"(high dice: 5, 6, 7, 8, 9, 10; low dice: 1, 2, 3, 4, W, W)"
        )
    if n_low > 4:
        first = [i for i, f in enumerate(faces, 1) if f.value == WILD or f.value <= 4][4]
        raise InvalidDiceError(
            f"die {first} ({faces[first - 1]}): {n_low} dice show 1-4 or W but only the 4 low "
            "dice show those (a high die shows 5, 6, 7, 8, 9 or 10)"
        )

    where = assign_faces(faces, layout.dice)
    if where is not None:
        return where
    # the first face that cannot be added to the faces before it names the problem
    fi = next(k for k in range(len(faces)) if assign_faces(faces[: k + 1], layout.dice) is None)
    f = faces[fi]
    holders = [str(i + 1) for i, d in enumerate(layout.dice) if d.show(f)]
    if not holders:
        shown = "W" if f.value == WILD else str(f.value)
        colors = sorted(
            {COLOR_NAMES[g.color] for d in layout.dice for g in d.faces if g.value == f.value}
        )
        raise InvalidDiceError(
            f"die {fi + 1} ({f}): no die of layout {layout.name!r} shows {shown} in "
            f"{COLOR_NAMES.get(f.color, f.color)}; {shown} comes in {', '.join(colors)}"
        )
    raise InvalidDiceError(
        f"die {fi + 1} ({f}): only dice {', '.join(holders)} of layout {layout.name!r} "
        "show this face, and the other faces of the roll already need them"
    )


def assign_faces(faces: Sequence[Face], dice: Sequence[Die]) -> list[int] | None:
    """Put each face on its own die that shows it (a bipartite matching, found by augmenting
    paths): the index into ``dice`` for each face, or None when no such assignment exists.

    >>> low = [Die("low", parse_faces(t)) for t in ("1g 2o 3b 4o Wr Wg", "1r 2g 3g 4g Wo Wb")]
    >>> assign_faces(parse_faces("Wb 3"), low), assign_faces(parse_faces("Wb Wo"), low)
    ([1, 0], None)
    """
    owner: dict[int, int] = {}  # die index -> face index

    def augment(fi: int, seen: set[int]) -> bool:
        for di, die in enumerate(dice):
            if di in seen or die.show(faces[fi]) is None:
                continue
            seen.add(di)
            if di not in owner or augment(owner[di], seen):
                owner[di] = fi
                return True
        return False

    if not all(augment(fi, set()) for fi in range(len(faces))):
        return None
    result = [0] * len(faces)
    for di, fi in owner.items():
        result[fi] = di
    return result


def dice_showing(
    shown: Sequence[Any],
    wanted: Iterable[Any],
    order: Sequence[int] | None = None,
    matches: Callable[[Any, Any], bool] | None = None,
) -> list[int] | None:
    """Which dice realise a hold: for each item of ``wanted`` in turn, the first die (index
    into ``shown``, in ``order``, by default index order) not chosen yet that shows an equal
    item, else one that ``matches(item, shown[i])``; None when some item is on no free die.
    Items are faces, or any keys (e.g. a die type and a projected face). The dice come in
    the order of ``wanted``.

    >>> sorted(dice_showing(parse_faces("7 7 W"), parse_faces("7"), order=[1, 0, 2]))
    [1]
    """
    chosen, missing = _place(shown, wanted, order, matches)
    return None if missing is not None else chosen


def first_unplaced(
    shown: Sequence[Any],
    wanted: Iterable[Any],
    order: Sequence[int] | None = None,
    matches: Callable[[Any, Any], bool] | None = None,
) -> int | None:
    """The position in ``wanted`` of the first item :func:`dice_showing` finds no die for
    (None when every item has one): the face an error message names."""
    return _place(shown, wanted, order, matches)[1]


def _place(shown, wanted, order, matches) -> tuple[list[int], int | None]:
    order = range(len(shown)) if order is None else order
    chosen: list[int] = []
    for k, w in enumerate(wanted):
        i = next((i for i in order if i not in chosen and shown[i] == w), None)
        if i is None and matches is not None:
            i = next((i for i in order if i not in chosen and matches(w, shown[i])), None)
        if i is None:
            return chosen, k
        chosen.append(i)
    return chosen, None
