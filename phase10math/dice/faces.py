"""Faces, dice and dice layouts, as plain immutable values.

A face is a number (1-10) or a wild ``W`` (stored as value 0), printed in one of four colors.
A die is its six faces. A :class:`Layout` is the ten dice of a set: six *high* dice
(5-10) and four *low* dice (1, 2, 3, 4, W, W). Dice with the same faces are identical,
and :meth:`Layout.groups` lists them grouped, which is what the solver exploits.

>>> f = parse_face("10o")
>>> f, f.value, f.color
(10o, 10, 'o')
>>> parse_face("Wg").is_wild
True
"""

from __future__ import annotations

import numbers
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from phase10math._base.checks import check_type, checks_itself, public
from phase10math.errors import InvalidDiceError, InvalidLayoutError, WrongTypeError

WILD = 0
COLORS = ("r", "o", "b", "g")
COLOR_NAMES = {"r": "red", "o": "orange", "b": "blue", "g": "green"}
HIGH_VALUES = (5, 6, 7, 8, 9, 10)
LOW_VALUES = (1, 2, 3, 4, WILD, WILD)
DIE_VALUES = {"high": HIGH_VALUES, "low": LOW_VALUES}

_FACE_RE = re.compile(r"^\s*(10|[1-9]|[wW])\s*([a-zA-Z]*)\s*$")


def _color_code(text: str, where: str) -> str | None:
    t = text.strip().lower()
    if not t:
        return None
    for code, name in COLOR_NAMES.items():
        if t in (code, name):
            return code
    raise InvalidDiceError(
        f"{where}: unknown color {text!r}; allowed: r/o/b/g or red/orange/blue/green"
    )


@public
@dataclass(frozen=True, order=True, slots=True)
class Face:
    """One face: ``value`` 1..10 or 0 for W, and ``color`` 'r', 'o', 'b', 'g' or None (unknown)."""

    value: int
    color: str | None = None

    def __post_init__(self) -> None:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            try:
                if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                    raise TypeError
                object.__setattr__(self, "value", int(v))
            except TypeError:
                raise InvalidDiceError(
                    f"face value {v!r}: a face is a number 1-10 or 0 for W"
                ) from None
        if not 0 <= self.value <= 10:
            raise InvalidDiceError(f"face value {self.value}: a face is a number 1-10 or 0 for W")
        if self.color is not None and self.color not in COLORS:
            raise InvalidDiceError(
                f"face {self.value}: color {self.color!r}; allowed: r, o, b, g or None (unknown)"
            )

    @property
    def is_wild(self) -> bool:
        return self.value == WILD

    @property
    def points(self) -> int:
        """What the face scores when used in a phase (W scores 0)."""
        return self.value

    @checks_itself
    def matches(self, other: Face) -> bool:
        """Same number, and the same color where both colors are known.

        >>> Face(5, "r").matches(Face(5)), Face(5, "r").matches(Face(5, "o"))
        (True, False)
        """
        if not isinstance(other, Face):
            raise WrongTypeError(
                f"Face.matches(): other={other!r:.40} ({type(other).__name__}); accepts Face"
            )
        return self.value == other.value and (
            self.color is None or other.color is None or self.color == other.color
        )

    def __str__(self) -> str:
        v = "W" if self.value == WILD else str(self.value)
        return v + (self.color or "")

    __repr__ = __str__


@public
def parse_face(text: str | Face, where: str = "die") -> Face:
    """Parse ``'10o'``, ``'Wg'``, ``'7'`` (color unknown), ``'8 red'``.

    >>> parse_face("8 red")
    8r
    """
    if isinstance(text, Face):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise InvalidDiceError(f"{where}: cannot read {text!r}; write a number 1-10 or W")
    if len(text) > 40:
        raise InvalidDiceError(f"{where}: cannot read {text[:20]!r}...; write a number 1-10 or W")
    m = _FACE_RE.match(text)
    if not m:
        raise InvalidDiceError(
            f"{where}: cannot read {text!r}; write a number 1-10 or W, optionally followed "
            "by a color letter r/o/b/g (e.g. 10o, Wg, 7)"
        )
    value = WILD if m.group(1).lower() == "w" else int(m.group(1))
    return Face(value, _color_code(m.group(2), where))


@public
def parse_faces(texts: str | Iterable[str | Face]) -> tuple[Face, ...]:
    """Parse several faces from a list or a whitespace/comma separated string (split by
    :func:`split_faces`).

    >>> parse_faces("10o, W g 7")[0]
    10o
    """
    if texts is None or not isinstance(texts, (str, Iterable)):
        raise InvalidDiceError(
            f"dice: expected text such as '10o W 7' or a list of faces; got {type(texts).__name__}"
        )
    if isinstance(texts, str):
        texts = split_faces(texts)
    return tuple(parse_face(t, where=f"die {i + 1}") for i, t in enumerate(texts))


