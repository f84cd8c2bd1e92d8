"""``phase10math cards ...``: the card game on the command line.

* ``cards dealt [--hand-size N] [--phase TEXT ...] [--json]``: exact odds that a dealt hand
  already holds each phase (any phase phrase, e.g. ``'run of 4 + 4 of one color'``; a progress
  bar on stderr while a mixed phase is counted).
* ``cards draws --phase K [--draws N] [--trials T] [--policy P] [--seed S] [--json]``:
  draw-by-draw odds by seeded simulation.
* ``cards game --players N --seed S [--summary] [--json]``: a simulated game's log and scores.

Heavy modules are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json

from phase10math._base.checks import int_arg, missing_command
from phase10math.cards.errors import InvalidCardPhaseError
from phase10math.guards import check_probabilities


def add_commands(subparsers) -> None:
    cards = subparsers.add_parser(
        "cards",
        help="the Phase 10 card game: deal odds, draw odds, simulated games",
        description="The Phase 10 card game (108 cards): exact deal odds, draw-by-draw odds "
        "and a game simulator.",
    )
    sub = cards.add_subparsers(dest="cards_command", metavar="CARDS_COMMAND")
    cards.set_defaults(func=lambda args: _help(cards))

    d = sub.add_parser("dealt", help="exact odds that the dealt hand holds each phase")
    d.add_argument(
        "--hand-size", type=int_arg("hand-size"), default=10, help="cards in hand (default 10)"
    )
    d.add_argument(
        "--phase",
        action="append",
        metavar="TEXT",
        help="a phase number or phrase such as '2 sets of 4' (repeatable; default 1-10)",
    )
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(func=_dealt)

    w = sub.add_parser("draws", help="odds of holding a phase after n draws (simulation)")
    w.add_argument("--phase", default="1", help="phase number or phrase (default 1)")
    w.add_argument("--draws", type=int_arg("draws"), default=20)
    w.add_argument("--trials", type=int_arg("trials"), default=2000)
    w.add_argument("--policy", default="greedy", help="greedy, outs or random")
    w.add_argument("--seed", type=int_arg("seed"), default=0)
    w.add_argument("--json", action="store_true", help="print JSON")
    w.set_defaults(func=_draws)

    g = sub.add_parser("game", help="simulate a game between computer players")
    g.add_argument("--players", type=int_arg("cards-players"), default=4, help="2-6 (default 4)")
    g.add_argument("--seed", type=int_arg("seed"), default=0)
    g.add_argument("--summary", action="store_true", help="only the hand results and scores")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=_game)


def _help(parser: argparse.ArgumentParser) -> int:
    return missing_command(parser)  # no sub-command: the usage line and the help hint


def _dealt(args) -> int:
    from phase10math.cards.dealt import dealt_odds
    from phase10math.cards.phases import parse_phase

    phases = [parse_phase(p) for p in (args.phase or [str(k) for k in range(1, 11)])]
    for ph in phases:
        need = sum(g.size for g in ph.groups)
        if need > args.hand_size:
            raise InvalidCardPhaseError(
                f"phase {str(ph)!r} needs {need} cards; a hand of {args.hand_size} cannot hold "
                "it (give a larger --hand-size)"
            )
    table = [dealt_odds(p, args.hand_size, progress=True) for p in phases]
    check_probabilities([o.probability for o in table], "a dealt hand's chance")
    if args.json:
        print(json.dumps([o.to_json() for o in table], indent=2))
        return 0
    print(f"Odds that {args.hand_size} cards from the 108-card deck hold the phase (exact):")
    print(f"{'phase':<32}{'probability':>34}  {'decimal':>9}  {'1 in':>8}")
    for o in table:
        name = str(o.phase)
        frac = f"{o.probability.numerator}/{o.probability.denominator}"
        print(f"{name:<32}{frac:>34}  {float(o.probability):>9.6f}  {o.one_in:>8.1f}")
    return 0


def _draws(args) -> int:
    from phase10math.cards.draws import simulate_draws

    r = simulate_draws(args.phase, args.draws, args.trials, args.policy, args.seed)
    check_probabilities([x for row in r.rows() for x in row[1:]], "a chance after n draws")
    if args.json:
        out = {
            "phase": r.phase.text,
            "policy": r.policy,
            "trials": r.trials,
            "seed": r.seed,
            "rows": [{"draws": n, "p": p, "low95": lo, "high95": hi} for n, p, lo, hi in r.rows()],
        }
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"{r.phase}: P(holding it after n draws), policy {r.policy}, {r.trials} trials, "
        f"seed {r.seed}"
    )
    print(f"{'draws':>5}  {'p':>7}  {'95% interval':>17}")
    for n, p, lo, hi in r.rows():
        print(f"{n:>5}  {p:>7.4f}  [{lo:.4f}, {hi:.4f}]")
    med = r.median_draws()
    if med is not None:
        print(f"half the trials hold it after {med} draws")
    return 0


def _game(args) -> int:
    from phase10math.cards.game import play_game

    g = play_game(args.players, args.seed)
    if args.json:
        print(json.dumps(g.to_json(), indent=2))
        return 0
    keep = ("deal", "tie-break hand", "lays down", "goes out", "scores", "tie", "wins")
    for e in g.log:
        if not args.summary or e.action.startswith(keep):
            print(e)
    print()
    print(g.summary())
    return 0
