"""The rules of 10,000 (RULES.md section 3) as one immutable value.

All point values are multiples of 50, so every score and turn total is one too; the
solvers count in units of 50.

>>> r = TenKRules()
>>> r.straight, r.three_pairs, r.extra_of_a_kind, r.open_score, r.target
(3000, 1500, 'none', 0, 10000)
>>> r.wipe, r.six_wins
(True, True)
>>> TenKRules(extra_of_a_kind="double").triple_value(1)
1000
>>> fb = TenKRules.preset(TenKPreset.FACEBOOK)
>>> fb.three_pairs, fb.straight, fb.extra_of_a_kind, fb.farkle_penalty, fb.floor
(750, 1500, 'double', 500, -2500)
"""

from __future__ import annotations

import numbers
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from phase10math._base import checks
from phase10math._base.checks import public, unknown_choice
from phase10math.tenthousand.errors import TenKRulesError

EXTRA_OF_A_KIND = ("none", "double", "add")
UNIT = 50  # every score is a multiple of this


MAX_POINTS = 10_000  # largest value of a scoring option (straight, three pairs, opening)
MAX_TARGET = 20_000  # largest winning score (the duel's state space grows with its square)
MAX_FLOOR = 20_000  # deepest floor on banked scores (points below zero)


class DuelMethod(StrEnum):
    """How :func:`~phase10math.tenthousand.duel.solve_duel` finds the turn-start values."""

    LAYERED = "layered"  # score layers, 2x2 pair solves, proven interval (the default)
    JACOBI = "jacobi"  # plain value iteration over all pairs (stopping rule not a proof)

    @classmethod
    def _missing_(cls, value: Any):
        raise unknown_choice(cls, value, "method", TenKRulesError)


class TenKPreset(StrEnum):
    """Named rule sets: ``default`` (RULES.md section 3) and ``facebook`` (Facebook Farkle as
    in Busche's two-player solution, 2016; every choice is stated in docs/rules.md)."""

    DEFAULT = "default"
    FACEBOOK = "facebook"

    @classmethod
    def _missing_(cls, value: Any):
        raise unknown_choice(cls, value, "preset", TenKRulesError)


