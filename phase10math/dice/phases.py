"""Phases as data: a phase is a tuple of groups (sets, runs, color groups).

>>> p = as_phase(3)
>>> p
Phase(3: 1 set of 4 + 1 run of 4)
>>> [g.describe() for g in parse_phase("4 sets of 2").groups]
['set of 2', 'set of 2', 'set of 2', 'set of 2']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from phase10math._base.checks import public, unchecked
from phase10math.errors import InvalidDiceError, InvalidPhaseError

if TYPE_CHECKING:
    from phase10math.dice.faces import Face

GROUP_KINDS = ("set", "run", "color")
MAX_PHRASE = 200  # characters of a phase description
MAX_GROUPS = 6  # groups in one phase; the meld search grows fast with their number


@dataclass(frozen=True, order=True)
class Group:
    """A group of ``size`` dice: a ``set`` (same number), ``run`` (consecutive) or ``color``."""

    kind: str
    size: int

    def __post_init__(self) -> None:
        if self.kind not in GROUP_KINDS:
            raise InvalidPhaseError(f"group kind {self.kind!r}; allowed: {GROUP_KINDS}")
        if not isinstance(self.size, int) or self.size < 1:
            raise InvalidPhaseError(f"a group needs at least 1 die; got {self.size!r}")
        if self.kind == "run" and self.size > 10:
            raise InvalidPhaseError(f"a run has at most 10 dice (numbers 1..10); got {self.size}")

    def describe(self) -> str:
        return (
            f"{self.size} of one color" if self.kind == "color" else f"{self.kind} of {self.size}"
        )


@public
@dataclass(frozen=True)
class Phase:
    """A phase: its groups (disjoint dice), an optional number and its text."""

    groups: tuple[Group, ...]
    number: int | None = None

    def __post_init__(self) -> None:
        if not self.groups:
            raise InvalidPhaseError("a phase needs at least one group")
        if not all(isinstance(g, Group) for g in self.groups):
            raise InvalidPhaseError("a phase's groups must be Group values")
        n = self.dice_needed
        if n > 10:
            raise InvalidPhaseError(f"the phase needs {n} dice; there are only 10")
        if len(self.groups) > MAX_GROUPS:
            raise InvalidPhaseError(
                f"the phase has {len(self.groups)} groups; at most {MAX_GROUPS} are supported"
            )

    @property
    def dice_needed(self) -> int:
        return sum(g.size for g in self.groups)

    @property
    def uses_color(self) -> bool:
        return any(g.kind == "color" for g in self.groups)

    @property
    def uses_numbers(self) -> bool:
        return any(g.kind != "color" for g in self.groups)

    @property
    def text(self) -> str:
        parts, seen = [], []
        for g in self.groups:
            if seen and seen[-1][0] == g:
                seen[-1][1] += 1
            else:
                seen.append([g, 1])
        for g, n in seen:
            if g.kind == "color":
                parts.extend([g.describe()] * n)
            else:
                parts.append(f"{n} {g.kind}{'s' if n > 1 else ''} of {g.size}")
        return " + ".join(parts)

    def key(self) -> str:
        """Canonical text for cache keys."""
        return ",".join(f"{g.kind}{g.size}" for g in sorted(self.groups))

    def __repr__(self) -> str:
        return f"Phase({self.number}: {self.text})" if self.number else f"Phase({self.text})"

    __str__ = __repr__


# The phase table (RULES.md): number -> phrase. Data, parsed once.
PHASE_TEXTS: dict[int, str] = {
    1: "2 sets of 3",
    2: "1 set of 3 + 1 run of 4",
    3: "1 set of 4 + 1 run of 4",
    4: "1 run of 7",
    5: "1 run of 8",
    6: "1 run of 9",
    7: "2 sets of 4",
    8: "7 of one color",
    9: "1 set of 5 + 1 set of 2",
    10: "1 set of 5 + 1 set of 3",
    11: "4 sets of 2",
    12: "1 set of 4 + 1 run of 5",
    13: "1 set of 5 + 1 run of 5",
    14: "1 run of 4 + 4 of one color",
    15: "1 run of 5 + 4 of one color",
    16: "1 run of 10",
    17: "1 set of 4 + 1 set of 5",
    18: "9 of one color",
    19: "1 set of 6 + 1 set of 2",
    20: "1 set of 6 + 1 set of 3",
}

_NUM_WORDS = {
    "one": 1,
    "a": 1,
    "an": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_SETRUN = re.compile(r"^(?:(\w+)\s+)?(set|sets|run|runs)\s+of\s+(\w+)$")
_COLOR = re.compile(
    r"^(\w+)\s+(?:(?:cards|card|dice|die)\s+)?(?:of|in)\s+(?:all\s+)?(?:one|1|a\s+single|the\s+same)"
    r"\s+colou?r$"
)


def _num(word: str, phrase: str) -> int:
    w = word.lower()
    if re.fullmatch(r"[0-9]+", w):
        if len(w) > 3:
            raise InvalidPhaseError(f"the number {word[:12]}... in the phrase is too large")
        return int(w)
    if w in _NUM_WORDS:
        return _NUM_WORDS[w]
    raise InvalidPhaseError(f"cannot read the number {word!r} in {phrase!r}")


@public
def parse_phase(text: str, number: int | None = None) -> Phase:
    """Parse a phrase such as ``"1 set of 4 + 1 run of 5"`` or ``"7 of one color"``.

    Parts are joined by ``+``, ``and`` or ``,``.

    >>> parse_phase("1 run of 4 and 4 of one colour").text
    '1 run of 4 + 4 of one color'
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidPhaseError("empty phase description; e.g. '2 sets of 3' or '7 of one color'")
    if len(text) > MAX_PHRASE:
        raise InvalidPhaseError(
            f"phase description too long ({len(text)} characters; at most {MAX_PHRASE})"
        )
    groups: list[Group] = []
    for part in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip().lower()):
        part = re.sub(r"\s+", " ", part).strip()
        if not part:
            continue
        m = _SETRUN.match(part)
        if m:
            count = _num(m.group(1), text) if m.group(1) else 1
            kind = m.group(2).rstrip("s")
            if count > 10:
                raise InvalidPhaseError(f"{count} {kind}s: a phase uses at most 10 dice")
            if count == 0:
                raise InvalidPhaseError(
                    f"{part!r} in {text[:80]!r}: a part names at least one {kind}; leave out "
                    "a part the phase does not have"
                )
            groups.extend([Group(kind, _num(m.group(3), text))] * count)
            continue
        m = _COLOR.match(part)
        if m:
            groups.append(Group("color", _num(m.group(1), text)))
            continue
        raise InvalidPhaseError(
            f"cannot read {part!r} in {text!r}; write parts like '2 sets of 3', '1 run of 4', "
            "'7 of one color', joined by '+'"
        )
    return Phase(tuple(groups), number)


