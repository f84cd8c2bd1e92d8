"""The solve: last chances and layers in order, then rounds of targeted refinement until the
start's error is within the target (:func:`solve_duel`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from phase10math._base.checks import check_int, check_positive_float, public
from phase10math._base.progress import progress_bar
from phase10math.errors import InvalidRulesError
from phase10math.game.duel import layers, pair, refinement, rounds
from phase10math.game.duel.checkpoint import Checkpoint
from phase10math.game.duel.cluster import Cluster, connected, tasks_for
from phase10math.game.duel.columns import fixed_distribution
from phase10math.game.duel.layers import last_keys, layer_keys, pair_key, total_work
from phase10math.game.duel.refinement import REFINE_ALL
from phase10math.game.duel.rounds import (
    amplification,
    color_steps,
    current_utility,
    depends,
    flow,
    round_progress,
    round_states,
    step_of,
)
from phase10math.game.duel.setting import PLAYS, DuelGame, Play, families
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.tensor import held_heap

# with a target, the first pass solves exactly the color turns whose estimated visits
# (:func:`visits` with a per-turn stand-in below the layers solved) times interval width
# is more than this share of the target; then rounds, by the solved policies' visits
FIRST_SHARE = 1e-3
ROUND_PICKS = 2000  # exact solves per round of targeted refinement (at most)
MAX_ROUNDS = 40
# a round solves again the states after which something changed, less those of least visits
# times error, up to this share of the target in all
ROUND_LEAVE = 0.25


@public
def solve_duel(
    game: DuelGame | None = None,
    checkpoint: str | os.PathLike | None = None,
    show_progress: bool = False,
    log: Callable[[str], None] | None = None,
    target: float | None = None,
    picks: int = ROUND_PICKS,
    cluster: Cluster | None = None,
) -> DuelSolution:
    """Solve a two-player game (default: phases 9-10 on the kit's rules), resuming from
    ``checkpoint`` (a file, written after every phase of the last chances and every layer,
    and within a layer after its parts (one phase of seat 0 each) and a color phase's exact
    solves, there at most every ``CHECKPOINT_EVERY`` seconds) where a killed run stopped.

    A color phase's turns come from its family (:mod:`phase10math.turn.family`). Without
    ``target`` every interval wider than the family's ``tol`` is solved exactly. With
    ``target`` (the proven error wanted at the start, both players at the first phase with
    0 points) the first pass solves exactly the turns whose estimated visits from the start
    (:func:`visits` with the completion-optimal turn standing in below the layers solved)
    times interval width is more than ``FIRST_SHARE`` of the target; then, round by round,
    the states whose visits times width is largest (until those left weigh at most
    ``ROUND_LEAVE`` of the target; at most ``picks`` a round), and the states that depend on
    them again where their visits times proven error weigh (:func:`round_states`), until
    the start's error is at most ``target``. A round in progress is kept in the checkpoint,
    and the first pass's estimate of visits in a file beside it (``.reach`` appended), which
    a resumed run reads instead of estimating again. Where a turn is costly (the tensor
    family of the recorded dice) the run keeps the memory it frees for its next solves
    (:func:`~phase10math.turn.tensor.memory.held_heap`).

    ``cluster`` (:class:`~phase10math.game.duel.cluster.Cluster`): the independent work of
    each step (a layer's parts, a phase's last chances, a round's exact solves) runs as
    tasks on a Dask cluster, the checkpoint written here as in process
    (:mod:`~phase10math.game.duel.cluster`)."""
    check_int(picks, "picks", 1, error=InvalidRulesError)
    if target is not None:
        target = check_positive_float(target, "target")
    game = game or DuelGame.standard()
    game.check_turns_fit()
    costly = any(fam.costly for fam in families(game).values())
    with connected(cluster) as client, held_heap() if costly else contextlib.nullcontext():
        return _solve_duel(game, checkpoint, show_progress, log, target, picks, client, cluster)


def _solve_duel(
    game: DuelGame,
    checkpoint: str | os.PathLike | None,
    show_progress: bool,
    log: Callable[[str], None] | None,
    target: float | None,
    picks: int,
    client: Any = None,
    cluster: Cluster | None = None,
) -> DuelSolution:
    """:func:`solve_duel`'s run, its arguments checked (``client``: a Dask client whose
    workers solve the steps' tasks)."""
    run = _Run(game, checkpoint, log, client, cluster)
    run.first_pass(target, show_progress)
    if target is None or not run.fams:
        return run.sol
    for _ in range(MAX_ROUNDS):
        # a new round (else: finish the one a stop interrupted)
        if run.sol.pending is None and not run.new_round(target, picks):
            break
        run.finish_round()
    return run.sol


class _Run:
    """One solve of a game: its table so far (resumed from the checkpoint where there is
    one), the per-turn policies' distributions, the color phases' families, the steps (last
    chances, then layers) and how each is solved."""

    def __init__(
        self,
        game: DuelGame,
        checkpoint: str | os.PathLike | None,
        log: Callable | None,
        client: Any = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.game, self.log = game, log
        self.ck = Checkpoint(checkpoint)
        self.resumed = self.ck.load(game)
        self.sol = sol = self.resumed or DuelSolution(game)
        self.t0 = time.monotonic() - sol.seconds
        fixed = {(k, p): fixed_distribution(game, k, p) for k in game.phases for p in PLAYS[1:]}
        self.fixed = fixed
        sol.fixed = {k: np.stack([fixed[(k, p)] for p in PLAYS[1:]]) for k in game.phases}
        self.fams = families(game)
        for k, fam in self.fams.items():
            if not fam.size:  # the per-turn policies are the family's first members
                fam.add_policies(sol.fixed[k])
        self.least = 0.0
        self.steps = [("last", k) for k in range(game.hi, game.lo - 1, -1)]
        self.steps += [("layer", L) for L in range(2 * game.hi, 2 * game.lo - 1, -1)]
        self.bar: Any = None
        self.tasks = tasks_for(client, sol, cluster)  # None: every step here

    def save_within(self) -> None:
        """A checkpoint within a step (at most every few minutes)."""
        self.ck.save(self.sol, True)

    def first_pass(self, target: float | None, show_progress: bool) -> None:
        """Every step once; with a ``target``, a color phase's turns solved exactly where
        the estimate of where play goes weighs them (else refined by strides)."""
        game, strides = self.game, REFINE_ALL
        reach: Mapping[Any, float] | None = None
        if target is not None and self.fams:  # where play goes: the layers solved, a stand-in
            strides, self.least = (), target * FIRST_SHARE
            if any(s not in self.sol.layers_done for s in color_steps(game)):
                # a resumed run: the estimate its first run made and kept beside the checkpoint
                reach = self.ck.load_reach(game) if self.resumed is not None else None
                if reach is None:
                    reach = rounds.visits(self.sol, proxy=Play.COMPLETE)
                    self.ck.save_reach(game, reach)
        self.bar = progress_bar(
            total=total_work(game),
            desc=f"duel {game.describe()}",
            unit="state",
            enabled=show_progress,
        )
        self.run(self.steps, strides, True, reach=reach)
        self.bar.close()

    def run(
        self, todo, strides, count: bool, keep: set | None = None, reach: Mapping | None = None
    ) -> None:
        """Solve the steps ``todo``: the first pass (``count``: the progress bar, parts
        and steps done skipped; ``reach`` where play is estimated to go), or a round's
        (``keep``: only the states it solves again)."""
        game, sol = self.game, self.sol
        for kind, n in todo:
            tag = (1000 + n) if kind == "last" else n
            keys = last_keys(game, n) if kind == "last" else layer_keys(game, n)
            if keep is not None:  # a round: only the states it solves again
                keys = [k for k in keys if k in keep]
            work = len(keys) * (1 if kind == "last" else 8)
            if count and tag in sol.layers_done:
                self.bar.update(work)
                continue
            if kind == "last" and self.tasks:
                self.tasks.last(n, keys, self.fixed, strides, reach, self.least)
            elif kind == "last":
                layers.solve_last(
                    sol, n, keys, self.fixed, strides, reach, self.least, self.log,
                    self.save_within,
                )  # fmt: skip
            else:
                self.solve_parts(n, keys, strides, count, reach)
            self.step_done(kind, n, len(keys), work if count else 0, keep is not None)

    def solve_parts(self, n: int, keys: list, strides, count: bool, reach) -> None:
        """Layer ``n``'s pairs, one phase pair at a time (in the first pass each part is
        written when done: a large layer's parts survive a stop)."""
        sol, log = self.sol, self.log
        todo = [
            (ka, [key for key in keys if key[1][0] == ka])
            for ka in range(self.game.lo, self.game.hi + 1)
            if not (count and (n, ka) in sol.parts_done)  # solved before a resumed run stopped
        ]
        if self.tasks:  # all at once on the cluster, merged in order
            solved = self.tasks.parts(n, todo, self.fixed, strides, reach, self.least)
        else:
            solved = self.parts_here(todo, strides, reach)
        for ka, part in solved:
            if count and part:
                sol.parts_done.append((n, ka))
                sol.seconds = time.monotonic() - self.t0
                self.ck.save(sol, True)
                if log:
                    log(f"  part {n}/{ka}: {len(part)} pairs, {sol.seconds:.1f} s")

    def parts_here(self, todo: list, strides, reach) -> Iterator[tuple[int, list]]:
        """The parts ``todo`` solved one after the other in this process."""
        for ka, part in todo:
            pair.solve_layer(
                self.sol, part, self.fixed, strides, self.save_within, self.log, reach,
                self.least,
            )  # fmt: skip
            yield ka, part

    def step_done(self, kind: str, n: int, states: int, work: int, in_round: bool) -> None:
        """A step solved: marked done (in a round, no longer to do), written, ``work``
        added to the progress bar (the first pass's), logged."""
        sol = self.sol
        tag = (1000 + n) if kind == "last" else n
        if tag not in sol.layers_done:
            sol.layers_done.append(tag)
        if sol.pending is not None and (kind, n) in sol.pending["again"]:
            sol.pending["again"].remove((kind, n))  # a round's step survives a stop
        sol.seconds = time.monotonic() - self.t0
        self.ck.save(sol, within_step=in_round)  # a round's steps: every 5 minutes
        if work:
            self.bar.update(work)
        if self.log:
            self.log(
                f"{kind} {n}: {states} states, {sol.seconds:.1f} s, bound {sol.bound:.2e}"
                f", start {sol.error(self.game.start()):.2e}, iterations so far "
                f"{sol.iterations}"
            )

    def new_round(self, target: float, picks: int) -> bool:
        """Choose a round of targeted refinement and make its exact solves; False where the
        start is within ``target`` or nothing is left to choose."""
        sol, game = self.sol, self.game
        start_err = sol.error(game.start())
        if start_err <= target:
            return False
        seen = flow(sol, gain=amplification(sol))  # visits, as the errors see them
        chosen, narrowed = rounds.pick_refinements(sol, picks, target * ROUND_LEAVE, seen)
        if not (chosen or narrowed or sol.stale):  # what is left is spread thin: all of it
            chosen, narrowed = rounds.pick_refinements(sol, picks, 0.0, seen)
        if not (chosen or narrowed or sol.stale):
            return False
        # states whose family interval narrowed since they were solved: solved again
        touched = {pair_key(key) for key in narrowed}
        self.solve_chosen(chosen, seen, touched)
        # without new exact solves: every stale state that weighs at all
        leave = target * ROUND_LEAVE if chosen or narrowed else 0.0
        keep, sol.stale = round_states(sol, seen, touched | sol.stale, leave)
        steps_touched = {step_of(key) for key in touched | keep}
        again = [st for st in self.steps if any(depends(game, st, t) for t in steps_touched)]
        sol.pending = {"again": again, "keep": keep}
        self.ck.save(sol)
        if self.log:
            n = sum(len(r) for r in chosen.values())
            self.log(
                f"round: start error {start_err:.2e}; {n} exact solves; {len(narrowed)} "
                f"narrowed since solved; solving again "
                f"{len(keep)} of {len(seen)} visited states in {again}"
            )
        return True

    def solve_chosen(self, chosen: Mapping[int, list], seen: Mapping, touched: set) -> None:
        """The exact solves of a round's chosen turns; the states (pair keys) they touch
        added to ``touched``."""
        todo = sum(len(r) for r in chosen.values())
        after = round_progress(todo, self.save_within, self.log)
        for k, rows in chosen.items():
            U = np.array([current_utility(self.sol, key) for key in rows])
            fam = self.fams[k]
            left = rounds.still_picked(self.sol, fam, rows, U, seen)
            if self.tasks:
                self.tasks.exact(k, U, after, left)
            else:
                refinement.exact_chunks(fam, U, after, None, left)
            touched |= {pair_key(key) for key in rows}

    def finish_round(self) -> None:
        """Solve again the states of the round in progress, in the steps it names."""
        sol = self.sol
        self.run(list(sol.pending["again"]), (), False, sol.pending["keep"])
        sol.pending = None
        sol.bound = max(sol.errors.values(), default=sol.bound)
        sol.seconds = time.monotonic() - self.t0
        self.ck.save(sol)
