"""The play app (``app/play.ipynb`` served by Voila) driven in Debian's Chromium through
Playwright at desktop (1280 px) and phone (390 px) width: a full turn by clicks and keys, a
typed roll with Enter, a refusal shown next to its control, hint mode, and a whole (short) game
against a computer player. Every width checks that nothing overflows horizontally and that
every button label is fully visible.

Screenshots go to ``$PHASE10MATH_ARTIFACTS`` (default ``test-artifacts/``); with
``PHASE10MATH_UPDATE_SCREENSHOT=1`` they are also copied to ``docs/app-*.png``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, ROOT, artifacts, serve_voila

APP = ROOT / "app" / "play.ipynb"
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
FIRST_SCREEN = {"desktop": (1280, 900), "phone": (390, 844), "small": (360, 740)}
MADE = "6o 9b 6b 9r 6b 9g Wr 3g Wg 3b"  # phase 1 made (6 6 6 and 9 9 9)
TIMEOUT = 30_000  # ms for one widget update (a first solve of a phase included)
# the aim "Win the game": its line before the turn's first roll, and after a roll
CHANCE_AT_START = re.compile(r"Chance to win the game at the start of this turn: \d+\.\d%")
HOLD_TO_WIN = re.compile(
    r"Best to win: (keep .+?, reroll \d+ → \d+\.\d%|roll again for points \(\d+\.\d% vs "
    r"\d+\.\d% if you stop\)|reroll all \d+ → \d+\.\d%|stop now)"
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """Serve the app with Voila on 127.0.0.1 once for the module; always stop the server."""
    with serve_voila(APP, tmp_path_factory.mktemp("voila")) as url:
        yield url


@pytest.fixture(scope="module")
def win_game_url(tmp_path_factory):
    """Serve a notebook holding a 10-phase game against one computer player on the compact
    dice (their two-player table covers the game from its first turn)."""
    import nbformat

    d = tmp_path_factory.mktemp("voila-win")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import ipywidgets\n"
            "from phase10math.dice.layouts import COMPACT_LAYOUT\n"
            "from phase10math.play.game_widget import GameWidget\n"
            "game = GameWidget(opponents=['complete'], layout=COMPACT_LAYOUT, seed=5)\n"
            "app = ipywidgets.VBox([game.view])  # the app's frame: its styles and checks\n"
            "app.add_class('p10-app')\n"
            "app"
        )
    ]
    path = d / "win_game.ipynb"
    nbformat.write(nb, path)
    with serve_voila(path, d, cwd=d) as url:
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


@contextlib.contextmanager
def _app_page(app_url, browser, size: tuple[int, int]):
    """A new page of the app at ``size`` (width, height, px), shown as far as its Roll button;
    closed afterwards, whatever happens."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(app_url)
        expect(page.locator(".p10-app .p10-roll").first).to_be_visible(timeout=60_000)
        yield page
    finally:
        page.close()


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


def _stop(board) -> None:
    """Stop; answer Yes when the board asks (a stop that fails the phase)."""
    board.locator(".p10-stop").click()
    yes = board.locator(".p10-confirm-yes:visible")
    advice = board.locator(".p10-advice")
    from playwright.sync_api import expect

    expect(yes.or_(advice.filter(has_text="Turn over"))).to_be_visible()
    if yes.is_visible():
        yes.click()