@public
def split_faces(text: str) -> list[str]:
    """Split typed faces at spaces and commas, joining a separate color word to its number
    (``"10 o, W green 7"`` -> ``['10o', 'Wgreen', '7']``); ``"11"`` stays one (bad) face.

    >>> split_faces("10 o, W green 7"), split_faces("5 R 11")
    (['10o', 'Wgreen', '7'], ['5R', '11'])
    """
    colors = set(COLOR_NAMES) | set(COLOR_NAMES.values())
    out: list[str] = []
    for tok in text.replace(",", " ").split():
        if (
            out
            and tok.lower() in colors
            and out[-1][-1:].isalnum()
            and out[-1].lower()[-1] in "0123456789w"
        ):
            out[-1] += tok
        else:
            out.append(tok)
    return out


@public
@dataclass(frozen=True, slots=True)
class Die:
    """A die: its ``kind`` ('high' or 'low') and its six faces (sorted)."""

    kind: str
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if self.kind not in DIE_VALUES:
            raise InvalidDiceError(
                f"Die(): kind={self.kind[:20]!r}; accepts {' or '.join(map(repr, DIE_VALUES))}"
            )
        if not all(isinstance(f, Face) for f in self.faces):
            raise WrongTypeError("Die(): faces must be Face values (see parse_faces)")
        object.__setattr__(self, "faces", tuple(sorted(self.faces)))

    @checks_itself
    def show(self, face: Face) -> Face | None:
        """This die's own face that ``face`` describes (a typed face may leave out the color),
        or None when the die has no such face.

        >>> Die("low", parse_faces("1g 2o 3b 4o Wr Wg")).show(Face(0))
        Wg
        """
        if not isinstance(face, Face):
            raise WrongTypeError(
                f"Die.show(): face={face!r:.40} ({type(face).__name__}); accepts Face"
            )
        return next((g for g in self.faces if g.matches(face)), None)

    def __str__(self) -> str:
        return " ".join(str(f) for f in self.faces)


@public
@dataclass(frozen=True)
class Layout:
    """The ten dice of a set, with the color of every face.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> len(DEFAULT_LAYOUT.dice), sum(n for _, n in DEFAULT_LAYOUT.groups())
    (10, 10)
    """

    dice: tuple[Die, ...]
    name: str = "custom"

    def __post_init__(self) -> None:
        validate_dice(self.dice)

    def groups(self) -> list[tuple[Die, int]]:
        """Identical dice grouped: ``[(die, how many), ...]`` in the order the dice first
        appear in the layout."""
        return list(Counter(self.dice).items())

    def positions(self, die: Die) -> list[int]:
        """Where ``die`` lies in the layout: its positions counted from 1 (the order in which
        a roll typed die by die lists the faces).

        >>> from phase10math.dice.layouts import RECORDED_LAYOUT
        >>> RECORDED_LAYOUT.positions(RECORDED_LAYOUT.dice[6])
        [7]
        """
        return [i + 1 for i, d in enumerate(self.dice) if d == die]

    @cached_property
    def faces(self) -> tuple[Face, ...]:
        """Every distinct face on any die."""
        return tuple(sorted({f for d in self.dice for f in d.faces}))

    def color_count(self) -> dict[str, int]:
        """How many of the 60 faces carry each color."""
        c = Counter(f.color for d in self.dice for f in d.faces)
        return {k: c[k] for k in COLORS}

    def to_text(self) -> str:
        """The short text form accepted by :func:`parse_layout`."""
        return "\n".join(f"{d.kind}: {d}" for d in self.dice)

    def to_dict(self) -> dict:
        return {"name": self.name, "dice": [[str(f) for f in d.faces] for d in self.dice]}

    def fingerprint(self) -> str:
        """A canonical text that identifies the layout (for cache keys)."""
        return "|".join(sorted(" ".join(str(f) for f in d.faces) for d in self.dice))

    def __str__(self) -> str:
        where = [_spans(self.positions(die)) for die, _ in self.groups()]
        width = max(len(w) for w in where)
        lines = [f"Layout {self.name!r} (dice in layout order):"]
        for (die, n), at in zip(self.groups(), where):
            lines.append(f"  {at:<{width}s}  {n} x {die.kind:4s}: {die}")
        return "\n".join(lines)


def _spans(positions: list[int]) -> str:
    """Die positions as text: ``die 7``, ``dice 1-3``, ``dice 1,4``."""
    if len(positions) == 1:
        return f"die {positions[0]}"
    if positions == list(range(positions[0], positions[-1] + 1)):
        return f"dice {positions[0]}-{positions[-1]}"
    return "dice " + ",".join(map(str, positions))


def check_layout(layout: Any, name: str = "layout") -> Layout:
    """``layout`` if it is a :class:`Layout`, else InvalidLayoutError (never a TypeError)."""
    return check_type(
        layout, Layout, name, InvalidLayoutError, "a Layout (parse_layout(text) makes one)"
    )


