"""A solve on a Dask cluster (:class:`Cluster`, the option of
:func:`~phase10math.game.duel.solve.solve_duel`): the independent work of each step goes to
the cluster's workers as tasks (:mod:`~phase10math.game.duel.tasks`), the solve itself (the
order of the steps, the table, the checkpoint) stays here.

What runs as tasks: a layer's parts (one phase of seat 0 each: the pairs of a layer depend
only on the layers above, so all parts of a layer run at once), a phase's last chances (one
task: the phases' last chances depend on each other in turn) and a refinement round's exact
solves (chunks of ``REFINE_CHUNK`` rows, all at once; a costly family's in waves of one
chunk a worker, its rows still wide checked between waves, as the solve in process checks
them between chunks). Results are merged in the order the solve in process makes them, and
the checkpoint is written here after each part, as in process: a worker lost costs the
tasks it held (Dask runs them again elsewhere, the same inputs giving the same result), a
client stopped resumes from its checkpoint.

What is the same: a game without a color phase is solved bit for bit as in process (every
task is the batch the solve in process makes, with the same inputs; with
``Cluster.pairs_per_task`` the values and policies, the errors within rounding margins).
A color phase's family grows by the exact solves of each task: in process a part sees
those of the parts before it in its layer, on a cluster the parts of a layer run at once
and see those made before the layer began. Each table is certified (every value within
its proven error of the exact value), but the two differ within those errors.

Dask (``pip install 'phase10math[cluster]'``) is imported only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from phase10math._base.checks import check_int, check_positive_float, public
from phase10math.errors import InvalidArgumentError
from phase10math.game.duel.pair import SEED_EVERY
from phase10math.game.duel.refinement import COSTLY_CHUNK, REFINE_CHUNK, spread_order
from phase10math.game.duel.setting import families, partner_of
from phase10math.game.duel.table import DuelSolution
from phase10math.game.duel.tasks import (
    Entries,
    GameSpec,
    Job,
    absorb_tail,
    exact_task,
    family_states,
    last_task,
    pair_task,
)

#: seconds to wait for a scheduler to answer before the solve is refused
CONNECT_TIMEOUT = 10.0
ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9a-fA-F:.]+\]|[\w.-]+):(\d{1,5})")
INSTALL = "pip install 'phase10math[cluster]'"


@public
@dataclass(frozen=True)
class Cluster:
    """Where a solve's tasks run: the Dask scheduler at ``scheduler`` (``tcp://host:8786``;
    its workers started with ``dask worker tcp://host:8786``), or a cluster of ``local``
    workers started on this machine for the solve (processes, one thread each; threads of
    this process with ``processes=False``). ``connect_timeout``: seconds to wait for the
    scheduler before the solve is refused. ``pairs_per_task``: a layer's part split into
    tasks of about this many pairs (whole pairs of players each; default: one task a part).
    Split, every value and policy is still the one the solve in process finds (a pair's
    policy iteration does not depend on the pairs beside it in a batch); the proven errors
    differ in their rounding margins (a batched turn's margin follows the largest utility
    of its batch), the ties' bound grows by each task's largest growth instead of each
    part's, and the count of policy-iteration steps differs."""

    scheduler: str | None = None
    local: int | None = None
    processes: bool = True
    connect_timeout: float = CONNECT_TIMEOUT
    pairs_per_task: int | None = None

    def __post_init__(self) -> None:
        if (self.scheduler is None) == (self.local is None):
            raise InvalidArgumentError(
                "Cluster(): give a scheduler's address or a number of local workers (one)"
            )
        if self.local is not None:
            check_int(self.local, "local", 1, 256, error=InvalidArgumentError)
        else:
            check_address(self.scheduler)
        check_positive_float(self.connect_timeout, "connect_timeout", InvalidArgumentError)
        if self.pairs_per_task is not None:
            check_int(self.pairs_per_task, "pairs_per_task", 1, error=InvalidArgumentError)

    def describe(self) -> str:
        if self.local is not None:
            return f"a local Dask cluster of {self.local} workers"
        return f"the Dask scheduler at {self.scheduler}"


