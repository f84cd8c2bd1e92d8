"""Figures for the lessons (matplotlib): the dice, chances per phase, exact against simulated,
the value of every hold.

Every function draws into a new figure (or the ``ax`` given), labels its axes, uses the
color-blind safe :data:`~phase10math.play.palette.OKABE_ITO` colors for data and the play
app's :data:`~phase10math.play.palette.PALETTE` (with a letter on every face) for dice, and
returns the figure. matplotlib is imported inside the functions, so the package works without
it.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> fig = draw_dice()
>>> len(fig.axes[0].texts) >= 60       # a number and a color letter on each of the 60 faces
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from phase10math.dice.faces import Face, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.play.palette import LETTERS, OKABE_ITO, PALETTE, text_color
from phase10math.turn.advisor import Advice


def _axes(ax, figsize):
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=figsize)
    return ax.figure, ax


def draw_dice(layout: Layout = DEFAULT_LAYOUT, ax=None):
    """The ten dice of ``layout``, one row per die, its six faces in their colors with the
    number (W for a wild) and the color's letter on each face."""
    from matplotlib.patches import FancyBboxPatch

    fig, ax = _axes(ax, (7.5, 6.8))
    for row, die in enumerate(layout.dice):
        y = len(layout.dice) - 1 - row
        for col, f in enumerate(die.faces):
            ax.add_patch(
                FancyBboxPatch(
                    (col + 0.08, y + 0.08),
                    0.84,
                    0.84,
                    boxstyle="round,pad=0,rounding_size=0.15",
                    facecolor=PALETTE[f.color],
                    edgecolor="#222222",
                )
            )
            ink = text_color(f.color)
            label = "W" if f.is_wild else str(f.value)
            ax.text(col + 0.5, y + 0.56, label, ha="center", va="center", fontsize=13,
                    fontweight="bold", color=ink)  # fmt: skip
            ax.text(col + 0.5, y + 0.24, LETTERS[f.color], ha="center", va="center",
                    fontsize=8, color=ink)  # fmt: skip
        ax.text(-0.15, y + 0.5, f"die {row + 1} ({die.kind})", ha="right", va="center")
    ax.set_xlim(-2.2, 6.1)
    ax.set_ylim(-0.1, len(layout.dice) + 0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    names = {"r": "red", "o": "orange", "b": "blue", "g": "green"}
    ax.set_title(
        "The ten dice, face by face ("
        + ", ".join(f"{LETTERS[c]} = {n}" for c, n in names.items())
        + ")"
    )
    return fig


def bar_chart(
    values: Mapping[object, float | Fraction],
    xlabel: str,
    ylabel: str,
    title: str = "",
    percent: bool = False,
    ax=None,
):
    """One bar per key, with its value written on top (as a percentage if ``percent``)."""
    fig, ax = _axes(ax, (7, 3.6))
    keys = [str(k) for k in values]
    ys = [float(v) for v in values.values()]
    bars = ax.bar(keys, ys, color=OKABE_ITO[4])
    labels = [f"{100 * y:.1f}%" if percent else f"{y:.3g}" for y in ys]
    ax.bar_label(bars, labels=labels, padding=2, fontsize=9)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, max(ys) * 1.18)
    if title:
        ax.set_title(title)
    return fig


def grouped_bars(
    series: Mapping[str, Mapping[object, float | Fraction]],
    xlabel: str,
    ylabel: str,
    title: str = "",
    horizontal: bool = False,
    ax=None,
):
    """Several series of bars side by side (one color per series, in the legend's order)."""
    keys = list(next(iter(series.values())))
    fig, ax = _axes(ax, (7, 0.38 * len(keys) + 1.2) if horizontal else (10, 4))
    pos = np.arange(len(keys))
    width = 0.8 / len(series)
    for i, (name, vals) in enumerate(series.items()):
        offset = pos + (i - (len(series) - 1) / 2) * width
        ys = [float(vals[k]) for k in keys]
        if horizontal:
            ax.barh(offset, ys, width, label=name, color=OKABE_ITO[i])
        else:
            ax.bar(offset, ys, width, label=name, color=OKABE_ITO[i])
    if horizontal:
        ax.set_yticks(pos, [str(k) for k in keys])
        ax.invert_yaxis()
        ax.set_xlabel(ylabel)
        ax.set_ylabel(xlabel)
    else:
        ax.set_xticks(pos, [str(k) for k in keys])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    ax.legend()
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


