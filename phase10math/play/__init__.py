"""Playing at the table and in Jupyter: the play app, its turn model and its widgets.

Modules, in reading order:

- :mod:`~phase10math.play.palette` - dice colors that stay apart under color blindness.
- :mod:`~phase10math.play.models` - a turn without widgets: dice, holds, typed rolls, standing.
- :mod:`~phase10math.play.labels` - a choice judged and worded: percentages, mistake labels.
- :mod:`~phase10math.play.why` - why the best hold is best, in plain words.
- :mod:`~phase10math.play.win` - the aim "Win the game": the chance to win, the hold for it.
- :mod:`~phase10math.play.aims` - one voice per aim: the best move, what a choice costs.
- :mod:`~phase10math.play.panels` - the app's HTML: advice, verdicts, the win panel.
- :mod:`~phase10math.play.style` - the look (``app.css``, shipped) and the keyboard keys.
- :mod:`~phase10math.play.turn_widget` - the dice board with the advisor (ipywidgets); its
  view half :mod:`~phase10math.play.turn_view`. (:mod:`~phase10math.play.widgets` keeps the
  names earlier code imports.)
- :mod:`~phase10math.play.saved` - games that survive a reload: the app's state on disk.
- :mod:`~phase10math.play.game_widget` - a whole game against computer players; the app.
- :mod:`~phase10math.play.figures` - matplotlib figures for the lessons: the dice, charts.
- :mod:`~phase10math.play.diagrams` - diagrams for the lessons: backward induction, the
  Markov chain of the phases, inclusion-exclusion.
"""

from phase10math._base.lazy import lazy_exports

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "OKABE_ITO": "palette",
        "use_okabe_ito": "palette",
        "TurnState": "models",
        "TurnWidget": "turn_widget",
        "GameSession": "game_widget",
        "GameWidget": "game_widget",
        "PlayApp": "game_widget",
        "figures": "figures",
        "diagrams": "diagrams",
    },
)
