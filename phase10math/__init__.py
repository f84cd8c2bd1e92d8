"""phase10math: exact probabilities and optimal strategies for Phase 10 Dice.

Also covers the Phase 10 card game (:mod:`phase10math.cards`) and the dice game
10,000 (:mod:`phase10math.tenthousand`).
"""

__version__ = "0.1.0"