@public
@dataclass(frozen=True)
class TenKRules:
    """Options of 10,000 (defaults as in RULES.md section 3).

    - ``straight``: points for 1-2-3-4-5-6 in one roll (3000); 0 = not a scoring combination.
    - ``three_pairs``: points for three different pairs in one roll of six (1500); 0 = none.
    - ``extra_of_a_kind``: how four, five or six of a kind score: ``"none"`` (three of a kind
      plus the extra dice as singles, so extra 2s/3s/4s/6s score nothing; the RULES.md
      default), ``"double"`` (each die beyond three doubles the triple), ``"add"`` (each die
      beyond three adds the triple's value again).
    - ``open_score``: points needed in one turn to get on the board (0 = no such rule; the
      variant is 500).
    - ``wipe``: rolling four or more 2s in one roll wipes the player's whole score (and ends
      the turn with nothing).
    - ``six_wins``: rolling six of a kind (all six dice in one roll) wins the game at once.
    - ``target``: the score that wins (10,000; variant 5,000).
    - ``dice``: dice in play (6); fewer dice give the *reduced games* used to check the solvers
      by brute force (straight and three pairs then cannot occur).
    - ``four_and_pair``: four of a kind and a pair in one roll of six also count as three
      pairs (off by default; on in the facebook preset).
    - ``two_triplets``: points for two different triples in one roll of six (0 = scored as two
      triples, the default and facebook's).
    - ``farkle_penalty``: points lost from the banked score when a player ends ``farkles``
      consecutive turns with a bust (0 = no penalty, the default; facebook 500 after 3). The
      count restarts at 0 after a penalty and after every bank.
    - ``floor``: the lowest banked score (a multiple of 50, <= 0): a penalty never takes a
      score below it. With a penalty scores can be negative and the game has no lowest score,
      so the solver needs one (Busche: -2500). Without a penalty it must be 0.

    RULES.md names the opening score, the wipe and six-of-a-kind as variants without a
    default; we follow the issue's command line (``--open`` switches the opening rule on,
    ``--no-wipe``/``--no-six-wins`` switch the other two off).
    """

    straight: int = 3000
    three_pairs: int = 1500
    extra_of_a_kind: str = "none"
    open_score: int = 0
    wipe: bool = True
    six_wins: bool = True
    target: int = 10000
    dice: int = 6
    four_and_pair: bool = False
    two_triplets: int = 0
    farkle_penalty: int = 0
    farkles: int = 3
    floor: int = 0

    @classmethod
    def preset(cls, name: TenKPreset | str, **changes: Any) -> TenKRules:
        """The rules of a :class:`TenKPreset` (``"default"`` or ``"facebook"``), with some
        options changed (e.g. ``floor=-1000``, ``target=5000``).

        >>> TenKRules.preset("facebook", floor=-500).floor
        -500
        >>> TenKRules.preset("fb")
        Traceback (most recent call last):
        ...
        phase10math.tenthousand.errors.TenKRulesError: preset='fb'; allowed: default, facebook
        """
        try:
            p = TenKPreset(name)
        except ValueError:
            allowed = ", ".join(x.value for x in TenKPreset)
            raise TenKRulesError(f"preset={name!r}; allowed: {allowed}") from None
        base: dict[str, Any] = {}
        if p is TenKPreset.FACEBOOK:
            base = {
                "straight": 1500,
                "three_pairs": 750,
                "extra_of_a_kind": "double",
                "four_and_pair": True,
                "two_triplets": 0,
                "open_score": 0,
                "wipe": False,
                "six_wins": False,
                "farkle_penalty": 500,
                "farkles": 3,
                "floor": -2500,
                "target": 10000,
            }
        return cls(**{**base, **changes})

    def __post_init__(self) -> None:
        for name in ("straight", "three_pairs", "open_score", "two_triplets", "farkle_penalty"):
            v = getattr(self, name)
            if (
                isinstance(v, bool)
                or not isinstance(v, int)
                or not 0 <= v <= MAX_POINTS
                or v % UNIT
            ):
                raise TenKRulesError(
                    f"{name}={v!r}; allowed: a multiple of {UNIT} from 0 to {MAX_POINTS}"
                )
        allowed = f"a multiple of {UNIT} from 100 to {MAX_TARGET}"
        if isinstance(self.target, bool) or not isinstance(self.target, int):
            raise TenKRulesError(f"target={self.target!r}; allowed: {allowed}")
        if not 2 * UNIT <= self.target <= MAX_TARGET or self.target % UNIT:
            raise TenKRulesError(f"target={self.target!r}; allowed: {allowed}")
        if self.extra_of_a_kind not in EXTRA_OF_A_KIND:
            raise TenKRulesError(
                f"extra_of_a_kind={self.extra_of_a_kind!r}; allowed: {', '.join(EXTRA_OF_A_KIND)}"
            )
        for name in ("wipe", "six_wins", "four_and_pair"):
            if not isinstance(getattr(self, name), bool):
                raise TenKRulesError(f"{name}={getattr(self, name)!r}; allowed: True, False")
        if isinstance(self.dice, bool) or not isinstance(self.dice, int) or not 1 <= self.dice <= 6:
            raise TenKRulesError(f"dice={self.dice!r}; allowed: a whole number 1..6")
        self._check_penalty_options()

    def _check_penalty_options(self) -> None:
        f = self.farkles
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 5:
            raise TenKRulesError(f"farkles={f!r}; allowed: a whole number 1..5")
        v = self.floor
        allowed = f"a multiple of {UNIT} from -{MAX_FLOOR} to 0"
        if isinstance(v, bool) or not isinstance(v, int) or not -MAX_FLOOR <= v <= 0 or v % UNIT:
            raise TenKRulesError(f"floor={v!r}; allowed: {allowed}")
        if v and not self.farkle_penalty:
            raise TenKRulesError(
                f"floor={v!r} without a farkle penalty (scores are never negative); allowed: 0"
            )
        if self.farkle_penalty and (self.wipe or self.open_score):
            raise TenKRulesError(
                "farkle_penalty with the wipe or opening rule; allowed: wipe=False, open_score=0"
                " (the penalty game is solved without them)"
            )

    # -- scoring values -------------------------------------------------------------------
    @staticmethod
    def single_value(face: int) -> int:
        """Points of one die on its own: 1 -> 100, 5 -> 50, others 0."""
        return {1: 100, 5: 50}.get(face, 0)

    @staticmethod
    def triple_value(face: int) -> int:
        """Points of three of a kind: three 1s = 1000, three n = 100 n."""
        return 1000 if face == 1 else 100 * face

    def of_a_kind_value(self, face: int, k: int) -> int | None:
        """Points for setting aside ``k`` dice of ``face`` from one roll (None: not allowed).

        >>> r = TenKRules()
        >>> r.of_a_kind_value(1, 4), r.of_a_kind_value(2, 4), r.of_a_kind_value(2, 2)
        (1100, None, None)
        >>> TenKRules(extra_of_a_kind="add").of_a_kind_value(2, 5)
        600
        """
        single = self.single_value(face)
        if k == 0:
            return 0
        if k < 3:
            return k * single if single else None
        triple = self.triple_value(face)
        as_singles = triple + (k - 3) * single
        if self.extra_of_a_kind == "none":
            return as_singles if (single or k == 3) else None
        if self.extra_of_a_kind == "double":
            return max(as_singles, triple * 2 ** (k - 3))
        return max(as_singles, triple * (k - 2))

    def replace(self, **changes: Any) -> TenKRules:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain dict (for cache keys and JSON)."""
        return asdict(self)

    @property
    def penalised(self) -> bool:
        """True when busts are counted (a farkle penalty, negative scores down to the floor)."""
        return self.farkle_penalty > 0

    def scoring_key(self) -> tuple:
        """The options that decide how a single roll scores."""
        return (
            self.straight,
            self.three_pairs,
            self.extra_of_a_kind,
            self.wipe,
            self.dice,
            self.four_and_pair,
            self.two_triplets,
        )

    @classmethod
    def from_scoring_key(cls, key: tuple) -> TenKRules:
        """Rules that score a roll as ``key`` (see :meth:`scoring_key`) says."""
        if not isinstance(key, tuple) or len(key) != 7:
            shown = repr(key) if len(repr(key)) <= 40 else repr(key)[:37] + "..."
            raise TenKRulesError(f"key={shown}; accepts the 7-tuple of TenKRules.scoring_key()")
        straight, three_pairs, extra, wipe, dice, four_and_pair, two_triplets = key
        return cls(
            straight=straight,
            three_pairs=three_pairs,
            extra_of_a_kind=extra,
            wipe=wipe,
            dice=dice,
            four_and_pair=four_and_pair,
            two_triplets=two_triplets,
        )


def check_rules(rules: Any) -> TenKRules:
    """``rules`` if it is a :class:`TenKRules`, the defaults for None, else TenKRulesError.

    >>> check_rules(None) == TenKRules()
    True
    >>> check_rules({"target": 5000})
    Traceback (most recent call last):
    ...
    phase10math.tenthousand.errors.TenKRulesError: rules: expected TenKRules or None; got dict
    """
    if rules is None:
        return TenKRules()
    if not isinstance(rules, TenKRules):
        raise TenKRulesError(f"rules: expected TenKRules or None; got {type(rules).__name__}")
    return rules


def check_flag(value: Any, name: str) -> bool:
    """``value`` if it is True or False (1, 0 and other truthy values are refused)."""
    if not isinstance(value, bool):
        raise TenKRulesError(f"{name}={value!r}; allowed: True, False")
    return value


def check_positive_float(value: Any, name: str) -> float:
    """``value`` as a float if it is a finite real number > 0 (not a bool), else an error."""
    return checks.check_positive_float(value, name, TenKRulesError)


def check_count(value: Any, name: str, lo: int = 1, hi: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) in ``lo..hi``, else TenKRulesError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TenKRulesError(f"{name}={value!r}; allowed: a whole number >= {lo}")
    if value < lo or (hi is not None and value > hi):
        what = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise TenKRulesError(f"{name}={value!r}; allowed: a whole number {what}")
    return int(value)
