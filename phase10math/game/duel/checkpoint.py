"""Checkpoints of a solve in progress (:class:`Checkpoint`), resumable after a kill, and the
color phases' families kept beside them (:func:`seed_families`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from phase10math._base.checks import public
from phase10math._base.savefile import read_safe, write_safe
from phase10math.cache import package_version
from phase10math.dice.faces import Layout
from phase10math.errors import InvalidRulesError
from phase10math.game.duel.setting import Bonus, DuelGame, Play, families, fingerprint
from phase10math.game.duel.table import DuelSolution

CHECKPOINT_EVERY = 300.0  # seconds between checkpoints within a step
# ... and at least this many times as long as the last one took to write: at most a fifth of
# a step's time goes to writing (the 10-phase game's checkpoint takes minutes)
CHECKPOINT_SPACING = 4.0
KIND = "two-player checkpoint"  # the kind its files say they are


class Checkpoint:
    """The solution so far, written atomically after each step; ``None`` path: no file.
    Within a step (a color phase's exact solves) at most every ``every`` seconds and every
    ``CHECKPOINT_SPACING`` times the last write's time: a large game's checkpoint takes a
    while to write."""

    def __init__(self, path: str | os.PathLike | None, every: float | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.every = CHECKPOINT_EVERY if every is None else every
        self.written = time.monotonic()
        self.took = 0.0  # seconds the last write took

    def load(self, game: DuelGame) -> DuelSolution | None:
        if self.path is None or not os.path.exists(self.path):
            return None
        data = self._read(game)
        sol = DuelSolution(game)
        for name in ("values", "last", "bound", "tie_bound", "layers_done", "seconds"):
            setattr(sol, name, data[name])
        for name in ("errors", "dists", "gaps"):
            setattr(sol, name, data.get(name, {}))
        sol.parts_done = [tuple(p) for p in data.get("parts_done", [])]
        sol.pending = data.get("pending")
        sol.stale = data.get("stale", set())
        _take_families(game, data)
        return sol

    def families_path(self) -> str | None:
        """The small file beside the checkpoint that keeps its color phases' families alone
        (``.families`` appended; None: no checkpoint): the exact solves, which are most of a
        color game's time, in hundreds of kilobytes instead of the values' hundreds of megabytes
        (the recorded 10-phase game at layer 13: 270 KB against 205 MB). It is written with
        every checkpoint; :func:`seed_families` starts a solve from it (or from a whole
        checkpoint), so it is the part of a long solve worth keeping under version control."""
        return None if self.path is None else self.path + ".families"

    def load_families(self, game: DuelGame) -> None:
        """Take into ``game``'s color phases the families of this file: a whole checkpoint
        or a ``.families`` file; refused (:class:`InvalidRulesError`) where missing or of
        another game."""
        if self.path is None or not os.path.exists(self.path):
            raise InvalidRulesError(f"no checkpoint {self.path!r} to take families from")
        _take_families(game, self._read(game))

    def _read(self, game: DuelGame, path: str | None = None) -> dict[str, Any]:
        """The file's contents (this checkpoint's, or ``path``: a file beside it), refused
        where it is not a checkpoint (:class:`~phase10math.errors.InvalidFileError`) or was
        written for another game than ``game``."""
        path = self.path if path is None else path
        head, data = read_safe(path, KIND, (Play, Bonus))
        if head.get("fingerprint") != fingerprint(game):
            raise InvalidRulesError(
                f"checkpoint {path} belongs to another game; remove it or choose another"
            )
        return data

    def save(self, sol: DuelSolution, within_step: bool = False) -> None:
        if self.path is None:
            return
        wait = max(self.every, CHECKPOINT_SPACING * self.took)
        if within_step and time.monotonic() - self.written < wait:
            return
        began = time.monotonic()
        data = {
            "values": sol.values,
            "last": sol.last,
            "bound": sol.bound,
            "tie_bound": sol.tie_bound,
            "layers_done": sol.layers_done,
            "parts_done": sol.parts_done,
            "pending": sol.pending,
            "stale": sol.stale,
            "seconds": sol.seconds,
            "errors": sol.errors,
            "dists": sol.dists,
            "gaps": sol.gaps,
            "families": {k: fam.state() for k, fam in families(sol.game).items()},
        }
        write_safe(self.path, KIND, header(sol.game), data)
        if data["families"]:
            write_safe(self.families_path(), KIND, header(sol.game), {"families": data["families"]})
        self.written = time.monotonic()
        self.took = self.written - began

    def reach_path(self) -> str | None:
        """The file beside the checkpoint that keeps the first pass's estimate of where play
        goes (``.reach`` appended; None: no checkpoint)."""
        return None if self.path is None else self.path + ".reach"

    def load_reach(self, game: DuelGame) -> dict[Any, float] | None:
        """The estimate :meth:`save_reach` kept for this game, or None (none kept, or one of
        another game: the solve then estimates again and keeps its own)."""
        path = self.reach_path()
        if path is None or not os.path.exists(path):
            return None
        try:
            return self._read(game, path)["reach"]
        except InvalidRulesError:  # another game's (or not a checkpoint's): estimated again
            return None

    def save_reach(self, game: DuelGame, reach: Mapping[Any, float]) -> None:
        """Keep the first pass's estimate of where play goes (written once, atomically): a
        resumed run reads it instead of estimating again (on the 10-phase game about ten
        minutes) and so plays the same first pass as a run never stopped."""
        path = self.reach_path()
        if path is None:
            return
        write_safe(path, KIND, header(game), {"reach": dict(reach)})


def _take_families(game: DuelGame, data: Mapping[str, Any]) -> None:
    """Load into ``game``'s color phases the families a checkpoint's ``data`` keeps."""
    for k, state in data.get("families", {}).items():
        game.turns[k].load(state)


def header(game: DuelGame) -> dict[str, Any]:
    """What a checkpoint says of itself: its game, rules, dice and the code's fingerprint of
    the game (a file of another game is refused)."""
    return {
        "game": game.describe(),
        "rules": game.rules.to_dict(),
        "dice": game.dice.to_dict() if isinstance(game.dice, Layout) else None,
        "fingerprint": fingerprint(game),
        "code_version": package_version(),
    }


@public
def seed_families(
    game: DuelGame, source: DuelGame, checkpoint: str | os.PathLike
) -> dict[int, int]:
    """Start ``game``'s color phases from the families of another game's solve: the
    checkpoint ``checkpoint`` that :func:`solve_duel` wrote for ``source``. A family's
    exactly solved policies and cuts belong to the turn, not to the game around it, so where
    a color phase's turn is the same (dice, rules, scores and outcomes:
    :meth:`~phase10math.turn.family.TurnFamily.same_turn`) they hold in ``game`` too, and its
    solve needs fewer exact solves of its own (e.g. the 10-phase game from its end game's).
    ``checkpoint`` may also be the small ``.families`` file kept beside it
    (:meth:`Checkpoint.families_path`). Returns how many policies each phase took; refuses a
    checkpoint of another game than ``source``, or a color phase of ``game`` whose turn
    differs from ``source``'s."""
    Checkpoint(checkpoint).load_families(source)  # refuses another game's checkpoint
    theirs = families(source)
    # a solve's family begins with the per-turn policies, so the taken one does: those of
    # the same turn, which the seeded solve then does not add again
    added = {k: fam.absorb(theirs[k]) for k, fam in families(game).items() if k in theirs}
    if not added:
        raise InvalidRulesError(
            f"{source.describe()} has no color phase of {game.describe()} to take a family from"
        )
    return added
