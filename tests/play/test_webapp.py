"""End-to-end test of the play notebook served as a web app with Voila, driven in headless
Chromium (Debian's ``chromium`` package) through Playwright.

The test starts ``voila notebooks/4_play.ipynb`` (the lesson's embedded board; the app itself
is tested in ``test_app_browser.py``) on 127.0.0.1 and a free port, clicks Roll and dice,
checks what the advisor panel shows, types a wrong physical roll and checks the
message, and saves screenshots to ``$PHASE10MATH_ARTIFACTS`` (default ``test-artifacts/``).
With ``PHASE10MATH_UPDATE_SCREENSHOT=1`` the screenshot is also copied to
``docs/play-screenshot.png``.

Without chromium, playwright or voila the test skips, except when the environment variable
``CI`` is set: then it fails with a message saying what to install.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, ROOT, artifacts, serve_voila

NOTEBOOK = ROOT / "notebooks" / "4_play.ipynb"
PAGE_TIMEOUT = 45_000  # ms for the notebook to render its widgets

pytestmark = pytest.mark.browser


@pytest.fixture
def voila_url(tmp_path):
    """Serve the play notebook with Voila on 127.0.0.1; always stop the server."""
    with serve_voila(NOTEBOOK, tmp_path) as url:
        yield url


def _dice_texts(page) -> list[str]:
    return [
        t.strip() for t in page.locator(".p10-turn").first.locator(".p10-die").all_inner_texts()
    ]


def test_play_in_browser(voila_url):
    from playwright.sync_api import expect, sync_playwright

    shots = artifacts()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 1150})
            page.set_default_timeout(PAGE_TIMEOUT)
            page.goto(voila_url)
            turn = page.locator(".p10-turn").first
            roll = turn.locator(".p10-roll")
            advice = turn.locator(".p10-advice")
            expect(roll).to_be_visible()
            expect(advice).to_contain_text("Roll to start")
            assert _dice_texts(page) == ["?"] * 10

            roll.click()
            expect(advice).to_contain_text("Best:")
            dice = _dice_texts(page)
            assert len(dice) == 10 and all(re.fullmatch(r"W|10|[1-9]", d) for d in dice)
            # nothing held yet: the highlighted row of the ranked holds is the empty hold
            expect(advice.locator(".p10-current")).to_contain_text("(nothing)")

            # hold two dice: they get the held class and the panel ranks the choice
            turn.locator(".p10-die-0").click()
            turn.locator(".p10-die-1").click()
            expect(turn.locator(".p10-die-0")).to_have_class(re.compile(r"\bp10-held\b"))
            expect(advice.locator(".p10-mine-line")).to_contain_text("Yours:")

            # the advisor's best (or, when the roll already makes the phase, stop and score)
            turn.locator(".p10-best:visible, .p10-stop").first.click()  # Stop when stopping is best
            expect(advice).to_contain_text(re.compile(r"the best hold|Turn over"))
            page.screenshot(path=str(shots / "play.png"), full_page=True)
            if "Turn over" in advice.inner_text():
                turn.locator(".p10-new").click()
                expect(advice).to_contain_text("Roll to start")

            # a wrong typed roll: the message names the face, next to the entry; nothing changes
            before = _dice_texts(page)
            advice_before = advice.inner_text()
            turn.locator(".p10-settings-toggle").click()  # the settings fold into one line
            turn.locator(".p10-mode button", has_text="Type real dice").click()
            turn.locator(".p10-entry input").fill("11 10 10 W 5 6 7 1 2 3")
            turn.locator(".p10-enter").click()
            message = turn.locator(".p10-entry-message")
            expect(message).to_contain_text("'11' is not a die face")
            assert _dice_texts(page) == before
            assert advice.inner_text() == advice_before
            page.screenshot(path=str(shots / "play-bad-input.png"), full_page=True)
        finally:
            browser.close()
    if os.environ.get("PHASE10MATH_UPDATE_SCREENSHOT"):
        (ROOT / "docs").mkdir(exist_ok=True)
        shutil.copy(shots / "play.png", ROOT / "docs" / "play-screenshot.png")
