"""The rule options of RULES.md as one immutable value.

>>> r = Rules()
>>> str(r.holds), r.sets_may_share_number, r.rolls
('free', True, 3)
>>> Rules(holds="sticky").holds is Holds.STICKY
True
>>> Objective.parse("score")
<Objective.SCORE: 'score'>
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from phase10math._base.checks import check_type, public, unchecked, unknown_choice
from phase10math.errors import InvalidRulesError


class _Choice(StrEnum):
    """A typed option that also compares equal to its text (``Holds.FREE == "free"``)."""

    @classmethod
    def _missing_(cls, value: Any):
        raise unknown_choice(cls, value, cls.__name__.lower(), InvalidRulesError)

    @classmethod
    def parse(cls, value: Any):
        """The member named by ``value`` (a member or its text); InvalidRulesError otherwise."""
        try:
            return cls(value)
        except (ValueError, TypeError):
            allowed = ", ".join(m.value for m in cls)
            raise InvalidRulesError(
                f"{cls.__name__.lower()}={value!r}; allowed: {allowed}"
            ) from None


class Holds(_Choice):
    """The hold rule: may dice set aside earlier be taken back and rerolled?"""

    FREE = "free"  # yes (the manual; as in Yahtzee)
    STICKY = "sticky"  # no: dice once set aside stay aside (the short rule sheets)


class Objective(_Choice):
    """What a turn is played for."""

    COMPLETE = "complete"  # the chance of completing the phase
    SCORE = "score"  # the expected score (0 when the phase is not made)


@public
@dataclass(frozen=True)
class Rules:
    """Options of Phase 10 Dice (defaults as in RULES.md).

    - ``holds``: ``"free"`` (set-aside dice may be taken back and rerolled, the manual) or
      ``"sticky"`` (dice once set aside stay set aside, the short rule sheets).
    - ``sets_may_share_number``: may two sets of one phase show the same number.
    - ``rolls``: rolls per turn (3).
    - ``five_phase_bonus`` / ``five_phase_threshold``: bonus on completing phase 5 when the
      total is then over the threshold (40, 220).
    - ``first_finish_bonus``: bonus for finishing phase 10 first (40).
    - ``solitaire_penalty``: points lost per failed turn in solitaire (5).
    """

    holds: Holds | str = Holds.FREE
    sets_may_share_number: bool = True
    rolls: int = 3
    five_phase_bonus: int = 40
    five_phase_threshold: int = 220
    first_finish_bonus: int = 40
    solitaire_penalty: int = 5

    def __post_init__(self) -> None:
        object.__setattr__(self, "holds", Holds.parse(self.holds))
        if not isinstance(self.sets_may_share_number, bool):
            raise InvalidRulesError(
                f"sets_may_share_number={self.sets_may_share_number!r}; allowed: True, False"
            )
        if (
            isinstance(self.rolls, bool)
            or not isinstance(self.rolls, int)
            or not 1 <= self.rolls <= 6
        ):
            raise InvalidRulesError(f"rolls={self.rolls!r}; allowed: a whole number 1..6")
        for name in (
            "five_phase_bonus",
            "five_phase_threshold",
            "first_finish_bonus",
            "solitaire_penalty",
        ):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10**6:
                raise InvalidRulesError(f"{name}={v!r}; allowed: a whole number 0..1000000")

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (unknown names raise InvalidRulesError)."""
        known = {f.name for f in fields(self)}
        bad = set(changes) - known
        if bad:
            raise InvalidRulesError(
                f"unknown rule option(s) {sorted(bad)}; allowed: {sorted(known)}"
            )
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}


with unchecked():  # no argument checks at import (they would import beartype and numpy)
    DEFAULT_RULES = Rules()


def check_rules(rules: Any, name: str = "rules") -> Rules:
    """``rules`` if it is a :class:`Rules`, else InvalidRulesError (never a TypeError)."""
    return check_type(
        rules, Rules, name, InvalidRulesError, "a Rules value (e.g. Rules(holds='sticky'))"
    )