with unchecked():  # the rules' own phases, known good: no argument checks at import
    PHASES: dict[int, Phase] = {n: parse_phase(t, n) for n, t in PHASE_TEXTS.items()}


@public
def as_phase(spec: int | str | Phase) -> Phase:
    """A phase by number (1-20), by phrase, or as given.

    >>> as_phase("7 of one color").uses_color
    True
    """
    if isinstance(spec, Phase):
        return spec
    if isinstance(spec, str) and re.fullmatch(r"\s*[+-]?[0-9]{1,6}\s*", spec):
        spec = int(spec)
    if isinstance(spec, int) and not isinstance(spec, bool):
        if spec not in PHASES:
            raise InvalidPhaseError(f"phase {spec} does not exist; phases are numbered 1 to 20")
        return PHASES[spec]
    if isinstance(spec, str):
        return parse_phase(spec)
    raise InvalidPhaseError(f"cannot make a phase from {spec!r}")


def require_colors(faces: Sequence[Face], phase: Phase) -> None:
    """Raise InvalidDiceError, naming the die, when a phase that counts colors gets a face
    written without its color."""
    if phase.uses_color:
        for i, f in enumerate(faces, 1):
            if f.color is None:
                raise InvalidDiceError(
                    f"die {i} ({f}) has no color; phase {phase.number or phase.text} counts "
                    "colors, so write a color letter r/o/b/g after each number (e.g. 7r, Wg)"
                )
