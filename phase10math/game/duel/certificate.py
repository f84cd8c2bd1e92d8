"""A batch of pairs' fixed points certified: the interval check of :func:`certify`.

A pair of states (seat 0's, and seat 1's after a failed turn) has the values ``x = f(1 -
y)``, ``y = g(1 - x)``; :class:`PairRows` holds what policy iteration found for a batch of
pairs (utilities, their errors, values, margins, the policies' distributions), and
:func:`certify` proves how far the true values can lie from them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from phase10math._base.pairs import interval_verdict, narrow_slack, prove_pairs
from phase10math.game.duel.setting import families
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.batch import gamma

FIRST_DELTA = 1.005  # a pair certificate's first interval over the errors carried

# solve_at(U, phases, fail values, want_dist) -> (values, margins, dists, utilities, margin)
SolveAt = Callable[..., tuple]


@dataclass(frozen=True)
class PairRows:
    """A batch of pairs at the values policy iteration found (one row per pair): seat 0's
    and seat 1's utilities ``U0``, ``U1`` (row, win/tie, outcome; fail first), their errors
    ``E0``, ``E1`` (row, outcome), both phases ``ka``, ``kb``, the values ``x``, ``y``, the
    last residual ``res``, the turns' margins ``m0``, ``m1``, the policies' outcome
    distributions ``d0``, ``d1`` and those distributions' margin ``dm``."""

    U0: np.ndarray
    U1: np.ndarray
    E0: np.ndarray
    E1: np.ndarray
    ka: np.ndarray
    kb: np.ndarray
    x: np.ndarray
    y: np.ndarray
    res: np.ndarray
    m0: np.ndarray
    m1: np.ndarray
    d0: np.ndarray
    d1: np.ndarray
    dm: float


def shifted(U: np.ndarray, E: np.ndarray) -> np.ndarray:
    """Utilities with every made outcome's chance to win moved by its error ``E`` (a row per
    state, one entry per outcome, the fail entry unused)."""
    out = U.copy()
    out[:, 0, 1:] += E[:, 1:]
    return out


class PairCheck:
    """The interval check of a batch of pairs (:func:`certify`): the shifted utilities, the
    errors the policies found carry through each pair, and the slack of the local margins
    (grown in place while the check fails)."""

    def __init__(self, sol: DuelSolution, rows: PairRows, solve_at: SolveAt) -> None:
        r = rows
        self.rows, self.solve_at = r, solve_at
        self.p, self.q = p, q = r.d0[:, 0], r.d1[:, 0]
        self.up0, self.down1 = shifted(r.U0, r.E0), shifted(r.U1, -r.E1)
        self.down0, self.up1 = shifted(r.U0, -r.E0), shifted(r.U1, r.E1)
        a0 = np.einsum("no,no->n", r.d0[:, 1:], r.E0[:, 1:])
        a1 = np.einsum("no,no->n", r.d1[:, 1:], r.E1[:, 1:])
        self.carried = (a0 + p * a1) / (1 - p * q)
        self.fams = fams = families(sol.game)
        self.fam0, self.fam1 = np.isin(r.ka, list(fams)), np.isin(r.kb, list(fams))
        self.pol0, self.pol1 = self.policy_error(r.U0), self.policy_error(r.U1)
        local = (
            2 * (r.m0 + r.m1)
            + r.res
            + np.where(self.fam0, 0, self.pol0)
            + np.where(self.fam1, 0, self.pol1)
        )
        self.slack = 1.5 * (local + 1e-16) / (1 - p * q) + 1e-6 * self.carried

    def policy_error(self, U: np.ndarray) -> np.ndarray:
        """A lower value from the policy found: its distribution's margin and the sum's
        rounding (utilities within [-1, 2]: chances moved by their errors, fail values)."""
        return np.full(len(U), (self.rows.dm + 2 * gamma(U.shape[2] + 1)) * 2 * U.shape[2])

    def lower_at(self, U, kk, fail, d, fam, err) -> np.ndarray:
        """Any policy's value is a lower value of the optimum; a family may know a better
        one (its best member's proven lower value, no program)."""
        W = U[:, 0].copy()
        W[:, 0] = fail
        lo = np.einsum("no,no->n", d, W) - err
        for k in np.unique(kk[fam]):
            idx = np.flatnonzero(fam & (kk == k))
            lo[idx] = np.maximum(lo[idx], self.fams[int(k)].lower(W[idx])[1])
        return lo

    def upper(self, r: np.ndarray, fail1: np.ndarray, fail0: np.ndarray):
        """``g+`` and ``f+`` from above at the rows ``r`` (one solve for both seats where
        their phases agree)."""
        up0, up1, ka, kb = self.up0, self.up1, self.rows.ka, self.rows.kb
        if up1.shape[2] == up0.shape[2]:
            v, m, _, _, _ = self.solve_at(
                np.concatenate([up1[r], up0[r]]),
                np.concatenate([kb[r], ka[r]]),
                np.concatenate([fail1, fail0]),
                False,
            )
            return np.split(v + m, 2)
        v, m, _, _, _ = self.solve_at(up1[r], kb[r], fail1, False)
        yb = v + m
        v, m, _, _, _ = self.solve_at(up0[r], ka[r], fail0, False)
        return yb, v + m

    def __call__(self, delta: np.ndarray, r: np.ndarray):
        """(passed, y's error, what it missed by) at the rows ``r``."""
        rows = self.rows
        xr = rows.x[r]
        ya = self.lower_at(  # g- below
            self.down1[r], rows.kb[r], 1 - (xr + delta), rows.d1[r], self.fam1[r], self.pol1[r]
        )
        yb, fa = self.upper(r, 1 - (xr - delta), 1 - ya)
        fb = self.lower_at(  # f- from below
            self.down0[r], rows.ka[r], 1 - yb, rows.d0[r], self.fam0[r], self.pol0[r]
        )
        return interval_verdict(xr, rows.y[r], delta, fa, fb, ya, yb)


def certify(sol: DuelSolution, rows: PairRows, solve_at: SolveAt, tighten: int = 0):
    """Proven errors of every pair's values (seat 0's, seat 1's): the pair certificate of
    :mod:`phase10math._base.pairs` with this game's check (:class:`PairCheck`: ``h+`` with
    seat 0's made outcomes raised by their errors ``E0``, seat 1's lowered by ``E1``, ``h-``
    the reverse; upper values from turn solves, lower values from the policies found, every
    margin on the safe side). ``delta`` starts at the errors the policies found carry
    through the pair (unamplified) plus a slack for the local margins; then ``tighten``
    halvings towards the last that failed, and a family's slack tried at a quarter."""
    check = PairCheck(sol, rows, solve_at)
    slack, carried = check.slack, check.carried
    # a first interval a little wider than the errors the policies carry: the upper
    # values' policies weigh the errors after them a little more, so most pairs pass the
    # first check (nearly every pair needed a second one at the errors carried); a
    # family's slack is generous already
    delta = carried * np.where(check.fam0 | check.fam1, 1.0, FIRST_DELTA) + slack
    below = carried + slack  # below it the check fails, or the interval is near-tight
    ex, ey, _ = prove_pairs(check, delta, slack, check.p * check.q, carried, below, tighten)
    wide = np.flatnonzero((slack > 1e-9) & (check.fam0 | check.fam1))
    narrow_slack(check, ex, ey, slack, wide)  # a family's margins are whole intervals
    return ex, ey
