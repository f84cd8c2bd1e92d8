"""The seats of a two-player game are interchangeable: with the same strategy on both, a game
is the same whoever begins, the seats' labels swapped.

Each seeded game is played twice: as the roll-off decides, and with the roll-off's dice rolled
but the other seat beginning (the dice after it are the same). The second game's log must be
the first's with seat 0 and seat 1 swapped, its winner too. A fault by seat anywhere on the
path (the strategy's view of "me" and "them", its state key, its caches, the engine's turn
order, last chances and bonuses) breaks this for some game; so does a strategy that plays by
seat, which the last test checks the comparison sees.
"""

from __future__ import annotations

import pytest
from reduced_dice import phase8_duel

from phase10math.game.duel import DuelStrategy, WinStrategy, read_table
from phase10math.game.duel import candidates as cands_module
from phase10math.game.engine import Event, Game

SEEDS = range(40)


class OtherBegins(Game):
    """A game whose roll-off is rolled as usual, but the seat that lost it begins."""

    def roll_off(self) -> list[int]:
        order = super().roll_off()[::-1]
        self.log.append(Event("order", order[0], 0, note="starts; the other seat"))
        return order


def played(kind: type[Game], strategies, phase: int, seed: int) -> tuple[list, list[int]]:
    """The log of one game from ``phase`` (every event but the roll-off's) and its winners."""
    g = strategies[0].solution.game
    game = kind(strategies, phases=g.hi, layout=g.layout, seed=seed, start_phase=phase)
    res = game.play()
    log = [(e.kind, e.player, e.round, e.phase, e.dice, e.points) for e in res.log]
    return [e for e in log if e[0] != "order"], res.winners


def swapped(log: list) -> list:
    return [(k, 1 - p if p >= 0 else p, *rest) for k, p, *rest in log]


def mismatches(make, phase: int, seeds=SEEDS) -> list[int]:
    """The seeds whose game with the other seat beginning is not the mirror image (each way
    with its own pair of strategies, kept from game to game as a long run keeps them)."""
    usual, other = [make(), make()], [make(), make()]
    bad = []
    for seed in seeds:
        log, won = played(Game, usual, phase, seed)
        log2, won2 = played(OtherBegins, other, phase, seed)
        if log2 != swapped(log) or sorted(1 - s for s in won) != sorted(won2):
            bad.append(seed)
    return bad


@pytest.fixture(scope="module")
def end_game():
    return read_table(phases=(9, 10))[0]


@pytest.mark.parametrize("kind", [DuelStrategy, WinStrategy])
def test_a_game_is_the_same_whoever_begins(end_game, kind):
    """The end game's table (phases 9-10): every hold re-solved from the table."""
    assert mismatches(lambda: kind(end_game), 9) == []


def test_at_a_costly_color_phase_too(monkeypatch):
    """Candidate turns by lookup (the reduced dice' phase 8 played as a costly one): the
    choice per state and its faces-to-states map."""
    monkeypatch.setattr(cands_module, "COSTLY_HOLDS", 0)
    duel = phase8_duel()
    assert mismatches(lambda: DuelStrategy(duel), 8) == []


class BySeat(DuelStrategy):
    """Plays the table at seat 0 and keeps every die at seat 1: a fault by seat."""

    def hold(self, view):
        return super().hold(view) if view.player.seat == 0 else frozenset(range(10))


def test_the_comparison_sees_a_strategy_that_plays_by_seat(end_game):
    bad = mismatches(lambda: BySeat(end_game), 9, range(10))
    assert len(bad) >= 8  # nearly every game: seat 1 keeps its first roll
