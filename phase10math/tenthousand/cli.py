"""``phase10math tenk ...``: 10,000 from the command line (light at import time).

Sub-commands: ``ev`` (optimal expected points banked from a state), ``thresholds`` (banking
totals per number of dice) and ``duel`` (first player's winning chance under optimal play).
"""

from __future__ import annotations

import argparse
import json
import sys

from phase10math.checks import int_arg, missing_command
from phase10math.exact import show, to_json
from phase10math.tenthousand.duel import solve_duel
from phase10math.tenthousand.rules import TenKRules
from phase10math.tenthousand.turn import solve_turn


def _rule_options(p: argparse.ArgumentParser, target: bool = False) -> None:
    g = p.add_argument_group("rule options (defaults: RULES.md section 3)")
    g.add_argument(
        "--straight",
        type=int_arg("points"),
        default=3000,
        metavar="POINTS",
        help="points for 1-2-3-4-5-6 (default 3000; 0 = not scoring)",
    )
    g.add_argument(
        "--three-pairs",
        type=int_arg("points"),
        default=1500,
        metavar="POINTS",
        help="points for three pairs (default 1500; 0 = not scoring)",
    )
    g.add_argument(
        "--extra-of-a-kind",
        default="none",
        choices=["none", "double", "add"],
        help="how four or more of a kind score (default none: triple + singles)",
    )
    g.add_argument(
        "--open",
        type=int_arg("points"),
        nargs="?",
        const=500,
        default=0,
        metavar="POINTS",
        help="points needed in one turn to get on the board (--open alone: 500)",
    )
    g.add_argument(
        "--wipe",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="four or more 2s wipe the player's score (default on)",
    )
    g.add_argument(
        "--six-wins",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="six of a kind wins at once (default on)",
    )
    if target:
        g.add_argument(
            "--target",
            type=int_arg("target"),
            default=5000,
            help="points to win (default 5000 here; 10000 takes tens of minutes)",
        )


def _rules(args: argparse.Namespace):
    return TenKRules(
        straight=args.straight,
        three_pairs=args.three_pairs,
        extra_of_a_kind=args.extra_of_a_kind,
        open_score=args.open,
        wipe=args.wipe,
        six_wins=args.six_wins,
        target=getattr(args, "target", 10000),
    )


def _fmt(x) -> str:
    """``show(x)``, with a long exact fraction moved after its float."""
    if len(str(x)) <= 40:
        return show(x)
    return f"{float(x):.6f}  (exact: {x})"


