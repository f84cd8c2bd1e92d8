"""Command-line sub-commands about one turn: ``table`` and ``advise``."""

from __future__ import annotations

import argparse
import json
import re
import sys

from phase10math._base.checks import int_arg
from phase10math._base.progress import ProgressLine
from phase10math.cli.dice import (
    add_layout_args,
    layout_from,
    placed_dice,
    roll_from,
    rules_from,
)
from phase10math.cli.duel import advise_win
from phase10math.dice.faces import parse_faces
from phase10math.dice.phases import as_phase
from phase10math.errors import (
    InvalidHoldError,
    InvalidPhaseError,
    InvalidRulesError,
    StateSpaceTooLargeError,
)


def _phase_range(text: str) -> range:
    ranges = {"1-10": range(1, 11), "11-20": range(11, 21), "1-20": range(1, 21)}
    if text in ranges:
        return ranges[text]
    try:
        m = re.fullmatch(r"\s*([0-9]{1,3})\s*(?:-\s*([0-9]{1,3})\s*)?", text)
        if not m:
            raise ValueError(text)
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        r = range(lo, hi + 1)
    except ValueError:
        raise InvalidPhaseError(f"--phases {text!r}: write 1-10, 11-20, 1-20 or e.g. 3-5") from None
    if not r:
        raise InvalidPhaseError(
            f"--phases {text!r}: the range runs backwards; write the lower phase first (e.g. "
            f"{hi}-{lo})"
        )
    if r.start < 1 or r.stop > 21:
        raise InvalidPhaseError(f"--phases {text!r}: phases are numbered 1 to 20")
    return r


def cmd_table(args: argparse.Namespace) -> int:
    rules = rules_from(args, holds=args.holds)
    layout = layout_from(args)
    phases = _phase_range(args.phases)
    from phase10math.turn.tables import format_table, phase_table, table_json, too_large

    # phases whose solve does not fit (sticky holds on a color phase of ten different dice)
    # are named under the table instead of stopping it; if none fits, that is the error
    refused = {n: why for n in phases if (why := too_large(n, rules, layout)) is not None}
    if len(refused) == len(phases):
        raise StateSpaceTooLargeError(refused[phases[0]])
    _one_row_with_progress([n for n in phases if n not in refused], rules, layout, args)
    rows = phase_table(
        [n for n in phases if n not in refused],
        rules,
        layout,
        show_progress=not args.json and sys.stderr.isatty() or args.progress,
        shipped=not args.solve,
    )
    if args.json:
        out = table_json(rows, rules)
        if refused:
            out["not_solved"] = {str(n): why for n, why in refused.items()}
        print(json.dumps(out, indent=2))
    else:
        print(format_table(rows, rules, exact=args.exact))
        for n, why in refused.items():
            print(f"phase {n} not solved with {rules.holds} holds on the {layout.name} dice: {why}")
    return 0


def _one_row_with_progress(phases: list[int], rules, layout, args: argparse.Namespace) -> None:
    """A table of one phase: its row solved (or read) first, with a progress line on a
    terminal (the solves' steps and an estimate; the table's bar counts whole phases), then
    read from the disk cache by the table (where the cache cannot be written, the table
    solves it with its bar)."""
    from phase10math import cache
    from phase10math.dice.phases import PHASES
    from phase10math.turn.tables import phase_row

    if len(phases) != 1 or not cache.usable():
        return
    steps = 2 * (rules.rolls - 1) + 1  # each objective's stages, then the greedy baseline
    forced = {"stream": sys.stderr} if args.progress else {}
    line = ProgressLine(
        f"table: phase {phases[0]}", steps, enabled=not args.json, label="solve, step", **forced
    )
    with line as progress:
        phase_row(PHASES[phases[0]], rules, layout, progress=progress, shipped=not args.solve)


#: options of ``advise`` that only ``--objective win`` reads, and those it does not read
WIN_ONLY = ("me", "opponent", "second", "last_chance", "table")
NOT_WIN = ("keep", "set_aside")


