"""README.md is a front page (at most 250 lines: what the kit is, the two quick-start commands,
the headline table and what its columns mean, the two-player headline, what is where); the
manual it held is pages of the documentation site (docs/), each in the site's table of
contents and linked from the front page."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("install", "results", "cli", "games", "options", "package", "benchmarks", "development")


def test_the_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for heading in (
        "## Quick start",
        "## The headline result",
        "## Two players",
        "## What is where",
    ):
        assert heading in readme
    assert "pytest --nbval -n 2 --dist loadfile" in readme  # the test command CI runs
    index = (ROOT / "docs" / "site" / "index.md").read_text(encoding="utf-8")
    for name in PAGES:  # every former section: a page, in the site, linked from the front page
        assert (ROOT / "docs" / f"{name}.md").exists(), name
        assert f"/docs/{name}\n" in index, name
        assert f"(docs/{name}.md" in readme, name
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert len(images) == 1 and (ROOT / images[0]).exists()  # one picture of the app