def exact_vs_simulated(
    exact: Mapping[object, float | Fraction],
    simulated: Mapping[object, float],
    standard_errors: Mapping[object, float],
    xlabel: str,
    ylabel: str,
    title: str = "",
    sigmas: float = 4,
    ax=None,
):
    """Exact values as markers, simulated ones with a bar of +-``sigmas`` standard errors
    around them: the simulation agrees where the bar reaches the exact marker."""
    fig, ax = _axes(ax, (10, 4))
    keys = list(exact)
    xs = range(len(keys))
    ax.scatter(xs, [float(exact[k]) for k in keys], marker="D", s=40, color=OKABE_ITO[5],
               label="exact", zorder=3)  # fmt: skip
    ax.errorbar(
        xs,
        [simulated[k] for k in keys],
        yerr=[sigmas * standard_errors[k] for k in keys],
        fmt="o",
        ms=4,
        capsize=3,
        color=OKABE_ITO[4],
        label=f"simulated, ±{sigmas:g} standard errors",
    )
    ax.set_xticks(list(xs), [str(k) for k in keys])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    if title:
        ax.set_title(title)
    return fig


def lines_by_rolls(values: Mapping[int, Mapping[int, float | Fraction]], title: str = "", ax=None):
    """``values[phase][rolls]``: one line per number of rolls, across the phases."""
    fig, ax = _axes(ax, (10, 4))
    phases = list(values)
    rolls = sorted(next(iter(values.values())))
    markers = "os^Dv"
    for i, r in enumerate(rolls):
        ax.plot(range(len(phases)), [float(values[k][r]) for k in phases],
                marker=markers[i % len(markers)], color=OKABE_ITO[i],
                label=f"{r} roll{'s' if r > 1 else ''}")  # fmt: skip
    ax.set_xticks(range(len(phases)), [str(k) for k in phases])
    ax.set_xlabel("phase")
    ax.set_ylabel("P(complete the phase), optimal holds")
    ax.set_ylim(0, 1.02)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="rolls in the turn")
    if title:
        ax.set_title(title)
    return fig


def hold_values(
    advice: Advice, marks: Mapping[str, Sequence[Face] | str], title: str = "", ax=None
):
    """The value of every hold of ``advice`` from best to worst, with the named holds of
    ``marks`` (label -> faces kept) pointed out with their rank."""
    fig, ax = _axes(ax, (10, 4))
    vals = [float(o.value) for o in advice.options]
    complete = advice.objective == "complete"

    def text(v: float) -> str:
        return f"{100 * v:.1f}%" if complete else f"{v:.2f} points"

    ranks = range(1, len(vals) + 1)
    ax.plot(ranks, vals, color=OKABE_ITO[4], lw=1.5, label="every hold, best first")
    for i, (label, keep) in enumerate(marks.items()):
        o = advice.value_of(keep)
        rank = advice.options.index(o) + 1
        ax.scatter([rank], [float(o.value)], s=60, zorder=3, color=OKABE_ITO[(5, 0, 2, 6)[i % 4]],
                   label=f"{label}: rank {rank}, {text(float(o.value))}")  # fmt: skip
    ax.set_xlabel(f"rank of the hold (1 = best, {len(vals)} holds)")
    ax.set_ylabel(("P(complete)" if complete else "E[score]") + ", optimal play after")
    ax.grid(alpha=0.3)
    ax.legend()
    if title:
        ax.set_title(title)
    return fig
