"""Scripted games (fixed dice) for every rule of RULES.md section 1 on whole games. Expected
scores come from the independent brute force in tests/bruteforce.py or by hand."""

from __future__ import annotations

import pytest
from bruteforce import brute_best

from phase10math.dice.faces import parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidHoldError, InvalidRulesError, Phase10MathError
from phase10math.game.engine import Game, ScriptedDice
from phase10math.game.spacemap import SpaceMap
from phase10math.game.strategies import StopStrategy, get_strategy
from phase10math.turn.advisor import advise
from phase10math.turn.tables import cached_solution

STOP = StopStrategy()

# five phases made with high scores (hand-checked, and checked by brute force below)
HIGH = {
    1: "10 10 10 9 9 9 W W 1 2",  # 30 + 27 = 57
    2: "10 10 10 7 8 9 W W 1 2",  # 30 + (7 8 9 W) 24 = 54
    3: "10 10 10 7 8 9 W W 1 2",  # 10 10 10 W + 7 8 9 W = 54
    4: "5 6 7 8 9 10 4 1 2 3",  # 4..10 = 49
    5: "5 6 7 8 9 10 3 4 1 2",
}  # 3..10 = 52
HIGH_SCORE = {1: 57, 2: 54, 3: 54, 4: 49, 5: 52}
FAIL = "5 6 7 8 9 10 1 2 3 4"  # ten different numbers: makes no set phase


def brute(k: int, text: str) -> int:
    groups = [(g.kind, g.size) for g in PHASES[k].groups]
    return brute_best(groups, [(f.value, f.color) for f in parse_faces(text)])


def test_hand_scores_agree_with_brute_force():
    for k, text in HIGH.items():
        assert brute(k, text) == HIGH_SCORE[k]
    assert brute(1, "8 8 8 10 W W 1 2 5 6") == 34  # the manual's example
    assert brute(1, FAIL) is None


def solo(rolls, phases=1, rules=None, strategy=STOP):
    return Game([strategy], phases=phases, rules=rules or Rules(), dice=ScriptedDice(rolls)).play()


def test_manual_example_scores_34_and_first_try_bonus():
    res = solo(["8 8 8 10 W W 1 2 5 6"])
    p = res.players[0]
    assert p.scores == {1: 34}
    assert p.bonuses == {"first_finish": 40}
    assert p.total == 74


def test_solitaire_penalty_and_no_bonus_after_a_failed_try():
    res = solo([FAIL, FAIL, "8 8 8 10 W W 1 2 5 6"])
    p = res.players[0]
    assert p.tries == {1: 3} and p.failed_turns == 2
    assert "first_finish" not in p.bonuses
    assert p.total == 34 - 2 * 5


def test_first_try_means_first_try_at_the_last_phase():
    # failing at phase 1 does not cost the bonus; failing at phase 2 does
    res = solo([FAIL, HIGH[1], HIGH[2]], phases=2)
    assert res.players[0].bonuses.get("first_finish") == 40
    assert res.players[0].total == 57 + 54 + 40 - 5
    res = solo([HIGH[1], FAIL, HIGH[2]], phases=2)
    assert "first_finish" not in res.players[0].bonuses


@pytest.mark.parametrize("threshold,bonus", [(265, 40), (266, 0)])
def test_five_phase_bonus_only_over_the_threshold(threshold, bonus):
    total5 = sum(HIGH_SCORE.values())  # 266
    rules = Rules(five_phase_threshold=threshold)
    res = solo([HIGH[k] for k in range(1, 6)] + [FAIL, HIGH[1]], phases=6, rules=rules)
    p = res.players[0]
    assert p.bonuses.get("five_phase", 0) == bonus
    # FAIL (1..10) makes phase 6 (run of 9) at the first try: the game ends there
    assert p.phase_done == 6
    assert p.total == total5 + bonus + brute(6, FAIL) + 40


