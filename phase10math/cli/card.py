"""``phase10math card``: the strategy card, every phase's rule of thumb with its exact price.

``card --out DIR`` writes ``card.html`` and the card as PDF on A4 and Letter paper
(``card-a4.pdf``, ``card-letter.pdf``: phases 1-10 on the first page, 11-20 on the second,
drawn with matplotlib) and a PNG of each page to look at; ``card --json`` prints every rule's
words with its exact price and the optimum's (fractions and floats). The rules are the shipped
ones (:func:`~phase10math.turn.thumb.shipped_rules`, found by ``python
tools/ship_rules_of_thumb.py``).

>>> card = card_data("recorded")
>>> card["phases"]["4"]["complete"]["p_complete"]["float"] > 0.95
True
>>> price_words(card["phases"]["4"])  # doctest: +ELLIPSIS
'makes the phase ...% of the time; the best play ...%: costs ... points of chance in 100'
"""

from __future__ import annotations

import argparse
import html
import json
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

from phase10math.cli.printing import PAPERS, add_paper_options, papers_of, print_written
from phase10math.errors import Phase10MathError
from phase10math.exact import to_json

ALWAYS = "If your dice make the phase, keep them."
TITLE = "Phase 10 Dice: rules of thumb"
OTHERS = "Other rules, the points of chance to win in 100 each gives up: "


class CardError(Phase10MathError):
    """The card cannot be made (no shipped rules, a folder that cannot be written)."""


def card_data(layout: str = "recorded") -> dict:
    """Every phase's rules of thumb with their exact prices (JSON-ready: fractions and
    floats), the optimum's and the greedy's, and the Monte Carlo check."""
    from phase10math.turn.thumb import TAIL_WORDS, shipped_rules

    per = shipped_rules().get(layout)
    if not per:
        raise CardError(
            f"no rules of thumb ship for the {layout} dice: python tools/ship_rules_of_thumb.py"
        )
    phases = {}
    for n, item in sorted(per.items()):
        entry = {"requirement": item.data["requirement"]}
        for aim in ("complete", "score"):
            e = item.e_score(aim)
            entry[aim] = {
                "words": item.words(aim),
                "p_complete": to_json(item.p_complete(aim)),
                "e_score": None if e is None else to_json(e),
                "monte_carlo": item.monte_carlo(aim),
            }
        entry["optimal"] = {
            "p_complete": to_json(item.p_optimal),
            "e_score": to_json(item.e_optimal),
        }
        entry["greedy"] = {"p_complete": to_json(item.p_greedy)}
        entry["cost_points_of_chance"] = to_json(item.cost())
        phases[str(n)] = entry
    return {
        "title": TITLE,
        "layout": layout,
        "always": ALWAYS,
        "tail": TAIL_WORDS,
        "phases": phases,
        "win_rules": win_data(),
    }


def win_data() -> dict:
    """The win rules of the two-player game with their prices against the optimal player
    (:func:`~phase10math.game.duel.winrules.shipped_win_rules`)."""
    from phase10math.game.duel.winrules import shipped_win_rules

    return shipped_win_rules()


def win_lines(win: dict) -> tuple[str, list[str], str, list[str]]:
    """The card's box for playing to win: its title, the card rule's lines, its price, and
    the other rules' prices, in plain words."""
    rules = {r["name"]: r for r in win["rules"]}
    main = rules[win["card_rule"]]

    def gives(r: dict) -> str:
        p = r["price"]
        return (
            f"gives up {100 * p['mean']:.1f} points of chance to win in 100 against the best "
            f"player (moving first {100 * p['first']:.1f}, second {100 * p['second']:.1f})"
        )

    title = "Playing to win (two players): when to stop at a made phase"
    others = [
        f"{r['name']}: {100 * r['price']['mean']:.1f} (first {100 * r['price']['first']:.1f}, "
        f"second {100 * r['price']['second']:.1f})"
        for r in win["rules"]
        if r is not main
    ]
    note = (
        f"This rule {gives(main)}; priced exactly in the end game (phases 9-10, compact "
        "dice, from phase 9 with 0 points; the whole game is too costly to price), each "
        "price checked by 2,000 seeded games."
    )
    return title, main["words"], note, others


def _f(d: dict) -> Fraction:
    return Fraction(d["fraction"])


def price_words(entry: dict) -> str:
    """A phase's price in plain words."""
    p = _f(entry["complete"]["p_complete"])
    best = _f(entry["optimal"]["p_complete"])
    cost = (best - p) * 100
    said = "nothing" if cost == 0 else f"{float(cost):.1f} points of chance in 100"
    if 0 < cost < Fraction(1, 20):
        said = "under 0.05 points of chance in 100"
    return (
        f"makes the phase {float(p) * 100:.1f}% of the time; the best play "
        f"{float(best) * 100:.1f}%: costs {said}"
    )


