"""Whole games of Phase 10 Dice.

Modules, in reading order:

- :mod:`~phase10math.game.strategies` - who decides the holds: optimal, greedy, random, human.
- :mod:`~phase10math.game.engine` - the game engine: turns, bonuses, the end of the game.
- :mod:`~phase10math.game.length` - how many turns to finish: a Markov chain per strategy.
- :mod:`~phase10math.game.solitaire` - optimal solitaire as a Markov decision process.
- :mod:`~phase10math.game.headtohead` - win rates of strategies against each other.
- :mod:`~phase10math.game.duel` - the two-player game solved: the chance to win of every state.
"""
