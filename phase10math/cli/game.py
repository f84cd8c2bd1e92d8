"""Command-line sub-commands about whole games: ``game``, ``solitaire``, ``turns``,
``headtohead``."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from phase10math._base.checks import ascii_int, derived_seed, int_arg
from phase10math.cli.dice import add_layout_args, layout_from, rules_from
from phase10math.errors import InvalidRulesError
from phase10math.exact import to_json
from phase10math.game.names import STRATEGY_NAMES
from phase10math.guards import check_probabilities


def _strategies(text: str, n: int) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise InvalidRulesError(
            f"{n} players but {len(names)} strategies ({text!r}); give one "
            "per player or one for all"
        )
    allowed = tuple(s for s in STRATEGY_NAMES if s != "stop") + ("human",)
    for s in names:
        if s not in allowed:
            raise InvalidRulesError(f"unknown strategy {s!r}; allowed: {', '.join(allowed)}")
    return names


def cmd_game(args: argparse.Namespace) -> int:
    if not 1 <= args.players <= 8:
        raise InvalidRulesError(f"--players {args.players}; allowed: 1..8")
    rules = rules_from(args, holds=args.holds)
    layout = layout_from(args)
    names = _strategies(args.strategies, args.players)
    from phase10math.game.engine import Game, sheet_legend
    from phase10math.game.strategies import get_strategy, strategy_notes

    strats = [
        get_strategy(
            s,
            rules,
            layout,
            seed=None if args.seed is None else derived_seed(args.seed, i),
            show_progress=not args.json,
        )
        for i, s in enumerate(names)
    ]
    game = Game(
        strats,
        phases=args.phases,
        rules=rules,
        layout=layout,
        seed=args.seed,
        start_phase=args.start_phase,
    )
    res = game.play()
    notes = strategy_notes(strats)
    if args.json:
        print(json.dumps(game_json(args.seed, res, notes), indent=2))
        return 0
    if args.log:
        print(res.log_text())
        print()
    print(res.score_sheet())
    print("\n".join(["", *sheet_legend(rules, res.solitaire)]))
    for note in notes:
        print(f"phase10math: note: {note}", file=sys.stderr)
    return 0


def game_json(seed: int | None, res, notes: list[str]) -> dict:
    """``game --json``: the seed, the turn order, each player's sheet, the winners, the
    strategies' notes and the log."""
    return {
        "seed": seed,
        "order": [s + 1 for s in res.order],
        "players": [
            {
                "seat": p.seat + 1,
                "name": p.name,
                "total": p.total,
                "scores": p.scores,
                "tries": p.tries,
                "bonuses": p.bonuses,
                "penalty": p.penalty,
            }
            for p in res.players
        ],
        "winners": [s + 1 for s in res.winners],
        "notes": notes,
        "log": [str(e) for e in res.log],
    }


