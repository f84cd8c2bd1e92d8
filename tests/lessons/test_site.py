"""The documentation site builds offline with warnings as errors (README, rules, glossary,
teaching guide, every lesson with its stored outputs, the API reference)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("myst_nb", reason="the docs extra is not installed: pip install -e '.[docs]'")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    cmd = [sys.executable, "-m", "sphinx", "-q", "-W", "-c", "docs/site", ".", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.mark.slow
def test_site_builds_without_warnings(site):
    tmp_path = site
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    for name in lessons:  # every lesson, with its stored outputs (a figure at least)
        page = (tmp_path / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
        assert "<img" in page or "<svg" in page or "cell_output" in page, name
    api = (tmp_path / "docs" / "site" / "api.html").read_text(encoding="utf-8")
    for name in ("match_roll", "advise", "GameLength", "TurnState", "dealt_odds"):
        assert name in api
    assert (tmp_path / "_static" / "MathJax.js").exists()  # formulas without the network
    page = (tmp_path / "notebooks" / "2_one_roll.html").read_text(encoding="utf-8")
    assert re.search(r'src="\.\./_static/MathJax\.js', page)
    for html in tmp_path.rglob("*.html"):  # nothing is loaded from the network
        assert not re.search(r'src="(https?:)?//', html.read_text(encoding="utf-8")), html.name
    for name in lessons:  # test markers are not for the reader
        assert "NBVAL" not in (tmp_path / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
    play = (tmp_path / "notebooks" / "4_play.html").read_text(encoding="utf-8")
    assert play.count("p10-static-board") == 2  # the widgets as pictures of their state


@pytest.mark.slow
@pytest.mark.browser
def test_formulas_are_typeset_offline(site, tmp_path):
    """The page as a browser shows it, after MathJax ran: the display formula of notebook 2 is
    typeset (no raw TeX left on the page, no font that failed to load)."""
    chromium = next(
        (shutil.which(n) for n in ("chromium", "chromium-browser") if shutil.which(n)), None
    )
    if chromium is None:
        pytest.skip("headless Chromium is not installed")
    page = (site / "notebooks" / "2_one_roll.html").as_uri()
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}",
           "--virtual-time-budget=20000", "--dump-dom", page]  # fmt: skip
    dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    assert 'class="MathJax_Display"' in dom and "failed to load" not in dom
    shown = re.sub(r"<script.*?</script>", "", dom, flags=re.S)  # MathJax keeps the TeX here
    assert "\\frac" not in shown and "\\binom" not in shown
