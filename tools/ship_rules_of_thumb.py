"""Search the rules of thumb of phases 1-20 (recorded and compact dice, default rules), price
them exactly, check each price by a seeded Monte Carlo, and write them as the package data
that ``phase10math card`` and :mod:`phase10math.turn.thumb` read.

    python tools/ship_rules_of_thumb.py              # search (resumes its checkpoint), write
    python tools/ship_rules_of_thumb.py --check      # price the shipped rules again, compare
    python tools/ship_rules_of_thumb.py --check --light   # the same without phases 14 and 15

The search (:func:`~phase10math.turn.thumb.search_rules`, a beam search over the rule
language; ``--max-lines``, ``--beam``) takes about an hour on the 2-core machine; it writes
every phase's result to the checkpoint file (``--checkpoint``, default
``tools/solves/rules_of_thumb_search.json``, with the other long runs' resumable state) as it
goes, so that a stopped run goes on where it stopped. ``--check`` does not search: it prices
every shipped rule again (exact fractions, and the optimum's and the greedy's values from the
phase rows) and compares with the file (the color phases 14 and 15 on the recorded dice take
a 60-million-roll evaluation each, several minutes on the 2-core machine; ``--light`` leaves
them out).
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

from shipping import ROOT, load, ship_args, shipped_file, write_json

from phase10math.cache import package_version
from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.meld import placements
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.turn.tables import phase_row
from phase10math.turn.thumb import (
    RECOMPUTE_THUMB,
    THUMB_FILE,
    Line,
    Rule,
    rule_price,
    search_rules,
    simplest,
    simulate_rule,
)

TARGET = shipped_file("turn", THUMB_FILE)
CHECKPOINT = ROOT / "tools" / "solves" / "rules_of_thumb_search.json"
LAYOUTS = {"recorded": RECORDED_LAYOUT, "compact": COMPACT_LAYOUT}
MC_TURNS = 20_000
HEAVY = {("recorded", 14), ("recorded", 15)}


def frac(v: Fraction | None) -> str | None:
    return None if v is None else f"{v.numerator}/{v.denominator}"


def value_space_twin(name: str, n: int) -> bool:
    """A phase without colors sees the numbers only: on the compact dice it is the same game
    as on the recorded dice (the same die types: six high dice, four low)."""
    return name == "compact" and not PHASES[n].uses_color


def search_phase(name: str, n: int, log, max_lines: int = 3, beam: int = 3) -> dict:
    """The search's result for one phase: the shortest rule within 1 point of chance of the
    optimum (or the best found) and the best rule for points; per length the best value."""
    layout = LAYOUTS[name]
    row = phase_row(n, DEFAULT_RULES, layout)
    out: dict = {}
    if PHASES[n].uses_color:
        out["complete"] = {"lines": [], "levels": []}
        out["score"] = {"lines": [], "levels": []}
        return out
    wide = len(placements(PHASES[n])) > 200  # 4 sets of 2: keys computed per rule, slowly
    for aim, target, lines, width in (
        ("complete", row["p_optimal"] - Fraction(1, 100), max_lines, beam),
        ("score", row["e_score_optimal"] - 1, max_lines - 1, max(1, beam - 1)),
    ):
        if wide:
            lines, width = min(lines, 2), 1
        levels = search_rules(
            n, aim, target, lines, width, DEFAULT_RULES, layout, timed=not wide, log=log
        )
        measure = "p_complete" if aim == "complete" else "e_score"
        values = [getattr(lv[0].price, measure) for lv in levels]
        # the shortest rule that reaches the target, else the shortest of the best value
        goal = target if values[-1] >= target else max(values)
        best = next(lv[0] for lv, v in zip(levels, values) if v >= goal)
        out[aim] = {
            "lines": [line.to_json() for line in best.lines],
            "levels": [float(v) for v in values],
        }
    return out


def entry(name: str, n: int, found: dict, mc: bool = True, prune: bool = True) -> dict:
    """A phase's shipped entry: the rules with their exact prices (each line the rule can do
    without dropped, :func:`~phase10math.turn.thumb.simplest`), the optimum's and the
    greedy's values, and the Monte Carlo check."""
    layout = LAYOUTS[name]
    row = phase_row(n, DEFAULT_RULES, layout)
    targets = {"complete": row["p_optimal"] - Fraction(1, 100), "score": row["e_score_optimal"] - 1}
    out = {
        "phase": PHASES[n].key(),
        "requirement": PHASES[n].text,
        "optimal": {"p_complete": frac(row["p_optimal"]), "e_score": frac(row["e_score_optimal"])},
        "greedy": {"p_complete": frac(row["p_greedy"])},
    }
    for aim in ("complete", "score"):
        lines = tuple(Line.from_json(x) for x in found[aim]["lines"])
        if prune and lines:
            lines = simplest(lines, n, aim, targets[aim], DEFAULT_RULES, layout)
        rule = Rule(lines, n, aim, DEFAULT_RULES, layout)
        price = rule_price(rule)
        item = {
            "lines": [line.to_json() for line in lines],
            "words": rule.steps(),
            "p_complete": frac(price.p_complete),
            "e_score": frac(price.e_score),
            "levels": found[aim]["levels"],
        }
        if mc:
            item["monte_carlo"] = simulate_rule(rule, MC_TURNS, seed=1000 + n)
        out[aim] = item
    return out


