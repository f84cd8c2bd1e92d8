"""The duel with a consecutive-farkle penalty (Facebook Farkle): proven by ordered sweeps.

With ``farkle_penalty`` a player who ends ``farkles`` consecutive turns with a bust loses that
many points from their banked score (never below ``floor``), so the turn-start state gains
each player's count of consecutive busts and scores run from the floor up. Scores are counted
in units of 50 from the floor: index ``a`` is the score ``floor + 50 a``, and a turn total
``t`` wins once ``a + t`` reaches ``N = (target - floor) / 50``. ``P[i, j, a, b]`` is the
chance that the player about to start a turn, with ``i`` consecutive busts and score index
``a``, against ``j`` and ``b``, wins. The optimal turn needs three kinds of values:

- **bank** ``t > 0``: ``1 - P[j, 0, b, a + t]`` (the count restarts): a higher *score layer*;
- **bust** with ``i + 1 < farkles``: ``1 - P[j, i + 1, b, a]``: the same layer, a higher
  *count sum* ``i + j``;
- **bust** with ``i + 1 == farkles`` (the penalty): ``1 - P[j, 0, b, max(a - pen, 0)]``: a lower
  layer (the same one at the floor).

**Steps.**

1. *Sweep order*: layers (sums ``a + b``) from the highest down, a few at a time (``block``);
   inside a block, count sums from the highest down, so that every bust value without a
   penalty is already this sweep's. Only the bank values inside a block and the penalty values
   come from the previous sweep (Gauss-Seidel); sweeps repeat until nothing moves by ``tol``.
2. *Certificate*: a box ``[P - delta, P + delta]`` is pushed through one sweep of bounds in
   the same order, each bound updated in place as soon as it is computed: a lower bound from the
   upper bounds of the values it needs (the turn value falls when the opponent's chances
   rise) and the reverse, widened by the proven rounding margin of one turn pass. If the
   result lies inside the box, the sweep (a continuous map, each of whose values is computed
   from values already swept or from the box) sends the box into itself, so it has a fixed
   point there (Brouwer), which is the unique solution of the game's equations (whatever both
   players do, from every position the game ends within a bounded number of turns with a
   chance bounded away from 0). More sweeps from that proven box narrow it.

The first player's chance is ``P[0, 0, z, z]`` with ``z = -floor / 50`` (both at 0 points).

>>> from phase10math.tenthousand.rules import TenKRules
>>> r = TenKRules.preset("facebook", target=300, floor=-100, farkle_penalty=100)
>>> s = solve_penalty(r)
>>> s.certified and s.lower <= s.value <= s.upper and s.upper - s.lower < 1e-9
True
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from phase10math._base.checks import public
from phase10math._base.files import check_output_file
from phase10math._base.progress import progress_bar
from phase10math._base.savefile import read_safe, write_safe
from phase10math.cache import cache_key, cached
from phase10math.errors import InvalidFileError, WrongTypeError
from phase10math.tenthousand.errors import TenKRulesError, TenKStateError
from phase10math.tenthousand.layered import (
    ProvenDuel,
    TurnPass,
    check_memory,
    roll_arrays,
    rounding_margin,
)
from phase10math.tenthousand.rules import (
    UNIT,
    TenKRules,
    check_count,
    check_flag,
    check_positive_float,
)
from phase10math.version import package_version

CHECKPOINT_KIND = "tenk-penalty-checkpoint"  # what a solve's checkpoint says it is


@public
@dataclass
class PenaltySolution(ProvenDuel):
    """The proven duel with a farkle penalty: ``P[i, j, a, b]`` (float) and proven bounds
    ``L <= exact <= U`` at every turn start (indices as in the module docstring)."""

    @property
    def zero(self) -> int:
        """Score index of 0 points."""
        return -self.rules.floor // UNIT

    @property
    def start(self) -> tuple[int, ...]:
        """Index of the game's first turn start: no busts, both scores 0."""
        z = self.zero
        return (0, 0, z, z)

    @property
    def states(self) -> int:
        """Number of (both scores, both counts, turn total, dice) states below the target."""
        N, C = self.P.shape[2], self.P.shape[0]
        return N * (N * (N + 1) // 2) * C * C * self.rules.dice

    def win_probability(self, me: int, opponent: int, my_busts: int = 0, their_busts: int = 0):
        """Chance that the player about to start a turn wins (scores in points)."""
        r = self.rules
        for name, v in (("me", me), ("opponent", opponent)):
            if isinstance(v, bool) or not isinstance(v, int) or v % UNIT:
                raise TenKStateError(f"{name}={v!r}; allowed: a multiple of {UNIT}")
            if not r.floor <= v < r.target:
                raise TenKStateError(f"{name}={v}; allowed: {r.floor}..{r.target - UNIT}")
        for name, v in (("my_busts", my_busts), ("their_busts", their_busts)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < r.farkles:
                raise TenKStateError(f"{name}={v!r}; allowed: 0..{r.farkles - 1}")
        z = self.zero
        return float(self.P[my_busts, their_busts, z + me // UNIT, z + opponent // UNIT])

    def bust_state(self, i: int, j: int, a: int, b: int) -> tuple[int, int, int, int]:
        """The opponent's turn-start state (indices) after the mover at ``(i, j, a, b)`` busts
        (``i``, ``j`` counts of consecutive busts below ``farkles``, ``a``, ``b`` score indices
        below the target's)."""
        i, j, a, b = self._state_indices(i, j, a, b)
        if i + 1 < self.rules.farkles:
            return j, i + 1, b, a
        return j, 0, b, max(a - self.rules.farkle_penalty // UNIT, 0)

    def turn_tables(self, i: int, j: int, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """Turn values ``V[t, n - 1]`` and roll values ``R[t, n - 1]`` of the turn that starts
        at ``(i, j, a, b)`` (indices as in :meth:`bust_state`; rows ``t >= N - a`` are wins),
        from the table ``P``."""
        i, j, a, b = self._state_indices(i, j, a, b)
        N, D = self.P.shape[2], self.rules.dice
        ev = TurnPass(self.rules, roll_arrays(self.rules), span=N)
        t = np.arange(N + 1)[:, None]
        at = a + t
        bank = np.where(at >= N, 1.0, 1.0 - self.P[j, 0, b, np.minimum(at, N - 1)])
        beta = np.array([1.0 - self.P[self.bust_state(i, j, a, b)]])
        R = np.ones((N + 1, D, 1))
        _, V = ev.turn(np.array([a]), bank, beta, beta, rolls_out=R)
        return V[:, :, 0], R[:, :, 0]

    def _state_indices(self, i: Any, j: Any, a: Any, b: Any) -> tuple[int, int, int, int]:
        """``(i, j, a, b)`` as ints if they index a turn-start state of ``P``, else an error
        naming the first that does not."""
        C, N = self.rules.farkles, self.P.shape[2]
        out = []
        for name, v, hi in (("i", i, C), ("j", j, C), ("a", a, N), ("b", b, N)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise WrongTypeError(f"{name}={v!r:.60} ({type(v).__name__}); accepts int")
            if not 0 <= v < hi:
                raise TenKStateError(f"{name}={v}; allowed: a whole number 0..{hi - 1}")
            out.append(int(v))
        return out[0], out[1], out[2], out[3]


def memory_estimate(rules: TenKRules, block: int = 8) -> int:
    """Bytes the penalty solver allocates at most (three tables, one block's turn values)."""
    N = (rules.target - rules.floor) // UNIT
    C = rules.farkles
    cols = 2 * block * N * C  # certificate: a lower and an upper column per state
    return 4 * C * C * N * N * 8 + 4 * (N + 1) * rules.dice * cols * 8


def _groups(N: int, C: int, layers: range) -> list[tuple[np.ndarray, ...]]:
    """The block's columns by count sum, highest first: (i, j, a, b), each sorted by ``a``."""
    out = []
    for c in range(2 * (C - 1), -1, -1):
        cols = []
        for s in layers:
            lo, hi = max(0, s - N + 1), min(s, N - 1)
            a = np.arange(lo, hi + 1)
            for i in range(max(0, c - C + 1), min(c, C - 1) + 1):
                cols.append((np.full(len(a), i), np.full(len(a), c - i), a, s - a))
        if not cols:
            continue
        i, j, a, b = (np.concatenate([x[k] for x in cols]) for k in range(4))
        order = np.argsort(a, kind="stable")
        out.append((i[order], j[order], a[order], b[order]))
    return out


def _blocks(N: int, block: int):
    for hi in range(2 * N - 2, -1, -block):
        yield range(hi, max(hi - block, -1), -1)


class _Sweep:
    """The columns of every block and the indices of the values each column needs."""

    def __init__(self, rules: TenKRules, block: int):
        self.N = N = (rules.target - rules.floor) // UNIT
        self.C = C = rules.farkles
        self.pen = rules.farkle_penalty // UNIT
        self.ev = TurnPass(rules, roll_arrays(rules), span=N)
        self.plan = []
        self.t = np.arange(N + 1)[:, None]
        for layers in _blocks(N, block):
            for i, j, a, b in _groups(N, C, layers):
                last = i + 1 == C
                bust_idx = (
                    j,
                    np.where(last, 0, i + 1),
                    b,
                    np.where(last, np.maximum(a - self.pen, 0), a),
                )
                self.plan.append(((i, j, a, b), bust_idx))

    def bank(self, Q: np.ndarray, idx) -> np.ndarray:
        """bank[t, k] = 1 - Q[j, 0, b, a + t] (1 once a + t reaches the target)."""
        _, j, a, b = idx
        at = a[None, :] + self.t
        val = 1.0 - Q[j[None, :], 0, b[None, :], np.minimum(at, self.N - 1)]
        return np.where(at >= self.N, 1.0, val)

    def turn(self, a, bank, beta):
        return self.ev.turn(a, bank, beta, beta)

    def sweep(self, P: np.ndarray) -> float:
        """One Gauss-Seidel sweep in place; returns the largest change."""
        change = 0.0
        for idx, bust_idx in self.plan:
            new = self.turn(idx[2], self.bank(P, idx), 1.0 - P[bust_idx])
            change = max(change, float(np.max(np.abs(new - P[idx]))))
            P[idx] = new
        return change

    def bound_sweep(self, L: np.ndarray, Up: np.ndarray, margin: float, check: bool) -> bool:
        """One sweep of lower and upper bounds in place (lower from upper data and back).

        With ``check`` the new bounds replace the old ones and the result says whether every
        one lies inside the old box (then the box is mapped into itself); without, the old box
        is known to hold the exact values and each new bound is kept where it is tighter."""
        inside = True
        for idx, bust_idx in self.plan:
            a = idx[2]
            K = len(a)
            aa = np.concatenate([a, a])
            bank = np.concatenate([self.bank(Up, idx), self.bank(L, idx)], axis=1)
            beta = np.concatenate([1.0 - Up[bust_idx], 1.0 - L[bust_idx]])
            order = np.argsort(aa, kind="stable")
            inv = np.empty_like(order)
            inv[order] = np.arange(2 * K)
            out = self.turn(aa[order], bank[:, order], beta[order])[inv]
            lo = np.maximum(out[:K] - margin, 0.0)
            hi = np.minimum(out[K:] + margin, 1.0)
            if check:
                inside = inside and bool(np.all(lo >= L[idx]) and np.all(hi <= Up[idx]))
                L[idx], Up[idx] = lo, hi
            else:
                L[idx], Up[idx] = np.maximum(L[idx], lo), np.minimum(Up[idx], hi)
        return inside


def check_penalty_rules(rules: TenKRules) -> TenKRules:
    """``rules`` if they are :class:`TenKRules` with a farkle penalty, else TenKRulesError."""
    if not isinstance(rules, TenKRules):
        raise TenKRulesError(f"rules: expected TenKRules; got {type(rules).__name__}")
    if not rules.penalised:
        raise TenKRulesError(
            "rules without a farkle penalty (farkle_penalty=0): use solve_duel or solve_layered"
        )
    return rules


def solve_penalty(
    rules: TenKRules,
    block: int = 8,
    tol: float = 1e-13,
    max_passes: int = 2000,
    progress=None,
    refine: int = 4,
    width: float = 1e-11,
    checkpoint: str | os.PathLike | None = None,
) -> PenaltySolution:
    """Solve the duel with a farkle penalty and certify it (see the module docstring); at
    most ``refine`` sweeps of the proven box narrow the first player's interval below ``width``.

    ``checkpoint``: a file (``.npz``) where the table is saved after every sweep; a solve
    started with an existing checkpoint of the same rules goes on from it (any starting table
    leads to the same unique solution, so a resumed solve gives the same answer)."""
    check_penalty_rules(rules)
    block = check_count(block, "block", 1, 10_000)
    tol = check_positive_float(tol, "tol")
    max_passes = check_count(max_passes, "max_passes")
    refine = check_count(refine, "refine", 0)
    width = check_positive_float(width, "width")
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TenKStateError(f"checkpoint={checkpoint!r}; allowed: a file path or None")
    if checkpoint is not None:
        check_output_file(checkpoint, "checkpoint")
    what = f"the penalty duel to {rules.target} with floor {rules.floor} needs"
    check_memory(memory_estimate(rules, block), what)
    start = time.perf_counter()
    sw = _Sweep(rules, block)
    N, C = sw.N, sw.C
    P = np.full((C, C, N, N), 0.5)
    change, passes = np.inf, 0
    if checkpoint is not None and Path(checkpoint).exists():
        P, passes, change = read_checkpoint(checkpoint, rules, P.shape)
    while change > tol:
        if passes >= max_passes:
            raise TenKStateError(f"no convergence after {max_passes} passes (change {change})")
        change = sw.sweep(P)
        passes += 1
        if checkpoint is not None:
            write_checkpoint(checkpoint, rules, P, passes, change)
        if progress is not None:
            progress(passes, change)
    L, Up, ok = _proven_box(_Sweep(rules, 1), P, change, refine, width, -rules.floor // UNIT)
    secs = time.perf_counter() - start
    return PenaltySolution(rules, P, L, Up, passes, change, secs, ok)


def _proven_box(sw: _Sweep, P: np.ndarray, change: float, refine: int, width: float, z: int):
    """``(L, U, ok)``: the first box ``[P - delta, P + delta]`` of a growing ``delta`` that
    one sweep of bounds maps into itself (then the exact values lie in the sweep's result),
    narrowed by at most ``refine`` more sweeps while each takes a quarter off the first
    player's interval (at score index ``z``) and it is wider than ``width``. The bounds
    sweep layer by layer (``sw`` of blocks of one layer): every bank value is then one this
    sweep has bounded already, and only the penalties' values come from the box (with the
    solve's blocks of eight layers the box's bank values inside a block make the long game
    to 10,000 need a box a thousand times wider)."""
    margin = rounding_margin(sw.ev)
    L, Up = P, P
    for delta in box_radii(change, margin, sw.N):
        L, Up = np.clip(P - delta, 0.0, 1.0), np.clip(P + delta, 0.0, 1.0)
        if sw.bound_sweep(L, Up, margin, check=True):
            break
    else:
        return L, Up, False
    for _ in range(refine):
        before = Up[0, 0, z, z] - L[0, 0, z, z]
        if before < width:
            break
        sw.bound_sweep(L, Up, margin, check=False)
        if Up[0, 0, z, z] - L[0, 0, z, z] > 0.75 * before:
            break
    return L, Up, True


def box_radii(change: float, margin: float, N: int) -> list[float]:
    """The radii of the boxes around a table whose last sweep moved it by ``change`` that
    the certificate tries, smallest first, ten times wider each, up to ``1e-4``: from
    ``1e3`` times the change, or the rounding ``margin`` of a turn pass times a tenth of the
    square of the ``N`` score levels (the margins the bounds gather on their way from the
    target down grow about so: a box narrower than that is not mapped into itself)."""
    delta = max(1e3 * change, 1e-12, margin * N * N / 10)
    out = []
    while delta <= 1e-4:
        out.append(delta)
        delta *= 10
    return out


def write_checkpoint(
    path: str | os.PathLike, rules: TenKRules, P: np.ndarray, passes: int, change: float
) -> None:
    """Save a solve's table after ``passes`` sweeps (the last moved it by ``change``) in a
    file that cannot run code (:func:`~phase10math._base.savefile.write_safe`)."""
    head = {"rules": rules.as_dict(), "code_version": package_version()}
    write_safe(path, CHECKPOINT_KIND, head, {"P": P, "passes": passes, "change": change})


def read_checkpoint(
    path: str | os.PathLike, rules: TenKRules, shape: tuple[int, ...]
) -> tuple[np.ndarray, int, float]:
    """``(P, passes, change)`` of a checkpoint of these ``rules`` (:func:`write_checkpoint`);
    a file that is not one, or one of other rules, is refused (InvalidFileError)."""
    head, data = read_safe(path, CHECKPOINT_KIND)
    if head.get("rules") != json.loads(json.dumps(rules.as_dict())):
        raise InvalidFileError(f"{os.fspath(path)} is a checkpoint of other rules")
    try:
        P = np.asarray(data["P"], dtype=float)
        passes, change = int(data["passes"]), float(data["change"])
    except (KeyError, TypeError, ValueError):
        raise InvalidFileError(f"{os.fspath(path)} is not a complete checkpoint") from None
    if P.shape != shape or not np.all((P >= 0) & (P <= 1)) or passes < 0:
        raise InvalidFileError(f"{os.fspath(path)}: its table is not this game's")
    return P.copy(), passes, change


def solve_penalty_duel(
    rules: TenKRules,
    progress: bool = True,
    use_cache: bool = True,
    checkpoint: str | os.PathLike | None = None,
) -> PenaltySolution:
    """:func:`solve_penalty` with a progress bar, the first player's proven interval narrowed
    below 1e-9, cached on disk (an uncertified result is refused with TenKStateError);
    ``checkpoint``: a file that holds the table after every
    sweep, from which the same call goes on after a stop."""
    check_penalty_rules(rules)
    progress = check_flag(progress, "progress")
    use_cache = check_flag(use_cache, "use_cache")
    if checkpoint is not None:  # refused before any work: a folder missing, a bad file
        if not isinstance(checkpoint, (str, os.PathLike)):
            raise TenKStateError(f"checkpoint={checkpoint!r}; allowed: a file path or None")
        check_output_file(checkpoint, "checkpoint")
        if Path(checkpoint).exists():
            N = (rules.target - rules.floor) // UNIT
            read_checkpoint(checkpoint, rules, (rules.farkles, rules.farkles, N, N))

    def run() -> PenaltySolution:
        bar = progress_bar(
            desc=f"farkle duel to {rules.target}, floor {rules.floor}",
            unit="sweep",
            enabled=progress,
        )

        def report(passes: int, change: float) -> None:
            bar.update(1)
            bar.set_postfix(change=f"{change:.1e}")

        try:
            s = solve_penalty(rules, progress=report, width=1e-9, checkpoint=checkpoint)
        finally:
            bar.close()
        if not s.certified:
            raise TenKStateError(f"the penalty duel to {rules.target} could not be certified")
        return s

    if not use_cache:
        return run()
    key = cache_key(kind="tenk-penalty-duel", rules=rules.as_dict(), algo=1)

    def compute() -> dict:
        s = run()
        return {
            "P": s.P,
            "L": s.L,
            "U": s.U,
            "passes": s.passes,
            "last_change": s.last_change,
            "seconds": s.seconds,
        }

    d = cached(key, compute)
    return PenaltySolution(
        rules, d["P"], d["L"], d["U"], d["passes"], d["last_change"], d["seconds"], True
    )
