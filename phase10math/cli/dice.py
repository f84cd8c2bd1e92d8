"""Command-line sub-commands about dice and phases: ``check`` and ``maxscore``.

The command line imports on demand: its modules import, at their top, only what the parsers
and the refusals of bad input need (so that ``--help`` and a mistyped die answer at once); a
handler imports the solvers it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re

from phase10math._base.checks import read_layout_file
from phase10math.dice.faces import parse_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT, LAYOUTS, get_layout
from phase10math.dice.phases import PHASES, as_phase
from phase10math.dice.rolls import parse_roll
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidDiceError, InvalidLayoutError


def add_layout_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--layout",
        metavar="NAME|FILE",
        help=f"the dice: {' or '.join(LAYOUTS)} (built in), or a file with your own dice "
        "(one die a line, e.g. '5r 6o 7b 8g 9r 10o'; 'N x' before a line repeats it)",
    )
    p.add_argument(
        "--no-shared-sets",
        action="store_true",
        help="two sets of one phase may not show the same number",
    )


def rules_from(args: argparse.Namespace, **extra):
    return Rules(sets_may_share_number=not getattr(args, "no_shared_sets", False), **extra)


def layout_from(args: argparse.Namespace):
    if getattr(args, "layout", None) is None:
        return DEFAULT_LAYOUT
    if not args.layout.strip():
        raise InvalidLayoutError(
            f"--layout {args.layout!r:.20}: give a built-in layout ({', '.join(LAYOUTS)}) or a "
            "file of dice"
        )
    if args.layout.strip().lower() in LAYOUTS:
        return get_layout(args.layout)
    if not os.path.exists(args.layout):
        name = args.layout if len(args.layout) <= 60 else args.layout[:57] + "..."
        raise InvalidLayoutError(
            f"--layout {name!r} is not a built-in layout ({', '.join(LAYOUTS)}) and "
            "cannot be read as a file: no such file"
        )
    return parse_layout(read_layout_file(args.layout), name=args.layout)


def roll_from(dice: list[str], ph, layout):
    """Faces from command-line words, checked against the layout (:func:`parse_roll`)."""
    return parse_roll(" ".join(dice), layout, n=10, phase=ph)


def parse_die_args(items: list[str] | None, n: int = 10) -> dict[int, int]:
    """``--die FACE=DIE`` words (both counted from 1) as ``{face index: die index}`` from 0.

    >>> parse_die_args(["1=4", " 3 = 10 "])
    {0: 3, 2: 9}
    """
    out: dict[int, int] = {}
    for item in items or ():
        m = re.fullmatch(r"\s*([0-9]{1,2})\s*=\s*([0-9]{1,2})\s*", item)
        if not m or not (1 <= int(m.group(1)) <= n and 1 <= int(m.group(2)) <= n):
            raise InvalidDiceError(
                f"--die {item[:20]!r}: write FACE=DIE, e.g. --die 1=4 (the first face typed is "
                f"on die 4 of the layout), both 1 to {n}"
            )
        face = int(m.group(1)) - 1
        if face in out:
            raise InvalidDiceError(f"--die: face {face + 1} is given twice")
        out[face] = int(m.group(2)) - 1
    return out


def placed_dice(args: argparse.Namespace, layout) -> dict[int, int]:
    """``--die`` of an advice command as ``{face index: die index}``, refused together with
    ``--by-die`` (which places every face)."""
    dice_of = parse_die_args(args.die, len(layout.dice))
    if dice_of and args.by_die:
        raise InvalidDiceError("--die and --by-die: give one of them (--by-die places every face)")
    return dice_of


def cmd_check(args: argparse.Namespace) -> int:
    ph = as_phase(args.phase)
    layout = layout_from(args)
    rules = rules_from(args)
    faces = roll_from(args.dice, ph, layout)
    from phase10math.dice.meld import explain

    meld = explain(ph, faces, rules)
    if args.json:
        print(json.dumps(meld.to_dict(), indent=2))
    else:
        print(meld)
        if meld.complete and meld.unused:
            print("  not used: " + " ".join(str(f) for f in meld.unused))
    return 0


def cmd_maxscore(args: argparse.Namespace) -> int:
    from phase10math.turn.maxima import game_maximum, phase_maxima

    layout = layout_from(args)
    rules = rules_from(args)
    phases = range(1, 21) if args.phases == "1-20" else range(1, 11)
    maxima = phase_maxima(phases, layout, rules)
    total = game_maximum(layout, rules)
    if args.json:
        print(
            json.dumps(
                {
                    "phase_maxima": {str(k): v for k, v in maxima.items()},
                    "game_maximum_phases_1_10": total,
                    "bonuses": {
                        "five_phase": rules.five_phase_bonus,
                        "first_finish": rules.first_finish_bonus,
                    },
                },
                indent=2,
            )
        )
        return 0

    print(f"{'phase':>5}  {'requirement':<28} {'max score':>9}")
    for n, v in maxima.items():
        print(f"{n:>5}  {PHASES[n].text:<28} {v:>9}")
    print(f"game maximum (phases 1-10, both bonuses): {total}")
    return 0


def cmd_layout(args: argparse.Namespace) -> int:
    from phase10math.turn.maxima import layout_report

    report = layout_report(layout_from(args), rules_from(args))
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.format())
    return 0


def add_commands(sub) -> None:
    p = sub.add_parser(
        "check",
        help="does a final roll complete a phase, and its best score",
        description="Check a final roll of ten dice against a phase.",
    )
    p.add_argument("--phase", required=True, help="phase number 1-20 or a phrase")
    p.add_argument("dice", nargs="*", help="ten dice: number or W, optional color r/o/b/g")
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("maxscore", help="highest possible score per phase and per game")
    p.add_argument("--phases", choices=["1-10", "1-20"], default="1-10")
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_maxscore)

    p = sub.add_parser(
        "layout",
        help="the dice of a layout and its facts (example hand, maxima, colors)",
        description="Print the ten dice of a layout and check it against the manual's facts: "
        "the example hand can be rolled, the best score per phase and per game (649), the "
        "faces per color. --json gives {'name': ..., 'dice': [[six faces], ...], ...}.",
    )
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_layout)