def points_words(entry: dict) -> str:
    e = entry["score"]["e_score"]
    if e is None:
        return ""
    best = _f(entry["optimal"]["e_score"])
    return (
        f"playing for points, its own rule scores {float(_f(e)):.1f} on average "
        f"(best play {float(best):.1f})"
    )


def special_lines(words: list[str]) -> list[str]:
    """A rule's own lines: its words without the common tail (said once on the card)."""
    from phase10math.turn.thumb import COLOR_WORDS

    own = [w for w in words if not w.lower().startswith(("then keep", "keep as many dice as fit"))]
    return [w for w in own if w != COLOR_WORDS[0].upper() + COLOR_WORDS[1:] + "."] or []


def phase_lines(n: str, entry: dict) -> tuple[str, list[str], str]:
    own = special_lines(entry["complete"]["words"])
    if not own:
        color = any(w.startswith("Keep the dice that fit") for w in entry["complete"]["words"])
        if color and "run" in entry["requirement"]:
            own = ["Keep the most dice that fit: the run, and for the color group the color "
                   "you have most of (its wilds too)."]  # fmt: skip
        else:
            own = ["The color you have most of, its wilds too." if color else "The basic rule."]
    return f"Phase {n}: {entry['requirement']}", own, price_words(entry)


# --------------------------------------------------------------------------- HTML

CSS = """
body { font-family: sans-serif; max-width: 48em; margin: 1em auto; color: #111; }
h1 { font-size: 1.4em; margin-bottom: .2em; }
.always { border: 1px solid #555; padding: .5em; margin: .5em 0 1em; }
.phase { margin: .6em 0; page-break-inside: avoid; }
.phase h2, .win h2 { font-size: 1em; margin: 0; }
.phase ol { margin: .1em 0 .1em 1.2em; padding: 0; }
.price { color: #333; font-size: .9em; }
@media print { .page2 { page-break-before: always; } }
"""


