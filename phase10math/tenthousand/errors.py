"""Bad-input errors of the 10,000 part of the kit.

All of them are :class:`~phase10math.errors.Phase10MathError` (hence ``ValueError``).

>>> from phase10math.errors import Phase10MathError
>>> issubclass(TenKRulesError, Phase10MathError), issubclass(TenKRollError, ValueError)
(True, True)
"""

from phase10math.errors import InvalidDiceError, InvalidRulesError, Phase10MathError


class TenKRulesError(InvalidRulesError):
    """A 10,000 rule option with a value it does not accept."""


class TenKRollError(InvalidDiceError):
    """A roll or a set-aside that is not allowed (names the value and what is allowed)."""


class TenKStateError(Phase10MathError):
    """A game state (turn total, dice left, scores) outside what the rules allow."""
