"""Bad-input errors of the card game; all are :class:`~phase10math.errors.Phase10MathError`.

>>> issubclass(InvalidCardError, ValueError)
True
"""

from phase10math.errors import InvalidPhaseError, Phase10MathError


class InvalidCardError(Phase10MathError):
    """A card, hand or deck that is not allowed (names the card/value and what is allowed)."""


class InvalidDeckError(InvalidCardError):
    """Deck parameters (numbers, colors, copies, wilds, skips) that do not describe a deck."""


class InvalidLayDownError(Phase10MathError):
    """A lay-down that does not make the player's phase (says which group fails and why)."""


class InvalidHitError(Phase10MathError):
    """A card that cannot be added to a laid-down group."""


class InvalidCardPhaseError(InvalidPhaseError):
    """An unknown card-game phase or a phrase that does not describe one."""


__all__ = [
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidLayDownError",
    "InvalidHitError",
    "InvalidCardPhaseError",
]
