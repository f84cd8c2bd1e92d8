"""Record seeded game logs, so that a test can hold later code to them byte for byte.

    PYTHONPATH=<checkout> python tools/record_game_logs.py OUT.json

writes the logs of a fixed set of seeded games (the strategies complete, score, greedy and
solitaire) played by the package found on ``PYTHONPATH``. The committed
``tests/game/data/seeded_logs.json`` was written by the code of commit aa1072c (before
decisions were read from the stored best holds) run from a ``git worktree`` of that commit;
``tests/game/test_seeded_logs.py`` replays each game with the current code and compares every
line. The games are cheap enough for the suite: the compact dice for complete, score and
greedy (their solves are shared with other tests), and for solitaire a reduced game (two
kinds of dice, two rolls, no five-phase bonus: 11 solitaire states) whose solve takes
seconds; solitaire on the recorded or compact dice solves for minutes.

Only names both versions offer are used (``Game``, ``get_strategy``, ``solve_solitaire``,
``SolitaireStrategy``), and the file holds each game's setting beside its log, so the test
replays exactly what was recorded.
"""

from __future__ import annotations

import json
import sys

from phase10math.dice.faces import parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.rules import Rules
from phase10math.game.engine import Game
from phase10math.game.solitaire import solve_solitaire
from phase10math.game.strategies import SolitaireStrategy, get_strategy

#: two kinds of dice (six alike high, four alike low), as tests/game/test_solitaire_strategy.py
TWO_KINDS_TEXT = "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo"
#: the reduced rules of the solitaire games
REDUCED_RULES = {"rolls": 2, "five_phase_threshold": 10**6}

#: (strategies, dice, rules, seed): ``dice`` "compact" or "two_kinds"; ``rules`` "kit" (the
#: default rules) or "reduced" (:data:`REDUCED_RULES`)
GAMES = [
    (["complete", "score"], "compact", "kit", 1),
    (["score", "complete"], "compact", "kit", 2),
    (["complete", "score", "greedy"], "compact", "kit", 3),
    (["greedy", "greedy"], "compact", "kit", 4),
    (["complete"], "compact", "kit", 5),
    (["solitaire"], "two_kinds", "reduced", 1),
    (["solitaire"], "two_kinds", "reduced", 2),
    (["solitaire", "greedy"], "two_kinds", "reduced", 3),
    (["solitaire", "complete", "score"], "two_kinds", "reduced", 4),
]


def setting(dice: str, rules: str):
    """The layout and rules of a game of :data:`GAMES`."""
    layout = COMPACT_LAYOUT if dice == "compact" else parse_layout(TWO_KINDS_TEXT)
    return layout, Rules(**REDUCED_RULES) if rules == "reduced" else Rules()


def play(strategies: list[str], dice: str, rules: str, seed: int, solved: dict) -> list[str]:
    """The log of one game of :data:`GAMES`, one line per event (``solved``: the solitaire
    solutions by setting, filled on first use)."""
    layout, rs = setting(dice, rules)
    players = []
    for name in strategies:
        if name == "solitaire":
            if (dice, rules) not in solved:
                solved[dice, rules] = solve_solitaire(rs, layout, show_progress=False)
            players.append(SolitaireStrategy(rs, layout, solution=solved[dice, rules]))
        else:
            players.append(get_strategy(name, rules=rs, layout=layout))
    result = Game(players, rules=rs, layout=layout, seed=seed).play()
    return [str(e) for e in result.log]


def main(out: str) -> None:
    solved: dict = {}
    games = [
        {"strategies": s, "dice": d, "rules": r, "seed": seed, "log": play(s, d, r, seed, solved)}
        for s, d, r, seed in GAMES
    ]
    with open(out, "w") as f:
        json.dump({"games": games}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
