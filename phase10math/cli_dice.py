"""Command-line sub-commands about dice and phases: ``check`` and ``maxscore``."""

from __future__ import annotations

import argparse
import json


def add_layout_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--layout",
        metavar="FILE",
        help="a file with your own dice layout (one die a line, e.g. '5r 6o 7b 8g 9r "
        "10o'; 'N x' before a line repeats it)",
    )
    p.add_argument(
        "--no-shared-sets",
        action="store_true",
        help="two sets of one phase may not show the same number",
    )


def rules_from(args: argparse.Namespace, **extra):
    from phase10math.rules import Rules

    return Rules(sets_may_share_number=not getattr(args, "no_shared_sets", False), **extra)


def layout_from(args: argparse.Namespace):
    from phase10math.cliargs import read_layout_file
    from phase10math.dice import parse_layout
    from phase10math.layouts import DEFAULT_LAYOUT

    if not getattr(args, "layout", None):
        return DEFAULT_LAYOUT
    return parse_layout(read_layout_file(args.layout), name=args.layout)


def parse_roll(dice: list[str], ph, layout):
    """Faces from command-line words, checked against the layout."""
    from phase10math.dice import match_roll, parse_faces
    from phase10math.errors import InvalidDiceError
    from phase10math.meld import require_colors

    faces = parse_faces(" ".join(dice))
    if len(faces) != 10:
        raise InvalidDiceError(
            f"give the 10 dice of the roll; got {len(faces)}"
            + ("" if faces else " (write e.g. 10o Wg 7 5 6 8 9 1 2 3)")
        )
    require_colors(faces, ph)
    match_roll(faces, layout)
    return faces


def cmd_check(args: argparse.Namespace) -> int:
    from phase10math.meld import explain
    from phase10math.phases import phase

    ph = phase(args.phase)
    layout = layout_from(args)
    rules = rules_from(args)
    faces = parse_roll(args.dice, ph, layout)
    meld = explain(ph, faces, rules)
    if args.json:
        print(json.dumps(meld.to_dict(), indent=2))
    else:
        print(meld)
        if meld.complete and meld.unused:
            print("  not used: " + " ".join(str(f) for f in meld.unused))
    return 0


def cmd_maxscore(args: argparse.Namespace) -> int:
    from phase10math.maxscore import game_maximum, phase_maxima

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
    from phase10math.phases import PHASES

    print(f"{'phase':>5}  {'requirement':<28} {'max score':>9}")
    for n, v in maxima.items():
        print(f"{n:>5}  {PHASES[n].text:<28} {v:>9}")
    print(f"game maximum (phases 1-10, both bonuses): {total}")
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
