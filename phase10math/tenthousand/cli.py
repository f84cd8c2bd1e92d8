"""``phase10math tenk ...``: 10,000 from the command line (light at import time).

Sub-commands: ``ev`` (optimal expected points banked from a state), ``thresholds`` (banking
totals per number of dice), ``duel`` (first player's winning chance under optimal play, with its
proven interval) and ``advise`` (bank or roll, and which dice to keep, in a two-player game).
"""

from __future__ import annotations

import argparse
import json
import sys

from phase10math._base.checks import int_arg, missing_command
from phase10math.exact import show, to_json
from phase10math.guards import check_probabilities
from phase10math.tenthousand.errors import TenKRollError, TenKRulesError
from phase10math.tenthousand.rules import EXTRA_OF_A_KIND, DuelMethod, TenKPreset, TenKRules
from phase10math.tenthousand.scoring import check_roll

#: The two-player commands' target unless ``--target`` says otherwise: the 10,000 of the game's
#: name (its first solve takes about two minutes of one core and 0.1 GB, then it comes from the
#: cache); their first line says the target.
DUEL_TARGET = 10000


def _rule_options(p: argparse.ArgumentParser, target: bool = False) -> None:
    g = p.add_argument_group("rule options (defaults: RULES.md section 3, or the --preset)")
    g.add_argument(
        "--straight",
        type=int_arg("points"),
        default=None,
        metavar="POINTS",
        help="points for 1-2-3-4-5-6 (default 3000; 0 = not scoring)",
    )
    g.add_argument(
        "--three-pairs",
        type=int_arg("points"),
        default=None,
        metavar="POINTS",
        help="points for three pairs (default 1500; 0 = not scoring)",
    )
    g.add_argument(
        "--extra-of-a-kind",
        default=None,
        choices=list(EXTRA_OF_A_KIND),
        help="how four or more of a kind score (default none: triple + singles)",
    )
    g.add_argument(
        "--open",
        type=int_arg("points"),
        nargs="?",
        const=500,
        default=None,
        metavar="POINTS",
        help="points needed in one turn to get on the board (--open alone: 500)",
    )
    g.add_argument(
        "--wipe",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="four or more 2s wipe the player's score (default on)",
    )
    g.add_argument(
        "--six-wins",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="six of a kind wins at once (default on)",
    )
    if target:
        g.add_argument(
            "--target",
            type=int_arg("target"),
            default=None,
            help=f"points to win (default {DUEL_TARGET}, the game's name; the first solve of a "
            "target takes about 2 minutes for 10000, less for 5000, then it comes from the "
            "cache)",
        )


_OPTIONS = {
    "straight": "straight",
    "three_pairs": "three_pairs",
    "extra_of_a_kind": "extra_of_a_kind",
    "open": "open_score",
    "wipe": "wipe",
    "six_wins": "six_wins",
    "target": "target",
    "floor": "floor",
}


def _rules(args: argparse.Namespace):
    preset = TenKPreset(getattr(args, "preset", TenKPreset.DEFAULT.value))
    changes = {
        field: getattr(args, name)
        for name, field in _OPTIONS.items()
        if getattr(args, name, None) is not None
    }
    if preset is TenKPreset.DEFAULT and hasattr(args, "target"):
        changes.setdefault("target", DUEL_TARGET)
    return TenKRules.preset(preset, **changes)


def _to(rules: TenKRules, args: argparse.Namespace) -> str:
    """The target of a duel in words, saying when it is the default."""
    if args.target is None and rules.target == DUEL_TARGET:
        return f"to {rules.target:,} points (the default; --target sets another)"
    return f"to {rules.target:,} points"


#: Exact fractions longer than this are shown as a float alone (``--exact`` or ``--json``
#: shows them).
LONG_FRACTION = 40


def _fmt(x, exact: bool = False) -> str:
    """``show(x)``; a long exact fraction as its float alone unless ``exact``."""
    if exact or len(str(x)) <= LONG_FRACTION:
        return show(x)
    return f"{float(x):.6f}  (an exact fraction of {len(str(x))} characters: --exact shows it)"


def _ev(args: argparse.Namespace) -> int:
    rules = _rules(args)
    from phase10math.tenthousand.turn import solve_turn

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
    print(f"optimal expected points banked: {_fmt(value, args.exact)}")
    print(f"  if the player rolls now:      {_fmt(roll, args.exact)}")
    print(f"  if the player banks now:      {bank}")
    print(f"best action: {action}")
    return 0