def cmd_advise(args: argparse.Namespace) -> int:
    win = args.objective == "win"
    given = [k for k in (NOT_WIN if win else WIN_ONLY) if getattr(args, k)]
    if given:
        option = f"--{given[0].replace('_', '-')}"
        raise InvalidRulesError(
            f"{option} is not an option of --objective win (the two-player table)"
            if win
            else f"{option} is an option of --objective win (the two-player game); "
            f"--objective {args.objective} is one turn's"
        )
    if win:  # from the two-player table
        return advise_win(args)
    ph = as_phase(args.phase)
    rules = rules_from(args, holds=args.holds)
    layout = layout_from(args)
    faces = roll_from(args.dice, ph, layout)
    aside = parse_faces(args.set_aside) if args.set_aside else ()
    if len(aside) >= len(faces):
        raise InvalidHoldError(
            f"all {len(faces)} dice are set aside: nothing is left to roll (use check)"
        )
    dice_of = placed_dice(args, layout)
    from phase10math.turn.advisor import advise

    # a long answer (a first solve: tens of seconds to minutes on a color phase): one line on
    # a terminal, with the solve's steps and an estimate
    title = f"advise: phase {ph.number or ph.text} ({args.objective})"
    line = ProgressLine(title, rules.rolls, enabled=not args.json, label="first solve, step")
    with line as progress:
        adv = advise(
            faces,
            args.rolls_left,
            ph,
            args.objective,
            rules,
            layout,
            aside,
            by_die=args.by_die,
            dice_of=dice_of,
            progress=progress,
        )
    if args.keep:
        chosen = adv.value_of(args.keep)
    if args.json:
        out = adv.to_dict()
        if args.top:
            out["options"] = out["options"][: args.top]
        if args.keep:
            out["your_hold"] = chosen.to_dict()
        print(json.dumps(out, indent=2))
    else:
        print(adv.table(top=args.top or None))
        if args.keep:
            print(
                f"your hold {chosen.keep_text}: {chosen.value} ({float(chosen.value):.6f})"
                f"{' - optimal' if chosen.value == adv.best.value else ''}"
            )
    return 0


def add_commands(sub) -> None:
    add_table_command(sub)
    add_advise_command(sub)


def add_table_command(sub) -> None:
    """``table``: the exact per-phase table."""
    p = sub.add_parser(
        "table",
        help="exact per-phase probabilities and expected scores",
        description="The exact per-phase table: probability of completing each "
        "phase in one roll and in a turn played optimally, the optimal expected "
        "score, and a greedy baseline.",
    )
    p.add_argument("--phases", default="1-10", help="1-10 (default), 11-20, 1-20 or e.g. 3-5")
    p.add_argument("--holds", choices=["free", "sticky"], default="free")
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument(
        "--exact", action="store_true", help="list every value's exact fraction under the table"
    )
    p.add_argument(
        "--solve",
        action="store_true",
        help="solve every row (or read the disk cache) instead of reading the rows that ship "
        "with the package (phases 1-20 of the recorded dice, default rules)",
    )
    add_layout_args(p)
    p.set_defaults(func=cmd_table)


def add_advise_command(sub) -> None:
    """``advise``: the holds of a roll ranked."""
    p = sub.add_parser(
        "advise",
        help="rank the holds for a roll",
        description="Rank every distinct hold of ten dice by its exact value.",
    )
    p.add_argument("--phase", required=True)
    p.add_argument(
        "--rolls-left",
        type=int_arg("rolls-left"),
        required=True,
        help="rolls still allowed after this one (2 after the first roll)",
    )
    p.add_argument("--objective", choices=["complete", "score", "win"], default="complete")
    p.add_argument("--me", default="", help="win: PHASE:SCORE of the player to move")
    p.add_argument("--opponent", default="", help="win: PHASE:SCORE of the other player")
    p.add_argument("--second", action="store_true", help="win: the player to move sits second")
    p.add_argument(
        "--last-chance", action="store_true", help="win: the opponent has finished the game"
    )
    p.add_argument(
        "--table",
        default=None,
        help="win: read this two-player table (one `duel --solve --write` wrote, e.g. on the "
        "recorded dice) instead of the widest shipped one for the dice",
    )
    p.add_argument("--holds", choices=["free", "sticky"], default="free")
    p.add_argument("--set-aside", default="", help="sticky holds: the dice set aside before")
    p.add_argument("--keep", default="", help="also show the value of this hold")
    p.add_argument(
        "--top", type=int_arg("top"), default=10, help="how many holds to list (0 = all)"
    )
    p.add_argument(
        "--by-die",
        action="store_true",
        help="the dice are given in the order of the layout's dice (exact: each face on its die)",
    )
    p.add_argument(
        "--die",
        action="append",
        metavar="FACE=DIE",
        help="face FACE of the roll (counted from 1, in the order typed) lies on die DIE of the "
        "layout (counted from 1); repeatable. Faces typed in any order may fit the dice in "
        "several ways; where that changes the best hold, the advice names the face that "
        "decides it and its dice",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("dice", nargs="*")
    add_layout_args(p)
    p.set_defaults(func=cmd_advise)
