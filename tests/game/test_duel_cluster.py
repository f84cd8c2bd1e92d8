"""The two-player solve on a Dask cluster (``LocalCluster`` of two workers) against the same
solve in process.

A game without a color phase: every task is the batch the solve in process makes, with the
same inputs, so the tables are equal bit for bit (values of every matchup, errors, policies,
margins, bounds); here the cluster's solve is stopped once and resumed from its checkpoint
(the count of policy-iteration steps alone is not kept in a checkpoint; without a stop it
is equal too). A color game: the parts of a layer run at once on the cluster and each sees
only the exact solves made before its layer began (in process, also those of the parts
before it), so the two families and tables differ; both are certified, so every value of
one lies within the sum of both proven errors of the other's, which is what is checked, with
the workers killed once during the solve (Dask runs their tasks again).
"""

from __future__ import annotations

import os
import signal
import socket
import sys

import distributed  # the optional extra "cluster" (CI installs every extra)
import numpy as np
import pytest

from phase10math.errors import InvalidArgumentError, Phase10MathError
from phase10math.game import duel as game_duel
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.game.duel.cluster import Cluster
from tests.clirun import one_line_error, run
from tests.game.test_duel import SETS, reduced_game, three_phase_color_game, worst_difference

OPT = (Play.OPTIMAL, Play.OPTIMAL)


class Stop(Exception):
    pass


def stop_at(line_start: str):
    """A log that stops the solve at its first line starting with ``line_start``."""

    def log(line: str) -> None:
        if line.strip().startswith(line_start):
            raise Stop(line)

    return log


def test_the_end_game_on_a_cluster_equals_the_solve_in_process_bit_for_bit(tmp_path):
    here = solve_duel(DuelGame.standard(9, 10))
    ck = tmp_path / "duel.ck"
    two = Cluster(local=2, processes=False)
    with pytest.raises(Stop):  # stopped after the first part of layer 19
        solve_duel(DuelGame.standard(9, 10), checkpoint=ck, cluster=two, log=stop_at("part 19"))
    there = solve_duel(DuelGame.standard(9, 10), checkpoint=ck, cluster=two)
    assert 19 in there.layers_done and len(there.values[OPT]) == len(here.values[OPT]) > 1000
    for m in here.values:
        assert there.values[m] == here.values[m]
    assert there.last == here.last
    assert there.errors == here.errors and there.gaps == here.gaps
    assert there.dists.keys() == here.dists.keys()
    assert all(np.array_equal(there.dists[k], d) for k, d in here.dists.items())
    assert (there.bound, there.tie_bound) == (here.bound, here.tie_bound)
    # (the count of policy-iteration steps is not kept in a checkpoint: not compared)


def test_parts_split_into_small_tasks_give_the_same_values_and_policies():
    """Tasks of whole pairs of players (about 10 pairs each, against parts of up to 1,088):
    the values and policies of the solve in process bit for bit, the proven errors within
    their rounding margins, and the brute force's values within 1e-12 as in process."""
    here = solve_duel(reduced_game())
    two = Cluster(local=2, processes=False, pairs_per_task=10)
    there = solve_duel(reduced_game(), cluster=two)
    for m in here.values:
        assert there.values[m] == here.values[m]
    assert there.last == here.last
    assert all(np.array_equal(there.dists[k], d) for k, d in here.dists.items())
    assert max(abs(there.errors[k] - e) for k, e in here.errors.items()) <= 1e-11
    assert worst_difference(there, SETS) <= 1e-12 and there.bound <= 1e-10
    assert there.tie_bound >= here.tie_bound  # grown by each task's largest growth


def test_a_color_game_on_a_cluster_that_loses_its_workers_stays_within_the_proven_errors():
    target = 1e-5
    here = solve_duel(three_phase_color_game(1e-9), target=target)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=50
        ) as lc,
        distributed.Client(lc) as watcher,
    ):
        killed = []

        def log(line: str) -> None:  # the workers killed once, with parts of a layer to go
            if line.strip().startswith("part 10/") and not killed:
                for pid in watcher.run(os.getpid).values():
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)

        cluster = Cluster(scheduler=lc.scheduler_address)
        there = solve_duel(three_phase_color_game(1e-9), target=target, cluster=cluster, log=log)
    assert len(killed) == 2
    g = there.game
    assert there.error(g.start()) <= target and here.error(g.start()) <= target
    assert there.values[OPT].keys() == here.values[OPT].keys()
    assert there.last[Play.OPTIMAL].keys() == here.last[Play.OPTIMAL].keys()
    for key, (w, _) in here.values[OPT].items():
        assert abs(w - there.values[OPT][key][0]) <= here.error(key) + there.error(key)
    for key, (w, _) in here.last[Play.OPTIMAL].items():
        assert abs(w - there.last[Play.OPTIMAL][key][0]) <= here.error(key) + there.error(key)
    # the cluster's family grew by its tasks' exact solves, merged here
    assert g.turns[4].exact_solves > 0 and g.turns[4].size > here.game.turns[4].size / 2


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_scheduler_that_does_not_answer_is_refused_at_once():
    cluster = Cluster(scheduler=f"tcp://127.0.0.1:{closed_port()}", connect_timeout=1)
    with pytest.raises(InvalidArgumentError, match="no Dask scheduler answered within 1 s"):
        solve_duel(DuelGame.standard(10, 10), cluster=cluster)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"scheduler": "tcp://h:8786", "local": 2},
        {"local": 0},
        {"local": True},
        {"scheduler": "http://h:8786"},
        {"scheduler": "tcp://h:99999"},
        {"scheduler": "tcp://h"},
        {"scheduler": "tcp://h:8786", "connect_timeout": 0},
        {"local": 2, "pairs_per_task": 0},
    ],
)
def test_a_cluster_option_that_names_no_cluster_is_refused(kwargs):
    with pytest.raises(Phase10MathError):
        Cluster(**kwargs)


def never(*args, **kwargs):
    raise AssertionError("work started before the request was checked")


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--scheduler", "h:8786:1"], "expected an address like tcp://host:8786"),
        (["--local-cluster", "0"], "--local-cluster 0: expected 1 to 256 workers"),
        (["--scheduler", "tcp://h:8786", "--local-cluster", "2"], "not both"),
        (["--pairs-per-task", "100"], "give --scheduler or --local-cluster"),
        (["--local-cluster", "2", "--pairs-per-task", "0"], "expected 1 to 10000000"),
    ],
)
def test_the_command_refuses_a_bad_cluster_before_any_work(monkeypatch, extra, words):
    monkeypatch.setattr(game_duel, "solve_duel", never)
    line = one_line_error(*_code_err(run(["duel", "--solve", *extra])))
    assert words in line, line


def test_the_command_without_dask_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(game_duel, "solve_duel", never)
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    line = one_line_error(*_code_err(run(["duel", "--solve", "--scheduler", "tcp://h:8786"])))
    assert "pip install 'phase10math[cluster]'" in line, line


def test_the_command_refuses_a_scheduler_that_does_not_answer(monkeypatch):
    from phase10math.game.duel import cluster as dask_cluster

    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 1.0)
    argv = ["duel", "--solve", "--phases", "10", "--scheduler", f"127.0.0.1:{closed_port()}"]
    line = one_line_error(*_code_err(run(argv)))
    assert "no Dask scheduler answered within 1 s" in line, line


def _code_err(result):
    code, _, err = result
    return err, code
