"""The installed package's version, read without importing the rest of the kit (the command
line's ``--version`` answers from it at once).

>>> package_version() == package_version()
True
"""

from __future__ import annotations

import functools
import importlib.metadata


@functools.cache
def package_version() -> str:
    """The installed package's version ("unknown" when run from a source tree not installed;
    read once: every cache key asks for it)."""
    try:
        return importlib.metadata.version("phase10math")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


#: the version, read when this module is imported (``phase10math.__version__``)
VERSION = package_version()
