"""How long each lesson takes in class, counted from the notebooks by a stated rule.

    python tools/lesson_lengths.py            # the table of docs/teaching.md ("Lesson lengths")

What is counted, per lesson (``notebooks/*.ipynb``), for each track:

- **reading**: the words of the prose (markdown cells, not the answers), at the reading speed
  of the track; link targets, HTML tags and formatting marks are not words;
- **code**: each code cell that is not an answer's check: read it, run it, read its output;
- **figures**: each stored figure, read and discussed;
- **predict first**: each "Predict first" prompt, a guess written down and compared;
- **exercises**: each exercise at the minutes of its level (warm-up, core, extension, proof,
  as its heading says); the high-school track does the warm-up and core exercises only;
- **start and wrap-up**: a fixed few minutes per lesson.

The high-school track also leaves out the sections that ``docs/teaching.md`` marks *skip for
high school* (:data:`HS_SKIPS`, by heading). The speeds are assumptions, stated here so that the
table can be recomputed and changed: the silent reading rate of adults for non-fiction averages
238 words per minute, most adults reading 175-300 (Brysbaert 2019, *J. Memory and Language*
109, 104047); we take the lower end, 175, for a lesson full of numbers read by first-year
students, and 130 for high-school students. A classroom trial may change every figure.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
TRACKS = ("hs", "uni")
WORDS_PER_MINUTE = {"hs": 130, "uni": 175}
CODE_CELL_MINUTES = {"hs": 1.5, "uni": 1.0}
FIGURE_MINUTES = 1.0
PREDICT_MINUTES = 2.0
START_AND_WRAP_UP = 5.0
EXERCISE_MINUTES = {
    "hs": {"warm-up": 4, "core": 8},  # extension and proof problems: university track
    "uni": {"warm-up": 3, "core": 6, "extension": 10, "proof": 10},
}
LEVELS = {"W": "warm-up", "P": "core", "E": "extension", "Pr": "proof"}  # the 10,000 lesson
PERIOD = 50  # minutes
# sections the high-school track leaves out (docs/teaching.md, "The course at a glance")
HS_SKIPS = {
    "2_one_roll": ("## Inclusion-exclusion", "## Enumeration"),
    "3_optimal_turn": ("## Free or sticky holds",),
    "3b_full_table": ("## How much the second", "## A second way"),
    "5_whole_game": ("## 4. Solitaire",),
    "card_game": ("## 3.", "## 3b.", "## 5."),
}
EXERCISE = re.compile(r"\*\*Exercise \d+ \(([^),]+)")
FIGURE_MIMES = ("image/png", "image/svg+xml")


def words(markdown: str) -> int:
    """The words of a markdown text (link targets, tags, folded answers and marks removed).

    >>> words("**Exercise 1.** See [the rules](../docs/rules.md#14) <b>now</b>: $p = 1/6$.")
    8
    """
    text = re.sub(r"<details>.*?</details>", " ", markdown, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return sum(1 for token in text.split() if re.search(r"\w", token))


def is_answer(cell) -> bool:
    return "answer" in cell.metadata.get("tags", [])


def lesson_counts(path: Path, track: str) -> dict:
    """What one track reads, runs and solves in the lesson at ``path``."""
    skips = HS_SKIPS.get(path.stem, ()) if track == "hs" else ()
    counts = {"words": 0, "code": 0, "figures": 0, "predict": 0, "exercises": []}
    skipping = False
    for cell in nbformat.read(path, as_version=4).cells:
        if is_answer(cell):
            continue
        if cell.cell_type == "markdown":
            for part in re.split(r"^(?=## )", cell.source, flags=re.M):  # section by section
                if part.startswith("## "):
                    skipping = part.startswith(skips) if skips else False
                if not skipping:
                    counts["words"] += words(part)
                    counts["predict"] += part.count("Predict first")
                    counts["exercises"] += [LEVELS.get(m, m) for m in EXERCISE.findall(part)]
        elif cell.cell_type == "code" and not skipping:
            counts["code"] += 1
            counts["figures"] += sum(
                any(m in o.get("data", {}) for m in FIGURE_MIMES) for o in cell.outputs
            )
    return counts


def minutes(counts: dict, track: str) -> tuple[float, float]:
    """``(lesson, exercises)``: the minutes of the lesson itself (start and wrap-up, reading,
    code, figures, predictions) and of its exercises, for ``track``."""
    per_level = EXERCISE_MINUTES[track]
    lesson = (
        START_AND_WRAP_UP
        + counts["words"] / WORDS_PER_MINUTE[track]
        + counts["code"] * CODE_CELL_MINUTES[track]
        + counts["figures"] * FIGURE_MINUTES
        + counts["predict"] * PREDICT_MINUTES
    )
    return lesson, sum(per_level.get(level, 0) for level in counts["exercises"])


def table(notebooks: Path = ROOT / "notebooks") -> str:
    """The markdown table of ``docs/teaching.md``: per lesson, what is counted and the
    minutes and 50-minute periods of each track."""
    head = (
        "| lesson | words | code cells | figures | predict first | exercises (W/C/E/P) "
        "| HS minutes: lesson + exercises | HS periods | Uni minutes: lesson + exercises "
        "| Uni periods |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for path in sorted(notebooks.glob("*.ipynb")):
        c = {t: lesson_counts(path, t) for t in TRACKS}
        uni = c["uni"]
        levels = "/".join(
            str(sum(e == lv for e in uni["exercises"]))
            for lv in ("warm-up", "core", "extension", "proof")
        )
        cells = [path.stem, uni["words"], uni["code"], uni["figures"], uni["predict"], levels]
        for t in TRACKS:
            lesson, exercises = minutes(c[t], t)
            total = round(lesson) + round(exercises)
            cells += [f"{round(lesson)} + {round(exercises)} = {total}", math.ceil(total / PERIOD)]
        rows.append("| " + " | ".join(str(x) for x in cells) + " |")
    return head + "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table())