def _dice(board) -> list[str]:
    return [t.strip()[:2].strip() for t in board.locator(".p10-die").all_inner_texts()]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_app_turn_and_game(app_url, browser, width):
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    shots = artifacts()
    with _app_page(app_url, browser, WIDTHS[width]) as page:
        board = page.locator(".p10-app .p10-turn").first
        advice = board.locator(".p10-advice")
        expect(advice).to_contain_text("Roll to start")
        _check_layout(page)
        board.locator(".p10-settings-toggle").click()  # the settings fold into one line
        expect(board.locator(".p10-mode")).to_be_visible()

        # a turn by keys: R rolls, 1 holds die 1
        page.keyboard.press("r")
        expect(advice).to_contain_text("Best:")
        assert all(re.fullmatch(r"W|10|[1-9]", d) for d in _dice(board))
        page.keyboard.press("1")
        expect(board.locator(".p10-die-0")).to_have_class(re.compile(r"\bp10-held\b"))
        expect(advice.locator(".p10-mine-line")).to_contain_text(re.compile(r"Yours|judged"))
        # the best hold is starred on the dice; Hold best takes it
        assert board.locator(".p10-die.p10-suggest").count() >= 0
        board.locator(".p10-best:visible, .p10-stop").first.click()  # Stop when stopping is best
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
            _stop(board)
        expect(advice).to_contain_text("Turn over")

        # a typed roll: the example shown is valid, Enter submits; a bad face is named
        page.keyboard.press("n")
        expect(advice).to_contain_text("Roll to start")
        board.locator(".p10-mode button", has_text="Type real dice").click()
        entry = board.locator(".p10-entry input")
        expect(entry).to_be_visible()
        # the example for this turn's ten dice (the page may still show the box's old words)
        expect(entry).to_have_attribute("placeholder", re.compile(r"^e\.g\. (\S+ ){9}\S+$"))
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

        # the recorded dice: typed faces fit the ten different dice in many ways;
        # a tap on a face shows the dice that can show it, a tap on a die places it
        _stop(board)
        expect(advice).to_contain_text("Turn over")
        # the recorded dice are the default set: switch to compact and back
        select = board.locator(".p10-layout select")
        select.select_option(label="compact (5 kinds of dice)")
        expect(advice).to_contain_text("Roll to start")
        entry.fill("5o 6g 7b 8o 9o 10o 1g 2o 3b Wo")  # one face of each compact die
        entry.press("Enter")
        expect(advice).to_contain_text("Best:")
        _stop(board)
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
        board.locator(".p10-compare-toggle").click()  # the compare view is behind a tap
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
            _stop(gboard)
            expect(gboard.locator(".p10-advice")).to_contain_text("Turn over")
            page.keyboard.press("n")  # scores the turn, then the next one (or the end)
            expect(
                gboard.locator(".p10-advice")
                .filter(has_text="Roll to start")
                .or_(status.filter(has_text="Game over"))
            ).to_be_visible()
        expect(status).to_contain_text("Game over")
        # the end of the game: what the choices cost, and the board offers New game
        expect(status.locator(".p10-game-summary")).to_contain_text("Your choices this game")
        expect(gboard.locator(".p10-status")).to_contain_text("the game is over: press New game")
        expect(gboard.locator(".p10-status")).not_to_contain_text("Next turn")
        expect(gboard.locator(".p10-new")).to_have_text("New game")
        expect(game.locator(".p10-log")).to_contain_text("made with")
        expect(game.locator(".p10-scoresheet .p10-total").first).to_have_text(re.compile(r"\d+"))
        _check_layout(page)
        _check_phone_rules(page)
        page.screenshot(path=str(shots / f"app-game-{width}.png"), full_page=True)
    if os.environ.get("PHASE10MATH_UPDATE_SCREENSHOT"):
        (ROOT / "docs").mkdir(exist_ok=True)
        shutil.copy(shots / f"app-{width}.png", ROOT / "docs" / f"app-{width}.png")
        shutil.copy(shots / f"app-game-{width}.png", ROOT / "docs" / f"app-game-{width}.png")


TARGETS_JS = """() => [...document.querySelectorAll(
    '.p10-app button, .p10-app select, .p10-app input, .p10-app summary, .p10-app .lm-TabBar-tab')]
    .filter(e => e.offsetParent !== null && !e.disabled)
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([e, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
    .map(([e, r]) => (e.innerText || e.tagName).slice(0, 30) + ' ' + Math.round(r.width)
         + 'x' + Math.round(r.height))"""

