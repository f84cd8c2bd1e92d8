"""One server for a class: the Voila settings shipped with the app (``app/voila.json``), and
the app served as docs/app.md says (``cd app && voila play.ipynb``, which reads
``app/voila.json``) answering ten browser sessions opened at the same moment, each showing
its board and first advice, then each through a turn; once their pages close no kernel
is left: the page that closes with its ``beforeunload`` shuts its kernel down itself (Voila's
shutdown beacon), the others are culled when idle (here after 45 s instead of the
shipped 600, set on the server's command line)."""

from __future__ import annotations

import json
import re
import time

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, ROOT, kernels_of, serve_voila

SESSIONS = 10
# seconds idle before a kernel without a page is culled (the shipped voila.json: 600). A
# page's kernel starts before the page connects to it: on a loaded machine that can take
# longer than 15 s, and a kernel culled then leaves its page without a board
CULL = 45
# seconds: the bound of every wait below (each waits on a condition, never sleeps it out).
# Generous: the test command runs this beside the recorded dice' color solves on the other
# worker, and on a slow day a page took over 120 s to connect to its kernel then
SLACK = 300


def test_voila_settings_shipped_with_the_app():
    cfg = json.loads((ROOT / "app" / "voila.json").read_text())
    mkm = cfg["MappingKernelManager"]
    assert mkm["cull_idle_timeout"] > 0 and mkm["cull_interval"] > 0
    assert mkm["cull_connected"] is False  # a player reading the advice keeps the kernel
    # the page's shutdown beacon is refused without this (403 '_xsrf' argument missing)
    assert cfg["Voila"]["tornado_settings"]["disable_check_xsrf"] is True
    # a class opening the link at once: the kernels' first cells finish late on a loaded
    # server, and with Voila's default (4 s) their output was dropped (blank pages)
    assert cfg["VoilaExecutor"]["iopub_timeout"] >= 120
    assert cfg["VoilaExecutor"]["startup_timeout"] >= 120


def _wait(condition, seconds: float, what: str, pause=lambda: time.sleep(0.25)) -> float:
    """Poll ``condition`` until it holds; the seconds it took (fails after ``seconds``).
    ``pause``: how to wait between polls (while a browser is open, its own wait, so that
    Playwright goes on handling the pages' events meanwhile)."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            pytest.fail(f"{what}: not within {seconds:.0f} s")
        pause()
    return time.monotonic() - start


def _kernel_ids(log: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, log))


@pytest.mark.browser
def test_ten_sessions_answer_and_leave_no_kernel(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=SLACK * 1000)
    extra = [
        f"--MappingKernelManager.cull_idle_timeout={CULL}",
        "--MappingKernelManager.cull_interval=1",
    ]
    t0 = time.monotonic()
    with serve_voila(ROOT / "app" / "play.ipynb", tmp_path, extra, cwd=ROOT / "app") as url:
        server = serve_voila.proc.pid
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                contexts = [
                    browser.new_context(viewport={"width": 390, "height": 844})
                    for _ in range(SESSIONS)
                ]
                pages = [c.new_page() for c in contexts]
                boards = [page.locator(".p10-app .p10-turn").first for page in pages]
                # the ten open at the same moment (each gets its own kernel) and all stay
                # open: every page shows its board and the first advice
                for page in pages:
                    page.set_default_timeout(SLACK * 1000)
                    page.goto(url, wait_until="commit")
                for board in boards:
                    expect(board.locator(".p10-advice")).to_contain_text("Roll to start")
                    expect(board.locator(".p10-die")).to_have_count(10)
                opened = time.monotonic() - t0
                # a turn in each, all at once: Roll, then Stop (a failing stop asks: Yes)
                for board in boards:
                    board.locator(".p10-roll").click()
                for board in boards:
                    expect(board.locator(".p10-verdict")).to_contain_text("Best:")
                    board.locator(".p10-stop").click()
                for board in boards:
                    yes = board.locator(".p10-confirm-yes:visible")
                    over = board.locator(".p10-advice").filter(has_text="Turn over")
                    expect(yes.or_(over)).to_be_visible()
                    if yes.is_visible():
                        yes.click()
                    expect(over).to_be_visible()
                answered = time.monotonic() - t0
                assert len(kernels_of(server)) == SESSIONS  # one kernel per session
                # one player closes the tab: its beforeunload sends the shutdown beacon (and
                # may ask "leave the page?": the player says yes)
                pages[0].on("dialog", lambda dialog: dialog.accept())
                with pages[0].expect_event("close"):
                    pages[0].close(run_before_unload=True)
                _wait(
                    lambda: len(kernels_of(server)) < SESSIONS,
                    CULL + SLACK,
                    "a kernel to go",
                    pause=lambda: pages[1].wait_for_timeout(250),
                )
                for c in contexts:  # the others go without a beacon (a phone asleep)
                    c.close()
            finally:
                browser.close()
        closed = time.monotonic()
        _wait(lambda: not kernels_of(server), CULL + SLACK, "every kernel to be culled")
        emptied = time.monotonic() - closed
    log = (tmp_path / "voila.log").read_text(errors="replace")
    started = _kernel_ids(log, r"Kernel started: ([0-9a-f-]{36})")
    culled = _kernel_ids(log, r"Culling '[^']*' kernel '[^']*' \(([0-9a-f-]{36})\)")
    shut = _kernel_ids(log, r"Kernel shutdown: ([0-9a-f-]{36})")
    print(
        f"\n{SESSIONS} sessions open after {opened:.1f} s, through a turn after {answered:.1f} s; "
        "no kernel left "
        f"{emptied:.1f} s after the pages closed (culling after {CULL} s idle); "
        f"whole test {time.monotonic() - t0:.1f} s"
    )
    assert "_xsrf" not in log, "a shutdown beacon was refused"
    assert "Timeout waiting for IOPub" not in log
    assert len(started) == SESSIONS and shut >= started
    # the page closed with its beforeunload shut its kernel itself; the others were culled
    assert len(culled) == SESSIONS - 1 and culled < started, f"culled {len(culled)} kernels"
