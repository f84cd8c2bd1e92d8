"""One server for a class, checked: the app served as README says (``cd app && voila
play.ipynb``, which reads ``app/voila.json``) answers ten browser sessions at once, each through
a turn, and once their pages close no kernel is left (a page closing with its beforeunload
shuts its kernel at once; the others are culled: here after 10 s instead of the shipped 600 s).

Heavy (ten kernels): ``flock /work/heavy.lock python -m pytest benchmarks/check_class_server.py``
(not part of the test suite: on a loaded two-core machine the ten kernels take minutes to start).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, ROOT, kernels_of, serve_voila  # noqa: E402

pytestmark = pytest.mark.browser
SESSIONS = 10
CULL = 10  # seconds (the shipped voila.json says 600)


def test_ten_sessions_answer_and_leave_no_kernel(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    extra = [
        f"--MappingKernelManager.cull_idle_timeout={CULL}",
        "--MappingKernelManager.cull_interval=2",
    ]
    with serve_voila(ROOT / "app" / "play.ipynb", tmp_path, extra, cwd=ROOT / "app") as url:
        server = serve_voila.proc.pid
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                contexts = [browser.new_context(viewport={"width": 390, "height": 844})]
                contexts += [browser.new_context() for _ in range(SESSIONS - 1)]
                pages = [c.new_page() for c in contexts]
                for page in pages:  # all ten load at once
                    page.goto(url, wait_until="commit", timeout=60_000)
                answered = 0
                for page in pages:
                    board = page.locator(".p10-app .p10-turn").first
                    expect(board.locator(".p10-roll")).to_be_visible(timeout=600_000)
                    board.locator(".p10-roll").click()
                    expect(board.locator(".p10-verdict")).to_contain_text("Best:", timeout=60_000)
                    answered += 1
                assert answered == SESSIONS
                running = len(kernels_of(server))
                assert running >= SESSIONS
                # a page that closes shuts its kernel down at once (its shutdown beacon)
                pages[0].close(run_before_unload=True)
                soon = time.monotonic() + CULL / 2
                while len(kernels_of(server)) >= running and time.monotonic() < soon:
                    time.sleep(0.2)
                shut_at_once = len(kernels_of(server)) < running
                for c in contexts:  # the others close without a beacon: culled when idle
                    c.close()
            finally:
                browser.close()
        deadline = time.monotonic() + CULL + 20
        while kernels_of(server) and time.monotonic() < deadline:
            time.sleep(1)
        left = kernels_of(server)
        assert left == [], f"{len(left)} kernel(s) left after the pages closed"
        assert shut_at_once, "closing a page did not shut its kernel down (shutdown beacon)"
