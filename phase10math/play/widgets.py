"""The play app's widgets, by the names earlier code imports from here. The pieces live in
rooms of their own:

- :mod:`~phase10math.play.models` - the state of a turn (:class:`TurnState`), no widgets;
- :mod:`~phase10math.play.aims` - the aim's best move, what a choice costs, the questions;
- :mod:`~phase10math.play.panels` - the HTML: advice, verdicts, win panel, summaries;
- :mod:`~phase10math.play.style` - the look (``app.css``) and the keyboard shortcuts;
- :mod:`~phase10math.play.turn_widget` / :mod:`~phase10math.play.turn_view` - the turn
  widget (controls and moves / how the board shows the state);
- :mod:`~phase10math.play.game_widget` - a whole game, and the app.
"""

from phase10math.play.models import TurnState
from phase10math.play.panels import (
    AIMS,
    DIE_COLORS,
    HOLDS,
    advice_html,
    board_html,
    chip,
    chips,
    choices_summary,
    compare_html,
    error_html,
    lost_words,
    note_html,
    verdict_html,
    win_panel_html,
)
from phase10math.play.style import KEYS_JS, css_classes, ipw, style_widget
from phase10math.play.turn_widget import LAYOUT_LABELS, TurnWidget

__all__ = [
    "AIMS",
    "DIE_COLORS",
    "HOLDS",
    "KEYS_JS",
    "LAYOUT_LABELS",
    "TurnState",
    "TurnWidget",
    "advice_html",
    "board_html",
    "chip",
    "chips",
    "choices_summary",
    "compare_html",
    "css_classes",
    "error_html",
    "ipw",
    "lost_words",
    "note_html",
    "style_widget",
    "verdict_html",
    "win_panel_html",
]
