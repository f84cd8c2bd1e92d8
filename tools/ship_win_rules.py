"""Price the win rules (:data:`~phase10math.game.duel.winrules.WIN_RULES`) in the two-player
end game against the optimal player, check each price by seeded games on physical dice, and
write them as the package data that ``phase10math card`` reads.

    python tools/ship_win_rules.py             # write phase10math/game/data/win_rules.json
    python tools/ship_win_rules.py --check     # price again (no games), compare (exit 1)
    python tools/ship_win_rules.py --bounds    # price again, write the file (its games kept)
    python tools/ship_win_rules.py --search    # the threshold search (prints its path)
    python tools/ship_win_rules.py --table     # the docs' table, from the shipped file

The game (:func:`~phase10math.game.duel.winrules.win_game`: phases 9-10, compact dice,
default rules, both players from phase 9 with 0 points) is solved first (about 30 s), every
state's optimal distribution kept; each rule is then priced in both seats (a second each),
with proven bounds on its chance to win and its price (:meth:`WinPricer.worth_bounds`,
:meth:`WinPricer.price_bounds`; ``proven_within``: the farthest any shipped chance or price
is from an end of its proven interval), and played in ``--games`` seeded games (about 0.1 s
a game on the 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
from shipping import ship_args, shipped_file, write_json

from phase10math.game.duel import solve_duel
from phase10math.game.duel.winrules import (
    ALWAYS,
    CARD_RULE,
    NEVER,
    WIN_RULES,
    WIN_RULES_FILE,
    WinPricer,
    WinRule,
    simulate_rule,
    win_game,
)

TARGET = shipped_file("game", WIN_RULES_FILE)
GAMES = 2000
SEED = 20261206
FIELDS = ("level", "level_last", "ahead", "behind", "need")


def mean_bounds(a: list[float], b: list[float]) -> list[float]:
    """Bounds on the mean of two numbers within ``a`` and ``b``, rounded outward."""
    lo, hi = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return [float(np.nextafter(lo, -np.inf)), float(np.nextafter(hi, np.inf))]


def bounds_of(pricer: WinPricer, rule: WinRule) -> dict:
    """The rule's proven bounds: its chance to win and its price, by seat and their mean."""
    wb = [list(pricer.worth_bounds(rule, s)) for s in (0, 1)]
    pb = [list(pricer.price_bounds(rule, s)) for s in (0, 1)]
    return {
        "worth_bounds": {"first": wb[0], "second": wb[1], "mean": mean_bounds(*wb)},
        "price_bounds": {"first": pb[0], "second": pb[1], "mean": mean_bounds(*pb)},
    }


def within(data: dict) -> float:
    """The farthest a shipped chance or price is from an end of its proven interval (each
    checked inside it)."""
    out = 0.0
    for row in data["rules"]:
        for kind in ("worth", "price"):
            for seat, v in row[kind].items():
                lo, hi = row[f"{kind}_bounds"][seat]
                if not lo <= v <= hi:
                    raise AssertionError(f"{row['name']}: {kind} {seat} {v} outside [{lo}, {hi}]")
                out = max(out, v - lo, hi - v)
    return out


def prices(pricer: WinPricer) -> dict:
    opt = [pricer.optimal(s) for s in (0, 1)]
    rows = []
    for rule in WIN_RULES:
        w = [pricer.worth(rule, s) for s in (0, 1)]
        rows.append(
            {
                **rule.to_json(),
                "worth": {"first": w[0], "second": w[1], "mean": (w[0] + w[1]) / 2},
                "price": {
                    "first": opt[0] - w[0],
                    "second": opt[1] - w[1],
                    "mean": (opt[0] + opt[1] - w[0] - w[1]) / 2,
                },
                **bounds_of(pricer, rule),
            }
        )
    ob = [list(pricer.optimal_bounds(s)) for s in (0, 1)]
    data = {
        "game": "phases 9-10 (the end game), compact dice, default rules, both players "
        "from phase 9 with 0 points, against the optimal player",
        "command": "python tools/ship_win_rules.py",
        "card_rule": CARD_RULE,
        "optimal": {"first": opt[0], "second": opt[1], "mean": (opt[0] + opt[1]) / 2},
        "optimal_bound": pricer.sol.bound,
        "optimal_bounds": {"first": ob[0], "second": ob[1]},
        "opponent": "the table's optimal policy as solved (its turns' exact outcome "
        "distributions, of which the stored floats are within their forward pass's proven "
        "relative rounding); where optimal turns tie, another optimal policy can leave the "
        "rule another chance to win",
        "rules": rows,
    }
    data["proven_within"] = within(data)
    return data


