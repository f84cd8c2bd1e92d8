"""``phase10math handouts``: worksheets without answers, teacher's copies with them, PDFs that
render (formulas typeset, no raw TeX, no test markers, no line cut at the margin), the rules
pages beside them; bad input gives one line on stderr and exit code 2."""

import base64
import functools
import html as html_lib
import re
import shutil
import sys

import nbformat
import pytest

import phase10math as p10
from phase10math.cli import main
from phase10math.cli.handouts import (
    DEFAULT_NOTEBOOKS,
    DOCS,
    VARIANTS,
    find_chromium,
    lesson_notebooks,
    make_handouts,
    strip_asserts,
    strip_markers,
)

LESSONS = [p.stem for p in lesson_notebooks(DEFAULT_NOTEBOOKS)]
HAVE_CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))
CHECKED = ["2_one_roll", "3_optimal_turn", "4_play"]  # formulas, a wide table, answers, widgets
MM = 72 / 25.4  # PDF points per millimetre


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@functools.cache
def pdf_text(path):
    """(the PDF's reader, the text of all its pages): read once per file (pypdf takes
    seconds a page where the page has formulas; the handouts do not change in the module)."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def flat(text):
    return re.sub(r"\s+", "", text)


def notebook(name):
    return nbformat.read(DEFAULT_NOTEBOOKS / f"{name}.ipynb", as_version=4)


def answer_cells(nb):
    return [c for c in nb.cells if "answer" in c.metadata.get("tags", [])]


@pytest.fixture(scope="module")
def handouts(tmp_path_factory):
    if not HAVE_CHROMIUM:
        pytest.skip("headless Chromium is not installed")
    out = tmp_path_factory.mktemp("handouts")
    make_handouts(out, only=CHECKED, papers=("a4",), docs=("rules-summary",))
    make_handouts(out, only=CHECKED[:1], papers=("letter",), docs=())
    return out


@pytest.mark.parametrize("name", CHECKED)
def test_worksheet_is_the_questions_only(handouts, name):
    page = (handouts / f"{name}-worksheet.html").read_text(encoding="utf-8")
    nb = notebook(name)
    answers = answer_cells(nb)
    assert len(answers) >= 5
    assert "<details" not in page and "Answer" not in page and "assert " not in page
    for cell in answers:  # not one line of an answer or of its checking code
        for line in cell.source.splitlines():
            words = re.sub(r"<[^>]+>|[*`$]", "", line).strip()
            if len(words) > 30:
                assert words not in page, (name, words)
    questions = [c for c in nb.cells if c.cell_type == "markdown" and "**Exercise" in c.source]
    assert page.count('class="p10-write"') == len(questions) >= 5  # a box under each question
    for cell in nb.cells:  # the lesson's own code is not on the sheet (only what is tagged)
        if cell.cell_type == "code" and "worksheet" not in cell.metadata.get("tags", []):
            for line in strip_markers(cell.source).splitlines():
                if len(line.strip()) > 40:
                    assert html_lib.escape(line.strip()) not in page, (name, line)
    reader, text = pdf_text(handouts / f"{name}-worksheet-a4.pdf")
    assert "assert" not in text and "Answer" not in text and 1 <= len(reader.pages) <= 3
    assert not re.search(r"open the answer|cell under", flat(text).lower())


@pytest.mark.parametrize("name", CHECKED)
def test_teacher_key_shows_every_answer_and_how_it_was_computed(handouts, name):
    page = (handouts / f"{name}-teacher.html").read_text(encoding="utf-8")
    answers = answer_cells(notebook(name))
    n = sum("<details>" in c.source for c in answers)
    assert n >= 5 and page.count('class="p10-answer"') == n and "<details" not in page
    _, text = pdf_text(handouts / f"{name}-teacher-a4.pdf")
    for cell in answers:  # the checking code, with its asserts: how the answer was computed
        if cell.cell_type == "code":
            for line in strip_markers(cell.source).splitlines():
                assert flat(line) in flat(text), f"cut or missing: {line!r}"


@pytest.mark.parametrize("name", CHECKED)
def test_pdf_pages_render_whole(handouts, name):
    for variant in VARIANTS:
        _, text = pdf_text(handouts / f"{name}-{variant}-a4.pdf")
        tex = r"\$|\\(frac|sqrt|binom|sum|left|right|text|cdots|max|times|bigl|quad)\b|NBVAL"
        assert not re.search(tex, text), f"raw TeX or a test marker on the {variant} page"
    _, text = pdf_text(handouts / f"{name}-lesson-a4.pdf")
    printed = flat(text)
    for cell in notebook(name).cells:  # every line of the lesson's code and text output
        if cell.cell_type != "code" or "answer" in cell.metadata.get("tags", []):
            continue
        lines = strip_asserts(strip_markers(cell.source)).splitlines()
        lines += [ln for o in cell.outputs if o.get("output_type") == "stream"
                  for ln in o["text"].splitlines()]  # fmt: skip
        for line in lines:
            assert flat(line) in printed, f"cut or missing: {line!r}"


def test_a_widget_prints_the_state_it_shows(handouts):
    """Notebook 4 shows a turn board (phase 1, not rolled) and a game (you against complete and
    greedy): on paper each is the picture of that state, not a blank and not the app's
    screenshot."""
    screenshot = base64.b64encode((DOCS / "play-screenshot.png").read_bytes()).decode()[:200]
    page = (handouts / "4_play-lesson.html").read_text(encoding="utf-8")
    assert page.count('class="p10-static-board"') + page.count("class='p10-static-board'") == 2
    assert page.count("p10-static-die") == 20 and "p10-static-game" in page
    assert screenshot not in page and "widget-view+json" not in page
    _, text = pdf_text(handouts / "4_play-lesson-a4.pdf")
    printed = flat(text)
    best = f"{float(p10.phase_row(1)['p_optimal']):.1%}"  # the turn's value, computed apart
    assert printed.count(flat(f"Phase 1 ({p10.PHASES[1].text})")) == 2
    assert printed.count(flat("3 rolls left")) == 2 and printed.count(flat(best)) >= 1
    assert all(f"die{k}" in printed for k in range(1, 11))
    for seat in ("you", "complete (2)", "greedy (3)", "Score sheet", "1: 2 sets of 3"):
        assert flat(seat) in printed, seat


def test_paper_sizes_and_the_one_page_summary(handouts):
    sizes = {}
    for paper in ("a4", "letter"):
        from pypdf import PdfReader  # the page size alone: no text read

        box = PdfReader(handouts / f"2_one_roll-worksheet-{paper}.pdf").pages[0].mediabox
        sizes[paper] = (round(float(box.width) / MM), round(float(box.height) / MM))
    assert sizes == {"a4": (210, 297), "letter": (216, 279)}
    summary, text = pdf_text(handouts / "rules-summary-a4.pdf")
    assert len(summary.pages) == 1 and "over 220" in text


def test_every_figure_as_png_and_svg(handouts):
    for name in CHECKED:
        pngs = sorted((handouts / "figures").glob(f"{name}-*.png"))
        assert pngs and all(p.with_suffix(".svg").exists() for p in pngs), name


def test_html_only_for_every_lesson_uses_stored_outputs(tmp_path, capsys):
    code, stdout, err = run(capsys, "handouts", "--out", str(tmp_path), "--no-pdf")
    assert code == 0, err
    for name in LESSONS:
        for variant in VARIANTS:
            assert (tmp_path / f"{name}-{variant}.html").stat().st_size > 10_000
    assert {"rules.html", "glossary.html", "rules-summary.html"} <= {
        p.name for p in tmp_path.iterdir()
    }
    assert not list(tmp_path.glob("*.pdf"))
    for name in LESSONS:  # no worksheet gives an answer away, folded or in a check
        page = (tmp_path / f"{name}-worksheet.html").read_text(encoding="utf-8")
        assert "<details" not in page and "Answer" not in page and "assert " not in page, name
        assert not re.search(r"open the answer|cell under each", page), name  # paper only
        teacher = (tmp_path / f"{name}-teacher.html").read_text(encoding="utf-8")
        assert "<details" not in teacher and 'class="p10-answer"' in teacher, name
    for html in tmp_path.glob("*.html"):  # every link to a page beside it works
        page = html.read_text(encoding="utf-8")
        assert "../docs/" not in page and ".md#" not in page
        for target in set(re.findall(r'href="([\w-]+\.html)', page)):
            assert (tmp_path / target).exists(), (html.name, target)
    # a stored output, not a re-execution: the 10,000 notebook's first table is in the page
    assert "P(no score)" in (tmp_path / "ten_thousand-lesson.html").read_text(encoding="utf-8")
    assert f"{len(stdout.splitlines())} files written" in err


def one_line_error(code, out, err, *words):
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("phase10math: error: ")
    for w in words:
        assert w in err


def test_unwritable_out(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    one_line_error(*run(capsys, "handouts", "--out", str(blocker / "sub"), "--no-pdf"), "--out")


def test_no_chromium(tmp_path, capsys):
    missing = str(tmp_path / "no-chromium")
    one_line_error(
        *run(capsys, "handouts", "--out", str(tmp_path), "--chromium", missing), "--no-pdf"
    )
    assert not list(tmp_path.glob("*.html"))  # checked before anything is written
    with pytest.raises(ValueError):
        find_chromium(missing)


def test_unknown_lesson(tmp_path, capsys):
    one_line_error(
        *run(capsys, "handouts", "--out", str(tmp_path), "--no-pdf", "--only", "nope"), "nope"
    )


def test_missing_nbconvert(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "nbconvert", None)  # import nbconvert -> ImportError
    one_line_error(*run(capsys, "handouts", "--out", str(tmp_path), "--no-pdf"), "nbconvert")


def test_no_notebooks(tmp_path, capsys):
    code, out, err = run(
        capsys, "handouts", "--out", str(tmp_path / "o"), "--notebooks", str(tmp_path), "--no-pdf"
    )
    one_line_error(code, out, err, "no lesson notebooks")
