"""How soon the command line answers what needs no solve: ``--help``, ``--version``, a
sub-command's ``--help`` and refused input, each a whole process (interpreter start
included), beside ``python -c pass`` (the floor) and ``python -c "import numpy"`` (what one
heavy import costs) in the same run, the commands taking turns so that the machine's other
load falls on all alike. The modules' bytecode is cached (written by the warm-up run where
it is not yet), as in an installed package. Prints min and median wall seconds and the
median's ratio to each yardstick (target: <= 0.3 s, issue 51).

    python benchmarks/bench_cli_start.py [--reps 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DICE = "1 2 3 4 5 6 7 8 9 10".split()
CLI = [sys.executable, "-m", "phase10math"]

#: name -> (command, its exit code)
COMMANDS = {
    "python -c pass": ([sys.executable, "-c", "pass"], 0),
    'python -c "import numpy"': ([sys.executable, "-c", "import numpy"], 0),
    "phase10math --help": ([*CLI, "--help"], 0),
    "phase10math --version": ([*CLI, "--version"], 0),
    "phase10math advise --help": ([*CLI, "advise", "--help"], 0),
    "refused: check --phase 99": ([*CLI, "check", "--phase", "99", *DICE], 2),
    "refused: advise, no colors": ([*CLI, "advise", "--phase", "8", "--rolls-left", "2", *DICE], 2),
    "refused: game, bad strategy": ([*CLI, "game", "--strategies", "best"], 2),
}


def run_once(argv: list[str], code: int, env: dict[str, str]) -> float:
    """Wall seconds of one whole process (its output thrown away); checks its exit code."""
    t = time.perf_counter()
    done = subprocess.run(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    seconds = time.perf_counter() - t
    if done.returncode != code:
        raise SystemExit(f"{argv}: exit {done.returncode}, expected {code}: {done.stderr!r}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once, as an installed package is
    env.setdefault("PHASE10MATH_CACHE_DIR", tempfile.mkdtemp(prefix="p10-bench-"))
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv, code in COMMANDS.values():  # warm-up: the file system cache, .pyc files
        run_once(argv, code, env)
    for _ in range(args.reps):
        for name, (argv, code) in COMMANDS.items():
            times[name].append(run_once(argv, code, env))
    base = statistics.median(times["python -c pass"])
    numpy = statistics.median(times['python -c "import numpy"'])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} cores, load {load:.1f}; {args.reps} runs each, in turn")
    print(f"{'command':<30}{'min s':>8}{'median s':>10}{'/ pass':>8}{'/ numpy':>9}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<30}{min(ts):>8.3f}{med:>10.3f}{med / base:>8.2f}{med / numpy:>9.2f}")
    print("target: --help, --version and refused input <= 0.3 s")


if __name__ == "__main__":
    main()
