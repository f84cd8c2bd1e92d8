"""The rule options of RULES.md as one immutable value.

>>> r = Rules()
>>> r.holds, r.sets_may_share_number, r.rolls
('free', True, 3)
>>> Rules(holds="sticky").holds
'sticky'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from phase10math.errors import InvalidRulesError

HOLD_RULES = ("free", "sticky")


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

    holds: str = "free"
    sets_may_share_number: bool = True
    rolls: int = 3
    five_phase_bonus: int = 40
    five_phase_threshold: int = 220
    first_finish_bonus: int = 40
    solitaire_penalty: int = 5

    def __post_init__(self) -> None:
        if not isinstance(self.holds, str) or self.holds not in HOLD_RULES:
            raise InvalidRulesError(f"holds={self.holds!r}; allowed: {', '.join(HOLD_RULES)}")
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
        return asdict(self)


DEFAULT_RULES = Rules()
