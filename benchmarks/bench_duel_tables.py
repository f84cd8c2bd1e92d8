"""Reading the shipped two-player tables: the color phase's turn built when first needed,
against building every phase's turn on reading (the straightforward form, the reference), in
the same run, each in a fresh process.

A table of phases with a color phase (6-10: phase 8 on the compact dice) needs that phase's
turn (the certified family on the full projection: 9,680,832 holds) only for a decision at
it; a look-up of a state's chance to win, or any decision at another phase, does not. For each
shipped range this prints the seconds to read the table and answer one look-up, and the
process's peak memory, both ways; then the first and the second ``win_advice`` at phase 8
(the family built, the per-turn objectives' holds from the cached turn solutions).

Then the packed form (``.npz``: optimal play's values as arrays in the game's state order,
looked up by block) against the rows of JSON read into dicts (the shipped form, the
reference): the file's size, the seconds to read it and to look up every state once, peak
memory; and what the packed form would take for the 10-phase game from its start
(1,537,966 states and 214,786 last chances) at the bytes a state measured here.

    python benchmarks/bench_duel_tables.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, resource, sys, time
t0 = time.monotonic()
from phase10math.game.duel import read_table
lo, hi, eager = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "eager"
sol, _ = read_table(phases=(lo, hi))
g = sol.game
if eager:  # the reference: every phase's turn built on reading
    for k in g.phases:
        g.turns[k]
w = sol.value(g.key_of(0, (hi, 30), (hi, 45)))[0]
out = {"seconds": time.monotonic() - t0, "value": w,
       "peak_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}
if len(sys.argv) > 4:  # then win_advice at phase 8 on the compact dice, twice
    from phase10math.dice.faces import parse_faces
    from phase10math.dice.layouts import COMPACT_LAYOUT
    from phase10math.game.duel import win_advice
    faces = parse_faces("7b 8b 10r 6r 9o 7g Wg 1g 3b 2g")
    for name in ("advice_first", "advice_second"):
        t = time.monotonic()
        win_advice(sol, (8, 150), (7, 170), faces, 1, layout=COMPACT_LAYOUT)
        out[name] = time.monotonic() - t
    out["peak_gib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps(out))
"""

PACKED_CHILD = r"""
import json, resource, sys, time
t0 = time.monotonic()
from phase10math.game.duel import Play, read_table
path = sys.argv[1]
sol, _ = read_table(None if path == "-" else path, (int(sys.argv[2]), int(sys.argv[3])))
read = time.monotonic() - t0
vals = sol.values[(Play.OPTIMAL, Play.OPTIMAL)]
total = sum(sol.value(k)[0] + sol.error(k) for k in vals)
print(json.dumps({"read": read, "all": time.monotonic() - t0, "n": len(vals), "sum": total,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10}))
"""


def run(*args: str, child: str = CHILD) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", child, *args], capture_output=True, text=True, check=True
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def packed_against_rows(repeat: int) -> None:
    """Each shipped table written packed, both forms read in fresh processes."""
    from importlib import resources

    from phase10math.game.duel import TABLE_FILES, TABLE_PACKAGE, read_table, write_table
    from phase10math.game.duel.files import TableForm

    per_state = []
    with tempfile.TemporaryDirectory() as tmp:
        for lo, hi in sorted(TABLE_FILES):
            sol, data = read_table(phases=(lo, hi))
            path = os.path.join(tmp, f"duel_{lo}_{hi}.npz")
            write_table(sol, path, data["command"], TableForm.PACKED)
            n = len(sol.values[next(iter(sol.values))]) + len(sol.last[next(iter(sol.last))])
            rows = resources.files(TABLE_PACKAGE).joinpath(TABLE_FILES[(lo, hi)])
            sizes = (len(rows.read_bytes()), os.path.getsize(path))
            per_state.append(sizes[1] / n)
            best = {}
            for _ in range(repeat):
                for name, arg in (("rows", "-"), ("packed", path)):
                    r = run(arg, str(lo), str(hi), child=PACKED_CHILD)
                    if name not in best or r["all"] < best[name]["all"]:
                        best[name] = r
            b, p = best["rows"], best["packed"]
            print(
                f"phases {lo}-{hi} ({b['n']:,} states): rows {sizes[0] / 1e6:.2f} MB, read "
                f"{b['read']:.2f} s, every state looked up {b['all']:.2f} s, peak "
                f"{b['peak_mib']:.0f} MiB; packed {sizes[1] / 1e6:.2f} MB, {p['read']:.2f} s, "
                f"{p['all']:.2f} s, {p['peak_mib']:.0f} MiB (read {b['read'] / p['read']:.1f}x "
                f"faster); same states {b['n'] == p['n']}, sums of value + error "
                f"{b['sum']:.9f} / {p['sum']:.9f}"
            )
    most = max(per_state)
    print(
        f"the 10-phase game from its start, packed: about "
        f"{most * (1537966 + 214786) / 1e6:.0f} MB at {most:.1f} bytes a state"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    from phase10math.game.duel import shipped_ranges

    for lo, hi in sorted(shipped_ranges()):
        for how in ("lazy", "eager"):
            runs = [run(str(lo), str(hi), how) for _ in range(a.repeat)]
            best = min(runs, key=lambda r: r["seconds"])
            each = ", ".join(f"{r['seconds']:.2f}" for r in runs)
            print(
                f"phases {lo}-{hi}, {how:>5}: read + one look-up {best['seconds']:.2f} s "
                f"(of {a.repeat}: {each}), "
                f"peak {best['peak_gib']:.2f} GiB, value {best['value']:.6f}"
            )
    r = run("6", "10", "lazy", "advice")
    print(
        f"phases 6-10: win_advice at phase 8 (compact dice) first {r['advice_first']:.2f} s, "
        f"then {r['advice_second']:.2f} s; peak {r['peak_gib']:.2f} GiB (the first call builds "
        "the family and, on an empty cache, solves the two per-turn objectives' turns)"
    )
    packed_against_rows(a.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
