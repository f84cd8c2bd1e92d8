"""What the commands that print share (the strategy card's PDF, drawn with matplotlib by
:mod:`~phase10math.cli.card`, and the lessons' handouts, printed by Chromium for
:mod:`~phase10math.cli.handouts`): the papers, the options that choose them, and the list of
the files written."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple


class Paper(NamedTuple):
    """A paper: its size in inches and its name in CSS (``@page { size: ... }``)."""

    width: float
    height: float
    css: str


#: the papers, by the name the command line gives them
PAPERS = {"a4": Paper(8.27, 11.69, "A4"), "letter": Paper(8.5, 11.0, "letter")}


def add_paper_options(p: argparse.ArgumentParser, no_pdf: str, paper: str) -> None:
    """``--no-pdf`` (help ``no_pdf``) and ``--paper`` (repeated; help ``paper``)."""
    p.add_argument("--no-pdf", action="store_true", help=no_pdf)
    p.add_argument("--paper", action="append", choices=sorted(PAPERS), help=paper)


def papers_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The papers ``--paper`` chose (default: every paper)."""
    return tuple(args.paper or PAPERS)


def print_written(files: Iterable[Path]) -> None:
    """The files written, one a line on standard output."""
    for f in files:
        print(f)
