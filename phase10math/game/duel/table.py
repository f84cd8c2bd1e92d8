"""The table: every state's values for each pair of plays, their proven errors, and the
utilities a turn is solved at (:class:`DuelSolution`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phase10math.errors import OutsideTableError
from phase10math.game.duel.setting import (
    MATCHUPS,
    PLAYS,
    DuelGame,
    Key,
    LastKey,
    Play,
    Player,
    Val,
    outcome_of,
    partner_of,
)
from phase10math.turn.batch import BATCH
from phase10math.turn.family import TensorFamily

# --------------------------------------------------------------------------- the table


@dataclass
class DuelSolution:
    """Values of every state for each pair of plays (``MATCHUPS``: seat 0's play, seat 1's),
    ``bound`` the proven error bound of the optimal values (``tie_bound`` of the P(tie) and
    per-turn matchup values)."""

    game: DuelGame
    values: dict[tuple[Play, Play], dict[Key, Val]] = field(default_factory=dict)
    last: dict[Play, dict[LastKey, Val]] = field(default_factory=dict)
    bound: float = 0.0
    tie_bound: float = 0.0
    layers_done: list[int] = field(default_factory=list)
    # (layer, seat 0's phase): the parts of a layer already solved, where the layer is not
    parts_done: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0
    iterations: int = 0
    fixed: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    # per state of optimal play (normal-play and last-chance keys): the proven error of its
    # value, the outcome distribution of its policy, the width of its turn's interval
    errors: dict[Any, float] = field(default_factory=dict, repr=False)
    dists: dict[Any, np.ndarray] = field(default_factory=dict, repr=False)
    gaps: dict[Any, float] = field(default_factory=dict, repr=False)
    # read from a packed table: optimal play's values everywhere, the matchups at the start
    packed: bool = field(default=False, repr=False)
    # a round of targeted refinement in progress: the steps it has still to solve again
    # ("again") and the states it solves there ("keep": seat 0's key of a pair, or a
    # last-chance key)
    pending: dict[str, Any] | None = field(default=None, repr=False)
    # states a round left as they were although a state after them changed: the next
    # rounds solve them again where they weigh
    stale: set = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        for m in MATCHUPS:
            self.values.setdefault(m, {})
        for p in PLAYS:
            self.last.setdefault(p, {})

    # ---------------------------------------------------------------- look-ups
    def last_value(self, play: Play, p: Player, dc: int, elig: int) -> Val:
        """The chaser's (win, tie) in its last chance."""
        if dc > 0:
            return (1.0, 0.0)
        if dc < -self.game._reach(p, bool(elig)):
            return (0.0, 0.0)
        return self.last[play][(p, dc, elig)]

    def value(self, key: Key, m: tuple[Play, Play] = (Play.OPTIMAL, Play.OPTIMAL)) -> Val:
        """The mover's (P(win) + P(tie)/2, P(tie)) at a normal-play state."""
        s, me, opp, d = key
        if d > self.game._reach(opp):
            return (1.0, 0.0)
        if d < -self.game._reach(me):
            return (0.0, 0.0)
        vm = self.values[m]
        if self.packed and m != (Play.OPTIMAL, Play.OPTIMAL) and key not in vm:
            raise OutsideTableError(
                f"a packed table keeps the per-turn matchups ({m[0].label} against "
                f"{m[1].label}) at the start only; solve the game for them elsewhere"
            )
        return vm[key]

    def error(self, key: Key | LastKey) -> float:
        """The proven bound on ``|value - exact value|`` of optimal play at a state (a
        normal-play key, or a last-chance key ``(chaser, Dc, eligible)``); 0 where the
        state is decided, ``bound`` where no bound of its own was kept."""
        return 0.0 if self.decided(key) else self.errors.get(key, self.bound)

    def decided(self, key: Key | LastKey) -> bool:
        """Whether the game's outcome is settled at a state (no turn is played there)."""
        g = self.game
        if len(key) == 3:
            p, dc, elig = key
            return dc > 0 or dc < -g._reach(p, bool(elig))
        _, me, opp, d = key
        return d > g._reach(opp) or d < -g._reach(me)

    # ---------------------------------------------------------------- utilities
    def after(self, key: Key) -> list[tuple[bool, Any]]:
        """For each made outcome of the mover's turn at ``key`` (in score order): (last
        chance?, the state the opponent then moves in)."""
        g = self.game
        s, me, opp, d = key
        k = me[0]
        out = []
        for x in g.scores(k):
            me2, gain = g.advance(me, int(x))
            d2 = d + gain
            if k == g.hi:
                out.append((True, (opp, -(d2 + g.rules.first_finish_bonus), int(s == 0))))
            else:
                out.append((False, (1 - s, opp, me2, -d2)))
        return out

    def after_last(self, lk: LastKey) -> list[LastKey | None]:
        """For each made outcome of the chaser's turn: its next last-chance state (None where
        the game then ends)."""
        g = self.game
        p, dc, elig = lk
        out: list[LastKey | None] = []
        for x in g.scores(p[0]):
            p2, gain = g.advance(p, int(x))
            out.append(None if p[0] == g.hi else (p2, dc + gain, elig))
        return out

    def utility_errors(
        self, key: Key | LastKey, after: list[tuple[bool, Any]] | None = None
    ) -> np.ndarray:
        """The proven error of the value after every outcome of the turn at a state (0 for
        the fail outcome: inside a pair it is the fixed point's, in a last chance final);
        ``after``: a normal-play state's :meth:`after`, where already known."""
        if len(key) == 3:
            nxt = self.after_last(key)
        else:
            nxt = [n for _, n in (self.after(key) if after is None else after)]
        return np.array([0.0] + [0.0 if n is None else self.error(n) for n in nxt])

    def last_utility(self, play: Play, lk: LastKey) -> tuple[np.ndarray, np.ndarray]:
        """(win, tie) of every outcome of the chaser's turn."""
        g = self.game
        p, dc, elig = lk
        k = p[0]
        sc = g.scores(k)
        uw, ut = np.empty(len(sc) + 1), np.empty(len(sc) + 1)
        uw[0], ut[0] = outcome_of(dc)
        for j, x in enumerate(sc, 1):
            p2, gain = g.advance(p, int(x))
            d2 = dc + gain
            if k == g.hi:
                uw[j], ut[j] = outcome_of(d2 + (g.rules.first_finish_bonus if elig else 0))
            else:
                uw[j], ut[j] = self.last_value(play, p2, d2, elig)
        return uw, ut

    def utility(
        self,
        key: Key,
        m: tuple[Play, Play] = (Play.OPTIMAL, Play.OPTIMAL),
        after: list[tuple[bool, Any]] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(win, tie) of the mover for every outcome of its turn (failed first; the fail
        entry is read from the table, so it is only meaningful once the state is solved);
        ``after``: the state's :meth:`after`, where already known."""
        g = self.game
        s, me, opp, d = key
        k = me[0]
        sc = g.scores(k)
        uw, ut = np.empty(len(sc) + 1), np.empty(len(sc) + 1)
        partner = partner_of(key)
        w, t = (
            self.values[m].get(partner, (math.nan, math.nan))
            if self._open(partner)
            else self.value(partner, m)
        )
        uw[0], ut[0] = 1 - w, t
        for j, (last, nxt) in enumerate(self.after(key) if after is None else after, 1):
            w, t = self.last_value(m[1 - s], *nxt) if last else self.value(nxt, m)
            uw[j], ut[j] = 1 - w, t
        return uw, ut

    def _open(self, key: Key) -> bool:
        s, me, opp, d = key
        return -self.game._reach(me) <= d <= self.game._reach(opp)

    # ---------------------------------------------------------------- policies
    def policy(
        self, keys: Sequence[Key | LastKey], last: bool = False
    ) -> list[dict[int, np.ndarray]]:
        """The optimal holds (``holds[r][pos]`` per roll state of the phase's space) at
        solved states, by re-solving their turns from the table."""
        out: list[dict[int, np.ndarray]] = []
        g = self.game
        by_phase: dict[int, list[int]] = {}
        for i, key in enumerate(keys):
            k = key[0][0] if last else key[1][0]
            by_phase.setdefault(k, []).append(i)
        res: dict[int, dict[int, np.ndarray]] = {}
        for k, idx in by_phase.items():
            # ten different dice: one policy at a time (its holds take 240 MB a reroll)
            step = 1 if isinstance(g.turns[k], TensorFamily) else BATCH
            for lo in range(0, len(idx), step):
                part = idx[lo : lo + step]
                U = np.array(
                    [
                        self.last_utility(Play.OPTIMAL, keys[i])[0]
                        if last
                        else self.utility(keys[i])[0]
                        for i in part
                    ]
                )
                sol = g.turns[k].solve(U, distribution=False, keep_holds=True)
                for c, i in enumerate(part):
                    res[i] = {r: h[:, c].copy() for r, h in sol.holds.items()}
        out = [res[i] for i in range(len(keys))]
        return out

    # ---------------------------------------------------------------- headline
    def headline(self, totals: tuple[int, int] = (0, 0)) -> dict[str, Any]:
        """P(first seat wins), P(tie), each seat's worth, the per-turn matchups."""
        key = self.game.start(totals)
        w, t = self.value(key)
        rows = []
        for m in MATCHUPS:
            wm, tm = self.value(key, m)
            rows.append(
                {
                    "first": m[0].label,
                    "second": m[1].label,
                    "p_first_wins": wm - tm / 2,
                    "p_tie": tm,
                    "first_worth": wm,
                }
            )
        return {
            "game": self.game.describe(),
            "p_first_wins": w - t / 2,
            "p_tie": t,
            "p_second_wins": 1 - w - t / 2,
            "first_worth": w,
            "second_worth": 1 - w,
            "bound": self.error(key),
            "bound_all": self.bound,
            "tie_bound": self.tie_bound,
            "matchups": rows,
        }


def iter_solved(sol: DuelSolution) -> Iterable[Key]:
    """The solved normal-play states."""
    return iter(sol.values[(Play.OPTIMAL, Play.OPTIMAL)])
