"""The play app (``app/play.ipynb`` served by Voila) driven in Debian's Chromium through
Playwright at desktop (1280 px) and phone (390 px) width: a full turn by clicks and keys, a
typed roll with Enter, a refusal shown next to its control, hint mode, and a whole (short) game
against a computer player. Every width checks that nothing overflows horizontally and that
every button label is fully visible.

Screenshots go to ``$PHASE10MATH_ARTIFACTS`` (default ``test-artifacts/``); with
``PHASE10MATH_UPDATE_SCREENSHOT=1`` they are also copied to ``docs/app-*.png``.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, ROOT, artifacts, serve_voila

APP = ROOT / "app" / "play.ipynb"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
TIMEOUT = 30_000  # ms for one widget update (a first solve of a phase included)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """Serve the app with Voila on 127.0.0.1 once for the module; always stop the server."""
    with serve_voila(APP, tmp_path_factory.mktemp("voila")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _check_layout(page) -> None:
    """No horizontal overflow; every visible button shows its whole label."""
    over = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert over <= 1, f"page overflows horizontally by {over}px"
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.p10-app button')]
            .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
            .map(b => b.innerText + ' ' + b.scrollWidth + '>' + b.clientWidth)"""
    )
    assert cut == [], f"button labels cut off: {cut}"


