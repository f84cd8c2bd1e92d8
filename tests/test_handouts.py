"""``phase10math handouts``: every lesson exported to HTML and PDF from its stored outputs; bad
input gives one line on stderr and exit code 2."""

import shutil
import sys

import pytest

from phase10math.cli import main
from phase10math.cli.handouts import DEFAULT_NOTEBOOKS, find_chromium, lesson_notebooks

LESSONS = [p.stem for p in lesson_notebooks(DEFAULT_NOTEBOOKS)]
HAVE_CHROMIUM = any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_CHROMIUM, reason="headless Chromium is not installed")
def test_every_lesson_to_html_and_pdf(tmp_path, capsys):
    out = tmp_path / "handouts"  # created by the command
    code, stdout, err = run(capsys, "handouts", "--out", str(out))
    assert code == 0, err
    assert len(LESSONS) >= 8
    for name in LESSONS:
        html, pdf = out / f"{name}.html", out / f"{name}.pdf"
        assert html.stat().st_size > 10_000, name
        assert "<html" in html.read_text(encoding="utf-8")[:2000].lower()
        assert pdf.read_bytes()[:4] == b"%PDF" and pdf.stat().st_size > 10_000, name
    assert len(stdout.splitlines()) == 2 * len(LESSONS)
    assert f"{2 * len(LESSONS)} files written" in err


def test_html_only_uses_stored_outputs(tmp_path, capsys):
    code, _, err = run(capsys, "handouts", "--out", str(tmp_path), "--no-pdf")
    assert code == 0, err
    assert sorted(p.stem for p in tmp_path.glob("*.html")) == sorted(LESSONS)
    assert not list(tmp_path.glob("*.pdf"))
    # a stored output, not a re-execution: the 10,000 notebook's first table is in the page
    assert "P(no score)" in (tmp_path / "ten_thousand.html").read_text(encoding="utf-8")


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


def test_missing_nbconvert(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "nbconvert", None)  # import nbconvert -> ImportError
    one_line_error(*run(capsys, "handouts", "--out", str(tmp_path), "--no-pdf"), "nbconvert")


def test_no_notebooks(tmp_path, capsys):
    code, out, err = run(
        capsys, "handouts", "--out", str(tmp_path / "o"), "--notebooks", str(tmp_path), "--no-pdf"
    )
    one_line_error(code, out, err, "no lesson notebooks")