def _thresholds(args: argparse.Namespace) -> int:
    rules = _rules(args)
    boards = [True] + ([False] if rules.open_score else [])
    from phase10math.tenthousand.turn import solve_turn

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
        print(f"  expected points of a whole turn: {_fmt(v['value_at_start'], args.exact)}")
        note = "" if v["contiguous"] else " (rolling is NOT optimal at every smaller total)"
        print(f"  banking is proven optimal at every total >= {v['cap']}{note}")
    return 0


def _penalty_duel(rules: TenKRules, args: argparse.Namespace) -> int:
    from phase10math.tenthousand.penalty import PenaltySolution, solve_penalty_duel

    sol: PenaltySolution = solve_penalty_duel(
        rules, progress=not args.json and not args.no_progress, checkpoint=args.checkpoint
    )
    check_probabilities([sol.value, sol.lower, sol.upper], "a chance to win")
    if args.json:
        out = {
            "target": rules.target,
            "floor": rules.floor,
            "preset": args.preset,
            "first_player_wins": sol.value,
            "second_player_wins": 1 - sol.value,
            "proven_interval": [sol.lower, sol.upper],
            "sweeps": sol.passes,
            "last_change": sol.last_change,
            "seconds": sol.seconds,
            "states": sol.states,
            "rules": rules.as_dict(),
        }
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"Farkle duel ({args.preset} rules) {_to(rules, args)}: three farkles in a row cost "
        f"{rules.farkle_penalty}, banked scores floored at {rules.floor}; both players optimal"
    )
    print(f"P(first player wins)  = {sol.value:.9f}")
    print(f"P(second player wins) = {1 - sol.value:.9f}")
    print(f"proven: {sol.lower:.12f} <= P(first player wins) <= {sol.upper:.12f}")
    print(f"ordered sweeps: {sol.passes}, {sol.states:,} states, {sol.seconds:.1f} s")
    return 0


