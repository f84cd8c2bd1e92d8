"""What checking every byte of a large cache entry costs, and that a damaged one still gives
the right answer: phase 8 ("7 of one color") on the recorded dice, the advice it once got wrong.

1. The entry is made (cold, if absent): ``advise --phase 8 --rolls-left 2 --by-die 5r 6r 7r
   8b 9r 10o 1b 2b 3r 4r --json``.
2. Loading it warm (page cache warm, a new process): :func:`phase10math.cache.load_large`
   (each ``.npy`` file's size, hash and header checked on first use in the process) against
   the straightforward reference in the same run, the loading of before the checks: each
   file memory-mapped by ``numpy.load(mmap_mode="r")``, nothing checked. Alternated, each in
   its own process; then the whole advise command, warm, with and without the checks. The
   budget: the checks add at most 1 s or 10% of the reference, whichever is larger.
3. Every seventh value of every array of the entry altered (headers intact): the advice must
   still be P(complete) = 89351/104976 with one warning (the entry found damaged, recomputed,
   replaced); the next run uses the new entry without a word.

    flock /work/heavy.lock python benchmarks/bench_cache_integrity.py [--cache DIR] [--runs 3]

Peak memory is the largest child's peak resident set (the mapped file pages it touched
included). Measured (2-core AMD EPYC, 24 GB, shared with other jobs, load 8.5-9.8; hashes by
xxHash, xxh3_128; the entry 2.37 GiB in 8 arrays):

    date        what                                               min / median / max
    2026-12-01  loading warm, new process: reference (no checks)   0.006 / 0.014 / 0.015 s
                                           checked                 0.365 / 0.368 / 0.628 s
                the checks add 0.35 s (budget 1 s: within); about 0.15 s per GiB, the
                hash reading every page of the files through a memory map
    2026-12-01  whole advice, warm: reference                      1.93 / 2.12 / 5.46 s
                                    checked                        2.21 / 3.37 / 3.82 s
                (3 runs each at load 9 on 2 cores: the spread is the load's)
    2026-12-01  every seventh value of the 8 arrays altered (69,104,208 values): the advice
                P(complete) = 89351/104976 (right), one warning ("a0.npy: checksum mismatch";
                removed, recomputed: 85.4 s, as cold 84.1 s), the next run 2.1 s, right, no
                warning. Peak resident memory of the largest child 5.44 GiB.
    2026-12-01  again, 6 runs each (--skip-damage, load 7.7-8.4):
                loading warm: reference 0.001 / 0.003 / 0.010 s, checked 0.155 / 0.215 /
                0.275 s: the checks add 0.21 s (budget 1 s: within)
                whole advice, warm: reference 0.73 / 0.90 / 1.37 s, checked 0.93 / 1.06 /
                1.38 s: ratio 1.18, adds 0.16 s; the advice right in every run, no warning
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADVISE = [
    "advise",
    "--phase",
    "8",
    "--rolls-left",
    "2",
    "--by-die",
    *"5r 6r 7r 8b 9r 10o 1b 2b 3r 4r".split(),
    "--json",
]
RIGHT = Fraction(89351, 104976)

# a new process: the entry's key, then its loading timed (checked, or as before the checks)
LOAD = """
import io, pickle, sys, time
import numpy as np
from phase10math import cache
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES, Objective
from phase10math.turn.solver import TurnSolution
from phase10math.turn.tables import turn_key

key = turn_key(PHASES[8], Objective.COMPLETE, DEFAULT_RULES, DEFAULT_LAYOUT)
folder = cache.cache_dir() / f"{key}.arrays"

class Reference(pickle.Unpickler):  # the loading of before the checks
    def persistent_load(self, pid):
        return np.load(folder / f"{pid[1]}.npy", mmap_mode="r")

t0 = time.perf_counter()
if sys.argv[1] == "checked":
    sol = cache.load_large(key, TurnSolution)
else:
    body = (folder / "object.pkl").read_bytes()[len(cache._MAGIC) + 32 :]
    payload = body[4 + int.from_bytes(body[:4], "big") :]  # after the identity
    sol = Reference(io.BytesIO(payload)).load()
