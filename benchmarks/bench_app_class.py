"""Benchmark: a class opening the app's link at the same moment - N browser pages (default 30)
opened at once on one Voila server started as docs/app.md says (``cd app && voila
play.ipynb``, with the shipped ``app/voila.json``); it waits until every page shows its board
and its first advice ("Roll to start") and prints when the first and the last did, the
median, how many kernels ran, and whether the server's log has "Timeout waiting for IOPub"
(the blank pages of issue 53, with Voila's default executor settings).

Run: ``python benchmarks/bench_app_class.py [--pages 30]``. Heavy (one kernel per page):
run it alone on the machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, kernels_of, serve_voila  # noqa: E402

WAIT = 900  # seconds for the last page


def measure(n: int, tmp: Path) -> tuple[list[float], int, str]:
    from playwright.sync_api import sync_playwright

    with serve_voila(ROOT / "app" / "play.ipynb", tmp, cwd=ROOT / "app") as url:
        server = serve_voila.proc.pid
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                contexts = [
                    browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(n)
                ]
                pages = [c.new_page() for c in contexts]
                t0 = time.monotonic()
                for page in pages:
                    page.goto(url, wait_until="commit", timeout=WAIT * 1000)
                advice = [page.locator(".p10-app .p10-turn .p10-advice").first for page in pages]
                shown: dict[int, float] = {}
                most = 0
                while len(shown) < n and time.monotonic() - t0 < WAIT:
                    for k, a in enumerate(advice):
                        if k not in shown and "Roll to start" in (
                            a.text_content(timeout=WAIT * 1000) if a.count() else ""
                        ):
                            shown[k] = time.monotonic() - t0
                    most = max(most, len(kernels_of(server)))
                    pages[0].wait_for_timeout(500)
            finally:
                browser.close()
    log = (tmp / "voila.log").read_text(errors="replace")
    return sorted(shown.values()), most, log


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=30)
    args = ap.parse_args()
    print(f"{args.pages} pages at once; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        times, kernels, log = measure(args.pages, Path(tmp))
    timeouts = log.count("Timeout waiting for IOPub")
    if times:
        print(
            f"boards with their first advice: {len(times)} of {args.pages}; first after "
            f"{times[0]:.1f} s, median {statistics.median(times):.1f} s, last {times[-1]:.1f} s; "
            f"kernels at most {kernels}; IOPub timeouts in the log: {timeouts}"
        )
    else:
        print(f"no board within {WAIT} s; IOPub timeouts in the log: {timeouts}")
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
