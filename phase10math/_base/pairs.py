"""Two turns that hand the game to each other: the 2x2 pair step and its certificate, one
piece for both two-player games (Phase 10 Dice, :mod:`phase10math.game.duel`; 10,000,
:mod:`phase10math.tenthousand.layered`).

A *pair* is two turn starts, seat 0's and seat 1's, where a failed turn (a bust, a missed
phase) hands the same configuration to the other player: seat 0's chance ``x = F(1 - y)``
and seat 1's ``y = G(1 - x)``, ``F`` and ``G`` the optimal turns' values as functions of
the value of failing, each increasing and convex (piecewise linear: a maximum over
policies).

- **The pair step** (:func:`pair_fixed_point`): for fixed policies both maps are linear,
  ``x = c0 + s0 (1 - y)``, ``y = c1 + s1 (1 - x)`` (``s0``, ``s1`` the policies' chances to
  fail), and the pair is their exact solution: Newton's step on the 2x2 system, exact once
  both policies are optimal.
- **The certificate** (:func:`interval_verdict`, :func:`prove_pairs`): ``h(x) = F(1 -
  G(1 - x))`` increases with slope below 1, and the true ``h`` lies between ``h-`` and
  ``h+`` (``F`` and ``G`` from below and from above: the errors of the values a turn
  needs, and every margin, on the safe side). So ``h+(x + delta) <= x + delta`` and ``h-(x
  - delta) >= x - delta`` put the true fixed point within ``delta`` of ``x`` (between two
  points where ``h(t) - t`` changes sign lies its one zero); ``y = G(1 - x)`` then lies
  between seat 1's two bounds. Each game supplies the check at a ``delta`` (its own turn
  solves: a :data:`PairCheck`); :func:`prove_pairs` searches every pair's smallest passing
  ``delta`` the same way for both.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

MAX_TRIES = 60  # growths of a pair's interval before the certificate gives up

# check(delta, rows) -> (passed, y's error, what it missed by), at the rows ``rows``
PairCheck = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


def pair_fixed_point(
    c0: np.ndarray, s0: np.ndarray, c1: np.ndarray, s1: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The exact solution ``(x, y)`` of ``x = c0 + s0 (1 - y)``, ``y = c1 + s1 (1 - x)``
    (``s0 s1 < 1``): the pair step, both seats at fixed policies.

    >>> x, y = pair_fixed_point(np.array([0.5]), np.array([0.5]), np.array([0.25]),
    ...                         np.array([0.5]))
    >>> bool(np.allclose([x[0], y[0]], [0.5 + 0.5 * (1 - y[0]), 0.25 + 0.5 * (1 - x[0])]))
    True
    """
    x = (c0 + s0 * (1 - c1) - s0 * s1) / (1 - s0 * s1)
    return x, s1 * (1 - x) + c1


def interval_verdict(
    x: np.ndarray,
    y: np.ndarray,
    delta: np.ndarray,
    h_up: np.ndarray,
    h_down: np.ndarray,
    y_down: np.ndarray,
    y_up: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The certificate's verdict at ``delta`` (see the module): ``h_up`` is ``h+(x +
    delta)``, ``h_down`` ``h-(x - delta)``, ``y_down`` and ``y_up`` seat 1's bounds on the
    way (``g-(1 - (x + delta))``, ``g+(1 - (x - delta))``). Returns (passed, y's error,
    what the check missed by)."""
    ok = (h_up <= x + delta) & (h_down >= x - delta)
    missed = np.maximum(h_up - (x + delta), (x - delta) - h_down)
    return ok, np.maximum(np.abs(y - y_down), np.abs(y_up - y)), missed


def prove_pairs(
    check: PairCheck,
    delta: np.ndarray,
    slack: np.ndarray,
    slope: np.ndarray,
    carried: np.ndarray,
    below: np.ndarray,
    tighten: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair's proven errors ``(x's, y's)`` and the last ``delta`` that failed (at
    first ``below``: a ``delta`` under which the interval is near-tight): from the first
    intervals ``delta``, where a check fails ``delta`` grows by what it missed,
    over ``1 - slope`` (the map's slope, about the product of both seats' chances to fail:
    the fixed point lies about that much further out), doubled, and by ``slack``, which
    doubles (after three tries also by a twentieth of the error ``carried`` into the pair);
    one more check usually passes, close to the tightest ``delta``. Then ``tighten``
    halvings towards the last that failed. ``slack`` is grown in place."""
    ex, ey, failed = _grown(check, delta.copy(), slack, slope, carried, below.copy())
    _tightened(check, ex, ey, failed, tighten)
    return ex, ey, failed


def _grown(check: PairCheck, delta, slack, slope, carried, failed):
    n = len(delta)
    todo = np.arange(n)
    ex, ey = np.zeros(n), np.zeros(n)
    for tries in range(MAX_TRIES):
        ok, ey_now, missed = check(delta[todo], todo)
        done = todo[ok]
        ex[done], ey[done] = delta[done], ey_now[ok]
        failed[todo[~ok]] = delta[todo[~ok]]
        todo, missed = todo[~ok], missed[~ok]
        if not len(todo):
            break
        s = np.minimum(slope[todo], 1 - 1e-3)
        delta[todo] += 2 * missed / (1 - s) + slack[todo]
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


def narrow_slack(
    check: PairCheck, ex: np.ndarray, ey: np.ndarray, slack: np.ndarray, wide: np.ndarray
) -> None:
    """Where a pair's slack is generous (the rows ``wide``), try a quarter of it, up to three
    times, and keep it where the check still passes (any passing delta is proven)."""
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