def _ev(args: argparse.Namespace) -> int:
    rules = _rules(args)
    sol = solve_turn(rules, on_board=not args.off_board)
    value = sol.value(args.turn_total, args.dice)
    roll = sol.roll_value(args.turn_total, args.dice)
    bank = sol.bank_value(args.turn_total)
    action = "roll" if roll > bank or args.turn_total == 0 else "bank"
    if args.json:
        out = {
            "dice": args.dice,
            "turn_total": args.turn_total,
            "on_board": not args.off_board,
            "value": to_json(value),
            "roll_value": to_json(roll),
            "bank_value": bank,
            "action": action,
            "rules": rules.as_dict(),
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    who = "not yet on the board" if args.off_board else "on the board"
    print(f"10,000: {args.dice} dice to roll, turn total {args.turn_total}, player {who}")
    print(f"optimal expected points banked: {_fmt(value)}")
    print(f"  if the player rolls now:      {_fmt(roll)}")
    print(f"  if the player banks now:      {bank}")
    print(f"best action: {action}")
    return 0


def _thresholds(args: argparse.Namespace) -> int:
    rules = _rules(args)
    boards = [True] + ([False] if rules.open_score else [])
    out = {}
    for on_board in boards:
        sol = solve_turn(rules, on_board=on_board)
        th = sol.thresholds()
        gaps = {n: [t for t in sol.roll_region(n) if t >= th[n]] for n in th}
        out["on_board" if on_board else "off_board"] = {
            "thresholds": th,
            "value_at_start": sol.value(0, rules.dice),
            "cap": sol.cap,
            "contiguous": all(sol.roll_region(n) == list(range(0, th[n], 50)) for n in th)
            and not any(gaps.values()),
        }
    if args.json:
        js = {
            k: {
                "thresholds": {str(n): t for n, t in v["thresholds"].items()},
                "expected_points_from_start": {
                    "fraction": str(v["value_at_start"]),
                    "float": float(v["value_at_start"]),
                },
                "cap": v["cap"],
                "roll_below_threshold_everywhere": v["contiguous"],
            }
            for k, v in out.items()
        }
        js["rules"] = rules.as_dict()
        json.dump(js, sys.stdout, indent=2)
        print()
        return 0
    for k, v in out.items():
        title = (
            "player on the board"
            if k == "on_board"
            else f"player not on the board (opening {rules.open_score})"
        )
        print(f"10,000, {title}: bank once the turn total reaches")
        for n, t in v["thresholds"].items():
            print(f"  {n} dice: {t:>6}")
        print(f"  expected points of a whole turn: {_fmt(v['value_at_start'])}")
        note = "" if v["contiguous"] else " (rolling is NOT optimal at every smaller total)"
        print(f"  banking is proven optimal at every total >= {v['cap']}{note}")
    return 0


def _duel(args: argparse.Namespace) -> int:
    rules = _rules(args)
    sol = solve_duel(rules, progress=not args.json and not args.no_progress)
    U = rules.target // 50
    if args.json:
        out = {
            "target": rules.target,
            "first_player_wins": sol.first_player_wins,
            "second_player_wins": 1 - sol.first_player_wins,
            "sweeps": sol.sweeps,
            "last_change": sol.last_change,
            "seconds": sol.seconds,
            "states": sol.states,
            "turn_start_states": U * U,
            "rules": rules.as_dict(),
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(f"10,000 duel to {rules.target}, both players optimal (maximise P(win))")
    print(f"P(first player wins)  = {sol.first_player_wins:.9f}")
    print(f"P(second player wins) = {1 - sol.first_player_wins:.9f}")
    print(
        f"value iteration: {sol.sweeps} sweeps, last max change {sol.last_change:.1e}, "
        f"{sol.states:,} states, {sol.seconds:.1f} s (cached on disk)"
    )
    return 0


def add_commands(subparsers) -> None:
    """Add ``tenk`` with ``ev``, ``thresholds`` and ``duel`` to the main parser."""
    tenk = subparsers.add_parser("tenk", help="the six-dice game 10,000 (Farkle family)")
    sub = tenk.add_subparsers(dest="tenk_command", metavar="TENK_COMMAND")
    tenk.set_defaults(func=lambda args: missing_command(tenk))

    ev = sub.add_parser("ev", help="optimal expected points banked from a state of a turn")
    ev.add_argument(
        "--dice", type=int_arg("tenk-dice"), default=6, help="dice to roll next (1..6, default 6)"
    )
    ev.add_argument(
        "--turn-total", type=int_arg("turn-total"), default=0, help="points of the turn so far"
    )
    ev.add_argument(
        "--off-board", action="store_true", help="the player has not yet opened (applies --open)"
    )
    ev.add_argument("--json", action="store_true")
    _rule_options(ev)
    ev.set_defaults(func=_ev)

    th = sub.add_parser("thresholds", help="bank once the turn total reaches these values")
    th.add_argument("--json", action="store_true")
    _rule_options(th)
    th.set_defaults(func=_thresholds)

    du = sub.add_parser("duel", help="two optimal players: the first player's winning chance")
    du.add_argument("--json", action="store_true")
    du.add_argument("--no-progress", action="store_true", help="no progress bar")
    _rule_options(du, target=True)
    du.set_defaults(func=_duel)
