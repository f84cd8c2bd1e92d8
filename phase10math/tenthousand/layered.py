"""The proven duel of 10,000: score layers, 2x2 fixed points, certified lower and upper bounds.

``P(a, b)`` (the chance that the player about to start a turn with ``a`` banked points against
``b`` wins, scores in units of 50) satisfies one equation per score pair: the optimal turn's
value, which needs ``P`` at three kinds of states (see :mod:`~phase10math.tenthousand.duel`):

- **bank** ``t > 0``: ``1 - P(b, a + t)``, a state whose *score layer* ``a + b + t`` is higher;
- **bust**: ``1 - P(b, a)``, the *partner* state in the same layer;
- **wipe** (four or more 2s): ``1 - P(b, 0)``, a lower layer (the only step that goes down).

**Steps.**

1. *Layer order* (Neller and Presser's order for Pig): layers from the highest score sum down,
   so that every bank value comes from a layer already solved in this pass.
2. *Pair solve* (Crocce and Mordecki's 2x2 reduction): in a layer the unknowns are the pairs
   ``x = P(a, b)``, ``y = P(b, a)``; the turn value is a convex, piecewise-linear function of
   the partner's value, ``x = F1(y)``, ``y = F2(x)``, and one backward pass over the turn gives
   each value together with its slope ``d`` (the chance that the optimal turn ends in a bust).
   Newton's step solves the two linear pieces exactly; it is exact once the policy is right
   (the pair step both two-player games share: :func:`~phase10math._base.pairs.pair_fixed_point`).
3. *Passes*: the wipe values ``P(b, 0)`` of lower layers come from the previous pass (Gauss-
   Seidel over the whole table); passes repeat until nothing moves by more than ``1e-13``.
   Layers are processed a few at a time (``block``) for speed; inside a block the bank values
   of the block's own higher layers also come from the previous pass.
4. *Certificate*: a box ``[L0, U0] = [P - delta, P + delta]`` is pushed through one more pass
   in which every lower bound is computed from upper bounds and vice versa (the turn value
   falls when the opponent's chances rise): each pair of a block is proven by the pair
   certificate both two-player games share (:mod:`phase10math._base.pairs`, here
   :class:`BlockPairs`): with ``h(x) = F1(1 - F2(1 - x))`` from below and from above (the
   bounds of the values the turns need, every turn value moved by the rounding margin of a
   pass, :func:`rounding_margin`, to the safe side), ``h+(x + e) <= x + e`` and
   ``h-(x - e) >= x - e`` put the exact pair within ``e`` of the candidate. If the result
   ``[L, U]`` lies inside ``[L0, U0]``, the map sends the box into itself, so (Brouwer; the
   fixed point is unique because, whatever both players do, from every position the game ends
   within a bounded number of turns with a chance bounded away from 0) the exact values lie in
   ``[L, U]``. More passes from that proven box narrow it. The first player's chance is
   reported as ``[L(0, 0), U(0, 0)]``.

>>> from phase10math.tenthousand.rules import TenKRules
>>> sol = solve_layered(TenKRules(target=300, dice=3))
>>> sol.lower <= sol.value <= sol.upper and sol.upper - sol.lower < 1e-9
True
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from phase10math._base.pairs import interval_verdict, pair_fixed_point, prove_pairs
from phase10math.errors import StateSpaceTooLargeError
from phase10math.tenthousand.errors import TenKStateError
from phase10math.tenthousand.odds import duel_roll_data
from phase10math.tenthousand.rules import UNIT, TenKRules

EPS = 2.0**-53
FIRST_DELTA = 1.005  # a pair certificate's first interval over the error carried into it
TIGHTEN = 2  # halvings of a pair's proven interval towards the last that failed
MEMORY_LIMIT = 4 * 2**30  # bytes the solver may allocate at most (refused at once above this)


def memory_allowed() -> int:
    """Bytes a solve may allocate: :data:`MEMORY_LIMIT`, or half the memory now available."""
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return MEMORY_LIMIT
    return min(MEMORY_LIMIT, free // 2)


def check_memory(need: int, what: str) -> None:
    """Refuse at once (:class:`StateSpaceTooLargeError`) work that needs more than
    :func:`memory_allowed`; ``what`` says what needs it ("the proven duel to 10000 needs")."""
    allowed = memory_allowed()
    if need > allowed:
        raise StateSpaceTooLargeError(
            f"{what} about {need / 2**30:.2f} GiB; allowed now: {allowed / 2**30:.2f} GiB"
        )


@dataclass(frozen=True)
class _Roll:
    """The rolls of one number of dice as arrays. Groups (rolls that allow the same set-asides)
    are sorted by their number of options, most first; option ``j`` of the first ``size[j]``
    groups scores ``s[j]`` (units of 50) and leaves ``m[j] + 1`` dice to roll."""

    n: int
    s: tuple[np.ndarray, ...]
    m: tuple[np.ndarray, ...]
    size: tuple[int, ...]
    w: np.ndarray  # group probabilities
    p_none: float
    p_wipe: float
    p_win: float


def roll_arrays(rules: TenKRules) -> list[_Roll]:
    """The rolls of 1..dice dice as the turn pass reads them (one :class:`_Roll` each)."""
    out = []
    for n in range(1, rules.dice + 1):
        none, wipe, win, scoring = duel_roll_data(n, rules)
        groups = [(w / 6**n, [(s, m - 1) for s, m in opts]) for w, opts in scoring]
        groups.sort(key=lambda g: -len(g[1]))
        width = len(groups[0][1]) if groups else 0
        size = tuple(sum(1 for _, o in groups if len(o) > j) for j in range(width))
        s = tuple(np.array([o[j][0] for _, o in groups[: size[j]]]) for j in range(width))
        m = tuple(np.array([o[j][1] for _, o in groups[: size[j]]]) for j in range(width))
        w = np.array([x for x, _ in groups])
        out.append(_Roll(n, s, m, size, w, none / 6**n, wipe / 6**n, win / 6**n))
    return out


def memory_estimate(rules: TenKRules, block: int = 8) -> int:
    """Bytes the proven solver allocates at most (tables, one block's turn values)."""
    U = rules.target // UNIT
    cols = 2 * block * U  # certificate: a lower and an upper column per pair
    turn = 3 * (U + 1) * rules.dice * cols * 8  # values, bank values, scratch
    return 6 * U * U * 8 + turn + 400 * cols * 8 * 4


class TurnPass:
    """One batch of columns (score pairs, possibly twice: lower and upper bound). ``span``:
    the mover wins once score index ``a`` plus the turn total reaches it (default: the target
    in units of 50; the penalty game counts scores from its floor)."""

    def __init__(self, rules: TenKRules, rolls: list[_Roll], span: int | None = None):
        self.rules = rules
        self.rolls = rolls
        self.U = rules.target // UNIT if span is None else span  # totals that reach it win
        self.D = rules.dice
        self.open_u = rules.open_score // UNIT
        self.flat = flat_rolls(rolls)

    def turn(self, a, bank, beta, omega, rolls_out=None):
        """Turn-start values of columns with mover score ``a`` (sorted ascending), bank values
        ``bank[t, k]`` (t = 0..U), bust value ``beta`` and wipe value ``omega`` (equal to
        ``beta`` where ``a == 0``). With ``rolls_out`` (shaped ``(U + 1, D, K)``) the roll
        values are stored there and ``(values, turn values V[t, n - 1, k])`` is returned.
        The pass itself is :func:`turn_kernel` (compiled)."""
        U, D = self.U, self.D
        V = np.repeat(bank[:, None, :], D, axis=1)  # (U + 1, D, K)
        if self.open_u:  # not on the board: stopping below the opening banks nothing
            stop0 = (a == 0)[None, :] & (np.arange(U + 1) < self.open_u)[:, None]
            V = np.where(stop0[:, None, :], beta[None, None, :], V)
        V = np.ascontiguousarray(V, dtype=float)
        # columns active at total t: a + t < U, a prefix because a is sorted
        kmax = np.searchsorted(a, U - np.arange(U + 1), side="left").astype(np.int64)
        store = rolls_out is not None
        R = rolls_out if store else np.empty((1, 1, 1))
        out = turn_kernel(
            V, kmax, np.ascontiguousarray(beta, dtype=float),
            np.ascontiguousarray(omega, dtype=float), self.flat, R, store,
        )  # fmt: skip
        if store:
            V[0, D - 1] = out
            return out, V
        return out


def flat_rolls(rolls: list[_Roll]) -> tuple:
    """The rolls of 1..D dice as arrays the compiled pass reads: options' scores ``S`` and
    dice left ``M`` (roll, option, group), the groups with each option (roll, option), each
    roll's number of options and of groups, the group weights, and the chances of a bust,
    a wipe and a win (a roll of ``n`` dice is row ``n - 1``)."""
    D = len(rolls)
    width = np.array([len(ro.size) for ro in rolls], dtype=np.int64)
    G = np.array([len(ro.w) for ro in rolls], dtype=np.int64)
    wmax, gmax = max(int(width.max()), 1), max(int(G.max()), 1)
    S = np.zeros((D, wmax, gmax), dtype=np.int64)
    M = np.zeros((D, wmax, gmax), dtype=np.int64)
    size = np.zeros((D, wmax), dtype=np.int64)
    w = np.zeros((D, gmax))
    for r, ro in enumerate(rolls):
        for j in range(len(ro.size)):
            size[r, j] = ro.size[j]
            S[r, j, : ro.size[j]] = ro.s[j]
            M[r, j, : ro.size[j]] = ro.m[j]
        w[r, : len(ro.w)] = ro.w
    p = np.array([[ro.p_none, ro.p_wipe, ro.p_win] for ro in rolls])
    return S, M, size, width, G, w, p


@njit(cache=True)
def turn_kernel(V, kmax, beta, omega, flat, R_out, store):  # pragma: no cover (compiled)
    """The turn pass in place on ``V[t, n - 1, k]`` (the bank values at first), from the
    highest total down: a roll of ``n`` dice is worth its groups' best options, weighted,
    plus a bust's, a wipe's and a win's values; a total's value is the better of banking and
    rolling (ties bank). Returns the turn-start values; with ``store`` the roll values go to
    ``R_out[t, n - 1, k]``."""
    S, M, size, width, G, w, p = flat
    U, D, K = V.shape[0] - 1, V.shape[1], V.shape[2]
    out = np.zeros(K)
    acc, best = np.empty(K), np.empty(K)
    for t in range(U - 1, -1, -1):
        k = kmax[t]
        if k == 0:
            continue
        for r in range(D):
            if t == 0 and r != D - 1:
                continue
            acc[:k] = 0.0
            for g in range(G[r]):
                t0, m0 = min(t + S[r, 0, g], U), M[r, 0, g]
                for c in range(k):
                    best[c] = V[t0, m0, c]
                for j in range(1, width[r]):
                    if g >= size[r, j]:
                        break  # the groups with most options come first
                    tj, mj = min(t + S[r, j, g], U), M[r, j, g]
                    for c in range(k):
                        v = V[tj, mj, c]
                        if v > best[c]:
                            best[c] = v
                wg = w[r, g]
                for c in range(k):
                    acc[c] += wg * best[c]
            for c in range(k):
                cc = p[r, 0] * beta[c] + p[r, 2]
                if p[r, 1] != 0.0:
                    cc = cc + p[r, 1] * omega[c]
                val = acc[c] + cc
                if store:
                    R_out[t, r, c] = val
                if t == 0:
                    out[c] = val
                elif val > V[t, r, c]:  # ties bank
                    V[t, r, c] = val
    return out


def pair_tables(rules: TenKRules, P: np.ndarray, a: int, b: int):
    """Turn values ``V[t, n - 1]`` and roll values ``R[t, n - 1]`` of one score pair (units
    of 50; rows t >= target - a are wins) from the turn-start table ``P``."""
    U = rules.target // UNIT
    ev = TurnPass(rules, roll_arrays(rules))
    av, bv = np.array([a]), np.array([b])
    beta = np.array([1.0 - P[b, a]])
    omega = beta if a == 0 else np.array([1.0 - P[b, 0]])
    R = np.ones((U + 1, rules.dice, 1))
    _, V = ev.turn(av, _bank_table(P, av, bv, U), beta, omega, rolls_out=R)
    return V[:, :, 0], R[:, :, 0]


@dataclass
class ProvenDuel:
    """A proven duel's tables: ``P`` (float) and proven bounds ``L <= exact <= U`` at every
    turn start, how they were found, and the game's first turn start (:attr:`start`)."""

    rules: TenKRules
    P: np.ndarray = field(repr=False)
    L: np.ndarray = field(repr=False)
    U: np.ndarray = field(repr=False)
    passes: int
    last_change: float
    seconds: float
    certified: bool

    @property
    def start(self) -> tuple[int, ...]:
        """Index of the game's first turn start in ``P``: both scores 0."""
        return (0, 0)

    @property
    def value(self) -> float:
        """P(first player wins), float."""
        return float(self.P[self.start])

    @property
    def lower(self) -> float:
        """Proven lower bound on P(first player wins)."""
        return float(self.L[self.start])

    @property
    def upper(self) -> float:
        """Proven upper bound on P(first player wins)."""
        return float(self.U[self.start])


@dataclass
class LayeredSolution(ProvenDuel):
    """The proven duel: ``P[a, b]`` at every turn start (the mover's and the opponent's
    scores)."""


def _layer_columns(U: int, s: int) -> np.ndarray:
    lo, hi = max(0, s - U + 1), min(s, U - 1)
    return np.arange(lo, hi + 1)


def _block_cols(U: int, layers: range):
    """Mover scores ``a``, opponent scores ``b`` (sorted by ``a``) and partner index of each."""
    a = np.concatenate([_layer_columns(U, s) for s in layers])
    s = np.concatenate([np.full(len(_layer_columns(U, s)), s) for s in layers])
    b = s - a
    order = np.argsort(a, kind="stable")
    a, b = a[order], b[order]
    pos = {(int(x), int(y)): i for i, (x, y) in enumerate(zip(a, b, strict=True))}
    partner = np.array([pos[(int(y), int(x))] for x, y in zip(a, b, strict=True)])
    return a, b, partner


def _bank_table(Q: np.ndarray, a: np.ndarray, b: np.ndarray, U: int) -> np.ndarray:
    """bank[t, k] = 1 - Q[b, a + t] (1 once a + t reaches the target)."""
    t = np.arange(U + 1)[:, None]
    at = a[None, :] + t
    val = 1.0 - Q[b[None, :], np.minimum(at, U - 1)]
    return np.where(at >= U, 1.0, val)


def _value_and_slope(ev: TurnPass, a, bank, beta, omega, h: float = 1e-7):
    """Turn-start values and their slopes in the bust value, the slopes by a difference
    quotient (exact where no kink lies within ``h``; they only steer Newton's step, the
    certificate computes proven slopes)."""
    K = len(a)
    order = np.argsort(np.concatenate([a, a]), kind="stable")
    inv = np.empty_like(order)
    inv[order] = np.arange(2 * K)
    aa = np.concatenate([a, a])[order]
    bb = np.concatenate([bank, bank], axis=1)[:, order]
    be = np.concatenate([beta, beta + h])
    om = np.concatenate([omega, np.where(a == 0, omega + h, omega)])
    F2 = ev.turn(aa, bb, be[order], om[order])[inv]
    return F2[:K], (F2[K:] - F2[:K]) / h


def _newton(x, F, d, partner):
    """The pair step (:func:`~phase10math._base.pairs.pair_fixed_point`) through the two
    linear pieces ``x = c + d (1 - y)`` through ``(y, F)``."""
    c = F - d * (1.0 - x[partner])
    return pair_fixed_point(c, d, c[partner], d[partner])[0]


def _blocks(U: int, block: int):
    top = 2 * U - 2
    for hi in range(top, -1, -block):
        yield range(hi, max(hi - block, -1), -1)


def solve_layered(
    rules: TenKRules,
    block: int = 8,
    tol: float = 1e-13,
    max_passes: int = 200,
    progress=None,
    certify: bool = True,
    refine: int = 6,
) -> LayeredSolution:
    """Solve the duel by score layers and certify it (see the module docstring); at most
    ``refine`` further passes narrow the proven box."""
    U = rules.target // UNIT
    check_memory(memory_estimate(rules, block), f"the proven duel to {rules.target} needs")
    start = time.perf_counter()
    ev = TurnPass(rules, roll_arrays(rules))
    P = np.full((U, U), 0.5)
    blocks = [(layers, *_block_cols(U, layers)) for layers in _blocks(U, block)]
    slopes: dict[int, np.ndarray] = {}
    change, passes = np.inf, 0
    last = np.inf
    while change > tol:
        if passes >= max_passes:
            raise TenKStateError(f"no convergence after {max_passes} passes (change {change})")
        change = 0.0
        for i, (_, a, b, partner) in enumerate(blocks):
            x = P[a, b]
            beta = 1.0 - x[partner]
            omega = np.where(a == 0, beta, 1.0 - P[b, 0])
            bank = _bank_table(P, a, b, U)
            if passes < 2 or last > 1e-7 or i not in slopes:
                F, d = _value_and_slope(ev, a, bank, beta, omega)
                slopes[i] = d
            else:  # the policy has settled: the slopes of the last pass serve Newton's step
                F = ev.turn(a, bank, beta, omega)
                d = slopes[i]
            new = _newton(x, F, d, partner)
            change = max(change, float(np.max(np.abs(new - x))))
            P[a, b] = new
        passes += 1
        last = change
        if progress is not None:
            progress(passes, change)
    if not certify:
        return LayeredSolution(rules, P, P, P, passes, change, time.perf_counter() - start, False)
    # a box around P that the certifying pass maps into itself proves the exact values are
    # inside the pass's result; one more pass from that (proven) box narrows it further.
    # Inside a block the bank values of the block's higher layers come from the box; where
    # they weigh too much (short games), layer by layer (then only the wipe values do).
    single = [(layers, *_block_cols(U, layers)) for layers in _blocks(U, 1)]
    d1 = max(3e-10 * max(1.0, U / 100) ** 2, 100 * change)  # the margins grow with U
    tries = ((blocks, d1), (blocks, 10 * d1), (single, d1), (single, 10 * d1), (blocks, 100 * d1))
    for bl, delta in tries:
        L, Up, ok = _certify(ev, bl, P, P - delta, P + delta)
        if ok:
            L, Up = _narrow(ev, bl, P, L, Up, refine)
            break
    secs = time.perf_counter() - start
    return LayeredSolution(rules, P, L, Up, passes, change, secs, ok)


def _narrow(ev: TurnPass, bl: list, P: np.ndarray, L: np.ndarray, Up: np.ndarray, refine: int):
    """A proven box ``[L, Up]`` narrowed by at most ``refine`` more certifying passes, while
    a pass still takes a quarter off the first player's interval, until it is below 1e-10."""
    for _ in range(refine):
        if Up[0, 0] - L[0, 0] < 1e-10:
            break
        L2, U2, ok2 = _certify(ev, bl, P, L, Up, check=False)
        if not ok2:
            break
        L2, U2 = np.maximum(L, L2), np.minimum(Up, U2)
        shrink = (U2[0, 0] - L2[0, 0]) / max(Up[0, 0] - L[0, 0], 1e-300)
        L, Up = L2, U2
        if shrink > 0.75:
            break
    return L, Up


def certify_box(rules: TenKRules, P: np.ndarray, lower: np.ndarray, upper: np.ndarray, block=8):
    """(L, U, ok): one certifying pass from the box ``[lower, upper]`` around the candidate
    ``P``; ``ok`` says that the box is mapped into itself, which proves the exact turn-start
    values lie in ``[L, U]``."""
    U = rules.target // UNIT
    blocks = [(layers, *_block_cols(U, layers)) for layers in _blocks(U, block)]
    return _certify(TurnPass(rules, roll_arrays(rules)), blocks, P, lower, upper)


def rounding_margin(ev: TurnPass) -> float:
    """A bound on the rounding error of one turn pass in float64 (values in [0, 1]).

    A roll value is a dot product of at most ``G`` group values plus three terms: its rounding
    is below ``(G + 6) u`` (u = 2**-53); it also carries the errors of the values it averages,
    with total weight at most ``1 - q`` (``q``: the chance that the roll ends the turn at once,
    by a bust, a wipe or six of a kind). So the error of every value is below
    ``(G + 6) u / q_min + u``; the margin doubles that."""
    ell = max(len(r.w) + 6 for r in ev.rolls) * EPS
    q = min(r.p_none + r.p_wipe + r.p_win for r in ev.rolls)
    return 2 * (ell / q + EPS)


def _certify(ev: TurnPass, blocks, P, L0, U0, check: bool = True):
    """One pass of lower and upper bounds from the box [L0, U0] (which must hold the exact
    values, or, with ``check``, be mapped into itself: then it does): every pair of a block
    proven by the pair certificate (:class:`BlockPairs`), block after block, each bound
    kept in place as soon as it is proven."""
    L0 = np.clip(L0, 0.0, 1.0)
    U0 = np.clip(U0, 0.0, 1.0)
    L, Up = L0.copy(), U0.copy()
    for _, a, b, partner in blocks:
        lo, hi = BlockPairs(ev, a, b, partner, (L, Up), (L0, U0)).proven(P[a, b])
        if not check:  # the box is proven: keep the tighter of the two bounds
            lo, hi = np.maximum(lo, L0[a, b]), np.minimum(hi, U0[a, b])
        L[a, b], Up[a, b] = lo, hi
    ok = bool(np.all(L >= L0) and np.all(Up <= U0)) if check else True
    return L, Up, ok


class BlockPairs:
    """A block's pairs ``P(a, b)``, ``P(b, a)`` under the pair certificate of
    :mod:`phase10math._base.pairs`: seat 0 is ``(a, b)`` with ``a <= b``, seat 1 its
    partner; a turn's lower value reads the upper bounds ``Up`` of the banked states (the
    turn's value falls when the opponent's chances rise) and of the wiped ones (``U0``, a
    lower layer: the box), its upper value the lower bounds; every value computed is moved
    by the rounding margin of a turn pass to the safe side."""

    def __init__(self, ev: TurnPass, a, b, partner, bounds, box) -> None:
        (L, Up), (L0, U0) = bounds, box
        self.ev, self.a, self.partner = ev, a, partner
        self.bank = {False: _bank_table(Up, a, b, ev.U), True: _bank_table(L, a, b, ev.U)}
        self.wipe = {False: 1.0 - U0[b, 0], True: 1.0 - L0[b, 0]}
        self.margin = rounding_margin(ev)
        self.seat0 = np.flatnonzero(a <= b)
        self.seat1 = partner[self.seat0]

    def turns(self, cols: np.ndarray, upper: bool, fail: np.ndarray) -> np.ndarray:
        """The turn values of the columns ``cols`` (upper or lower values) at the bust
        values ``fail``, moved by the rounding margin to the safe side."""
        a = self.a[cols]
        order = np.argsort(a, kind="stable")
        inv = np.empty_like(order)
        inv[order] = np.arange(len(cols))
        omega = np.where(a == 0, fail, self.wipe[upper][cols])  # a wipe at 0 is a bust
        out = self.ev.turn(a[order], self.bank[upper][:, cols[order]], fail[order], omega[order])
        return out[inv] + (self.margin if upper else -self.margin)

    def check(self, x: np.ndarray, y: np.ndarray):
        """The pair certificate's check at the pairs' values ``x``, ``y`` (seat 0's, seat
        1's): a :data:`~phase10math._base.pairs.PairCheck`."""

        def at(delta: np.ndarray, r: np.ndarray):
            s0, s1, xr = self.seat0[r], self.seat1[r], x[r]
            y_down = self.turns(s1, False, 1 - (xr + delta))  # g- at x + delta
            y_up = self.turns(s1, True, 1 - (xr - delta))  # g+ at x - delta
            h_up = self.turns(s0, True, 1 - y_down)
            h_down = self.turns(s0, False, 1 - y_up)
            return interval_verdict(xr, y[r], delta, h_up, h_down, y_down, y_up)

        return at

    def proven(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Proven lower and upper bounds of the block's values (``P`` the candidate)."""
        x, y = P[self.seat0], P[self.seat1]
        n = len(x)
        check = self.check(x, y)
        # the map's slope: both turns' chances to bust (a difference quotient of the
        # candidate's turns; it only steers the growth of the intervals)
        h = 1e-7
        fail = np.concatenate([1 - y, 1 - y + h, 1 - x, 1 - x + h])
        cols = np.concatenate([self.seat0, self.seat0, self.seat1, self.seat1])
        v = self.turns(cols, False, fail).reshape(4, n)
        slope = np.clip((v[1] - v[0]) / h, 0, 1) * np.clip((v[3] - v[2]) / h, 0, 1)
        zero = np.zeros(n)
        _, _, missed = check(zero, np.arange(n))  # how far the pairs' box data reach
        carried = np.maximum(missed, 0) / (1 - np.minimum(slope, 1 - 1e-3))
        slack = 1.5 * (4 * self.margin + 1e-16) / (1 - np.minimum(slope, 1 - 1e-3))
        first = carried * FIRST_DELTA + slack
        ex, ey, _ = prove_pairs(check, first, slack, slope, carried, zero, TIGHTEN)
        lo, hi = np.empty(len(P)), np.empty(len(P))
        lo[self.seat0], hi[self.seat0] = x - ex, x + ex
        lo[self.seat1], hi[self.seat1] = y - ey, y + ey
        return np.maximum(lo, 0.0), np.minimum(hi, 1.0)