def games(pricer: WinPricer, data: dict, n: int) -> None:
    for rule, row in zip(WIN_RULES, data["rules"], strict=True):
        s = simulate_rule(pricer, rule, n, seed=SEED)
        lo, hi = s.mean - 1.959964 * s.se, s.mean + 1.959964 * s.se
        row["monte_carlo"] = {
            "games": n,
            "seed": SEED,
            "mean": s.mean,
            "se": s.se,
            "ci95": [lo, hi],
            "exact": s.expected,
            "within": bool(lo <= s.expected <= hi),
        }
        print(f"{rule.name}: {s.mean:.4f} +- {s.se:.4f}, exact {s.expected:.4f}", flush=True)


def search(pricer: WinPricer) -> None:
    """Coordinate descent over the thresholds (steps of 10, then 5, then 1), as run once."""
    opt = (pricer.optimal(0) + pricer.optimal(1)) / 2
    for chase in (False, True):
        cur = dict(level=125, level_last=20, ahead=65, behind=70, need=28)

        def price(c: dict, chase: bool = chase) -> float:
            r = WinRule("x", chase=chase, **c)
            return opt - (pricer.worth(r, 0) + pricer.worth(r, 1)) / 2

        best = price(cur)
        for step, grid in ((10, range(-100, 171, 10)), (5, None), (1, None)):
            for f in FIELDS[: 4 if chase else 5]:
                vals = (
                    list(grid) + [ALWAYS, NEVER]
                    if grid
                    else [cur[f] + step * i for i in (-2, -1, 1, 2)]
                )
                for v in vals:
                    c = dict(cur, **{f: v})
                    p = price(c)
                    if p < best - 1e-12:
                        best, cur = p, c
                print(f"chase={chase} step {step} {f}: {cur} price {100 * best:.3f}", flush=True)


def table() -> str:
    """The markdown table of docs/rules-of-thumb.md, from the shipped file."""
    data = json.loads(TARGET.read_text())
    opt = data["optimal"]
    rows = [
        "| rule | chance to win: first seat / second seat | gives up (points of chance in 100): "
        "first / second / mean | seeded games: rule's mean ± s.e. (exact) |",
        "|---|---|---|---|",
        f"| the optimal player | {100 * opt['first']:.2f}% / {100 * opt['second']:.2f}% | - | - |",
    ]
    for r in data["rules"]:
        w, p, mc = r["worth"], r["price"], r["monte_carlo"]
        rows.append(
            f"| **{r['name']}**: {' '.join(r['words'])} | {100 * w['first']:.2f}% / "
            f"{100 * w['second']:.2f}% | {100 * p['first']:.2f} / {100 * p['second']:.2f} / "
            f"**{100 * p['mean']:.2f}** | {100 * mc['mean']:.1f}% ± {100 * mc['se']:.1f} "
            f"({100 * mc['exact']:.1f}%) |"
        )
    return "\n".join(rows)


def same_prices(old: dict, new: dict) -> bool:
    """Whether the shipped file has the same rules, prices and proven bounds (where it has
    them) as a pricing again."""
    pairs = list(zip(old["rules"], new["rules"], strict=True))
    same = all(
        abs(a["price"][k] - b["price"][k]) < 1e-12
        for a, b in pairs
        for k in ("first", "second", "mean")
    ) and [r["words"] for r in old["rules"]] == [r["words"] for r in new["rules"]]
    ends = [
        (x, y)
        for a, b in pairs
        for f in ("worth_bounds", "price_bounds")
        for k in ("first", "second", "mean")
        for x, y in zip(a.get(f, b[f])[k], b[f][k], strict=True)
    ]
    return same and all(abs(x - y) < 1e-12 for x, y in ends)


def options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--bounds", action="store_true", help="price again, write (games kept)")
    ap.add_argument("--search", action="store_true", help="run the threshold search")
    ap.add_argument("--games", type=int, default=GAMES, help="seeded games per rule")


def main() -> int:
    args = ship_args(
        __doc__.splitlines()[0],
        "price again, compare with the file",
        "print the docs' table",
        options,
    )
    if args.table:
        print(table())
        return 0
    sol = solve_duel(win_game())
    pricer = WinPricer(sol)
    if args.search:
        search(pricer)
        return 0
    data = prices(pricer)
    if args.check or args.bounds:
        old = json.loads(TARGET.read_text())
        same = same_prices(old, data)
        print("the shipped win rules are " + ("the same" if same else "DIFFERENT"))
        if args.check or not same:
            return 0 if same else 1
        for a, b in zip(old["rules"], data["rules"], strict=True):
            b["monte_carlo"] = a["monte_carlo"]
        write_json(TARGET, data)
        print(f"wrote {TARGET}: proven within {data['proven_within']:.2e}")
        return 0
    games(pricer, data, args.games)
    write_json(TARGET, data)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