CONTRAST_JS = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
      .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const bg = el => { for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3); }
      return [255, 255, 255]; };
  const bad = [];
  for (const el of document.querySelectorAll('.p10-app *')) {
    if (el.offsetParent === null || el.closest(':disabled')) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const fg = rgb(getComputedStyle(el).color).slice(0, 3);
    const [a, b] = [lum(fg), lum(bg(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) bad.push(el.innerText.trim().slice(0, 30) + ' ' + ratio.toFixed(2));
  }
  return bad; }"""

BROKEN_WORDS_JS = """() => {
  const bad = [];
  const walk = document.createTreeWalker(document.querySelector('.p10-app'),
                                         NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.offsetParent === null) continue;
    for (const m of n.textContent.matchAll(/[^\\s-]+/g)) {  // a line may end after '-'
      const r = document.createRange();
      r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
      if (tops.size > 1) bad.push(m[0]);
    }
  }
  return bad; }"""

SMALL_INPUTS_JS = """() => [...document.querySelectorAll('.p10-app input, .p10-app select')]
    .filter(e => e.offsetParent !== null && parseFloat(getComputedStyle(e).fontSize) < 16)
    .map(e => e.tagName + ' ' + getComputedStyle(e).fontSize)"""


HIDDEN_JS = """sel => [...document.querySelectorAll(sel)].filter(e => {
    e.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.right > document.documentElement.clientWidth || r.left < 0
        || !(hit && (hit === e || e.contains(hit)));
  }).map(e => e.innerText)"""


def _check_phone_rules(page) -> None:
    """Touch targets >= 44 px, text contrast >= 4.5:1 (from computed styles), inputs >= 16 px,
    no word broken across lines."""
    assert page.evaluate(TARGETS_JS) == [], "touch targets under 44 px"
    assert page.evaluate(CONTRAST_JS) == [], "text contrast under 4.5:1"
    assert page.evaluate(SMALL_INPUTS_JS) == [], "inputs under 16 px (phones zoom in)"
    assert page.evaluate(BROKEN_WORDS_JS) == [], "words broken across lines"


def _in_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= page.viewport_size["height"]
    )


@pytest.mark.parametrize("width", list(FIRST_SCREEN))
def test_safe_actions_on_the_first_screen(app_url, browser, width):
    """The first screen holds the dice (5 x 2), Roll and a one-line verdict; a roll that can
    throw a made phase away and a stop that fails both ask; Undo takes a stop back; targets,
    contrast, input sizes and unbroken words at every width."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    shots = artifacts()
    with _app_page(app_url, browser, FIRST_SCREEN[width]) as page:
        board = page.locator(".p10-app .p10-turn").first
        advice = board.locator(".p10-advice")
        board.locator(".p10-roll").click()
        verdict = advice.locator(".p10-verdict")
        expect(verdict).to_contain_text("Best:")
        # every die shows its face (a die's face and its color class arrive one after the
        # other: a half-updated die is not what the player reads)
        expect(board.locator(".p10-die", has_text="?")).to_have_count(0)
        # no verdict on "your hold" before the player holds anything
        expect(verdict).not_to_contain_text("Yours")
        # the dice in two rows of five, the roll button and the verdict without scrolling
        tops = sorted(
            {round(b["y"]) for b in (d.bounding_box() for d in board.locator(".p10-die").all())}
        )
        assert len(tops) == 2, f"dice rows at {tops}"
        for what in (board.locator(".p10-die-9"), board.locator(".p10-roll"), verdict):
            assert _in_first_screen(page, what), f"{what} is below the first screen"
        _check_layout(page)
        _check_phone_rules(page)
        page.screenshot(path=str(shots / f"app-first-{width}.png"))

        # the lost phase: type a made roll, then Roll here asks before rerolling it
        board.locator(".p10-settings-toggle").click()
        board.locator(".p10-new").click()
        board.locator(".p10-mode button", has_text="Type real dice").click()
        entry = board.locator(".p10-entry input")
        entry.fill(MADE)
        entry.press("Enter")
        expect(board.locator(".p10-stop")).to_have_text(re.compile(r"Stop & score \d+"))
        board.locator(".p10-mode button", has_text="Roll here").click()
        before = _dice(board)
        board.locator(".p10-roll").click()
        ask = board.locator(".p10-confirm")
        expect(ask).to_be_visible()
        expect(ask).to_contain_text("can lose it")
        expect(board.locator(".p10-die", has_text="?")).to_have_count(0)
        _check_phone_rules(page)
        page.screenshot(path=str(shots / f"app-ask-{width}.png"))
        board.locator(".p10-confirm-no").click()
        expect(ask).to_be_hidden()
        assert _dice(board) == before

        # a stop that fails asks first, and Undo takes it back
        board.locator(".p10-stop").click()  # made: scores at once
        expect(advice).to_contain_text("Turn over")
        board.locator(".p10-undo").click()
        expect(advice).not_to_contain_text("Turn over")
        board.locator(".p10-new").click()
        board.locator(".p10-roll").click()
        expect(verdict).to_contain_text("Best:")
        if "fails phase" in board.locator(".p10-stop").inner_text():
            board.locator(".p10-stop").click()
            expect(ask).to_contain_text("fails phase 1")
            board.locator(".p10-confirm-yes").click()
            expect(advice).to_contain_text("not completed")
            expect(board.locator(".p10-undo")).to_have_text("Undo stop")
            board.locator(".p10-undo").click()
            expect(advice).not_to_contain_text("Turn over")
        _check_layout(page)
        _check_phone_rules(page)

        # five computer players: every player's total can be read without scrolling sideways
        page.locator(".p10-tabs .lm-TabBar-tab", has_text="Play a game").click()
        game = page.locator(".p10-app .p10-game").first
        expect(game.locator(".p10-seat").first).to_be_visible()
        while game.locator(".p10-seat").count() < 5:
            n = game.locator(".p10-seat").count()
            game.locator(".p10-add-seat").click()
            expect(game.locator(".p10-seat")).to_have_count(n + 1)
        game.locator(".p10-new-game").click()
        totals = game.locator(".p10-standings .p10-standing-total")
        expect(totals).to_have_count(6)
        assert page.evaluate(HIDDEN_JS, ".p10-standings td") == [], "standings cut off"
        _check_layout(page)
        _check_phone_rules(page)
    if os.environ.get("PHASE10MATH_UPDATE_SCREENSHOT"):
        for name in ("first", "ask"):
            shutil.copy(
                shots / f"app-{name}-{width}.png", ROOT / "docs" / f"app-{name}-{width}.png"
            )