def card_html(data: dict) -> str:
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(data['title'])}</title><style>{CSS}</style></head><body>",
        f"<h1>{html.escape(data['title'])} ({html.escape(data['layout'])} dice)</h1>",
        "<div class='always'><b>Always:</b> " + html.escape(data["always"]),
        "<br><b>The basic rule</b> (every rule ends with it): " + html.escape(data["tail"]) + ".",
        "<br>Go through a rule's lines in order: a line decides between ways to keep dice; "
        "where it leaves a tie, the next line decides.</div>",
    ]
    for n, entry in data["phases"].items():
        title, own, price = phase_lines(n, entry)
        cls = "phase page2" if n == "11" else "phase"
        items = "".join(f"<li>{html.escape(w)}</li>" for w in own)
        score = points_words(entry)
        score_rule = special_lines(entry["score"]["words"])
        score_html = ""
        if score:
            said = " ".join(score_rule) or "the basic rule."
            score_html = (
                f"<div class='price'>For points: {html.escape(said)} ({html.escape(score)})</div>"
            )
        parts.append(
            f"<div class='{cls}'><h2>{html.escape(title)}</h2><ol>{items}</ol>"
            f"<div class='price'>{html.escape(price[0].upper() + price[1:])}.</div>"
            f"{score_html}</div>"
        )
    if data.get("win_rules"):
        title, lines, note, others = win_lines(data["win_rules"])
        items = "".join(f"<li>{html.escape(w)}</li>" for w in lines)
        rest = "".join(f"<li>{html.escape(w)}</li>" for w in others)
        parts.append(
            f"<div class='always win'><h2>{html.escape(title)}</h2><ol>{items}</ol>"
            f"<div class='price'>{html.escape(note)}</div>"
            f"<div class='price'>{html.escape(OTHERS)}<ul>{rest}</ul></div></div>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


# --------------------------------------------------------------------------- PDF


class _Page:
    """One page of the card being written top down (matplotlib figure coordinates)."""

    def __init__(self, fig, width: float, height: float):
        self.fig, self.width, self.height = fig, width, height
        self.left, self.y = 0.6 / width, 1 - 0.55 / height
        self.line = 0.158 / height  # one line of 9-point text
        self.chars = int((width - 1.2) * 15.5)  # characters of 9-point text in a line

    def put(self, text: str, size: float = 9, bold: bool = False, indent: float = 0.0) -> None:
        width = int(self.chars * 9 / size) - int(indent * 15)
        for part in textwrap.wrap(text, width) or [""]:
            self.fig.text(
                self.left + indent / self.width,
                self.y,
                part,
                fontsize=size,
                va="top",
                fontweight="bold" if bold else "normal",
                family="DejaVu Sans",
            )
            self.y -= self.line * size / 9

    def skip(self, lines: float) -> None:
        self.y -= self.line * lines


def card_figures(data: dict, paper: str):
    """The card's two pages as matplotlib figures (phases 1-10, 11-20)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    width, height = PAPERS[paper].width, PAPERS[paper].height
    keys = list(data["phases"])
    pages = [[k for k in keys if int(k) <= 10], [k for k in keys if int(k) > 10]]
    figs = []
    for i, phases in enumerate(pages):
        page = _Page(plt.figure(figsize=(width, height)), width, height)
        page.put(f"{data['title']} ({data['layout']} dice), page {i + 1} of 2", 13, True)
        page.skip(0.6)
        if i == 0:
            top = page.y + page.line * 0.3
            page.put("Always: " + data["always"], 9, True, 0.1)
            page.put(f"The basic rule (every rule ends with it): {data['tail']}.", 9, False, 0.1)
            page.put(
                "Read a rule's lines in order: a line picks between ways to keep dice; where "
                "it leaves a tie, the next line picks.",
                9,
                False,
                0.1,
            )
            page.skip(0.2)
            box = Rectangle(
                (page.left - 0.05 / width, page.y),
                1 - 2 * page.left + 0.1 / width,
                top - page.y,
                transform=page.fig.transFigure,
                fill=False,
                lw=0.8,
            )
            page.fig.patches.append(box)
            page.skip(0.6)
        for n in phases:
            title, own, price = phase_lines(n, data["phases"][n])
            page.put(title, 10, True)
            for j, w in enumerate(own, 1):
                page.put(f"{j}. {w}", 9, False, 0.2)
            page.put(price[0].upper() + price[1:] + ".", 8.5, False, 0.2)
            page.skip(0.5)
        if i == 1 and data.get("win_rules"):
            win_box(page, data["win_rules"], Rectangle)
        page.fig.text(
            page.left,
            0.35 / height,
            "Exact prices: phase10math card --json (fractions); "
            "the rules are found by tools/ship_rules_of_thumb.py and tools/ship_win_rules.py.",
            fontsize=7,
            color="#444",
        )
        figs.append(page.fig)
    return figs


def win_box(page: _Page, win: dict, rectangle) -> None:
    """The win rules in a box at the foot of page 2."""
    title, lines, note, others = win_lines(win)
    top = page.y + page.line * 0.3
    page.put(title, 10, True, 0.1)
    for j, w in enumerate(lines, 1):
        page.put(f"{j}. {w}", 9, False, 0.3)
    page.put(note, 8, False, 0.1)
    page.put(OTHERS + "; ".join(others) + ".", 7.5, False, 0.1)
    page.skip(0.2)
    box = rectangle(
        (page.left - 0.05 / page.width, page.y),
        1 - 2 * page.left + 0.1 / page.width,
        top - page.y,
        transform=page.fig.transFigure,
        fill=False,
        lw=0.8,
    )
    page.fig.patches.append(box)


def write_pdf(data: dict, path: Path, paper: str, png_stem: Path | None = None) -> list[Path]:
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    out = [path]
    figs = card_figures(data, paper)
    with PdfPages(path, metadata={"Title": data["title"], "Creator": "phase10math"}) as pdf:
        for i, fig in enumerate(figs, 1):
            pdf.savefig(fig)
            if png_stem is not None:
                png = png_stem.with_name(f"{png_stem.name}-page{i}.png")
                fig.savefig(png, dpi=110)
                out.append(png)
    for fig in figs:
        plt.close(fig)
    return out


def make_card(
    out: Path, layout: str = "recorded", pdf: bool = True, papers=tuple(PAPERS)
) -> list[Path]:
    """Write the card into ``out``: HTML, and a PDF (with PNG pages) per paper."""
    data = card_data(layout)
    try:
        out.mkdir(parents=True, exist_ok=True)
        page = out / "card.html"
        page.write_text(card_html(data), encoding="utf-8")
        files = [page]
        if pdf:
            for paper in papers:
                files += write_pdf(data, out / f"card-{paper}.pdf", paper, out / f"card-{paper}")
    except OSError as exc:
        raise CardError(f"cannot write the card to {out}: {exc.strerror or exc}") from None
    return files


def cmd_card(args: argparse.Namespace) -> int:
    if args.json:
        json.dump(card_data(args.layout), sys.stdout, indent=1)
        print()
        return 0
    if not args.out or not args.out.strip():
        raise CardError("give --out DIR (the folder to write the card into) or --json")
    print_written(make_card(Path(args.out), args.layout, not args.no_pdf, papers_of(args)))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "card",
        help="the strategy card: every phase's rule of thumb and its exact price (HTML, PDF)",
        description=(
            "The strategy card: every phase's rule of thumb with its exact price against the "
            "best play, as an HTML page and a two-page PDF on A4 and Letter paper (with a PNG "
            "of each page), or as JSON with exact fractions."
        ),
    )
    p.add_argument("--out", metavar="DIR", help="output directory (created)")
    p.add_argument("--json", action="store_true", help="print the card as JSON instead")
    p.add_argument("--layout", choices=["recorded", "compact"], default="recorded")
    add_paper_options(p, "HTML only", "paper of the PDF (repeat)")
    p.set_defaults(func=cmd_card)
