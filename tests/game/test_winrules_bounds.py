"""The win rules' proven bounds against the exact rational chance to win, computed on the
duel's own rational brute force (:class:`tests.game.test_duel.BruteForce`: its own dice
model, absolute totals, each "both fail" pair solved in Fractions) on the reduced game of
``test_winrules`` (three dice of six faces, phases "1 set of 2" and "1 set of 3").

The optimal player is the table's policy: where optimal turns tie (outcomes of equal
chance to win), the brute force's optimal policy can make other outcomes, and the rule's
chance to win against it differs. So the opponent's turns are the table's, exact: every
chance of three six-sided dice over three rolls is a whole multiple of ``6**-9``, and the
stored floats are far closer than half of one to it."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from phase10math.game.duel import Play
from phase10math.game.duel.columns import fixed_distribution
from phase10math.game.duel.winrules import TurnBounds, WinRule, dot_bounds, pair_bounds
from tests.game.test_duel import FINISH, SETS, cmp
from tests.game.test_winrules import pricer, rule  # noqa: F401 (the fixture)

LO, HI = 5, 6
BIG = Fraction(10**12)  # beyond any second key: the lexicographic turn as one utility
GRAIN = 6**9  # every chance of a turn is a whole multiple of 1 / GRAIN


def exact_policy(k: int, d: np.ndarray) -> dict:
    """The exact outcome distribution of a stored turn of the table (failed first)."""
    whole = np.rint(d * GRAIN)
    assert np.abs(d * GRAIN - whole).max() < 1e-3 and whole.sum() == GRAIN
    return {o: Fraction(int(w), GRAIN) for o, w in zip(SETS.outcomes(k), whole, strict=True) if w}


def exact_plays() -> dict:
    """The rule's two turn plays, exact: 'complete' (P(made), then the score) and 'score'
    (the score, then P(made)), each as the optimum of one utility ``BIG first + second``."""
    out = {}
    for k in (LO, HI):
        for play in (Play.COMPLETE, Play.SCORE):
            made = {o: Fraction(o is not None) for o in SETS.outcomes(k)}
            pts = {o: Fraction(o or 0) for o in SETS.outcomes(k)}
            first, second = (made, pts) if play == Play.COMPLETE else (pts, made)
            out[(k, play)] = SETS.exact_turn(k, {o: BIG * first[o] + second[o] for o in made})[1]
    return out


class ExactRule:
    """The rule's chance to win against the exact optimal player, in Fractions."""

    def __init__(self, r: WinRule, seat: int, plays: dict, table) -> None:
        self.r, self.seat, self.plays, self.pricer = r, seat, plays, table
        self.solved: dict = {}
        self.chased: dict = {}

    def chase(self, k, total, finisher, elig) -> Fraction:
        """The rule's seat in its last chance (its absolute total, the finisher's)."""
        key = (k, total, finisher, elig)
        if key not in self.chased:
            play = self.r.choose(True, ((k, 0, 0), total - finisher, int(elig)))
            if play == Play.OPTIMAL:
                return SETS.last_chance(*key)
            U = {None: cmp(total - finisher)}
            for x in SETS.outcomes(k)[1:]:
                t2 = total + SETS.gain(k, total, x)
                bonus = FINISH if elig else 0
                U[x] = cmp(t2 + bonus - finisher) if k == HI else self.chase(k + 1, t2, *key[2:])
            d = self.plays[(k, play)]
            self.chased[key] = sum(p * U[o] for o, p in d.items())
        return self.chased[key]

    def turn(self, s, ka, ta, kb, tb) -> tuple[dict, dict]:
        """The mover's outcome distribution and its chance to win after each made outcome."""
        mine = s == self.seat
        U = {}
        for x in SETS.outcomes(ka)[1:]:
            t2 = ta + SETS.gain(ka, ta, x)
            if ka == HI:
                chaser = SETS.last_chance if mine else self.chase
                U[x] = 1 - chaser(kb, tb, t2 + FINISH, s == 0)
            else:
                U[x] = 1 - self.value(1 - s, kb, tb, ka + 1, t2)
        if mine:
            play = self.r.choose(False, (s, (ka, 0, 0), (kb, 0, 0), ta - tb))
            return self.plays[(ka, play)], U
        key = self.pricer.g.key_of(s, (ka, ta), (kb, tb))
        if self.pricer.sol.decided(key):  # settled: any policy wins (or loses) for sure
            fail = 1 - SETS.duel_value(1 - s, kb, tb, ka, ta)
            return SETS.exact_turn(ka, {**SETS.made_utility(s, ka, ta, kb, tb), None: fail})[1], U
        return exact_policy(ka, self.pricer.sol.dists[key]), U

    def value(self, s, ka, ta, kb, tb) -> Fraction:
        key, part = (s, ka, ta, kb, tb), (1 - s, kb, tb, ka, ta)
        if key not in self.solved:
            (d0, U0), (d1, U1) = self.turn(*key), self.turn(*part)
            p, q = d0.get(None, 0), d1.get(None, 0)
            A = sum(pr * U0[o] for o, pr in d0.items() if o is not None)
            B = sum(pr * U1[o] for o, pr in d1.items() if o is not None)
            x = (A + p * (1 - B) - p * q) / (1 - p * q)
            self.solved[key], self.solved[part] = x, q * (1 - x) + B
        return self.solved[key]

    def worth(self) -> Fraction:
        w = self.value(0, LO, 0, LO, 0)
        return w if self.seat == 0 else 1 - w


