"""Exceptions raised for bad input, and the internal error of a result out of its range.

Every error the kit raises for bad input is a :class:`Phase10MathError`, which is a
``ValueError``; the command line turns it into a message on stderr and exit code 2. A result
outside the range it must lie in is a :class:`ResultOutOfRangeError` (not a ``ValueError``:
a bug, not bad input; exit code 70 on the command line).

>>> issubclass(InvalidDiceError, ValueError)
True
"""


class Phase10MathError(ValueError):
    """Base class of every bad-input error in phase10math."""


class InvalidArgumentError(Phase10MathError):
    """A public function's argument with a value it does not accept (NaN, infinity, ...)."""


class WrongTypeError(InvalidArgumentError, TypeError):
    """A public function's argument of a type it does not accept; also a ``TypeError``.

    >>> issubclass(WrongTypeError, TypeError), issubclass(WrongTypeError, Phase10MathError)
    (True, True)
    """


class InvalidDiceError(Phase10MathError):
    """A die, face or roll that is not allowed (names the die, the value and what is allowed)."""


class InvalidLayoutError(Phase10MathError):
    """A dice layout that does not describe ten valid dice."""


class InvalidPhaseError(Phase10MathError):
    """An unknown phase number or a phrase that does not describe a phase."""


class InvalidRulesError(Phase10MathError):
    """An unknown rule option or a value it does not accept."""


class InvalidFileError(Phase10MathError):
    """A file that is not what it is read as (a table, a checkpoint), damaged, of another
    format, or not a regular file."""


class InvalidHoldError(Phase10MathError):
    """A hold that is not a sub-multiset of the dice in front of the player."""


class InvalidStrategyError(InvalidHoldError):
    """A strategy (a function from a roll to the dice to keep) returned a hold that is not
    one of the roll: the message names the roll."""


class StateSpaceTooLargeError(Phase10MathError):
    """A computation whose state space would not fit in this machine's memory."""


class OutsideTableError(InvalidRulesError):
    """A game state that a solved table (the two-player game's) does not cover."""


class ResultOutOfRangeError(Exception):
    """A result outside the range it must lie in (a probability above 1, ...): an internal
    error, never printed as an answer (see :mod:`phase10math.guards`)."""