@pytest.mark.parametrize("width", list(FIRST_SCREEN))
def test_a_game_against_one_computer_plays_to_win(app_url, win_game_url, browser, width):
    """A 10-phase game against one computer player starts with the aim "Win the game": in
    the app (the recorded dice, whose whole game ships; at 360 px) and on the compact dice
    the chance to win shows atop the advice from the first turn, and after a roll the hold
    that plays to win: the stars mark it and Hold best holds it."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    shots = artifacts()
    if width == "small":  # the app itself at the narrowest width
        with _app_page(app_url, browser, FIRST_SCREEN[width]) as page:
            page.locator(".p10-tabs .lm-TabBar-tab", has_text="Play a game").click()
            game = page.locator(".p10-app .p10-game").first
            expect(game.locator(".p10-seat")).to_have_count(2)
            game.locator(".p10-remove-seat").click()
            expect(game.locator(".p10-seat")).to_have_count(1)
            game.locator(".p10-new-game").click()
            board = game.locator(".p10-turn")
            settings = board.locator(".p10-settings-toggle")
            expect(settings).to_contain_text("win the game")
            settings.click()
            expect(board.locator(".p10-objective button.mod-active")).to_have_text("Win the game")
            win = board.locator(".p10-advice .p10-win")
            expect(win).to_contain_text(CHANCE_AT_START, timeout=60_000)
            expect(board.locator(".p10-aim-message .p10-note")).to_have_count(0)
            expect(board.locator(".p10-aim-message .p10-refusal")).to_have_count(0)
            board.locator(".p10-roll").click()
            expect(win).to_contain_text(HOLD_TO_WIN)
            expect(board.locator(".p10-verdict").last).to_contain_text("To make the phase:")
            _check_layout(page)
            _check_phone_rules(page)
            page.screenshot(path=str(shots / f"app-win-recorded-{width}.png"), full_page=True)
            # the app scrolls inside its page: the advice with the chance to win, in view
            board.locator(".p10-advice").screenshot(
                path=str(shots / f"app-win-recorded-advice-{width}.png")
            )

    page = browser.new_page(viewport=dict(zip(("width", "height"), FIRST_SCREEN[width])))
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(win_game_url)
        board = page.locator(".p10-game .p10-turn").first
        win = board.locator(".p10-advice .p10-win")
        expect(win).to_contain_text(CHANCE_AT_START, timeout=60_000)
        board.locator(".p10-roll").click()
        # the stars mark the hold to win; the verdict below is the turn's own aim
        expect(win).to_contain_text(HOLD_TO_WIN)
        expect(board.locator(".p10-verdict").last).to_contain_text("To make the phase:")
        # the hold to win as chips; the stars mark its dice; the reasons one tap away
        keep = win.locator(".p10-best-line .p10-chip").count()
        expect(board.locator(".p10-die.p10-suggest")).to_have_count(keep)
        win.locator(".p10-why-win summary").click()
        expect(win.locator(".p10-why-win li").first).to_contain_text(re.compile(r"\d+\.\d%"))
        board.locator(".p10-best").click()  # Hold best: the hold to win
        expect(board.locator(".p10-die.p10-held")).to_have_count(keep)
        expect(win).to_contain_text("Yours: the hold to win")
        _check_layout(page)
        _check_phone_rules(page)
        page.screenshot(path=str(shots / f"app-win-{width}.png"), full_page=True)
    finally:
        page.close()
    if os.environ.get("PHASE10MATH_UPDATE_SCREENSHOT"):
        shutil.copy(shots / f"app-win-{width}.png", ROOT / "docs" / f"app-win-{width}.png")


def test_a_reload_mid_game_restores_it(app_url, browser):
    """Roll and hold in a game, reload the page: the same dice, holds and score sheet."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    with _app_page(app_url, browser, WIDTHS["phone"]) as page:
        expect(page).to_have_url(re.compile(r"[?&]game=[\w-]+"))  # the key is in the address
        page.locator(".p10-tabs .lm-TabBar-tab", has_text="Play a game").click()
        game = page.locator(".p10-app .p10-game").first
        board = game.locator(".p10-turn")
        board.locator(".p10-roll").click()
        expect(board.locator(".p10-verdict")).to_contain_text("Best:")
        board.locator(".p10-die-3").click()
        expect(board.locator(".p10-die-3")).to_have_class(re.compile(r"\bp10-held\b"))
        dice, sheet = _dice(board), game.locator(".p10-scoresheet").inner_text()
        page.reload()
        game = page.locator(".p10-app .p10-game").first
        board = game.locator(".p10-turn")
        expect(board.locator(".p10-die-3")).to_have_class(
            re.compile(r"\bp10-held\b"), timeout=60_000
        )
        assert _dice(board) == dice
        assert game.locator(".p10-scoresheet").inner_text() == sheet
        page.screenshot(path=str(artifacts() / "app-reloaded-phone.png"))


