"""The "beat the solver" assignment (assignments/beat_the_solver): the grader loads hand-ins
from files (a notebook's tagged cells, a Python file), evaluates each exactly against the
optimum it computes at grading time, and ranks them; the student's notebook holds no expected
value. The two hand-ins' exact values are checked against the one-roll table (another path:
every roll of ten dice scored once), through formulas that hold for these two strategies."""

import importlib.util
import json
import re
from pathlib import Path

import nbformat

import phase10math as p10

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "assignments" / "beat_the_solver"

WEAK = "def strategy(roll, rolls_left, phase):\n    return []  # roll all ten again\n"
GOOD = """from collections import Counter


def made(roll):
    # two sets of three (they may share a number; a W is any number)
    count, w = Counter(roll), roll.count("W")
    short = {n: max(0, 3 - count[str(n)]) for n in range(1, 11)}
    pairs = [(a, b) for a in range(1, 11) for b in range(a + 1, 11)]
    same = any(max(0, 6 - count[str(n)]) <= w for n in range(1, 11))
    return same or any(short[a] + short[b] <= w for a, b in pairs)


def strategy(roll, rolls_left, phase):
    # keep all ten once they make phase 1, else roll them all again
    return list(roll) if made(roll) else []
"""


def grader():
    spec = importlib.util.spec_from_file_location("grade", FOLDER / "grade.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_grader_ranks_hand_ins_by_their_exact_values(tmp_path, capsys):
    (tmp_path / "weak.py").write_text(WEAK)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('not graded')"), nbformat.v4.new_code_cell(GOOD)]
    nb.cells[1].metadata["tags"] = ["strategy"]
    nbformat.write(nb, tmp_path / "good.ipynb")
    (tmp_path / "broken.py").write_text("def strategy(roll, rolls_left, phase):\n    return [\n")
    files = [str(tmp_path / n) for n in ("weak.py", "good.ipynb", "broken.py")]
    out = tmp_path / "table.md"
    assert (
        grader().main([*files, "--phase", "1", "--out", str(out), "--feedback", str(tmp_path)]) == 0
    )
    table = capsys.readouterr().out
    assert table == out.read_text()
    q = p10.phase_row(1)["p_single_roll"]  # one roll of ten dice makes phase 1
    rows = re.findall(r"\| (\d) \| (\w+) \| ([\d.]+)% \|", table)
    assert [(rank, name) for rank, name, _ in rows] == [("1", "good"), ("2", "weak")]
    # weak: only the third roll counts; good: made at one of three independent rolls
    assert float(rows[1][2]) == round(100 * float(q), 2)
    assert float(rows[0][2]) == round(100 * float(1 - (1 - q) ** 3), 2)
    assert re.search(r"\| - \| broken \| refused: .*does not run: SyntaxError", table)
    assert "P(complete)" in (tmp_path / "good.txt").read_text()


def test_the_students_copy_holds_no_expected_value():
    nb = json.loads((FOLDER / "assignment.ipynb").read_text())
    text = json.dumps(nb)
    assert not re.search(r"\d\d\.\d+%", text), "a percentage in the student's copy"
    assert not re.search(r"best_p_complete|solver_strategy|phase_row", text)
    tagged = [c for c in nb["cells"] if "strategy" in c["metadata"].get("tags", [])]
    assert len(tagged) == 1 and "def strategy(roll, rolls_left, phase)" in "".join(
        tagged[0]["source"]
    )
