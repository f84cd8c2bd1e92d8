"""The two-player solve on a Dask cluster against the solve in process, in the same run, and
what a cluster would make of the recorded 10-phase and 20-phase games.

1. The workload (default: the recorded dice' end game 9-10, every total; no color phase) is
   solved in process, then on a ``LocalCluster`` of ``--workers`` worker processes (one
   thread each); the tables must be equal bit for bit (checked, printed). Measured on the
   way: each task's cost in process (a layer's part: seconds a pair; a phase's last chances:
   seconds a state), what the cluster adds on the client (a task's inputs gathered from the
   table and its result merged back, seconds a pair) and a task's round trip through the
   scheduler (an empty task, submitted and waited for, ``--trips`` times).
2. The projection: the recorded 10-phase game (phases 1-10, states reachable from the
   start) and the 20-phase game (phases 1-20) have their tasks counted from the games
   themselves (pairs of each part of each layer, last-chance states of each phase). The
   model, per step of the solve:

   - a layer: its parts run at once, each a task of ``pairs x (cost a pair)`` plus its
     exact solves, plus a round trip; the layer takes the longer of its largest task and
     its tasks' sum over the workers (its critical path), plus the client's serial work
     (gathering and merging, ``pairs x (client cost a pair)``);
   - a phase's last chances: one task after another (each phase's rest on the next);
   - a round of targeted refinement: its exact solves side by side (two a task, waves of
     one task a worker), then its states solved again as parts of the layers.

   The exact solves (the recorded dice' color phases on the tensor engine) are not run
   here: their number and cost are the recorded 10-phase run's (``docs/speed.md``: the
   first pass 396 of them, 68 in phase 8's last chances, the rest in the parts with a
   player at phase 8; rounds of 1,230 and 976; about 4.0 s each, round 1's 4,916 s over
   1,230), and the states solved again the same run's (76,213 and 95,569 pairs). The
   20-phase game has four color phases (8, 14, 15, 18): each taken to need as many exact
   solves as phase 8 of the 10-phase game. Pairs with a player at a color phase are taken
   to cost as much as the others (their exact solves counted apart).

    python benchmarks/bench_duel_cluster.py [--phases 9-10] [--layout recorded]
        [--workers 2] [--trips 50]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import time

import numpy as np

import phase10math.game.duel as duel
from phase10math.dice.layouts import LAYOUTS
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.game.duel import cluster as dask_cluster
from phase10math.game.duel import layers as duel_layers
from phase10math.game.duel import pair as duel_pair
from phase10math.game.duel import tasks as duel_tasks

OPT = (Play.OPTIMAL, Play.OPTIMAL)
WORKERS = (8, 64, 256)
# the recorded 10-phase run (docs/speed.md): exact solves and states solved again
EXACT_SECONDS = 4916 / 1230
FIRST_PASS_EXACT, LAST_CHANCE_EXACT = 396, 68
ROUNDS = ((1230, 76_213), (976, 95_569))
COLOR_TASK = 2  # rows a task of a costly family's exact solves (COSTLY_CHUNK)


@contextlib.contextmanager
def timed(module, name: str, log: list, size):
    """``module.name`` timed at every call: (wall seconds, ``size(args)``, CPU seconds)
    appended to ``log``."""
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        t0, c0 = time.perf_counter(), time.process_time()
        out = original(*args, **kwargs)
        log.append((time.perf_counter() - t0, size(args), time.process_time() - c0))
        return out

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


def in_process(game_of) -> tuple[float, list, list, duel.DuelSolution]:
    parts, lasts = [], []
    with (
        timed(duel_pair, "solve_layer", parts, lambda a: len(a[1])),
        timed(duel_layers, "solve_last", lasts, lambda a: len(a[2])),
    ):
        t0 = time.perf_counter()
        sol = solve_duel(game_of())
        return time.perf_counter() - t0, parts, lasts, sol


def on_cluster(game_of, workers: int, size: int | None):
    """Solve on a LocalCluster of ``workers`` processes (tasks of about ``size`` pairs):
    (wall seconds with the cluster's start and its workers' games built, the solve's
    alone, the client's own work per task: (seconds, pairs or states), the tasks as their
    workers timed them: (kind, pairs or states, wall, CPU), the table)."""
    import distributed

    client_work: list = []
    done: list = []
    job, merge = dask_cluster.DaskTasks.job, dask_cluster.DaskTasks.merge

    def timed_job(self, keys, *args, **kwargs):
        t0 = time.perf_counter()
        out = job(self, keys, *args, **kwargs)
        client_work.append((time.perf_counter() - t0, len(keys)))
        return out

    def timed_merge(self, result, kind, layer):
        t0 = time.perf_counter()
        merge(self, result, kind, layer)
        client_work.append((time.perf_counter() - t0, 0))
        done.append(self.done[-1])

    dask_cluster.DaskTasks.job, dask_cluster.DaskTasks.merge = timed_job, timed_merge
    t0 = time.perf_counter()
    try:
        with (
            distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, dashboard_address=None
            ) as lc,
            distributed.Client(lc) as client,
        ):
            client.run(duel_tasks.worker_game, duel_tasks.GameSpec.of(game_of()))
            t1 = time.perf_counter()
            cluster = dask_cluster.Cluster(scheduler=lc.scheduler_address, pairs_per_task=size)
            sol = solve_duel(game_of(), cluster=cluster)
            t2 = time.perf_counter()
        return t2 - t0, t2 - t1, client_work, done, sol
    finally:
        dask_cluster.DaskTasks.job, dask_cluster.DaskTasks.merge = job, merge


def round_trip(trips: int) -> float:
    """Seconds a task's round trip through a LocalCluster's scheduler (an empty task)."""
    with dask_cluster.connected(dask_cluster.Cluster(local=2)) as client:
        client.submit(abs, -1, pure=False).result()
        t0 = time.perf_counter()
        for i in range(trips):
            client.submit(abs, -i, pure=False).result()
        return (time.perf_counter() - t0) / trips


def equal(a: duel.DuelSolution, b: duel.DuelSolution) -> bool:
    return (
        all(a.values[m] == b.values[m] for m in a.values)
        and a.last == b.last
        and a.errors == b.errors
        and a.gaps == b.gaps
        and all(np.array_equal(a.dists[k], b.dists[k]) for k in a.dists)
        and (a.bound, a.tie_bound) == (b.bound, b.tie_bound)
    )


# --------------------------------------------------------------------------- counting


def counts(game: DuelGame) -> tuple[dict[int, list[tuple[int, int]]], dict[int, int]]:
    """The pairs of each part (seat 0's phase, pairs) of each layer, the last-chance states
    of each phase, counted without listing them (from the blocks of a packed table's
    states, :func:`~phase10math.game.duel.state_blocks`)."""
    layers: dict[int, dict[int, int]] = {
        L: {ka: 0 for ka in range(game.lo, game.hi + 1) if game.lo <= L - ka <= game.hi}
        for L in range(2 * game.hi, 2 * game.lo - 1, -1)
    }
    for (seat, a, b), _, n in duel.state_blocks(game):
        if seat == 0:
            layers[a[0] + b[0]][a[0]] += n
    lasts = {k: len(duel_layers.last_keys(game, k)) for k in range(game.hi, game.lo - 1, -1)}
    return {L: list(parts.items()) for L, parts in layers.items()}, lasts


def project(game, layers, lasts, cost, workers: int, size: int | None) -> dict[str, float]:
    """The model of the module text: seconds of the last chances, the first pass's layers
    and the rounds on ``workers`` workers, a part in tasks of about ``size`` pairs (one
    task a part without)."""
    c_pair, c_last, c_client, trip = cost
    colors = [k for k, ph in game.phases.items() if ph.uses_color]
    scale = max(1, len(colors))  # exact solves: as many a color phase as phase 8's

    def colored(L: int, ka: int) -> bool:
        return ka in colors or L - ka in colors

    color_pairs = sum(n for L, parts in layers.items() for ka, n in parts if colored(L, ka))
    in_parts = (FIRST_PASS_EXACT - LAST_CHANCE_EXACT) * scale  # exact solves inside parts
    t_last = sum(n * (c_last + c_client) + trip for n in lasts.values())
    t_last += LAST_CHANCE_EXACT * EXACT_SECONDS * sum(k in colors for k in lasts)

    def layer_time(L: int, parts, share: float, exact: bool) -> float:
        """A layer's critical path: its largest task or its tasks' sum over the workers,
        then the client's serial work."""
        tasks = []
        for ka, n in parts:
            n = n * share
            k = max(1, math.ceil(n / size)) if size else 1
            t = n / k * c_pair + trip
            if exact and colored(L, ka):
                t += in_parts * n / color_pairs / k * EXACT_SECONDS
            tasks += [t] * k
        client = sum(n * share for _, n in parts) * c_client
        return max(max(tasks), sum(tasks) / workers) + client

    full = [(L, parts) for L, parts in layers.items() if parts]
    t_layers = sum(layer_time(L, parts, 1.0, True) for L, parts in full)
    total_pairs = sum(n for _, parts in full for _, n in parts)
    t_rounds = 0.0
    for exact, again in ROUNDS:
        waves = math.ceil(exact * scale / (COLOR_TASK * workers))
        t_rounds += waves * (COLOR_TASK * EXACT_SECONDS + trip)
        share = min(1.0, again * scale / total_pairs)
        t_rounds += sum(layer_time(L, parts, share, False) for L, parts in full)
    return {"last": t_last, "layers": t_layers, "rounds": t_rounds}


def projections(cost: tuple, split: int) -> None:
    """The projected hours of the recorded 10-phase and 20-phase games on 1, 8, 64 and 256
    workers, one task a part and tasks of ``split`` pairs."""
    for plo, phi in ((1, 10), (1, 20)):
        game = DuelGame.standard(plo, phi, layout=LAYOUTS["recorded"], reachable=True)
        layers, lasts_n = counts(game)
        n_pairs = sum(n for p in layers.values() for _, n in p)
        widest = max(len(p) for p in layers.values())
        print(
            f"recorded {plo}-{phi}: {n_pairs:,} pairs in {len(layers)} layers (at most "
            f"{widest} parts), {sum(lasts_n.values()):,} last-chance states"
        )
        print("  workers  tasks              last chances  layers  rounds   total")
        for size in (None, split):
            for w in (1, *WORKERS):
                if w == 1 and size:
                    continue
                p = project(game, layers, lasts_n, cost, w, size)
                what = "one a part" if size is None else f"{size} pairs"
                print(
                    f"  {w:7d}  {what:15s}  {p['last'] / 3600:10.2f} h {p['layers'] / 3600:6.2f} h"
                    f" {p['rounds'] / 3600:6.2f} h {sum(p.values()) / 3600:6.2f} h"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", default="9-10")
    ap.add_argument("--layout", default="recorded")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--trips", type=int, default=50)
    ap.add_argument("--split", type=int, default=2000, help="pairs a task, projected")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.phases.split("-"))
    layout = LAYOUTS[args.layout]

    def game_of() -> DuelGame:
        return DuelGame.standard(lo, hi, layout=layout)

    print(f"workload: phases {lo}-{hi}, {args.layout} dice; {os.cpu_count()} cores here")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    t_here, parts, lasts, here = in_process(game_of)
    t_all, t_solve, client_work, done, there = on_cluster(game_of, args.workers, None)
    trip = round_trip(args.trips)
    pairs = sum(n for _, n, _ in parts)
    states = sum(n for _, n, _ in lasts)
    print(f"in process:       {t_here:8.1f} s ({pairs:,} pairs, {states:,} last chances)")
    print(
        f"LocalCluster({args.workers}):  {t_solve:8.1f} s of solving, {t_all:.1f} s with the "
        f"cluster's start; in process / cluster {t_here / t_solve:.2f}"
    )
    print(f"tables equal bit for bit: {equal(here, there)}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("cost of each kind of task (seconds a pair or a last-chance state):")
    for kind, log, n in (("pair", parts, pairs), ("last chance", lasts, states)):
        wall, cpu = sum(t for t, _, _ in log) / n, sum(c for _, _, c in log) / n
        ran = [d for d in done if d[0] == ("pair" if kind == "pair" else "last")]
        w_wall = sum(d[2] for d in ran) / max(sum(d[1] for d in ran), 1)
        w_cpu = sum(d[3] for d in ran) / max(sum(d[1] for d in ran), 1)
        print(
            f"  {kind:12s} in process {1e3 * wall:7.2f} ms wall, {1e3 * cpu:7.2f} ms CPU;"
            f" on a worker {1e3 * w_wall:7.2f} ms wall, {1e3 * w_cpu:7.2f} ms CPU"
        )
    c_client = sum(t for t, _ in client_work) / max(pairs + states, 1)
    print(
        f"  the client: {1e3 * c_client:.3f} ms a pair or state (a task's inputs gathered, "
        f"its result merged); a task's round trip through the scheduler {1e3 * trip:.2f} ms"
    )
    print(f"  an exact solve (recorded 10-phase run, not run here): {EXACT_SECONDS:.1f} s")
    pair_cpu = [d for d in done if d[0] == "pair"]
    last_cpu = [d for d in done if d[0] == "last"]
    c_pair = sum(d[3] for d in pair_cpu) / max(sum(d[1] for d in pair_cpu), 1)
    c_last = sum(d[3] for d in last_cpu) / max(sum(d[1] for d in last_cpu), 1)
    cost = (c_pair, c_last, c_client, trip)
    print(
        "projection (a task's cost: its workers' CPU seconds above; a layer's critical "
        "path: its largest task or its tasks' sum over the workers, plus the client's work):"
    )
    projections(cost, args.split)


if __name__ == "__main__":
    main()