def cmd_solitaire(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    layout = layout_from(args)
    from phase10math.game.solitaire import comparison

    table = comparison(
        rules, layout, simulate=args.simulate, seed=args.seed, show_progress=not args.json
    )
    if args.json:
        out = {"rules": rules.to_dict(), "rows": []}
        for row in table["rows"]:
            r = {"policy": row["policy"], "expected_score": to_json(row["expected_score"])}
            if "sim_mean" in row:
                r.update(sim_mean=row["sim_mean"], sim_se=row["sim_se"], sim_n=row["sim_n"])
            out["rows"].append(r)
        out["proven_gap"] = table["proven_gap"]
        out["solve_seconds"] = table["seconds"]
        print(json.dumps(out, indent=2))
        return 0
    print(table["text"])
    return 0


def cmd_turns(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    layout = layout_from(args)
    from phase10math.game.length import GameLength

    gl = GameLength.for_strategy(
        args.strategy, args.phases, rules, layout, show_progress=not args.json
    )
    check_probabilities(gl.p.values(), "a phase's chance in a turn")
    n_max = args.max_turns
    if n_max is None:
        if gl.expected_turns > LONG_GAME:
            # the exact 99% quantile of a long game takes minutes of big-integer arithmetic
            n_max = SHOWN_TURNS
            print(
                f"phase10math: note: expected {float(gl.expected_turns):.1f} turns; the exact "
                f"distribution is shown up to {SHOWN_TURNS} turns (--max-turns N for more)",
                file=sys.stderr,
            )
        else:
            n_max = gl.quantile(Fraction(99, 100))
    if args.json:
        print(
            json.dumps(
                {"strategy": args.strategy, "phases": args.phases, **gl.summary(n_max)}, indent=2
            )
        )
    else:
        print(gl.format(n_max, args.strategy))
    return 0


def cmd_headtohead(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    layout = layout_from(args)
    names = [s.strip() for s in args.strategies.split(",") if s.strip()]
    from phase10math.game.headtohead import head_to_head

    res = head_to_head(
        names,
        args.games,
        seed=args.seed,
        rules=rules,
        layout=layout,
        phases=args.phases,
        show_progress=not args.json,
        start_phase=args.start_phase,
    )
    print(json.dumps(res.to_dict(), indent=2) if args.json else res.format())
    return 0


def add_start_arg(p) -> None:
    p.add_argument(
        "--start-phase",
        type=int_arg("start-phase"),
        default=1,
        help="every player starts at this phase with 0 points (9: the end of a game)",
    )


LONG_GAME = 50  # expected turns above which `turns` shows SHOWN_TURNS, not the 99% quantile
SHOWN_TURNS = 200


def add_commands(sub) -> None:
    p = sub.add_parser("game", help="play a seeded game between strategies, print the score sheet")
    p.add_argument("--players", type=int_arg("players"), default=2, help="1..8 (1 = solitaire)")
    p.add_argument(
        "--strategies",
        default="complete",
        help="comma list, one per player (or one for all): complete, score, greedy, "
        "random, solitaire, win (two players: plays to win from the solved table of phases "
        "1-10 on the compact dice and on the recorded set, 9-10 on others), human",
    )
    p.add_argument("--seed", type=int_arg("seed"), default=None)
    p.add_argument("--phases", type=ascii_int, choices=[10, 20], default=10)
    add_start_arg(p)
    p.add_argument("--holds", choices=["free", "sticky"], default="free")
    p.add_argument("--log", action="store_true", help="print every roll and hold first")
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_game)

    p = sub.add_parser(
        "solitaire", help="optimal solitaire: expected final score, compared with per-turn policies"
    )
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--simulate",
        type=int_arg("simulate"),
        default=0,
        metavar="N",
        help="also simulate N games per policy (seeded) as a check",
    )
    p.add_argument("--seed", type=int_arg("seed"), default=0)
    add_layout_args(p)
    p.set_defaults(func=cmd_solitaire)

    p = sub.add_parser("turns", help="exact distribution of the number of turns to finish")
    p.add_argument(
        "--strategy", choices=["complete", "score", "greedy", "random"], default="complete"
    )
    p.add_argument("--phases", type=ascii_int, choices=[10, 20], default=10)
    p.add_argument(
        "--max-turns",
        type=int_arg("max-turns"),
        default=None,
        help="print the distribution up to here (default: its 99%% quantile)",
    )
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_turns)

    p = sub.add_parser("headtohead", help="seeded simulation of games between strategies")
    p.add_argument("--strategies", default="complete,score")
    p.add_argument("--games", type=int_arg("games"), default=200)
    p.add_argument("--seed", type=int_arg("seed"), default=0)
    p.add_argument("--phases", type=ascii_int, choices=[10, 20], default=10)
    add_start_arg(p)
    p.add_argument("--json", action="store_true")
    add_layout_args(p)
    p.set_defaults(func=cmd_headtohead)
