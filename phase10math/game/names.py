"""The names of the game strategies, without the strategies: the command line checks a
strategy's name against them before it imports the solvers.

>>> "complete" in STRATEGY_NAMES
True
"""

STRATEGY_NAMES = ("complete", "score", "greedy", "random", "stop", "solitaire", "win")
