"""Diagrams for the lessons (matplotlib): the backward induction of the three-dice turn, the
Markov chain of the phases, and the signs of inclusion-exclusion.

Each takes the numbers it shows as arguments, so a lesson draws the values its reader has just
computed:

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from fractions import Fraction
>>> fig = markov_chain({1: Fraction(1, 2), 2: Fraction(9, 10)})
>>> sorted(t.get_text() for t in fig.axes[0].texts if "done" in t.get_text())[:3]
['0 done', '1 done', '2 done']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from phase10math.play.palette import OKABE_ITO


def _figure(size):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    ax.axis("off")
    return fig, ax


def _box(ax, x, y, text, color, width=1.7, height=0.62):
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.02,rounding_size=0.12",
                                facecolor=color, edgecolor="#333333"))  # fmt: skip
    ax.text(x, y, text, ha="center", va="center", fontsize=9)


def _arrow(ax, start, end, text="", color="#333333", gap=0.0):
    """An arrow from ``start`` to ``end``, both moved ``gap`` towards each other (so it runs
    between two circles of radius ``gap``), with ``text`` above its middle."""
    (x1, y1), (x2, y2) = start, end
    d = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    style = {"arrowstyle": "-|>", "color": color, "lw": 1.2}
    a, b = (x1 + gap * ux, y1 + gap * uy), (x2 - gap * ux, y2 - gap * uy)
    ax.annotate("", xy=b, xytext=a, arrowprops=style)
    if text:
        ax.text((x1 + x2) / 2 + 0.1 * abs(uy), (y1 + y2) / 2 + 0.1 * abs(ux), text,
                ha="left" if abs(uy) > abs(ux) else "center", va="bottom", fontsize=8)  # fmt: skip


def backward_induction(values: Mapping[tuple[int, str], Fraction], title: str = ""):
    """The dynamic program of the three-dice game as a picture. ``values[(r, kept)]`` is the
    chance of three of a kind after keeping ``kept`` (``"three alike"``, ``"a pair"``, ``"one
    die"``, ``"nothing"``) and rolling the other dice with ``r`` rolls left; one column per
    ``r``, and on the right the end of the turn, where the value is known (1 for three alike,
    else 0). The arrows run right to left, the direction of the computation: each column is
    computed from the one to its right."""
    kinds = ["three alike", "a pair", "one die", "nothing"]
    rolls = sorted({r for r, _ in values}, reverse=True)
    fig, ax = _figure((2.3 * (len(rolls) + 1) + 0.4, 4.4))
    x_of = {r: 2.3 * i for i, r in enumerate(rolls)}
    end_x = 2.3 * len(rolls)
    y_of = {k: 3 - j for j, k in enumerate(kinds)}
    for (r, kind), v in values.items():
        _box(ax, x_of[r], y_of[kind], f"keep {kind}\n{v} = {float(v):.1%}", "#dcecf7")
    for kind in kinds:
        known = "1" if kind == "three alike" else "0"
        _box(ax, end_x, y_of[kind], f"{'three alike' if known == '1' else 'not'}: {known}",
             "#fde9c8", width=1.3)  # fmt: skip
    for r in rolls:
        ax.text(x_of[r], 3.6, f"{r} roll{'s' if r != 1 else ''} left", ha="center",
                fontweight="bold", fontsize=10)  # fmt: skip
    ax.text(end_x, 3.6, "turn over", ha="center", fontweight="bold", fontsize=10)
    xs = [x_of[r] for r in rolls] + [end_x]
    for left, right in zip(xs[:-1], xs[1:]):
        _arrow(ax, (right - 0.7, -0.65), (left + 0.7, -0.65))
        ax.text((left + right) / 2, -1.05, "best hold,\naverage reroll", ha="center",
                va="top", fontsize=8)  # fmt: skip
    ax.set_xlim(-1.1, end_x + 0.9)
    ax.set_ylim(-1.6, 3.9)
    ax.set_title(title or "Working backwards: each column is computed from the one to its right")
    return fig


def markov_chain(p: Mapping[int, Fraction | float], title: str = "", per_row: int = 6):
    """The chain of a player's progress: state k = "k phases done"; from state k - 1 the
    player moves on with chance ``p[k]`` (arrow to the right) or stays (loop). The last state
    is absorbing."""
    from matplotlib.patches import Circle

    phases = sorted(p)
    states = [0, *phases]
    rows = (len(states) + per_row - 1) // per_row
    fig, ax = _figure((1.6 * min(per_row, len(states)) + 0.6, 1.9 * rows + 0.5))

    def place(i):
        row, col = divmod(i, per_row)
        col = col if row % 2 == 0 else per_row - 1 - col  # snake, so the chain reads on
        return 1.6 * col, -1.9 * row

    for i, s in enumerate(states):
        x, y = place(i)
        last = i == len(states) - 1
        color = OKABE_ITO[2] if last else "#dcecf7"
        ax.add_patch(Circle((x, y), 0.42, facecolor=color, edgecolor="#333333"))
        ax.text(x, y, f"{s} done", ha="center", va="center", fontsize=8)
        stay = 1 if last else 1 - float(p[phases[i]])
        ax.text(x, y + 0.55, f"stay {stay:.0%}" if not last else "absorbing", ha="center",
                fontsize=7, color="#555555")  # fmt: skip
        if not last:
            (x2, y2) = place(i + 1)
            _arrow(ax, (x, y), (x2, y2), f"{float(p[phases[i]]):.0%}", OKABE_ITO[4], gap=0.44)
    ax.set_xlim(-0.7, 1.6 * (min(per_row, len(states)) - 1) + 0.7)
    ax.set_ylim(-1.9 * (rows - 1) - 0.7, 1.0)
    ax.set_aspect("equal")
    ax.set_title(title or "The game as a Markov chain: each turn, move on or stay")
    return fig


def inclusion_exclusion(labels: Sequence[str] = ("no 5", "no 6", "no 7"), title: str = ""):
    """Three overlapping sets of "bad" outcomes, each region marked with how often
    inclusion-exclusion counts an outcome there: once in "all outcomes", minus once per circle
    around it, plus once per pair of circles, minus once if all three. Every bad outcome ends
    at 0; only the good ones (outside every circle) are left, once each."""
    from matplotlib.patches import Circle

    fig, ax = _figure((5.6, 4.6))
    centers = [(-0.6, 0.35), (0.6, 0.35), (0.0, -0.6)]
    colors = [OKABE_ITO[0], OKABE_ITO[1], OKABE_ITO[2]]
    places = [(-1.55, 1.45), (1.55, 1.45), (0.0, -1.85)]
    for (x, y), (lx, ly), label, color in zip(centers, places, labels, colors):
        ax.add_patch(Circle((x, y), 1.0, facecolor=color, alpha=0.25, edgecolor=color, lw=2))
        ax.text(lx, ly, label, ha="center", fontsize=11, color="#222222", fontweight="bold")
    regions = {  # an outcome's count: 1 - (circles around it) + (pairs) - (triples)
        (-1.05, 0.6): "1 - 1\n= 0",
        (1.05, 0.6): "1 - 1\n= 0",
        (0.0, -1.15): "1 - 1 = 0",
        (0.0, 0.8): "1 - 2 + 1\n= 0",
        (-0.72, -0.38): "1 - 2\n+ 1 = 0",
        (0.72, -0.38): "1 - 2\n+ 1 = 0",
        (0.0, 0.02): "1 - 3 + 3\n- 1 = 0",
        (1.9, -1.2): "outside\nevery\ncircle: 1",
    }
    for (x, y), text in regions.items():
        ax.text(x, y, text, ha="center", va="center", fontsize=8)
    ax.text(0, -2.45, "all outcomes - (each circle) + (each overlap of two) - (all three)\n"
            "counts every outcome inside a circle 0 times, every outcome outside once",
            ha="center", fontsize=8.5)  # fmt: skip
    ax.set_xlim(-2.4, 2.4)
    ax.set_ylim(-2.8, 2.0)
    ax.set_aspect("equal")
    ax.set_title(title or "Inclusion-exclusion: the signs count each bad outcome away")
    return fig