def check_address(address: Any) -> str:
    """A scheduler's address ``[tcp://]host:port`` (or tls, ws, wss, ucx), else the package's
    error."""
    text = str(address)
    m = ADDRESS.fullmatch(text) if isinstance(address, str) else None
    if m is None or not 0 < int(m.group(3)) < 65536:
        raise InvalidArgumentError(
            f"scheduler {text[:60]!r}: expected an address like tcp://host:8786"
        )
    return text


def require_dask() -> Any:
    """Dask's ``distributed`` module, or the package's error saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise InvalidArgumentError(
            f"a solve on a Dask cluster needs Dask's distributed: {INSTALL}"
        ) from None
    return distributed


@contextlib.contextmanager
def connected(cluster: Cluster | None) -> Iterator[Any]:
    """A Dask client of ``cluster`` for the block (None without a cluster); a local cluster
    is started for it and ended after it. A scheduler that does not answer within
    ``connect_timeout`` seconds: the package's error."""
    if cluster is None:
        yield None
        return
    distributed = require_dask()
    with contextlib.ExitStack() as stack:
        if cluster.local is not None:
            local = distributed.LocalCluster(
                n_workers=cluster.local,
                threads_per_worker=1,
                processes=cluster.processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            stack.enter_context(local)
            address: Any = local
        else:
            address = cluster.scheduler
        try:
            client = distributed.Client(address, timeout=cluster.connect_timeout)
        except (OSError, TimeoutError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InvalidArgumentError(
                f"scheduler {cluster.scheduler}: no Dask scheduler answered within "
                f"{cluster.connect_timeout:g} s ({first[:120]})"
            ) from None
        stack.enter_context(client)
        yield client


# --------------------------------------------------------------------------- the tasks


def _block(key: Any) -> tuple:
    """A state's block: seat and both phases (normal play), the chaser's phase (a last
    chance)."""
    if len(key) == 3:
        return ("last", key[0][0])
    return (key[0], key[1][0], key[2][0])


class DaskTasks:
    """The steps of a solve done as tasks on a Dask client: a layer's parts and a phase's
    last chances (:meth:`parts`, :meth:`last`) and a round's exact solves (:meth:`exact`),
    merged into the solve's table. Each task is given the blocks of the table it reads
    (seat and both phases), found from an index of the table's states by block."""

    def __init__(self, client: Any, sol: DuelSolution, size: int | None = None) -> None:
        self.client, self.sol, self.game, self.size = client, sol, sol.game, size
        self.done: list[tuple[str, int, float, float]] = []  # (kind, states, wall, CPU)
        self.spec = GameSpec.of(sol.game)
        self.blocks: dict[tuple, dict] = {}
        self.index(sol.values[next(iter(sol.values))])
        self.index(sol.last[next(iter(sol.last))])

    def index(self, keys) -> None:
        for key in keys:
            self.blocks.setdefault(_block(key), {})[key] = None

    def entries(self, blocks: list[tuple]) -> Entries:
        keys = [k for b in blocks if b[0] != "last" for k in self.blocks.get(b, ())]
        lkeys = [k for b in blocks if b[0] == "last" for k in self.blocks.get(b, ())]
        return Entries.of(self.sol, keys, lkeys)

    def part_blocks(self, ka: int, kb: int) -> list[tuple]:
        """The blocks a part (seat 0 at ``ka``, seat 1 at ``kb``) reads: its own states
        (where a round starts again), those after a made turn of either seat, and the
        last chances a finish leads to."""
        g = self.game
        out = [(0, ka, kb), (1, kb, ka)]
        out += [(1, kb, ka + 1)] if ka < g.hi else [("last", kb)]
        out += [(0, ka, kb + 1)] if kb < g.hi else [("last", ka)]
        return out

    def job(self, keys: list, blocks: list[tuple], fixed, strides, reach, least, **kw) -> Job:
        sub_reach = None if reach is None else {k: reach[k] for k in self._own(keys) if k in reach}
        return Job(
            self.spec,
            family_states(self.game),
            keys,
            self.entries(blocks),
            fixed,
            tuple(strides),
            sub_reach,
            least,
            self.sol.bound,
            **kw,
        )

    @staticmethod
    def _own(keys: list) -> list:
        return [x for k in keys for x in ((k,) if len(k) == 3 else (k, partner_of(k)))]

    def parts(
        self,
        n: int,
        todo: list[tuple[int, list]],
        fixed: Mapping,
        strides,
        reach: Mapping | None,
        least: float,
    ) -> Iterator[tuple[int, list]]:
        """Layer ``n``'s parts ``todo`` (seat 0's phase, its keys) all submitted at once;
        each merged into the table in order and yielded."""
        in_round = self.sol.pending is not None
        futures = []
        for ka, keys in todo:
            blocks = self.part_blocks(ka, n - ka)
            futures.append(
                [
                    self.client.submit(pair_task, job, pure=False)
                    for job in (
                        self.job(chunk, blocks, fixed, strides, reach, least, in_round=in_round)
                        for chunk in split(keys, self.size)
                    )
                ]
            )
        for (ka, keys), part in zip(todo, futures, strict=True):
            for fut in part:
                self.merge(fut.result(), "pair", layer=True)
            self.index(self._own(keys))
            yield ka, keys

    def merge(self, result: Any, kind: str, layer: bool) -> None:
        result.into(self.sol, layer=layer)
        states = len(result.errors) // (2 if kind == "pair" else 1)
        self.done.append((kind, states, result.seconds, result.cpu))

    def last(self, k: int, keys: list, fixed: Mapping, strides, reach, least: float) -> None:
        """Phase ``k``'s last chances, one task, merged into the table."""
        if not keys:
            return
        blocks = [("last", k + 1)] if k < self.game.hi else []
        job = self.job(keys, blocks, fixed, strides, reach, least, tie=self.sol.tie_bound)
        self.merge(self.client.submit(last_task, job, k, pure=False).result(), "last", False)
        self.index(keys)

    def exact(
        self,
        k: int,
        W: np.ndarray,
        after: Callable[[int], None] | None,
        left: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        """A round's exact solves of phase ``k``'s rows ``W`` (as
        :func:`~phase10math.game.duel.refinement.exact_chunks`): chunks of
        ``REFINE_CHUNK`` rows all at once, each merged in order, ``after(rows done)``
        after each; a costly family's in waves of ``COSTLY_CHUNK`` rows a worker, its
        rows left checked again after each wave."""
        fam = families(self.game)[k]
        rows = np.arange(len(W))
        size, wave = REFINE_CHUNK, len(rows)
        if fam.costly:
            rows = rows[spread_order(len(rows))]
            size, wave = COSTLY_CHUNK, COSTLY_CHUNK * max(1, self.workers())
        while len(rows):
            now, rows = rows[:wave], rows[wave:]
            state = family_states(self.game)[k]
            chunks = [now[i : i + size] for i in range(0, len(now), size)]
            futures = [
                self.client.submit(exact_task, self.spec, k, state, W[c], pure=False)
                for c in chunks
            ]
            done = 0
            for c, fut in zip(chunks, futures, strict=True):
                tail = fut.result()
                absorb_tail(fam, tail)
                self.done.append(("exact", len(c), tail.exact_seconds, tail.exact_seconds))
                done += len(c)
                if not fam.costly and after:
                    after(len(c))
            if fam.costly and len(rows):
                keep = left(rows) if left is not None else rows[fam.wide(W[rows])]
                done += len(rows) - len(keep)
                rows = keep
            if fam.costly and after:
                after(done)

    def workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))


def split(keys: list, size: int | None) -> list[list]:
    """A part's keys in tasks of about ``size`` pairs (all in one without ``size``), each
    of whole pairs of players (a layer lists a pair of players' keys together; a fresh
    layer's seeds are chosen within each), none empty, and none of a part of more than
    ``SEED_EVERY`` pairs with that many or fewer (such a batch would start without seeds)."""
    if size is None or len(keys) <= max(size, SEED_EVERY):
        return [keys] if keys else []
    size = max(size, SEED_EVERY + 1)
    out: list[list] = [[]]
    for i, key in enumerate(keys):
        same = i and key[1:3] == keys[i - 1][1:3]
        if not same and len(out[-1]) >= size:
            out.append([])
        out[-1].append(key)
    if len(out) > 1 and len(out[-1]) <= SEED_EVERY:
        out[-2:] = [out[-2] + out[-1]]
    return out


def tasks_for(client: Any, sol: DuelSolution, cluster: Cluster | None) -> DaskTasks | None:
    """The solve's tasks on ``client`` (None: in process)."""
    if client is None:
        return None
    return DaskTasks(client, sol, cluster.pairs_per_task if cluster else None)