def _dice(board) -> list[str]:
    return [t.strip()[:2].strip() for t in board.locator(".p10-die").all_inner_texts()]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_app_turn_and_game(app_url, browser, width):
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    w, h = WIDTHS[width]
    shots = artifacts()
    page = browser.new_page(viewport={"width": w, "height": h})
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(app_url)
        board = page.locator(".p10-app .p10-turn").first
        advice = board.locator(".p10-advice")
        expect(board.locator(".p10-roll")).to_be_visible(timeout=60_000)
        expect(advice).to_contain_text("Roll to start")
        _check_layout(page)

        # a turn by keys: R rolls, 1 holds die 1
        page.keyboard.press("r")
        expect(advice).to_contain_text("Best:")
        assert all(re.fullmatch(r"W|10|[1-9]", d) for d in _dice(board))
        page.keyboard.press("1")
        expect(board.locator(".p10-die-0")).to_have_class(re.compile(r"\bp10-held\b"))
        expect(advice.locator(".p10-mine-line")).to_contain_text(re.compile(r"rank \d+|best"))
        # the best hold is starred on the dice; Hold best takes it
        assert board.locator(".p10-die.p10-suggest").count() >= 0
        board.locator(".p10-best").click()
        # (when the roll already makes the phase, Hold best is "stop and score"); wait for the
        # line about the player's own hold, since the why text may say "the best hold" before
        # the click is handled (the dice below would then be read too early)
        mine_is_best = advice.locator(".p10-mine-line", has_text="the best hold")
        expect(mine_is_best.or_(advice.filter(has_text="Turn over"))).to_be_visible()
        _check_layout(page)
        page.screenshot(path=str(shots / f"app-{width}.png"), full_page=True)
        # a refusal is shown next to the buttons: hold every die, then Roll
        if "Turn over" not in advice.inner_text():
            for i in range(10):
                die = board.locator(f".p10-die-{i}")
                if "p10-held" not in (die.get_attribute("class") or ""):
                    die.click()
                    expect(die).to_have_class(re.compile(r"\bp10-held\b"))
            board.locator(".p10-roll").click()
            msg = board.locator(".p10-message .p10-refusal")
            expect(msg).to_be_visible()
            expect(msg).to_contain_text("every die is held")
            board.locator(".p10-stop").click()
        expect(advice).to_contain_text("Turn over")

        # a typed roll: the example shown is valid, Enter submits; a bad face is named
        page.keyboard.press("n")
        expect(advice).to_contain_text("Roll to start")
        board.locator(".p10-mode button", has_text="Type real dice").click()
        entry = board.locator(".p10-entry input")
        expect(entry).to_be_visible()
        example = entry.get_attribute("placeholder").removeprefix("e.g. ")
        entry.fill(example)
        entry.press("Enter")
        expect(advice).to_contain_text("Best:")
        entry.fill("11 3")
        entry.press("Enter")
        bad = board.locator(".p10-entry-message .p10-refusal")
        expect(bad).to_be_visible()
        expect(bad).to_contain_text("'11' is not a die face")
        _check_layout(page)
        page.screenshot(path=str(shots / f"app-typed-{width}.png"), full_page=True)

        # the recorded dice (issue 13): typed faces fit the ten different dice in many ways;
        # a tap on a face shows the dice that can show it, a tap on a die places it
        board.locator(".p10-stop").click()
        expect(advice).to_contain_text("Turn over")
        # the recorded dice are the default set: switch to compact and back
        select = board.locator(".p10-layout select")
        select.select_option(label="compact (5 kinds of dice)")
        expect(advice).to_contain_text("Roll to start")
        entry.fill("5o 6g 7b 8o 9o 10o 1g 2o 3b Wo")  # one face of each compact die
        entry.press("Enter")
        expect(advice).to_contain_text("Best:")
        board.locator(".p10-stop").click()
        expect(advice).to_contain_text("Turn over")
        select.select_option(label="recorded (10 different dice)")
        expect(advice).to_contain_text("Roll to start")
        entry.fill("10 10 W 5 6 7 1 2 3 8")
        entry.press("Enter")
        expect(advice).to_contain_text("the best hold is the same for all")
        which = board.locator(".p10-which")
        expect(which).to_be_visible()
        which.locator(".p10-pick-face-0").click()
        expect(which).to_contain_text("Which die shows your")
        die = which.locator(".p10-pick-die:visible").first
        expect(die).to_be_visible()
        die.click()
        expect(which.locator(".p10-pick-faces")).to_contain_text("\u2713 die")
        _check_layout(page)

        # hint mode: choose first, then check
        board.locator(".p10-mode button", has_text="Roll here").click()
        board.locator(".p10-hint button", has_text="Hint mode").click()
        expect(advice).to_contain_text("Hint mode")
        assert board.locator(".p10-die.p10-suggest").count() == 0
        board.locator(".p10-reveal").click()
        expect(advice).to_contain_text("Best:")
        expect(board.locator(".p10-compare")).to_contain_text("after the")

        # a whole one-phase game against one computer player, by keys
        page.locator(".p10-tabs .lm-TabBar-tab", has_text="Play a game").click()
        game = page.locator(".p10-app .p10-game").first
        gboard = game.locator(".p10-turn")
        expect(gboard.locator(".p10-roll")).to_be_visible()
        game.locator(".p10-remove-seat").click()
        expect(game.locator(".p10-seat")).to_have_count(1)
        game.locator(".p10-length select").select_option(label="1 phase")
        game.locator(".p10-new-game").click()
        status = game.locator(".p10-game-status")
        expect(status).to_contain_text("your turn at phase 1")
        _check_layout(page)
        for _ in range(40):
            if "Game over" in status.inner_text():
                break
            page.keyboard.press("r")
            expect(gboard.locator(".p10-advice")).to_contain_text("Best:")
            page.keyboard.press("s")
            expect(gboard.locator(".p10-advice")).to_contain_text("Turn over")
            if "Game over" in status.inner_text():
                break
            page.keyboard.press("n")
            expect(gboard.locator(".p10-advice")).to_contain_text("Roll to start")
        expect(status).to_contain_text("Game over")
        expect(game.locator(".p10-log")).to_contain_text("made with")
        expect(game.locator(".p10-scoresheet .p10-total").first).to_have_text(re.compile(r"\d+"))
        _check_layout(page)
        page.screenshot(path=str(shots / f"app-game-{width}.png"), full_page=True)
    finally:
        page.close()
    if os.environ.get("PHASE10MATH_UPDATE_SCREENSHOT"):
        (ROOT / "docs").mkdir(exist_ok=True)
        shutil.copy(shots / f"app-{width}.png", ROOT / "docs" / f"app-{width}.png")
        shutil.copy(shots / f"app-game-{width}.png", ROOT / "docs" / f"app-game-{width}.png")
