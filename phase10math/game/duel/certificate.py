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

from phase10math.game.duel.setting import families
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.batch import gamma

FIRST_DELTA = 1.005  # a pair certificate's first interval over the errors carried
MAX_TRIES = 60  # growths of a pair's interval before the certificate gives up

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
        xr, yr = rows.x[r], rows.y[r]
        ya = self.lower_at(  # g- below
            self.down1[r], rows.kb[r], 1 - (xr + delta), rows.d1[r], self.fam1[r], self.pol1[r]
        )
        yb, fa = self.upper(r, 1 - (xr - delta), 1 - ya)
        fb = self.lower_at(  # f- from below
            self.down0[r], rows.ka[r], 1 - yb, rows.d0[r], self.fam0[r], self.pol0[r]
        )
        ok = (fa <= xr + delta) & (fb >= xr - delta)
        missed = np.maximum(fa - (xr + delta), (xr - delta) - fb)
        return ok, np.maximum(np.abs(yr - ya), np.abs(yb - yr)), missed


def certify(sol: DuelSolution, rows: PairRows, solve_at: SolveAt, tighten: int = 0):
    """Proven errors of every pair's values (seat 0's, seat 1's). ``h(x) = f(1 - g(1 -
    x))`` increases, and the true ``h`` lies below ``h+`` (seat 0's made outcomes raised by
    their errors ``E0``, seat 1's lowered by ``E1``) and above ``h-`` (the reverse); so
    ``h+(x + delta) <= x + delta`` and ``h-(x - delta) >= x - delta``, checked with upper
    values from turn solves and lower values from the policies found (any policy's value is
    a lower value of the optimum), every margin on the safe side, put the true ``x`` within
    ``delta``; ``y = g(1 - x)`` then lies between seat 1's two bounds. ``delta`` starts at
    the errors the policies found carry through the pair (unamplified) plus a slack for the
    local margins. Where a check fails, ``delta`` grows by what it missed, over ``1 - p q``
    (the map's slope is about ``p q``: the fixed point lies about that much further out),
    doubled, and by the slack, which doubles: one more check usually passes, close to the
    tightest ``delta``; then ``tighten`` halvings towards the last that failed, and a
    family's slack tried at a quarter."""
    check = PairCheck(sol, rows, solve_at)
    ex, ey, failed = _grown(check)
    _tightened(check, ex, ey, failed, tighten)
    _family_slack_narrowed(check, ex, ey)
    return ex, ey


def _grown(check: PairCheck) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair's first passing ``delta`` (x's error), y's error there, and the last
    ``delta`` that failed (or the start: below it the interval is near-tight)."""
    n = len(check.rows.x)
    slack, carried, p, q = check.slack, check.carried, check.p, check.q
    todo = np.arange(n)
    ex, ey = np.zeros(n), np.zeros(n)
    # a first interval a little wider than the errors the policies carry: the upper
    # values' policies weigh the errors after them a little more, so most pairs pass the
    # first check (nearly every pair needed a second one at the errors carried); a
    # family's slack is generous already
    delta = carried * np.where(check.fam0 | check.fam1, 1.0, FIRST_DELTA) + slack
    failed = carried + slack  # below it the check fails, or the interval is near-tight
    for tries in range(MAX_TRIES):
        ok, ey_now, missed = check(delta[todo], todo)
        done = todo[ok]
        ex[done], ey[done] = delta[done], ey_now[ok]
        failed[todo[~ok]] = delta[todo[~ok]]
        todo, missed = todo[~ok], missed[~ok]
        if not len(todo):
            break
        slope = np.minimum(p[todo] * q[todo], 1 - 1e-3)
        delta[todo] += 2 * missed / (1 - slope) + slack[todo]
        slack[todo] *= 2
        if tries >= 3:  # far off: grow by the carried error too
            delta[todo] += 0.05 * carried[todo]
    else:
        raise RuntimeError("the error bound could not be certified")  # pragma: no cover
    return ex, ey, failed


def _tightened(check: PairCheck, ex, ey, failed, tighten: int) -> None:
    """``tighten`` halvings between the last delta that failed and the one that passed."""
    far = np.flatnonzero(ex > 1.05 * failed)
    for _ in range(tighten):
        if not len(far):
            break
        mid = (failed[far] + ex[far]) / 2
        ok, ey_now, _ = check(mid, far)
        ex[far[ok]], ey[far[ok]] = mid[ok], ey_now[ok]
        failed[far[~ok]] = mid[~ok]
        far = far[ex[far] > 1.05 * failed[far]]


def _family_slack_narrowed(check: PairCheck, ex, ey) -> None:
    """A family's slack is generous (its margins are whole intervals): try a quarter of it,
    and keep it where the check still passes (any passing delta is proven)."""
    slack = check.slack
    wide = np.flatnonzero((slack > 1e-9) & (check.fam0 | check.fam1))
    for _ in range(3):
        if not len(wide):
            break
        trial = slack[wide] / 4
        d_try = ex[wide] - slack[wide] + trial
        ok, ey_now, _ = check(d_try, wide)
        keep = wide[ok]
        ex[keep] = d_try[ok]
        ey[keep] = np.minimum(ey[keep], ey_now[ok])
        slack[keep] = trial[ok]
        wide = keep[slack[keep] > 1e-9]  # a failed trial stops there
