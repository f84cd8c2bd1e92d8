"""Printable materials for a class without computers: the dice as cut-and-fold nets, and a
score sheet. Both are Markdown with inline HTML, exported by ``phase10math handouts``.

>>> sheet = score_sheet_markdown(players=3)
>>> sheet.count("| phase 1 ")
1
>>> "die 10 (low)" in dice_nets_markdown()
True
"""

from __future__ import annotations

from phase10math.dice import DEFAULT_LAYOUT, PHASES, Layout
from phase10math.play.palette import LETTERS, PALETTE, text_color

SIDE = 2.1  # cm, one face of a printed die
# where the six faces of a die go in its cross-shaped net: (row, column) in a 3 x 4 grid
NET = ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 1))


def die_net_html(number: int, die) -> str:
    """One die as a cross of six faces, each in its color with its number (or W) and letter."""
    cells = []
    for (row, col), face in zip(NET, die.faces):
        label = "W" if face.is_wild else str(face.value)
        style = (
            f"position:absolute;left:{col * SIDE}cm;top:{row * SIDE}cm;width:{SIDE}cm;"
            f"height:{SIDE}cm;box-sizing:border-box;border:1px solid #222;"
            f"background:{PALETTE[face.color]};color:{text_color(face.color)};"
            "text-align:center;font-weight:bold;print-color-adjust:exact;"
            "-webkit-print-color-adjust:exact"
        )
        cells.append(
            f'<div style="{style}"><div style="font-size:22pt;margin-top:0.35cm">{label}</div>'
            f'<div style="font-size:9pt">{LETTERS[face.color]}</div></div>'
        )
    box = f"position:relative;width:{4 * SIDE}cm;height:{3 * SIDE}cm;display:inline-block"
    title = f"die {number} ({die.kind})"
    corner = f'<div style="position:absolute;left:{2 * SIDE + 0.2}cm;top:0.2cm">{title}</div>'
    margin = "margin:0 0.4cm 0.5cm 0;break-inside:avoid"
    return f'<div style="{box};{margin}">{corner}{"".join(cells)}</div>'


def dice_nets_markdown(layout: Layout = DEFAULT_LAYOUT) -> str:
    """A page of cube nets, one per die of ``layout`` (the recorded set by default)."""
    nets = "".join(die_net_html(n, d) for n, d in enumerate(layout.dice, start=1))
    return (
        f"# The ten dice of the '{layout.name}' set, to cut out and fold\n\n"
        "Print in color on thick paper, cut along the outline, fold the four side faces "
        "down and tape the edges. The number of each die is the one the lessons use; the "
        "letter on a face is its color (R red, O orange, B blue, G green), so the dice work "
        "printed in black and white too.\n\n"
        f"<div>\n{nets}\n</div>\n"
    )


def score_sheet_markdown(players: int = 6, phases: int = 10) -> str:
    """A score sheet: one row per phase (with what it asks for), the bonuses and the total."""
    blank = " | " * players
    head = "| phase | you need |" + "".join(f" player {p + 1} |" for p in range(players))
    rule = "|---|---|" + "---|" * players
    rows = [f"| phase {n} | {PHASES[n].text} |{blank}" for n in range(1, phases + 1)]
    rows += [
        f"| five-phase bonus | +40 if over 220 after phase 5 |{blank}",
        f"| first-finish bonus | +40 for the first to complete phase {phases} |{blank}",
        f"| failed turns (solitaire) | -5 each |{blank}",
        f"| **total** | |{blank}",
    ]
    return (
        "<style>td { height: 1.05cm; }</style>\n\n# Phase 10 Dice score sheet\n\n"
        "Write each player's name at the top; after every made phase write its score "
        "(the sum of the dice its groups use, W = 0).\n\n"
        + "\n".join([head, rule, *rows])
        + "\n\nPlayers' names: ______________________________________________\n"
    )
