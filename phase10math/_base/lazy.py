"""Public names of a subpackage, imported from their modules only when first used.

A subpackage's ``__init__`` lists its public API as ``{name: module}`` and calls
:func:`lazy_exports`, so that ``from phase10math.dice import match_roll`` works without
``import phase10math.dice`` importing every module of the subpackage (no import cycles, no
optional dependency such as ipywidgets loaded before it is needed):

>>> import phase10math.dice as dice
>>> dice.match_roll.__module__
'phase10math.dice.rolls'
>>> dice.no_such_name
Traceback (most recent call last):
...
AttributeError: module 'phase10math.dice' has no attribute 'no_such_name'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(
    package: str, public: Mapping[str, str]
) -> tuple[list[str], Callable[[str], Any], Callable[[], list[str]]]:
    """``(__all__, __getattr__, __dir__)`` for ``package`` whose public names are
    ``public[name] = module`` (a module of the package; ``name == module`` for a module), or
    ``"module:attribute"`` for a name that the module defines under another name.

    >>> import phase10math as p10
    >>> p10.solitaire_comparison.__name__, p10.figures.__name__
    ('comparison', 'phase10math.play.figures')
    """

    def __getattr__(name: str) -> Any:
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        where, _, attribute = public[name].partition(":")
        module = import_module(f"{package}.{where}")
        value = module if name == where else getattr(module, attribute or name)
        import_module(package).__dict__[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(set(import_module(package).__dict__) | set(public))

    return list(public), __getattr__, __dir__
