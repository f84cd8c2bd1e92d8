"""The rules every lesson keeps: 6-10 exercises in a graded sequence (warm-up, core, then
extension or proof), each with its answer tagged for the teacher's copy and most with a cell that
checks it; no code cell longer than 12 lines; stored outputs without progress bars, error
tracebacks or walls of digits. And the lesson lengths of docs/teaching.md are the ones that
tools/lesson_lengths.py counts from the notebooks."""

import ast
import importlib.util
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb"))
EXERCISE = re.compile(r"\*\*Exercise (\d+) \(([^),]+)[^)]*\)\.\*\*")
# the level of an exercise, as its heading names it (the 10,000 lesson abbreviates them)
LEVEL = {"warm-up": 0, "W": 0, "core": 1, "P": 1, "extension": 2, "E": 2, "proof": 2, "Pr": 2}
MAX_LINES = 12


def exercises(nb):
    """``[(number, level, answer cells, checking code cells)]`` in the notebook's order."""
    found = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        heading = EXERCISE.search(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            folded = "<details><summary>Answer</summary>" in cell.source
            found.append([int(heading.group(1)), heading.group(2), int(folded), 0])
        elif found and "answer" in tags:
            found[-1][2 if cell.cell_type == "markdown" else 3] += 1
    return found


def code_lines(source: str) -> int:
    """Lines of a code cell: blank lines do not count, an import statement counts once."""
    lines = [i for i, ln in enumerate(source.splitlines(), 1) if ln.strip()]
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics
        return len(lines)
    extra = sum(
        (node.end_lineno or node.lineno) - node.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    )
    return len(lines) - extra


def test_the_checks_can_fail():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("**Exercise 1 (proof).** Why?"),
            nbformat.v4.new_markdown_cell("**Exercise 2 (warm-up).** How many?"),
        ]
    )
    found = exercises(nb)
    assert [(n, level) for n, level, *_ in found] == [(1, "proof"), (2, "warm-up")]
    assert LEVEL["proof"] > LEVEL["warm-up"] and found[0][2] == 0  # out of order, no answer
    assert code_lines("from x import (\n    a,\n    b,\n)\n\ny = 1\n") == 2
    assert code_lines("\n".join(f"x{i} = {i}" for i in range(13))) == 13


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_exercises_are_graded_and_answered(path):
    found = exercises(nbformat.read(path, as_version=4))
    assert 6 <= len(found) <= 10, f"{len(found)} exercises"
    assert [n for n, *_ in found] == list(range(1, len(found) + 1))
    levels = [LEVEL[level] for _, level, *_ in found]  # an unknown level is a KeyError
    assert levels == sorted(levels), "not from warm-up to extension"
    assert levels[-1] == 2, "no extension or proof problem"
    assert all(answers >= 1 for _, _, answers, _ in found), "an exercise without its answer"
    checked = sum(code >= 1 for *_, code in found)
    assert 2 * checked >= len(found), "most answers are checked by code"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_code_cells_are_short(path):
    cells = nbformat.read(path, as_version=4).cells
    long = {i: code_lines(c.source) for i, c in enumerate(cells) if c.cell_type == "code"}
    assert {i: n for i, n in long.items() if n > MAX_LINES} == {}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_outputs_are_clean(path):
    nb = nbformat.read(path, as_version=4)
    assert "widgets" not in nb.metadata, "stored widget state (a progress bar, a board)"
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        assert cell.execution_count is not None, f"code cell {i} not executed"
        for out in cell.outputs:
            assert out.output_type != "error", f"code cell {i}: an error is stored"
            text = out.get("text", "") + out.get("data", {}).get("text/plain", "")
            assert not re.search(r"\d+%\|", text), f"code cell {i}: a progress bar"
            assert not re.search(r"\d{25}", text), f"code cell {i}: a wall of digits"


def lengths_tool():
    spec = importlib.util.spec_from_file_location(
        "lesson_lengths", ROOT / "tools/lesson_lengths.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lesson_minutes_follow_the_stated_rule():
    tool = lengths_tool()
    counts = {"words": 350, "code": 4, "figures": 1, "predict": 2,
              "exercises": ["warm-up", "core", "core", "proof"]}  # fmt: skip
    # by hand: 5 start and wrap-up + 350/175 reading + 4 x 1 code + 1 figure + 2 x 2 predictions
    assert tool.minutes(counts, "uni") == (5 + 2 + 4 + 1 + 4, 3 + 6 + 6 + 10)
    hs_lesson, hs_exercises = tool.minutes(counts, "hs")  # 350/130 reading, 1.5 per code cell
    assert Fraction(hs_lesson).limit_denominator(1000) == Fraction(5 + 6 + 1 + 4) + Fraction(35, 13)
    assert hs_exercises == 4 + 8 + 8  # no proof problem in the high-school track
    assert tool.words("[two words](../docs/x.md) <b>three</b>") == 3


def test_teaching_guide_shows_the_counted_lesson_lengths():
    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    shown = re.search(
        r"<!-- lesson-lengths:[^>]*-->\n(.*?)<!-- end lesson-lengths -->", guide, re.S
    )
    assert shown, "the lesson-lengths table is missing from docs/teaching.md"
    printed = lengths_tool().table()
    assert shown.group(1) == printed, "rerun: python tools/lesson_lengths.py"
    assert len(printed.splitlines()) == 2 + len(NOTEBOOKS)
