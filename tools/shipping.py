"""What the tools that ship package data share: where the data go, their command line
(``--check`` first, ``--table`` last, each tool's own options between) and the JSON files
they write.

The tools run as scripts (``python tools/ship_win_rules.py``), with this folder first on
``sys.path``: they import this module as ``shipping``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

#: the repository
ROOT = Path(__file__).resolve().parent.parent


def shipped_file(subpackage: str, name: str) -> Path:
    """The package data file ``name`` of ``phase10math.<subpackage>.data``."""
    return ROOT / "phase10math" / subpackage / "data" / name


def ship_args(
    description: str,
    check: str,
    table: str,
    options: Callable[[argparse.ArgumentParser], None] = lambda ap: None,
    argv: list[str] | None = None,
) -> argparse.Namespace:
    """The command line of a tool that ships package data: ``--check`` (help ``check``),
    the tool's own ``options``, ``--table`` (help ``table``)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true", help=check)
    options(ap)
    ap.add_argument("--table", action="store_true", help=table)
    return ap.parse_args(argv)


def load(path: Path) -> dict:
    """A shipped JSON file ({} where there is none)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def write_json(path: Path, data: dict) -> None:
    """``data`` as the shipped files have it: indented by one, a newline at the end."""
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
