"""Seeded games play byte for byte as before decisions were read from the stored best holds:
the logs in data/seeded_logs.json were written by the code of commit aa1072c (before that
change) with tools/record_game_logs.py; each game is played again here and every line of its
log compared. Complete, score and greedy play whole games on the compact dice, solitaire a
reduced game (two kinds of dice, two rolls; its solve takes seconds) - the recorded dice'
color phases solve for a minute each, too slow for the suite (benchmarks/bench_decisions.py
compares whole games there, lookup against the transform)."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((Path(__file__).parent / "data" / "seeded_logs.json").read_text())["games"]


@cache
def recorder():
    """tools/record_game_logs.py, which wrote the logs (its games and how they are played)."""
    spec = importlib.util.spec_from_file_location(
        "record_game_logs", ROOT / "tools/record_game_logs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SOLVED: dict = {}  # the solitaire solutions of the reduced game, solved once


def test_the_recorded_games_are_the_recorders_games():
    # the file holds every game the recorder plays, each with its setting, and all four
    # strategies
    games = [(g["strategies"], g["dice"], g["rules"], g["seed"]) for g in RECORDED]
    assert games == [tuple(x) for x in recorder().GAMES]
    assert {s for g in RECORDED for s in g["strategies"]} == {
        "complete",
        "score",
        "greedy",
        "solitaire",
    }


@pytest.mark.parametrize(
    "game", RECORDED, ids=lambda g: f"{'-'.join(g['strategies'])}-{g['dice']}-seed{g['seed']}"
)
def test_a_seeded_game_logs_as_before(game):
    log = recorder().play(game["strategies"], game["dice"], game["rules"], game["seed"], SOLVED)
    assert len(log) == len(game["log"])
    for i, (now, before) in enumerate(zip(log, game["log"])):
        assert now == before, f"line {i + 1} of the log"