def test_the_exact_turn_plays_are_the_kits(pricer):  # noqa: F811
    """The brute force's turn plays are the kit's (so the exact value prices the same rule)."""
    plays = exact_plays()
    for (k, play), d in plays.items():
        assert list(pricer.g.scores(k)) == SETS.outcomes(k)[1:]
        want = [float(d.get(o, 0)) for o in SETS.outcomes(k)]
        assert np.allclose(fixed_distribution(pricer.g, k, play), want, atol=1e-14, rtol=0)


@pytest.mark.parametrize("lims, chase", [((0, 3, -2, 4, 2), False), ((5, -1, 0, 0, 4), True)])
def test_the_bounds_hold_the_exact_chance_to_win(pricer, lims, chase):  # noqa: F811
    r, plays = rule(*lims, chase=chase), exact_plays()
    for seat in (0, 1):
        exact = ExactRule(r, seat, plays, pricer).worth()
        lo, hi = pricer.worth_bounds(r, seat)
        # strictly inside: a float alone (a bound dropped) cannot equal this rational
        assert Fraction(lo) < exact < Fraction(hi)
        assert hi - lo < 1e-9
        assert lo <= pricer.worth(r, seat) <= hi
        p_lo, p_hi = pricer.price_bounds(r, seat)
        opt = SETS.duel_value(0, LO, 0, LO, 0)
        opt = opt if seat == 0 else 1 - opt
        assert Fraction(p_lo) < opt - exact < Fraction(p_hi)
        assert p_hi - p_lo < 1e-9


def test_a_pair_bound_holds_its_exact_fixed_point():
    """Two turns of exact (rational) distributions, their floats within a relative margin:
    the interval of the pair holds the exact fixed point, and not much more."""
    d0 = [Fraction(1, 3), Fraction(2, 7), Fraction(8, 21)]  # fail, then two made outcomes
    d1 = [Fraction(3, 5), Fraction(1, 10), Fraction(3, 10)]
    m0, m1 = [Fraction(1, 9), Fraction(5, 11)], [Fraction(4, 13), Fraction(1)]
    A = sum(p * m for p, m in zip(d0[1:], m0, strict=True))
    B = sum(p * m for p, m in zip(d1[1:], m1, strict=True))
    p, q = d0[0], d1[0]
    x = (A + p * (1 - B) - p * q) / (1 - p * q)
    y = q * (1 - x) + B
    margin = 1e-12

    def bounds(d, m) -> TurnBounds:
        f = np.array([float(v) for v in d])
        lo = np.array([float(v) for v in m])
        hi, one = lo.copy(), np.ones(len(m))
        return TurnBounds(
            dot_bounds(f[1:], lo, hi, margin),
            (float(d[0]) * (1 - 2 * margin), float(d[0]) * (1 + 2 * margin)),
            dot_bounds(f[1:], one - hi, one - lo, margin),
        )

    (x_lo, x_hi), (y_lo, y_hi) = pair_bounds(bounds(d0, m0), bounds(d1, m1))
    assert Fraction(x_lo) < x < Fraction(x_hi) and Fraction(y_lo) < y < Fraction(y_hi)
    assert x_hi - x_lo < 1e-10 and y_hi - y_lo < 1e-10