def _duel(args: argparse.Namespace) -> int:
    rules = _rules(args)
    if args.checkpoint is not None and not rules.penalised:
        raise TenKRulesError("--checkpoint without a farkle penalty; allowed: --preset facebook")
    if rules.penalised:
        if args.method != DuelMethod.LAYERED.value:
            raise TenKRulesError(f"--method {args.method} with a farkle penalty; allowed: layered")
        return _penalty_duel(rules, args)
    from phase10math.tenthousand.duel import solve_duel

    sol = solve_duel(
        rules, progress=not args.json and not args.no_progress, method=DuelMethod(args.method)
    )
    U = rules.target // 50
    iv = sol.interval
    check_probabilities([sol.first_player_wins, *(iv or ())], "a chance to win")
    if args.json:
        out = {
            "target": rules.target,
            "method": sol.method.value,
            "first_player_wins": sol.first_player_wins,
            "second_player_wins": 1 - sol.first_player_wins,
            "proven_interval": list(iv) if iv else None,
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
    print(f"10,000 duel {_to(rules, args)}, both players optimal (maximise P(win))")
    print(f"P(first player wins)  = {sol.first_player_wins:.9f}")
    print(f"P(second player wins) = {1 - sol.first_player_wins:.9f}")
    if iv:
        print(f"proven: {iv[0]:.12f} <= P(first player wins) <= {iv[1]:.12f}")
        print(
            f"score layers: {sol.sweeps} passes, {sol.states:,} states, "
            f"{sol.seconds:.1f} s (cached on disk)"
        )
    else:
        print(
            f"value iteration: {sol.sweeps} sweeps, last max change {sol.last_change:.1e} "
            f"(an estimate, not a proof), {sol.states:,} states, {sol.seconds:.1f} s"
        )
    return 0


def _parse_roll(text: str) -> tuple[int, ...]:
    digits = [c for c in text if c not in ", "]
    if not digits or not all(c in "123456" for c in digits):
        raise TenKRollError(f"--roll {text!r}; allowed: dice faces 1..6, e.g. 1,1,5,2,3,4")
    return tuple(int(c) for c in digits)


def _advise(args: argparse.Namespace) -> int:
    rules = _rules(args)
    me, opp, t, n = args.me, args.opponent, args.turn_total, args.dice
    roll = _parse_roll(args.roll) if args.roll is not None else None
    if roll is not None and len(roll) != n:
        raise TenKRollError(f"--roll has {len(roll)} dice; allowed: {n} (the --dice rolled)")
    from phase10math.tenthousand.duel import check_duel_state, solve_duel

    check_duel_state(rules, me, opp, t, n)  # before the solve (minutes for a large target)
    if roll is not None:
        check_roll(roll, rules)
    sol = solve_duel(rules, progress=not args.json and not args.no_progress)
    adv = sol.advise(me, opp, t, n, roll)
    chances = [adv.get("bank"), adv.get("roll"), *(k["win"] for k in adv.get("keep", ()))]
    check_probabilities([c for c in chances if isinstance(c, float)], "a chance to win")
    if args.json:
        json.dump({**adv, "rules": rules.as_dict()}, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"10,000 duel {_to(rules, args)}: you {me}, opponent {opp}, turn total {t}, "
        f"{n} dice {'rolled' if roll else 'to roll'}"
    )
    if roll is None:
        if adv["bank"] is not None:
            print(f"  bank now:  P(win) = {adv['bank']:.6f}")
        print(f"  roll {n}:    P(win) = {adv['roll']:.6f}")
        print(f"best: {adv['best']}")
        return 0
    if not adv["keep"]:
        print(f"  roll {roll}: {adv['best']}")
        return 0
    for k in adv["keep"]:
        then = "bank" if k["then"] == "bank" else f"roll {k['dice_next']}"
        print(f"  keep {k['kept']} (+{k['points']}), then {then}: P(win) = {k['win']:.6f}")
    best = adv["keep"][0]
    print(f"best: keep {best['kept']}, then {best['then']}")
    return 0


def add_commands(subparsers) -> None:
    """Add ``tenk`` with ``ev``, ``thresholds``, ``duel`` and ``advise`` to the main parser."""
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
    exact = f"show exact fractions of over {LONG_FRACTION} characters in full (--json has them)"
    for p in (ev, th):
        p.add_argument("--exact", action="store_true", help=exact)

    add_duel_command(sub)
    add_advise_command(sub)


def add_duel_command(sub) -> None:
    """``tenk duel``: two optimal players, the first player's winning chance."""
    du = sub.add_parser("duel", help="two optimal players: the first player's winning chance")
    du.add_argument("--json", action="store_true")
    du.add_argument("--no-progress", action="store_true", help="no progress bar")
    du.add_argument(
        "--method",
        choices=[m.value for m in DuelMethod],
        default=DuelMethod.LAYERED.value,
        help="layered: proven interval (default); jacobi: plain value iteration",
    )
    du.add_argument(
        "--preset",
        choices=[p.value for p in TenKPreset],
        default=TenKPreset.DEFAULT.value,
        help="rule set: default (RULES.md) or facebook (Facebook Farkle as in Busche 2016: "
        "three farkles in a row cost 500, scores floored at --floor)",
    )
    du.add_argument(
        "--floor",
        type=int_arg("tenk-floor"),
        default=None,
        metavar="POINTS",
        help="lowest banked score with the facebook preset (default -2500)",
    )
    du.add_argument(
        "--checkpoint",
        default=None,
        metavar="FILE",
        help="with the facebook preset: keep the table in FILE after every sweep; the same "
        "command goes on from it after a stop",
    )
    _rule_options(du, target=True)
    du.set_defaults(func=_duel)


def add_advise_command(sub) -> None:
    """``tenk advise``: bank or roll, and which dice to keep, in the two-player game."""
    ad = sub.add_parser("advise", help="two-player game: bank or roll, and which dice to keep")
    ad.add_argument("--me", type=int_arg("tenk-score"), default=0, help="your banked score")
    ad.add_argument(
        "--opponent", type=int_arg("tenk-score"), default=0, help="the opponent's banked score"
    )
    ad.add_argument(
        "--turn-total", type=int_arg("turn-total"), default=0, help="points of the turn so far"
    )
    ad.add_argument(
        "--dice", type=int_arg("tenk-dice"), default=6, help="dice to roll (or rolled), 1..6"
    )
    ad.add_argument("--roll", help="the dice just rolled (e.g. 1,1,5,2,3,4): which to keep")
    ad.add_argument("--json", action="store_true")
    ad.add_argument("--no-progress", action="store_true", help="no progress bar")
    _rule_options(ad, target=True)
    ad.set_defaults(func=_advise)
