"""The documentation site builds offline with warnings as errors (README, rules, glossary,
teaching guide, every lesson with its stored outputs, the API reference)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("myst_nb", reason="the docs extra is not installed: pip install -e '.[docs]'")


@pytest.mark.slow
def test_site_builds_without_warnings(tmp_path):
    cmd = [sys.executable, "-m", "sphinx", "-q", "-W", "-c", "docs/site", ".", str(tmp_path)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
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
    play = (tmp_path / "notebooks" / "4_play.html").read_text(encoding="utf-8")
    assert play.count("p10-static-board") == 2  # the widgets as pictures of their state