def markdown_table(name: str = "recorded") -> str:
    """The shipped rules of one set of dice as a Markdown table (for docs/rules-of-thumb.md)."""
    per = load(TARGET)["layouts"][name]
    rows = [
        "| phase | rule (its own lines; the basic rule ends every rule) | P(complete) rule / best"
        " / greedy | gap | Monte Carlo (20,000 turns) | E[score] points rule / best |",
        "|---|---|---|---|---|---|",
    ]
    for key, e in per.items():
        c, s = e["complete"], e["score"]
        own = [w for w in c["words"] if not w.startswith(("Then keep", "Keep as many dice"))]
        p, best = Fraction(c["p_complete"]), Fraction(e["optimal"]["p_complete"])
        g = Fraction(e["greedy"]["p_complete"])
        mc = c.get("monte_carlo") or {}
        mc_text = f"{100 * mc['p_complete']:.2f}% ± {100 * mc['p_se']:.2f}" if mc else "-"
        es = "-" if s["e_score"] is None else f"{float(Fraction(s['e_score'])):.2f}"
        rows.append(
            f"| {key}: {e['requirement']} | {' '.join(own) or '(the basic rule)'} | "
            f"{100 * float(p):.2f}% / {100 * float(best):.2f}% / {100 * float(g):.2f}% | "
            f"{100 * float(best - p):.2f} | {mc_text} | "
            f"{es} / {float(Fraction(e['optimal']['e_score'])):.2f} |"
        )
    return "\n".join(rows)


def options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--light", action="store_true", help="with --check: skip phases 14, 15")
    ap.add_argument("--checkpoint", type=Path, default=CHECKPOINT)
    ap.add_argument("--layouts", default="recorded,compact")
    ap.add_argument("--phases", default="1-20", help="e.g. 1-20 or 1-6,8,12-16")
    ap.add_argument("--max-lines", type=int, default=3, help="longest rule searched (lines)")
    ap.add_argument("--beam", type=int, default=3, help="rules kept per length")
    ap.add_argument("--search-only", action="store_true", help="search, do not write the data")


def main() -> int:
    a = ship_args(
        __doc__.split("\n\n")[0],
        "price the shipped rules, compare",
        "print the shipped rules as Markdown",
        options,
    )
    phases = []
    for part in a.phases.split(","):
        lo, _, hi = part.partition("-")
        phases += range(int(lo), int(hi or lo) + 1)
    t0 = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:7.1f}s] {msg}", flush=True)

    if a.table:
        for name in a.layouts.split(","):
            print(f"\n{name} dice:\n\n{markdown_table(name)}")
        return 0
    if a.check:
        shipped = load(TARGET)
        bad = 0
        for name, per in shipped["layouts"].items():
            for key, old in per.items():
                n = int(key)
                if a.light and (name, n) in HEAVY:
                    continue
                found = {aim: {"lines": old[aim]["lines"], "levels": old[aim]["levels"]}
                         for aim in ("complete", "score")}  # fmt: skip
                new = entry(name, n, found, mc=False, prune=False)
                for aim in ("complete", "score"):
                    new[aim]["monte_carlo"] = old[aim].get("monte_carlo")
                same = new == old
                bad += not same
                log(f"{name} phase {n}: {'same' if same else 'DIFFERS'}")
        print("the shipped rules' prices equal the prices computed now" if not bad else "DIFFER")
        return 1 if bad else 0

    state = load(a.checkpoint)
    order = sorted(phases, key=lambda n: n in (7, 9, 10, 11))  # the slow ones last
    for name in a.layouts.split(","):
        for n in order:
            key = f"{name}/{n}"
            if key in state:
                continue
            if value_space_twin(name, n) and f"recorded/{n}" in state:
                state[key] = state[f"recorded/{n}"]
            else:
                log(f"searching {key}")
                state[key] = search_phase(name, n, log, a.max_lines, a.beam)
            a.checkpoint.parent.mkdir(parents=True, exist_ok=True)
            write_json(a.checkpoint, state)
    if a.search_only:
        return 0
    fresh = {}
    for name in a.layouts.split(","):
        for n in phases:
            log(f"pricing {name} phase {n}")
            fresh[name, str(n)] = entry(name, n, state[f"{name}/{n}"])
    data = load(TARGET) or {"layouts": {}}  # read now: another run may have written it
    for (name, key), item in fresh.items():
        data["layouts"].setdefault(name, {})[key] = item
    for name, per in data["layouts"].items():
        data["layouts"][name] = {k: per[k] for k in sorted(per, key=int)}
    data.update(
        format=1,
        rules=DEFAULT_RULES.to_dict(),
        command=RECOMPUTE_THUMB,
        code_version=package_version(),
    )
    write_json(TARGET, data)
    log(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
