"""Search the rules of thumb of phases 1-20 (recorded and compact dice, default rules), price
them exactly, check each price by a seeded Monte Carlo, and write them as the package data
that ``phase10math card`` and :mod:`phase10math.turn.thumb` read.

    python tools/ship_rules_of_thumb.py              # search (resumes its checkpoint), write
    python tools/ship_rules_of_thumb.py --check      # price the shipped rules again, compare
    python tools/ship_rules_of_thumb.py --check --light   # the same without phases 14 and 15

The search (:func:`~phase10math.turn.thumb.search_rules`, a beam search over the rule
language) takes about an hour on the 2-core machine; it writes every phase's result to the
checkpoint file (``--checkpoint``, default ``runs/rules_of_thumb_search.json``) as it goes, so
that a stopped run goes on where it stopped. ``--check`` does not search: it prices every
shipped rule again (exact fractions, and the optimum's and the greedy's values from the
phase rows) and compares with the file (the color phases 14 and 15 on the recorded dice take
a 60-million-roll evaluation each, about a minute; ``--light`` leaves them out).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

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
    simulate_rule,
)

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "phase10math" / "turn" / "data" / THUMB_FILE
CHECKPOINT = ROOT / "runs" / "rules_of_thumb_search.json"
LAYOUTS = {"recorded": RECORDED_LAYOUT, "compact": COMPACT_LAYOUT}
MC_TURNS = 20_000
HEAVY = {("recorded", 14), ("recorded", 15)}


def frac(v: Fraction | None) -> str | None:
    return None if v is None else f"{v.numerator}/{v.denominator}"


def value_space_twin(name: str, n: int) -> bool:
    """A phase without colors sees the numbers only: on the compact dice it is the same game
    as on the recorded dice (the same die types: six high dice, four low)."""
    return name == "compact" and not PHASES[n].uses_color


def search_phase(name: str, n: int, log) -> dict:
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
    for aim, target, max_lines, beam in (
        ("complete", row["p_optimal"] - Fraction(1, 100), 2 if wide else 3, 1 if wide else 3),
        ("score", row["e_score_optimal"] - 1, 1 if wide else 2, 1 if wide else 2),
    ):
        levels = search_rules(
            n, aim, target, max_lines, beam, DEFAULT_RULES, layout, timed=not wide, log=log
        )
        best = levels[-1][0]
        measure = "p_complete" if aim == "complete" else "e_score"
        out[aim] = {
            "lines": [line.to_json() for line in best.lines],
            "levels": [float(getattr(lv[0].price, measure)) for lv in levels],
        }
    return out


def entry(name: str, n: int, found: dict, mc: bool = True) -> dict:
    """A phase's shipped entry: the rules with their exact prices, the optimum's and the
    greedy's values, and the Monte Carlo check."""
    layout = LAYOUTS[name]
    row = phase_row(n, DEFAULT_RULES, layout)
    out = {
        "phase": PHASES[n].key(),
        "requirement": PHASES[n].text,
        "optimal": {"p_complete": frac(row["p_optimal"]), "e_score": frac(row["e_score_optimal"])},
        "greedy": {"p_complete": frac(row["p_greedy"])},
    }
    for aim in ("complete", "score"):
        lines = tuple(Line.from_json(x) for x in found[aim]["lines"])
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


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="price the shipped rules, compare")
    ap.add_argument("--light", action="store_true", help="with --check: skip phases 14, 15")
    ap.add_argument("--checkpoint", type=Path, default=CHECKPOINT)
    ap.add_argument("--layouts", default="recorded,compact")
    ap.add_argument("--phases", default="1-20")
    a = ap.parse_args()
    lo, _, hi = a.phases.partition("-")
    phases = list(range(int(lo), int(hi or lo) + 1))
    t0 = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:7.1f}s] {msg}", flush=True)

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
                new = entry(name, n, found, mc=False)
                for aim in ("complete", "score"):
                    new[aim]["monte_carlo"] = old[aim].get("monte_carlo")
                same = new == old
                bad += not same
                log(f"{name} phase {n}: {'same' if same else 'DIFFERS'}")
        print("the shipped rules' prices equal the prices computed now" if not bad else "DIFFER")
        return 1 if bad else 0

    state = load(a.checkpoint)
    for name in a.layouts.split(","):
        for n in phases:
            key = f"{name}/{n}"
            if key in state:
                continue
            if value_space_twin(name, n) and f"recorded/{n}" in state:
                state[key] = state[f"recorded/{n}"]
            else:
                log(f"searching {key}")
                state[key] = search_phase(name, n, log)
            a.checkpoint.parent.mkdir(parents=True, exist_ok=True)
            a.checkpoint.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    data = load(TARGET) or {"layouts": {}}
    for name in a.layouts.split(","):
        per = data["layouts"].setdefault(name, {})
        for n in phases:
            log(f"pricing {name} phase {n}")
            per[str(n)] = entry(name, n, state[f"{name}/{n}"])
        data["layouts"][name] = {k: per[k] for k in sorted(per, key=int)}
    data.update(
        format=1,
        rules=DEFAULT_RULES.to_dict(),
        command=RECOMPUTE_THUMB,
        code_version=package_version(),
    )
    TARGET.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    log(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
