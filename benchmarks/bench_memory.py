"""Memory where people use the kit, on the recorded dice: one cached solve serves the table and
the advice, the cached solution's size on disk, and the memory of several processes sharing it.

Every command runs in its own process with ``PHASE10MATH_MEMORY_GB`` (default 3) and a fresh
cache folder; each line prints the measured figure beside its target, and the PSS figures
beside a straightforward reference in the same run (each process holding its own copy of the
solution's arrays, as a plain pickle load gives):

    python benchmarks/bench_memory.py [--phases 8] [--kernels 5] [--memory-gb 3]

- ``table --phases P`` cold (the solve, both objectives, and the cache write): seconds and
  peak resident memory of the largest process;
- ``advise --phase P`` right after it, for both objectives: it must answer from the cache
  (seconds, peak);
- the cache entries of the phase on disk (bytes);
- ``--kernels`` processes that each load the phase's solution and answer one advice, then
  wait: their proportional set size (PSS, ``/proc/PID/smaps_rollup``) added up; the
  reference: the same processes with the arrays copied into private memory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: one roll of the recorded dice, die by die (``--by-die``): mostly blue
ROLL = "7b 9b 6b 8b 5b 8r 1b 2b 4b 3b"
GIB = 2**30


def tree_rss(root: int) -> int:
    """Resident bytes of a process and all its descendants, now (from ``/proc``)."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo.extend(c for c, pp in parent.items() if pp == pid and c not in tree)
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            pass
    return total


def timed(cmd: list[str], env: dict) -> tuple[float, float, float]:
    """(seconds, peak resident GiB of the largest process, as ``/usr/bin/time`` reports it,
    and the peak of all its processes together, sampled every 0.2 s) of a command."""
    t = time.perf_counter()
    p = subprocess.Popen(
        ["/usr/bin/time", "-f", "maxrss %M", *cmd],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    together = 0
    while p.poll() is None:
        together = max(together, tree_rss(p.pid))
        time.sleep(0.2)
    secs = time.perf_counter() - t
    lines = p.stderr.read().strip().splitlines()
    if p.returncode or not lines or not lines[-1].startswith("maxrss"):
        raise SystemExit(f"{' '.join(cmd)} failed: {lines[-2:]}")
    return secs, int(lines[-1].split()[1]) / 2**20, together / GIB


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "phase10math", *args]


def entry_bytes(cache: Path) -> list[int]:
    """Bytes of each large (memory-mapped) cache entry."""
    return sorted(
        sum(f.stat().st_size for f in d.rglob("*") if f.is_file()) for d in cache.glob("*.arrays")
    )


CHILD = """
import sys, numpy as np
from phase10math.dice.faces import parse_faces
from phase10math.turn.advisor import advise
from phase10math.turn.tables import cached_solution
phase, copy, roll = int(sys.argv[1]), sys.argv[2] == "copy", sys.argv[3]
sol = cached_solution(phase, "complete")
if copy:  # the reference: every array of the solution in this process's own memory
    for key in sol.keys:
        for r in list(key.roll_num):
            key.roll_num[r] = np.array(key.roll_num[r])
        for r, lazy in key.hold_num.items():
            lazy.below = key.roll_num[r - 1]
advise(parse_faces(roll), 2, phase, by_die=True)
advise(parse_faces(roll), 1, phase, by_die=True)
print("ready", flush=True)
sys.stdin.read()
"""


def pss_of(pid: int) -> tuple[int, int]:
    """(PSS, RSS) bytes of a process."""
    vals = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] in ("Pss:", "Rss:"):
                vals[parts[0]] = int(parts[1]) * 1024
    return vals["Pss:"], vals["Rss:"]


def kernels(k: int, phase: int, env: dict, copy: bool) -> tuple[int, int]:
    """PSS and RSS added up over ``k`` processes holding the phase's solution."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(phase), "copy" if copy else "map", ROLL],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(k)
    ]
    try:
        for p in procs:
            if p.stdout.readline().strip() != "ready":
                raise SystemExit("a kernel failed")
        figures = [pss_of(p.pid) for p in procs]
    finally:
        for p in procs:
            p.stdin.close()
            p.wait()
    return sum(f[0] for f in figures), sum(f[1] for f in figures)


def main() -> None:
    try:
        _main()
    finally:
        for d in Path(tempfile.gettempdir()).glob("p10-bench-*"):
            shutil.rmtree(d, ignore_errors=True)


def _main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", default="8", help="color phases, e.g. 8 or 8,14,15,18")
    ap.add_argument("--kernels", type=int, default=5)
    ap.add_argument("--memory-gb", default="3")
    ap.add_argument("--readme-table", action="store_true", help="also time `table` (1-10)")
    a = ap.parse_args()
    phases = [int(x) for x in a.phases.split(",")]
    cache = Path(tempfile.mkdtemp(prefix="p10-bench-memory-"))
    env = dict(os.environ, PHASE10MATH_CACHE_DIR=str(cache), PHASE10MATH_MEMORY_GB=a.memory_gb)
    print(f"PHASE10MATH_MEMORY_GB={a.memory_gb}, cache {cache}, load {os.getloadavg()[0]:.1f}")
    for ph in phases:
        secs, peak, tog = timed(cli("table", "--phases", str(ph), "--solve"), env)
        print(
            f"table --phases {ph}, cold: {secs:.1f} s, peak {peak:.2f} GiB, all its processes "
            f"{tog:.2f} GiB (target <= 3 GB)"
        )
        for obj in ("complete", "score"):
            args = ["--phase", str(ph), "--rolls-left", "2", "--by-die", "--objective", obj]
            secs, peak, _tog = timed(cli("advise", *args, *ROLL.split()), env)
            print(
                f"  advise --phase {ph} --objective {obj} after it: {secs:.1f} s, "
                f"peak {peak:.2f} GiB (from the cache)"
            )
        sizes = entry_bytes(cache)
        print(
            "  cached solutions on disk: "
            + ", ".join(f"{s / 1e6:.0f} MB ({s / 2**20:.0f} MiB)" for s in sizes)
            + " (target <= 600 MB each)"
        )
    if a.readme_table:  # in a cache of its own: cold
        fresh = dict(env, PHASE10MATH_CACHE_DIR=tempfile.mkdtemp(prefix="p10-bench-table-"))
        secs, peak, tog = timed(cli("table", "--solve"), fresh)
        print(
            f"table (phases 1-10), cold: {secs:.1f} s (target <= 30 s), peak {peak:.2f} GiB, "
            f"all its processes {tog:.2f} GiB"
        )
    ph = phases[0]
    ref = kernels(a.kernels, ph, env, copy=True)
    kit = kernels(a.kernels, ph, env, copy=False)
    print(
        f"{a.kernels} processes with phase {ph} loaded and one advice each: PSS {kit[0] / GIB:.2f}"
        f" GiB together (RSS {kit[1] / GIB:.2f}; target < 1.5 GB); reference, arrays copied into"
        f" each process: PSS {ref[0] / GIB:.2f} GiB (RSS {ref[1] / GIB:.2f}); ratio"
        f" {ref[0] / kit[0]:.1f}"
    )


if __name__ == "__main__":
    main()
