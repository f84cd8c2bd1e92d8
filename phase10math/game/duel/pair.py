"""The pair step: a layer's "both fail" pairs solved by policy iteration (:func:`solve_layer`),
then certified (:mod:`~phase10math.game.duel.certificate`) and their matchups evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from phase10math._base.pairs import pair_fixed_point
from phase10math.game.duel import columns
from phase10math.game.duel.certificate import PairRows, certify
from phase10math.game.duel.refinement import REFINE_ALL, refine
from phase10math.game.duel.setting import MATCHUPS, PLAYS, Key, Play, families, partner_of
from phase10math.game.duel.table import DuelSolution

TOL = 1e-13  # residual at which a pair's policy iteration stops
MAX_ITER = 60
SEED_EVERY = 8  # a fresh layer solves every 8th difference first, the others from between
NOISE = 1e-11  # a residual this small that no longer shrinks is rounding: stop there
# below this residual, the next step of a pair's policy iteration checks the values alone
# first (most pairs have converged by then: a solve without the forward pass costs about
# 0.6 of one with it)
VALUE_FIRST_BELOW = 1e-4

# the per-turn policy whose exact fixed point at their own utilities a fresh layer's seed
# pairs start policy iteration from (None: both chances at 1/2); about two steps fewer a seed
SEED_START: Play | None = Play.COMPLETE

TIGHTEN = 4  # in a round, halvings of a pair's certified interval towards the tightest


def policy_fixed_point(
    d0: np.ndarray, d1: np.ndarray, M0: np.ndarray, M1: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' chances to win when each plays a fixed turn policy: ``d0``, ``d1`` its
    outcome distributions (failed first), ``M0``, ``M1`` the chances after each made outcome.
    The exact solution of ``x = A + p (1 - y)``, ``y = B + q (1 - x)`` (a failed turn hands
    the same configuration to the other player)."""
    A = np.einsum("no,no->n", d0[:, 1:], M0)
    B = np.einsum("no,no->n", d1[:, 1:], M1)
    return pair_fixed_point(A, d0[:, 0], B, d1[:, 0])


def solve_layer(
    sol: DuelSolution,
    keys0: list[Key],
    fixed,
    strides: Sequence[int] = REFINE_ALL,
    save: Callable[[], None] | None = None,
    log: Callable[[str], None] | None = None,
    reach: Mapping[Any, float] | None = None,
    least: float = 0.0,
) -> None:
    """One layer: every pair (seat 0 state, its seat 1 partner) by policy iteration; a color
    phase's turns from its family, refined (:func:`refine`, every ``strides[i]``-th wide
    interval in round ``i``; with ``reach``, a state's estimated visits, instead those whose
    visits times interval width is more than ``least``); then the pairs' certificate and
    their matchups, into ``sol``."""
    if not keys0:
        return
    pairs = LayerPairs(sol, keys0, fixed)
    if pairs.fresh and pairs.n > SEED_EVERY:
        pairs.seeded_start()
    else:
        pairs.iterate()
    if pairs.fams and reach is not None:
        pairs.refine_reached(reach, least, save, log)
    elif pairs.fams:
        pairs.refine_strides(strides, save, log)
    pairs.certify()
    pairs.matchups()