def test_five_phase_total_ignores_solitaire_penalties():
    rules = Rules(five_phase_threshold=265)
    res = solo([FAIL] + [HIGH[k] for k in range(1, 6)], phases=5, rules=rules)
    p = res.players[0]
    assert p.bonuses["five_phase"] == 40  # 266 > 265 although a -5 is pending
    # phase 5 is the last phase here and was made at its first try: first-finish bonus too
    assert p.total == 266 + 40 + 40 - 5


def test_default_rules_default_game_default_threshold():
    r = Rules()
    assert (
        r.five_phase_bonus,
        r.five_phase_threshold,
        r.first_finish_bonus,
        r.solitaire_penalty,
    ) == (40, 220, 40, 5)


def test_turn_order_roll_off_with_tie():
    g = Game([STOP, STOP, STOP], phases=1, dice=ScriptedDice([], high=[9, 9, 5, 6, 10]))
    assert g.roll_off() == [1, 2, 0]


def test_first_finish_bonus_and_last_chance():
    # order P1, P2, P3 (P1 rolls 10). Round 1: P1 fails, P2 finishes (bonus); last chances:
    # P3 (later in the order, same round) makes it -> bonus; P1 (ahead of P2) -> no bonus.
    rolls = [FAIL, "8 8 8 10 W W 1 2 5 6", "10 10 10 9 9 9 W W 1 2", "8 8 8 10 W W 1 2 5 6"]
    res = Game([STOP] * 3, phases=1, dice=ScriptedDice(rolls, high=[10, 7, 5])).play()
    p1, p2, p3 = res.players
    assert res.order == [0, 1, 2]
    assert p2.bonuses == {"first_finish": 40} and p2.total == 74
    assert p3.bonuses == {"first_finish": 40} and p3.total == 97
    assert p1.bonuses == {} and p1.total == 34
    assert p1.failed_turns == 1 and p1.penalty == 0  # no penalties outside solitaire
    assert res.winners == [2]


def test_last_chance_continues_while_successful():
    # two phases; P2 starts and makes both phases in rounds 1-2; P1 is at phase 1 then.
    # P1's last chance: makes phase 1, at once tries phase 2, fails -> game over.
    rolls = [
        HIGH[1],  # r1 P2 phase 1
        FAIL,  # r1 P1 phase 1 fails
        HIGH[2],  # r2 P2 phase 2 -> finishes
        HIGH[1],
        FAIL,
    ]  # P1 last chance: phase 1 made, phase 2 failed
    res = Game([STOP, STOP], phases=2, dice=ScriptedDice(rolls, high=[5, 10])).play()
    p1, p2 = res.players
    assert res.order == [1, 0]
    assert p2.total == 57 + 54 + 40
    assert p1.scores == {1: 57} and p1.tries == {1: 2, 2: 1}
    assert p1.total == 57
    kinds = [e.kind for e in res.log]
    assert kinds.count("last_chance") == 1
    # P1 sits ahead of... no: P1 is after P2 in the order, so a finish would earn the bonus
    rolls2 = [HIGH[1], HIGH[1], HIGH[2], HIGH[2]]
    res2 = Game([STOP, STOP], phases=2, dice=ScriptedDice(rolls2, high=[5, 10])).play()
    assert res2.players[0].bonuses == {"first_finish": 40}


def test_one_phase_per_turn_and_only_current_phase_scores():
    # the roll also makes phase 2, but only phase 1 is scored this turn
    res = solo([HIGH[2], FAIL, HIGH[2]], phases=2)
    p = res.players[0]
    assert p.scores == {1: brute(1, HIGH[2]), 2: 54} and p.tries == {1: 1, 2: 2}