def validate_dice(dice: Sequence[Die]) -> None:
    """Raise InvalidLayoutError unless ``dice`` are 6 high and 4 low valid dice."""
    if len(dice) != 10:
        raise InvalidLayoutError(f"a layout has 10 dice (6 high, 4 low); got {len(dice)}")
    if not all(isinstance(d, Die) for d in dice):
        raise InvalidLayoutError("a layout's dice must be Die values (see parse_layout)")
    kinds = Counter(d.kind for d in dice)
    if kinds != Counter({"high": 6, "low": 4}):
        raise InvalidLayoutError(
            f"a layout has 6 high and 4 low dice; got {kinds['high']} high and {kinds['low']} low"
        )
    for i, d in enumerate(dice, 1):
        want = sorted(DIE_VALUES[d.kind])
        got = sorted(f.value for f in d.faces)
        if len(d.faces) != 6:
            raise InvalidLayoutError(f"die {i} ({d.kind}) has {len(d.faces)} faces; a die has 6")
        for j, f in enumerate(d.faces, 1):
            if f.color not in COLORS:
                raise InvalidLayoutError(
                    f"die {i} ({d.kind}), face {j} ({f}): color {f.color!r} is not one of "
                    "r/o/b/g (red, orange, blue, green)"
                )
        if got != want:
            allowed = ", ".join("W" if v == WILD else str(v) for v in DIE_VALUES[d.kind])
            shown = ", ".join("W" if v == WILD else str(v) for v in got)
            raise InvalidLayoutError(
                f"die {i} ({d.kind}) shows {shown}; a {d.kind} die shows {allowed} once each"
            )


def _die_from(faces: Sequence[str | Face], where: str) -> Die:
    fs = []
    for j, t in enumerate(faces, 1):
        try:
            fs.append(parse_face(t, where=f"{where}, face {j}"))
        except InvalidDiceError as exc:
            raise InvalidLayoutError(str(exc)) from None
    for j, f in enumerate(fs, 1):
        if f.color is None:
            raise InvalidLayoutError(
                f"{where}, face {j} ({f}): every face of a layout needs a color"
            )
    low = [f for f in fs if f.value == WILD or f.value < 5]
    if low and len(low) < len(fs):  # e.g. a W on a high die: which kind is it meant to be?
        shown = ", ".join(str(f) for f in fs)
        raise InvalidLayoutError(
            f"{where}: a die showing {shown} mixes high numbers (5-10) with low faces (1-4, W); "
            "a high die shows 5, 6, 7, 8, 9, 10 and a low die 1, 2, 3, 4, W, W"
        )
    kind = "low" if low else "high"
    return Die(kind, tuple(fs))


@public
def parse_layout(spec: str | Mapping | Sequence, name: str = "custom") -> Layout:
    """A layout from text (one die a line, ``[N x] [high:|low:] faces``) or a dict/list.

    Lines may start with a count, e.g. ``4 x 5o 6r 7b 8g 9o 10r``; blank lines and ``#``
    comments are ignored. A dict is ``{"dice": [[faces...], ...]}``.

    >>> text = "6 x 5r 6o 7b 8g 9r 10o\\n2 x 1r 2o 3b 4g Wr Wo\\n2 x 1b 2g 3r 4o Wb Wg"
    >>> lay = parse_layout(text)
    >>> [n for _, n in lay.groups()]
    [6, 2, 2]
    """
    dice: list[Die] = []
    if not isinstance(spec, (str, Mapping, Sequence)):
        raise InvalidLayoutError(
            f"a layout is text, a dict or a list of dice; got {type(spec).__name__}"
        )
    if isinstance(spec, Mapping):
        name = spec.get("name", name)
        spec = spec.get("dice", [])
    if isinstance(spec, str):
        for lineno, raw in enumerate(spec.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            count = 1
            m = re.match(r"^([0-9]+)(\s*)[xX×]\s+(.*)$", line)
            if m and not m.group(2) and len(m.group(3).replace(",", " ").split()) == 5:
                m = None  # '5x 6o 7b 8g 9r 10o': six faces, the first of color x (refused)
            if m:
                if len(m.group(1)) > 2 or int(m.group(1)) > 10:
                    raise InvalidLayoutError(
                        f"line {lineno}: {m.group(1)[:12]} x ...: a layout has 10 dice"
                    )
                count, line = int(m.group(1)), m.group(3)
            line = re.sub(r"^(high|low)\s*:\s*", "", line, flags=re.I)
            die = _die_from(line.replace(",", " ").split(), f"line {lineno}")
            dice.extend([die] * count)
    else:
        for i, faces in enumerate(spec, 1):
            if isinstance(faces, str):
                faces = faces.replace(",", " ").split()
            if not isinstance(faces, Sequence):
                raise InvalidLayoutError(f"die {i}: expected its six faces; got {faces!r}")
            dice.append(_die_from(faces, f"die {len(dice) + 1}" if i else ""))
    return Layout(tuple(dice), name=name)