class LayerPairs:
    """A layer's pairs under policy iteration: seat 0's states ``keys0`` and their seat-1
    partners, the utilities and errors of their outcomes, the values ``x``, ``y`` found so
    far, and the last solves' values, margins and policies (``f0``, ``m0``, ``d0``, ``W0``
    seat 0's; ``dm`` the distributions' margin; ``res`` the residuals)."""

    def __init__(self, sol: DuelSolution, keys0: list[Key], fixed) -> None:
        self.sol, self.g, self.fixed = sol, sol.game, fixed
        self.keys0 = keys0
        self.keys1 = keys1 = [partner_of(k) for k in keys0]
        opt = (Play.OPTIMAL, Play.OPTIMAL)
        nx0, nx1 = [sol.after(k) for k in keys0], [sol.after(k) for k in keys1]  # once a state
        self.nx0, self.nx1 = nx0, nx1
        self.U0 = np.array([sol.utility(k, opt, a) for k, a in zip(keys0, nx0, strict=True)])
        self.U1 = np.array([sol.utility(k, opt, a) for k, a in zip(keys1, nx1, strict=True)])
        self.E0 = np.array([sol.utility_errors(k, a) for k, a in zip(keys0, nx0, strict=True)])
        self.E1 = np.array([sol.utility_errors(k, a) for k, a in zip(keys1, nx1, strict=True)])
        self.ka = np.array([k[1][0] for k in keys0])
        self.kb = np.array([k[1][0] for k in keys1])
        self.n = n = len(keys0)
        start = [sol.values[opt].get(k) for k in keys0], [sol.values[opt].get(k) for k in keys1]
        self.fresh = all(v is None for v in start[0])
        self.x = np.array([0.5 if v is None else v[0] for v in start[0]])  # a re-solve starts
        self.y = np.array([0.5 if v is None else v[0] for v in start[1]])  # there
        self.fams = families(self.g)
        self.f0, self.m0, self.f1, self.m1, self.res = (np.zeros(n) for _ in range(5))
        self.d0, self.W0 = np.zeros((n, self.U0.shape[2])), np.zeros((n, self.U0.shape[2]))
        self.d1, self.W1 = np.zeros((n, self.U1.shape[2])), np.zeros((n, self.U1.shape[2]))
        self.dm = 0.0  # the distributions' margin

    def solve_at(self, U, kk, fail, want_dist=True, margin=True):
        """Turn solves at the utilities ``U`` with the fail values ``fail`` (phases ``kk``):
        values, margins, distributions, the utilities solved and the distributions' margin."""
        m = len(U)
        Uw = U[:, 0].copy()
        Uw[:, 0] = fail
        vals, marg, dist = np.zeros(m), np.zeros(m), np.zeros((m, U.shape[2]))
        dm = 0.0
        for k in np.unique(kk):
            idx = np.flatnonzero(kk == k)
            v, m_, d_, dm = columns.solve_columns(self.g, int(k), Uw[idx], want_dist, margin)
            vals[idx], marg[idx], dist[idx] = v, m_, d_
        return vals, marg, dist, Uw, dm

    def family_margins(self, rows, m, W, kk) -> None:
        """A family's margin (its upper value: a linear program) once, at the values found."""
        for k in np.unique(kk[rows]):
            if int(k) in self.fams:
                idx = rows[kk[rows] == k]
                m[idx] = self.fams[int(k)].solve(W[idx], distribution=False).margin

    def iterate(self, rows=None) -> None:
        """Solve both turns at the current values, then take the exact fixed point of the
        two policies found, until the solves reproduce the values; a pair leaves the
        batch once it has converged (``rows``: only these pairs)."""
        n, x, y = self.n, self.x.copy(), self.y.copy()
        f0, m0, d0, W0, f1, m1, d1, W1, res = (
            self.f0, self.m0, self.d0, self.W0, self.f1, self.m1, self.d1, self.W1, self.res
        )  # fmt: skip
        U0, U1, ka, kb = self.U0, self.U1, self.ka, self.kb
        prev = np.full(n, np.inf)
        newton = np.zeros(n, dtype=bool)  # the last step was to the fixed point of policies
        active = np.arange(n) if rows is None else rows
        for it in range(MAX_ITER):  # noqa: B007 (the count is read after the loop)
            i = active
            # a Newton step from a small residual has mostly found the optimal policies:
            # their values alone first (no forward pass), and where they reproduce the
            # values, the policies found before are optimal there (their exact fixed point)
            quick = i[newton[i] & (prev[i] < VALUE_FIRST_BELOW)]
            if len(quick):
                f0[quick], m0[quick], _, W0[quick], _ = self.solve_at(
                    U0[quick], ka[quick], 1 - y[quick], False, False
                )
                f1[quick], m1[quick], _, W1[quick], _ = self.solve_at(
                    U1[quick], kb[quick], 1 - x[quick], False, False
                )
                r = np.maximum(np.abs(f0[quick] - x[quick]), np.abs(f1[quick] - y[quick]))
                ok = (r <= TOL) | ((r <= NOISE) & (r > 0.5 * prev[quick]))
                res[quick[ok]] = r[ok]
                i = np.setdiff1d(i, quick[ok], assume_unique=True)
                if not len(i):
                    break
            f0[i], m0[i], d0[i], W0[i], self.dm = self.solve_at(U0[i], ka[i], 1 - y[i], True, False)
            f1[i], m1[i], d1[i], W1[i], _ = self.solve_at(U1[i], kb[i], 1 - x[i], True, False)
            r = np.maximum(np.abs(f0[i] - x[i]), np.abs(f1[i] - y[i]))
            res[i] = r
            slow = r > 0.5 * prev[i]
            done = (r <= TOL) | ((r <= NOISE) & slow)  # converged, or at rounding's floor
            if done.all() or it == MAX_ITER - 1:
                break  # what is left over enters the certificate
            xn, yn = policy_fixed_point(d0[i], d1[i], W0[i, 1:], W1[i, 1:])
            # Newton where it makes progress; elsewhere a value-iteration step (a contraction)
            x[i] = np.where(done, x[i], np.where(slow, f0[i], xn))
            y[i] = np.where(done, y[i], np.where(slow, f1[i], yn))
            newton[i] = ~slow & ~done
            prev[i] = r
            active = i[~done]
        self.sol.iterations += it + 1
        solved = np.arange(n) if rows is None else rows
        self.family_margins(solved, m0, W0, ka)
        self.family_margins(solved, m1, W1, kb)
        self.x, self.y = x, y

    def seeded_start(self) -> None:
        """A fresh layer: first every ``SEED_EVERY``-th difference of each pair of players,
        then the others from the values between their neighbours (fewer policy changes to
        go)."""
        groups: dict[tuple, list[int]] = {}
        for i, (_, a, b, _) in enumerate(self.keys0):
            groups.setdefault((a, b), []).append(i)
        seeds = [i for g_ in groups.values() for j, i in enumerate(g_) if j % SEED_EVERY == 0]
        seeds += [g_[-1] for g_ in groups.values() if (len(g_) - 1) % SEED_EVERY]
        seeds = np.array(sorted(seeds))
        U0, U1 = self.U0, self.U1
        if SEED_START is not None:
            # the seeds start where both players' per-turn policies take them: the exact
            # fixed point of those two policies at the seeds' own utilities
            c0 = np.stack([self.fixed[(int(k), SEED_START)] for k in self.ka[seeds]])
            c1 = np.stack([self.fixed[(int(k), SEED_START)] for k in self.kb[seeds]])
            self.x[seeds], self.y[seeds] = policy_fixed_point(
                c0, c1, U0[seeds, 0, 1:], U1[seeds, 0, 1:]
            )
        self.iterate(seeds)
        # the others start where the policies of their nearest seed would take them: the
        # exact fixed point of those two policies at their own utilities (one solve each
        # where the policies stay optimal)
        near = self.nearest_seeds(groups, seeds)
        others = np.setdiff1d(np.arange(self.n), seeds)
        s_ = near[others]
        self.x[others], self.y[others] = policy_fixed_point(
            self.d0[s_], self.d1[s_], U0[others, 0, 1:], U1[others, 0, 1:]
        )
        self.iterate(others)

    def nearest_seeds(self, groups: Mapping[tuple, list[int]], seeds: np.ndarray) -> np.ndarray:
        """Each pair's nearest seed of its own pair of players (by the difference ``D``)."""
        d = np.array([k[3] for k in self.keys0], dtype=float)
        near = np.arange(self.n)
        for g_ in groups.values():
            here = np.array(g_)
            sd = here[np.isin(here, seeds)]
            if len(sd) == 1:
                near[here] = sd[0]
                continue
            pos = np.clip(np.searchsorted(d[sd], d[here]), 1, len(sd) - 1)
            left, right = sd[pos - 1], sd[pos]
            near[here] = np.where(d[here] - d[left] <= d[right] - d[here], left, right)
        return near

    def refine_reached(self, reach, least, save, log) -> None:
        """The turns play reaches most, once: those whose estimated visits times interval
        width is more than ``least``."""
        r0 = np.array([reach.get(k, 0.0) for k in self.keys0])
        r1 = np.array([reach.get(k, 0.0) for k in self.keys1])
        sides = (self.U0, self.ka, 1 - self.y, r0), (self.U1, self.kb, 1 - self.x, r1)
        added = refine(self.g, *sides, stride=1, save=save, least=least, log=log)
        if log and added:
            log(f"  refined {added} turns (estimated visits times width over {least:.1e})")
        if added:
            self.iterate()

    def refine_strides(self, strides, save, log) -> None:
        """Every ``strides[i]``-th wide interval in round ``i``, until a round adds none."""
        for i, stride in enumerate(strides):
            sides = (self.U0, self.ka, 1 - self.y, None), (self.U1, self.kb, 1 - self.x, None)
            added = refine(self.g, *sides, stride=stride, save=save, log=log)
            if log and added:
                log(f"  refined {added} turns (every {stride}th of the wide intervals)")
            if not added and (stride == 1 or i == len(strides) - 1):
                break
            if added:
                self.iterate()

    def certify(self) -> None:
        """The pairs' proven errors (:func:`certify`), their policies and interval widths
        into the table, and the bound of the policies' ties and matchups."""
        sol, n = self.sol, self.n
        d0, d1, m0, m1, dm = self.d0, self.d1, self.m0, self.m1, self.dm
        tighten = TIGHTEN if sol.pending is not None else 0  # a round: few pairs, worth it
        rows = PairRows(
            self.U0, self.U1, self.E0, self.E1, self.ka, self.kb, self.x, self.y,
            self.res, m0, m1, d0, d1, dm,
        )  # fmt: skip
        ex, ey = certify(sol, rows, self.solve_at, tighten)
        sol.bound = max(sol.bound, float(ex.max()), float(ey.max()))
        keys0, keys1 = self.keys0, self.keys1
        for i in range(n):
            sol.errors[keys0[i]], sol.errors[keys1[i]] = float(ex[i]), float(ey[i])
            sol.dists[keys0[i]], sol.dists[keys1[i]] = d0[i], d1[i]
            sol.gaps[keys0[i]], sol.gaps[keys1[i]] = float(m0[i]), float(m1[i])
        # the policies' ties and the matchups: exact fixed points of fixed policies, whose
        # errors pass through unamplified except the local ones (by 1 + p over 1 - p q)
        p, q = d0[:, 0], d1[:, 0]
        n_out = self.U0.shape[2]
        pp, qq = np.minimum(p + dm, 1), np.minimum(q + dm, 1)
        amp = (1 + np.maximum(pp, qq)) / (1 - pp * qq)
        sol.tie_bound = max(
            sol.tie_bound, sol.tie_bound + float(((n_out * dm + 1e-15) * amp).max())
        )

    def matchups(self) -> None:
        """Every matchup's values and P(tie) at the pairs: the exact fixed points of the two
        seats' policies (optimal play's the values found), into the table."""
        sol, fixed, ka, kb = self.sol, self.fixed, self.ka, self.kb
        keys0, keys1, nx0, nx1 = self.keys0, self.keys1, self.nx0, self.nx1
        opt = (Play.OPTIMAL, Play.OPTIMAL)
        dists = {
            0: {
                Play.OPTIMAL: self.d0,
                **{pl: np.stack([fixed[(int(k), pl)] for k in ka]) for pl in PLAYS[1:]},
            },
            1: {
                Play.OPTIMAL: self.d1,
                **{pl: np.stack([fixed[(int(k), pl)] for k in kb]) for pl in PLAYS[1:]},
            },
        }
        for m in MATCHUPS:
            if m == opt:
                V0w, V1w = self.x, self.y
                U0m, U1m = self.U0, self.U1
            else:
                U0m = np.array([sol.utility(k, m, a) for k, a in zip(keys0, nx0, strict=True)])
                U1m = np.array([sol.utility(k, m, a) for k, a in zip(keys1, nx1, strict=True)])
            P0, P1 = dists[0][m[0]], dists[1][m[1]]
            p, q = P0[:, 0], P1[:, 0]
            if m != opt:
                V0w, V1w = policy_fixed_point(P0, P1, U0m[:, 0, 1:], U1m[:, 0, 1:])
            At = np.einsum("no,no->n", P0[:, 1:], U0m[:, 1, 1:])
            Bt = np.einsum("no,no->n", P1[:, 1:], U1m[:, 1, 1:])
            T0 = (At + p * Bt) / (1 - p * q)
            T1 = q * T0 + Bt
            vm = sol.values[m]
            for i in range(self.n):
                vm[keys0[i]] = (float(V0w[i]), float(T0[i]))
                vm[keys1[i]] = (float(V1w[i]), float(T1[i]))
