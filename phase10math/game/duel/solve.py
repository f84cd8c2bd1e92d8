"""The solve: last chances and layers in order, then rounds of targeted refinement until the
start's error is within the target (:func:`solve_duel`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from phase10math.checks import check_int, check_positive_float, public
from phase10math.errors import InvalidRulesError
from phase10math.game.duel import layers, pair, refinement, rounds
from phase10math.game.duel.checkpoint import Checkpoint
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
from phase10math.progress import progress_bar
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
    (:func:`~phase10math.turn.tensor.memory.held_heap`)."""
    check_int(picks, "picks", 1, error=InvalidRulesError)
    if target is not None:
        target = check_positive_float(target, "target")
    game = game or DuelGame.standard()
    costly = any(fam.costly for fam in families(game).values())
    with held_heap() if costly else contextlib.nullcontext():
        return _solve_duel(game, checkpoint, show_progress, log, target, picks)


def _solve_duel(
    game: DuelGame,
    checkpoint: str | os.PathLike | None,
    show_progress: bool,
    log: Callable[[str], None] | None,
    target: float | None,
    picks: int,
) -> DuelSolution:
    """:func:`solve_duel`'s run, its arguments checked."""
    ck = Checkpoint(checkpoint)
    resumed = ck.load(game)
    sol = resumed or DuelSolution(game)
    t0 = time.monotonic() - sol.seconds
    fixed = {(k, p): fixed_distribution(game, k, p) for k in game.phases for p in PLAYS[1:]}
    sol.fixed = {k: np.stack([fixed[(k, p)] for p in PLAYS[1:]]) for k in game.phases}
    fams = families(game)
    for k, fam in fams.items():
        if not fam.size:  # the per-turn policies are the family's first members
            fam.add_policies(sol.fixed[k])
    strides = REFINE_ALL
    reach: Mapping[Any, float] | None = None
    least = 0.0
    if target is not None and fams:  # where play goes: the layers solved, a stand-in below
        strides, least = (), target * FIRST_SHARE
        if any(s not in sol.layers_done for s in color_steps(game)):
            # a resumed run: the estimate its first run made and kept beside the checkpoint
            reach = ck.load_reach(game) if resumed is not None else None
            if reach is None:
                reach = rounds.visits(sol, proxy=Play.COMPLETE)
                ck.save_reach(game, reach)
    bar = progress_bar(
        total=total_work(game), desc=f"duel {game.describe()}", unit="state", enabled=show_progress
    )
    steps = [("last", k) for k in range(game.hi, game.lo - 1, -1)]
    steps += [("layer", L) for L in range(2 * game.hi, 2 * game.lo - 1, -1)]

    def run(
        todo, strides, count: bool, keep: set | None = None, reach: Mapping | None = None
    ) -> None:
        """Solve the steps ``todo``: the first pass (``count``: the progress bar, parts
        and steps done skipped; ``reach`` where play is estimated to go), or a round's
        (``keep``: only the states it solves again)."""
        for kind, n in todo:
            tag = (1000 + n) if kind == "last" else n
            keys = last_keys(game, n) if kind == "last" else layer_keys(game, n)
            if keep is not None:  # a round: only the states it solves again
                keys = [k for k in keys if k in keep]
            work = len(keys) * (1 if kind == "last" else 8)
            if count and tag in sol.layers_done:
                bar.update(work)
                continue
            if kind == "last":
                layers.solve_last(
                    sol, n, keys, fixed, strides, reach, least, log, lambda: ck.save(sol, True)
                )
            else:
                for ka in range(game.lo, game.hi + 1):  # one phase pair at a time
                    if count and (n, ka) in sol.parts_done:
                        continue  # solved before a resumed run stopped
                    part = [key for key in keys if key[1][0] == ka]
                    pair.solve_layer(
                        sol, part, fixed, strides, lambda: ck.save(sol, True), log, reach, least
                    )
                    if count and part:
                        sol.parts_done.append((n, ka))
                        sol.seconds = time.monotonic() - t0
                        ck.save(sol, True)  # a large layer's parts survive a stop
                        if log:
                            log(f"  part {n}/{ka}: {len(part)} pairs, {sol.seconds:.1f} s")
            if tag not in sol.layers_done:
                sol.layers_done.append(tag)
            if sol.pending is not None and (kind, n) in sol.pending["again"]:
                sol.pending["again"].remove((kind, n))  # a round's step survives a stop
            sol.seconds = time.monotonic() - t0
            ck.save(sol, within_step=keep is not None)  # a round's steps: every 5 minutes
            if count:
                bar.update(work)
            if log:
                log(
                    f"{kind} {n}: {len(keys)} states, {sol.seconds:.1f} s, bound {sol.bound:.2e}"
                    f", start {sol.error(game.start()):.2e}, iterations so far {sol.iterations}"
                )

    run(steps, strides, True, reach=reach)
    bar.close()
    if target is None or not fams:
        return sol
    for _ in range(MAX_ROUNDS):
        if sol.pending is None:  # a new round (else: finish the one a stop interrupted)
            start_err = sol.error(game.start())
            if start_err <= target:
                break
            seen = flow(sol, gain=amplification(sol))  # visits, as the errors see them
            chosen, narrowed = rounds.pick_refinements(sol, picks, target * ROUND_LEAVE, seen)
            if not (chosen or narrowed or sol.stale):  # what is left is spread thin: all of it
                chosen, narrowed = rounds.pick_refinements(sol, picks, 0.0, seen)
            if not (chosen or narrowed or sol.stale):
                break
            # states whose family interval narrowed since they were solved: solved again
            touched = {pair_key(key) for key in narrowed}
            todo = sum(len(r) for r in chosen.values())
            after = round_progress(todo, lambda: ck.save(sol, True), log)
            for k, rows in chosen.items():
                U = np.array([current_utility(sol, key) for key in rows])
                refinement.exact_chunks(
                    fams[k], U, after, None, rounds.still_picked(sol, fams[k], rows, U, seen)
                )
                touched |= {pair_key(key) for key in rows}
            # without new exact solves: every stale state that weighs at all
            leave = target * ROUND_LEAVE if chosen or narrowed else 0.0
            keep, sol.stale = round_states(sol, seen, touched | sol.stale, leave)
            steps_touched = {step_of(key) for key in touched | keep}
            again = [st for st in steps if any(depends(game, st, t) for t in steps_touched)]
            sol.pending = {"again": again, "keep": keep}
            ck.save(sol)
            if log:
                n = sum(len(r) for r in chosen.values())
                log(
                    f"round: start error {start_err:.2e}; {n} exact solves; {len(narrowed)} "
                    f"narrowed since solved; solving again "
                    f"{len(keep)} of {len(seen)} visited states in {again}"
                )
        run(list(sol.pending["again"]), (), False, sol.pending["keep"])
        sol.pending = None
        sol.bound = max(sol.errors.values(), default=sol.bound)
        sol.seconds = time.monotonic() - t0
        ck.save(sol)
    return sol