def test_holds_rerolls_and_sticky_rule():
    class KeepTens:
        name = "tens"

        def hold(self, view):
            return [i for i, f in enumerate(view.faces) if f.value == 10] + (
                [] if view.rolls_left == 2 else list(view.held)
            )

    # roll 1 shows one 10; roll 2 (9 dice) two more; roll 3 (7 dice) completes 2 sets of 3
    rolls = ["10 5 6 7 8 9 1 2 3 4", "10 10 5 6 7 1 2 3 4", "9 9 9 W 1 2 3"]
    res = solo(rolls, strategy=KeepTens())
    assert res.players[0].scores == {1: 57}
    holds = [e for e in res.log if e.kind == "hold"]
    assert [len(e.dice) for e in holds] == [1, 3]

    class DropAll:
        name = "drop"

        def hold(self, view):
            return [0] if view.rolls_left == 2 else []

    with pytest.raises(InvalidHoldError):
        solo(
            ["10 5 6 7 8 9 1 2 3 4", "10 10 5 6 7 1 2 3 4", "9 9 9 W 1 2 3 4 5"],
            strategy=DropAll(),
            rules=Rules(holds="sticky"),
        )


def test_bad_input_is_rejected():
    with pytest.raises(InvalidRulesError):
        Game([], phases=10)
    with pytest.raises(InvalidRulesError):
        Game([STOP] * 9)
    with pytest.raises(InvalidRulesError):
        Game([STOP], phases=0)
    with pytest.raises(InvalidRulesError):
        get_strategy("clever")
    with pytest.raises(Phase10MathError):
        solo(["10 10 10 10 10 10 10 10 10 10"])  # only six high dice


def test_seeded_games_are_reproducible_and_sheet_prints():
    a = Game([get_strategy("greedy"), get_strategy("random", seed=1)], seed=5).play()
    b = Game([get_strategy("greedy"), get_strategy("random", seed=1)], seed=5).play()
    assert a.log_text() == b.log_text()
    sheet = a.score_sheet()
    assert "total" in sheet and str(a.players[0].total) in sheet
    assert any(p.finished for p in a.players)


def test_the_optimal_strategy_plays_sticky_holds():
    """Under sticky holds the optimal strategy keeps the dice set aside and adds the dice of
    the advice's best hold (which keeps them): a seeded game of phase 1 plays to the end (the
    game refuses a hold that drops a die set aside)."""
    sticky = Rules(holds="sticky")
    res = Game([get_strategy("complete", rules=sticky)], phases=1, rules=sticky, seed=3).play()
    assert res.players[0].scores.get(1) is not None
    holds = [e for e in res.log if e.kind == "hold"]
    assert holds


class CheckedStrategy:
    """Plays the optimal turn by lookup (:func:`get_strategy`) and checks each decision
    against the advisor's ranking of every hold by its exact value (the values of the
    sub-holds, not the stored best holds): the same hold state, every time."""

    def __init__(self, objective: str, layout) -> None:
        self.name, self.objective, self.layout = objective, objective, layout
        self.plays = get_strategy(objective, layout=layout)
        self.checked = 0

    def hold(self, view):
        keep = self.plays.hold(view)
        faces = list(view.faces)
        adv = advise(
            faces, view.rolls_left, view.phase, self.objective, Rules(), self.layout, by_die=True
        )
        space = cached_solution(view.number, self.objective, Rules(), self.layout).space
        typed = SpaceMap(space, self.layout).typed(faces)
        state = space.state_id(space.counts_for([typed[i] for i in keep]))
        assert state == adv.best.state, (faces, sorted(keep))
        self.checked += 1
        return keep


@pytest.mark.parametrize("objective", ["complete", "score"])
def test_every_decision_by_lookup_is_the_best_of_the_ranked_values(objective):
    # whole seeded games (two players, the compact dice): each hold read from the stored
    # best holds is the best of every hold ranked by its exact value
    player = CheckedStrategy(objective, COMPACT_LAYOUT)
    for seed in (2, 3):
        Game([player, player], layout=COMPACT_LAYOUT, seed=seed).play()
    assert player.checked > 20