def test_the_smaller_items_on_a_phone(app_url, browser):
    """At 390 px on a touch screen: the page's title, the typed roll opens no keyboard over
    the tap pad (inputmode none) and previews the faces typed as chips, the exact table says
    it scrolls, a refused phase change is told beside the menus, hint mode has no Hold best."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(app_url)
        board = page.locator(".p10-app .p10-turn").first
        expect(board.locator(".p10-roll")).to_be_visible(timeout=60_000)
        expect(page).to_have_title("Phase 10 Dice")
        board.locator(".p10-settings-toggle").click()
        board.locator(".p10-mode button", has_text="Type real dice").click()
        entry = board.locator(".p10-entry input")
        expect(entry).to_have_attribute("inputmode", "none")
        board.locator(".p10-pad", has_text=re.compile(r"^10$")).click()
        board.locator(".p10-pad", has_text=re.compile(r"^o$")).click()
        expect(board.locator(".p10-preview")).to_contain_text("You typed 1 of 10")
        expect(board.locator(".p10-preview .p10-chip")).to_have_count(1)
        board.locator(".p10-mode button", has_text="Roll here").click()
        board.locator(".p10-roll").click()
        expect(board.locator(".p10-verdict")).to_contain_text("Best:")
        board.locator(".p10-details summary").click()
        expect(board.locator(".p10-details .p10-scroll-cue")).to_be_visible()
        board.locator(".p10-phase select").select_option(index=1)
        refusal = board.locator(".p10-settings .p10-settings-message .p10-refusal")
        expect(refusal).to_contain_text("finish this turn first")
        board.locator(".p10-hint button", has_text="Hint mode").click()
        expect(board.locator(".p10-best")).to_be_hidden()
        expect(board.locator(".p10-die.p10-suggest")).to_have_count(0)
        _check_layout(page)
        page.screenshot(path=str(artifacts() / "app-small-items-phone.png"), full_page=True)
    finally:
        context.close()
