"""Playing in Jupyter: ipywidgets for a turn with the advisor and for a whole game.

Modules, in reading order:

- :mod:`~phase10math.play.widgets` - the turn model and the turn widget.
- :mod:`~phase10math.play.game_widget` - a whole game against computer players.
"""
