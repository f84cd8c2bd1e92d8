"""Whole games of Phase 10 Dice.

Modules, in reading order:

- :mod:`~phase10math.game.spacemap` - a game's dice to the turn solver's states and back.
- :mod:`~phase10math.game.strategies` - who decides the holds: optimal, greedy, random, human, win.
- :mod:`~phase10math.game.names` - the strategies' names (light: the command line checks them).
- :mod:`~phase10math.game.engine` - the game engine: turns, bonuses, the end of the game.
- :mod:`~phase10math.game.length` - how many turns to finish: a Markov chain per strategy.
- :mod:`~phase10math.game.solitaire` - optimal solitaire as a Markov decision process.
- :mod:`~phase10math.game.headtohead` - win rates of strategies against each other.
- :mod:`~phase10math.game.duel` - the two-player game solved: the chance to win of every state.
- :mod:`~phase10math.game.duelgames` - seeded two-player games against a solved table's values.
"""

from phase10math._base.lazy import lazy_exports

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Game": "engine",
        "RandomDice": "engine",
        "ScriptedDice": "engine",
        "STRATEGY_NAMES": "strategies",
        "get_strategy": "strategies",
        "play_game": "strategies",
        "GameLength": "length",
        "simulate_game_lengths": "length",
        "simulate_optimal_turns": "length",
        "comparison": "solitaire",
        "dinkelbach_steps": "solitaire",
        "phase_data": "solitaire",
        "simulate_phase": "solitaire",
        "solve_state": "solitaire",
        "wilson": "headtohead",
        "head_to_head": "headtohead",
        "DuelGame": "duel",
        "Play": "duel",
        "WinStrategy": "duel",
        "chance_to_win": "duel",
        "chance_error": "duel",
        "shipped_table": "duel",
        "widest_table": "duel",
        "table_for_state": "duel",
        "serving_tables": "duel",
        "solve_duel": "duel",
        "win_advice": "duel",
        "DuelSample": "duelgames",
        "simulate_duel": "duelgames",
        "visits": "duel",
    },
)