dt = time.perf_counter() - t0
assert sol is not None
print(dt)
"""


def env(cache_dir: str) -> dict[str, str]:
    e = {**os.environ, "PHASE10MATH_CACHE_DIR": cache_dir}
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT), e.get("PYTHONPATH", "")])
    return e


def run(args: list[str], cache_dir: str) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, env=env(cache_dir), timeout=3600)
    return time.perf_counter() - t0, out


def advise(cache_dir: str, checked: bool = True):
    """The advice (whole process): seconds, P(complete) of the best hold, warning lines."""
    if checked:
        cmd = [sys.executable, "-m", "phase10math", *ADVISE]
    else:  # the same command with the array checks replaced by the plain map of before
        cmd = [
            sys.executable,
            "-c",
            "import sys, numpy as np; from phase10math import cache, cli; "
            "cache.map_array = lambda path, *a: np.load(path, mmap_mode='r'); "
            f"sys.exit(cli.main({ADVISE!r}))",
        ]
    dt, out = run(cmd, cache_dir)
    if out.returncode != 0:
        raise SystemExit(f"advise failed ({out.returncode}): {out.stderr}")
    best = json.loads(out.stdout)["options"][0]["value"]["fraction"]
    warns = [x for x in out.stderr.splitlines() if x.startswith("phase10math: warning")]
    return dt, Fraction(best), warns


def verdict(p: Fraction) -> str:
    return "right" if p == RIGHT else f"WRONG, not {RIGHT}"


def entry(cache_dir: str) -> Path:
    (folder,) = [p for p in Path(cache_dir).glob("*.arrays") if not p.name.startswith(".")]
    return folder


def damage_every_seventh_value(folder: Path) -> int:
    import numpy as np

    n = 0
    for npy in sorted(folder.glob("*.npy")):
        a = np.load(npy, mmap_mode="r+")
        flat = a.reshape(-1)
        flat[::7] = flat[::7] + 1 if a.dtype != np.bool_ else ~flat[::7]
        a.flush()
        n += (flat.size + 6) // 7
        del a, flat
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", help="cache folder (default: a new one, removed after)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-damage", action="store_true")
    a = ap.parse_args()
    own = a.cache is None
    cache_dir = a.cache or tempfile.mkdtemp(prefix="p10-integrity-", dir="/var/tmp")
    print(f"load {os.getloadavg()[0]:.1f}; cache {cache_dir}")

    dt, p, warns = advise(cache_dir)
    print(f"1. advice, cold or as found: {dt:.1f} s, P(complete) = {p} ({verdict(p)})")
    folder = entry(cache_dir)
    size = sum(f.stat().st_size for f in folder.iterdir())
    print(
        f"   entry {folder.name[:12]}...: {size / 2**30:.2f} GiB in "
        f"{len(list(folder.glob('*.npy')))} arrays"
    )

    times: dict[str, list[float]] = {"checked": [], "reference": []}
    for _ in range(a.runs):
        for side in ("reference", "checked"):
            _, out = run([sys.executable, "-c", LOAD, side], cache_dir)
            if out.returncode != 0:
                raise SystemExit(out.stderr)
            times[side].append(float(out.stdout.split()[0]))
    ref, chk = statistics.median(times["reference"]), statistics.median(times["checked"])
    budget = max(1.0, 0.1 * ref)
    print("2. loading warm, new process (min / median / max, s):")
    for side, ts in times.items():
        print(f"   {side:9} {min(ts):.3f} / {statistics.median(ts):.3f} / {max(ts):.3f}")
    print(
        f"   checks add {chk - ref:.3f} s (budget {budget:.1f} s): "
        f"{'within' if chk - ref <= budget else 'OVER'}"
    )

    cmd_times: dict[str, list[float]] = {"checked": [], "reference": []}
    for _ in range(a.runs):
        for side in ("reference", "checked"):
            dt, p, warns = advise(cache_dir, checked=side == "checked")
            assert p == RIGHT and not warns, (p, warns)
            cmd_times[side].append(dt)
    ref_c, chk_c = (
        statistics.median(cmd_times["reference"]),
        statistics.median(cmd_times["checked"]),
    )
    print("   the whole advice, warm (min / median / max, s):")
    for side, ts in cmd_times.items():
        print(f"   {side:9} {min(ts):.2f} / {statistics.median(ts):.2f} / {max(ts):.2f}")
    print(f"   ratio checked / reference {chk_c / ref_c:.3f}; adds {chk_c - ref_c:.2f} s")

    if not a.skip_damage:
        n = damage_every_seventh_value(folder)
        print(f"3. {n:,} values altered (every seventh of every array, headers intact)")
        dt, p, warns = advise(cache_dir)
        print(f"   advice: {dt:.1f} s, P(complete) = {p} ({verdict(p)}); warnings: {len(warns)}")
        for w in warns:
            print(f"     {w[:160]}")
        dt2, p2, warns2 = advise(cache_dir)
        print(f"   next run: {dt2:.1f} s, P(complete) = {p2}; warnings: {len(warns2)}")
        ok = p == p2 == RIGHT and len(warns) == 1 and "damaged" in warns[0] and not warns2
        print(f"   {'PASS' if ok else 'FAIL'}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    print(
        f"peak resident memory of the largest child: {peak:.2f} GiB; load {os.getloadavg()[0]:.1f}"
    )
    if own:
        import shutil

        shutil.rmtree(cache_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
