"""Rules of thumb: the machine meaning of a rule and its exact price, each checked a second
way: the rule's choice against a naive reading of its lines on every subset of the dice, and
its price against a brute-force recursion over the physical dice of a reduced game (scored by
the test's own meld search); the empty rule against the kit's greedy baseline."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import parse_phase
from phase10math.turn.tables import shipped_row
from phase10math.turn.thumb import (
    HEAD,
    TAIL,
    Feature,
    Line,
    Rule,
    rule_holds,
    rule_price,
    shipped_rules,
)
from tests.bruteforce import brute_best

# two high dice and two low ones of the recorded set: 6**4 rolls
DICE = tuple(RECORDED_LAYOUT.dice[:2]) + tuple(RECORDED_LAYOUT.dice[6:8])
PHASE = parse_phase("1 set of 2 + 1 run of 2")
GROUPS = [("set", 2), ("run", 2)]
RULES_TRIED = [
    (),
    (Line(Feature.LOW, more=False, rolls_left=2), Line(Feature.SETS)),
    (Line(Feature.RUN), Line(Feature.WILDS)),
    (Line(Feature.MIDDLE), Line(Feature.EXTRA, more=False, rolls_left=1)),
    (Line(Feature.SIZE, more=False),),
]


@cache
def naive_features(values: tuple[int, ...], set_number: int, run_start: int) -> dict[str, int]:
    """The lines' features of kept dice (values, 0 = W) under one placement, as RULES.md's
    reading of a rule says: numbers to the set first, then to the run; wilds fill gaps."""
    left = list(values)
    in_set = []
    for v in list(left):
        if v == set_number and len(in_set) < 2:
            in_set.append(v)
            left.remove(v)
    in_run = []
    for n in (run_start, run_start + 1):
        if n in left:
            in_run.append(n)
            left.remove(n)
    used = in_set + in_run
    wilds = values.count(0)
    fit = len(used) + min(wilds, 4 - len(used))
    return {
        "fit": fit,
        "extra": len(values) - fit,
        "natural": len(used),
        "sets": len(in_set),
        "run": len(in_run),
        "bigset": len(in_set),
        "high": sum(v >= 5 for v in used),
        "low": sum(v <= 4 for v in used),
        "points": sum(used),
        "wilds": wilds,
        "size": len(values),
        "middle": sum(4 <= v <= 7 for v in used),
        "done": int(fit == 4),
    }


def naive_key(lines, values: list[int], r: int) -> tuple:
    return _naive_key(tuple(lines), tuple(sorted(values)), r)


@cache
def _naive_key(lines, values: tuple[int, ...], r: int) -> tuple:
    lines = list(HEAD) + [x for x in lines if x.rolls_left in (None, r)] + list(TAIL)
    signed = [(x.feature.value, 1 if x.more else -1) for x in lines]
    return max(
        tuple(naive_features(values, n, s)[f] * sign for f, sign in signed)
        for n in range(1, 11)
        for s in range(1, 10)
    )


def rule_for(lines) -> Rule:
    return Rule(tuple(lines), PHASE, layout=DICE)


def chosen_dice(rule: Rule, sides: tuple[int, ...], r: int) -> frozenset[int]:
    """The dice the engine's policy keeps from one physical roll (``sides[i]``: the side die
    i shows)."""
    space = rule.space()
    types = _types(space)
    typed = [(types[i], DICE[i].faces[s]) for i, s in enumerate(sides)]
    gid = space.state_id(space.counts_for(typed))
    pos = int(space.full_ids.searchsorted(gid))
    hold = int(rule_holds(rule)[r][pos])
    return space.dice_for(hold, typed)


@cache
def _types_of(key) -> tuple[int, ...]:
    return tuple(_SPACES[key].die_types(DICE))


_SPACES: dict = {}


def _types(space) -> tuple[int, ...]:
    _SPACES[space.key()] = space
    return _types_of(space.key())


@pytest.mark.parametrize("lines", RULES_TRIED)
def test_the_choice_is_the_best_key_of_every_subset(lines):
    rule = rule_for(lines)
    # every 7th roll (7 is prime to 6: every side of every die shows up)
    for sides in list(itertools.product(range(6), repeat=len(DICE)))[::7]:
        values = [DICE[i].faces[s].value for i, s in enumerate(sides)]
        for r in (1, 2):
            kept = chosen_dice(rule, sides, r)
            got = naive_key(lines, [values[i] for i in sorted(kept)], r)
            best = max(
                naive_key(lines, [values[i] for i in sub], r)
                for k in range(len(DICE) + 1)
                for sub in itertools.combinations(range(len(DICE)), k)
            )
            assert got == best, (values, r, sorted(kept))


@pytest.mark.parametrize("lines", RULES_TRIED[1:4:2])
def test_price_equals_a_brute_force_over_the_physical_dice(lines):
    rule = rule_for(lines)

    @cache
    def score(sides: tuple[int, ...]) -> int | None:
        return brute_best(GROUPS, [(DICE[i].faces[s].value, "r") for i, s in enumerate(sides)])

    @cache
    def value(sides: tuple[int, ...], r: int) -> tuple[Fraction, Fraction]:
        if r == 0:
            s = score(sides)
            return Fraction(s is not None), Fraction(s or 0)
        kept = chosen_dice(rule, sides, r)
        free = [i for i in range(len(DICE)) if i not in kept]
        p = e = Fraction(0)
        for new in itertools.product(range(6), repeat=len(free)):
            nxt = list(sides)
            for i, s in zip(free, new):
                nxt[i] = s
            vp, ve = value(tuple(nxt), r - 1)
            p, e = p + vp, e + ve
        return p / 6 ** len(free), e / 6 ** len(free)

    rolls = list(itertools.product(range(6), repeat=len(DICE)))
    p = sum(value(s, 2)[0] for s in rolls) / len(rolls)
    e = sum(value(s, 2)[1] for s in rolls) / len(rolls)
    price = rule_price(rule)
    assert (price.p_complete, price.e_score) == (p, e)


def test_the_empty_rule_is_the_greedy_baseline():
    # the kit's greedy (dice.partial.greedy_keep, its own placement code) on phase 1
    assert Rule((), 1).price().p_complete == shipped_row(1)["p_greedy"]


def test_a_line_can_beat_the_greedy():
    better = Rule((Line(Feature.LOW, more=False, rolls_left=2), Line(Feature.SETS)), 3)
    assert better.price().p_complete > shipped_row(3)["p_greedy"]


def test_shipped_prices_are_the_prices_of_their_lines():
    """A cheap phase of the shipped file priced again (the tool's --check does them all)."""
    shipped = shipped_rules()
    item = shipped["recorded"][4]
    rule = item.rule("complete")
    assert rule.price().p_complete == item.p_complete("complete")
    assert item.p_optimal >= item.p_complete("complete")


def test_the_hint_says_where_the_rule_and_the_best_differ_and_the_cost():
    """Phase 3, a roll where the shipped rule keeps other dice than the best hold: the hint
    names both and prices the gap with the advisor's exact values of the two holds."""
    from phase10math.turn.advisor import advise
    from phase10math.turn.thumb import rule_hint

    roll = "5 6 6 7 8 10 W 1 2 3"
    hint = rule_hint(3, roll, 2)
    adv = advise(roll, 2, 3)
    assert hint.cost == (adv.best.value - adv.value_of(list(hint.keep)).value) * 100
    assert hint.differs == (hint.cost > 0)
    assert "rule of thumb says" in hint.text()


def test_hint_mode_shows_the_shipped_rule_of_thumb():
    """The play app's hint mode: before the answer is shown, the rule's hold for the dice
    in front of the player, the one the rule's policy keeps."""
    from phase10math.play.turn_widget import TurnWidget
    from phase10math.turn.thumb import rule_hold_faces

    w = TurnWidget(phase=4, seed=7, style=False)
    w.hint_toggle.value = True
    w.roll()
    keep = rule_hold_faces(shipped_rules()["recorded"][4].rule(), w.state.dice, 2)
    assert f"Rule of thumb:</b> keep {' '.join(map(str, keep))} (" in w.advice.value


def test_after_check_my_hold_the_hint_shows_the_rules_hold_beside_the_best_and_its_cost():
    """Hint mode, phase 3 (where the rule and the best play differ most often): once the
    player checks the hold, the panel shows the rule's hold and, where the best hold
    differs, what following the rule costs here, the advisor's exact difference of the two
    holds' values (in points of chance in 100); where they agree it says so."""
    from phase10math.play.turn_widget import TurnWidget
    from phase10math.turn.advisor import advise
    from phase10math.turn.thumb import rule_hold_faces

    rule = shipped_rules()["recorded"][3].rule()
    seen = set()
    for seed in range(1, 40):
        w = TurnWidget(phase=3, seed=seed, style=False)
        w.hint_toggle.value = True
        w.roll()
        assert "p10-thumb-check" not in w.advice.value  # not before the check
        w.reveal_button.click()
        html = w.advice.value
        keep = rule_hold_faces(rule, w.state.dice, 2)
        adv = advise(list(w.state.dice), 2, 3)
        cost = (adv.best.value - adv.value_of(list(keep)).value) * 100
        assert "p10-thumb-check" in html
        if cost > 0:
            assert "The best hold differs" in html
            assert f"costs <b>{float(cost):.2f} points of chance in 100</b>" in html
            assert f"<code>{cost}</code>" in html
        else:
            assert "the same as the best hold here" in html
        seen.add(cost > 0)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_the_cards_rule_as_a_strategy_function_keeps_the_rules_hold():
    """``card_strategy``: the shipped rule of a phase in the form ``assess_strategy`` takes
    (face strings in, face strings out), the same hold as the rule's own; bad arguments
    refused with the package's errors."""
    from phase10math.errors import InvalidArgumentError, InvalidPhaseError
    from phase10math.turn import card_strategy
    from phase10math.turn.thumb import rule_hold_faces

    rule = shipped_rules()["recorded"][3].rule()
    roll = "5 6 6 7 8 10 W 1 2 3"
    keep = card_strategy(3)(roll.split(), 2, 3)
    assert keep == [str(f) for f in rule_hold_faces(rule, roll, 2)]
    with pytest.raises(InvalidPhaseError):
        card_strategy(21)
    with pytest.raises(InvalidArgumentError, match="aim"):
        card_strategy(3, aim="win")
    with pytest.raises(InvalidArgumentError, match="layout_name"):
        card_strategy(3, layout_name="wooden")
