"""Benchmark: the memory of one Voila server for a class - the server's total PSS (its own
process and every kernel; PSS shares each shared page among the processes that map it, so the
sum is what the machine really holds) with 1, 10 and 30 browser sessions, each through a roll.

Run: ``python benchmarks/bench_app_memory.py [--sessions 1 10 30] [--phase 1] [--layout
recorded] [--win]``; it starts the app as docs/app.md says (``cd app && voila play.ipynb``),
opens the sessions in Debian's Chromium (Playwright contexts), rolls once in each (on the
phase and dice set given: phase 8 on the recorded dice is the heavy case; ``--win``: a game
against one computer player under the aim "Win the game", its two-player table loaded) and
prints, per count, the server's and the kernels' PSS and the PSS per session. Heavy: run it
under ``flock /work/heavy.lock``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, kernels_of, serve_voila  # noqa: E402

from phase10math import cache  # noqa: E402
from phase10math.dice.layouts import get_layout  # noqa: E402
from phase10math.dice.phases import PHASES  # noqa: E402
from phase10math.dice.rules import DEFAULT_RULES, Objective  # noqa: E402
from phase10math.play.widgets import LAYOUT_LABELS  # noqa: E402
from phase10math.turn import tables  # noqa: E402
from phase10math.turn.solver import TurnSolution  # noqa: E402


def memory_mb(pid: int, field: str = "Pss") -> float:
    """The proportional set size (``Pss``) or the resident set size (``Rss``) of one
    process, in MB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mb(pid: int) -> float:
    return memory_mb(pid, "Pss")


def play_to_win(board_page) -> None:
    """In one page: the game tab against one computer player (the aim "Win the game", its
    two-player table loaded), a roll, the hold to win shown."""
    from playwright.sync_api import expect

    board_page.locator(".p10-tabs .lm-TabBar-tab", has_text="Play a game").click()
    game = board_page.locator(".p10-app .p10-game").first
    game.locator(".p10-remove-seat").click()
    expect(game.locator(".p10-seat")).to_have_count(1)
    game.locator(".p10-new-game").click()
    board = game.locator(".p10-turn")
    expect(board.locator(".p10-advice .p10-win")).to_contain_text("Chance to win", timeout=600_000)
    board.locator(".p10-roll").click()
    expect(board.locator(".p10-advice .p10-win")).to_contain_text("Best to win", timeout=600_000)


def measure(
    n: int, phase: int, layout: str, tmp: Path, win: bool = False
) -> tuple[float, float, int, float, float]:
    from playwright.sync_api import expect, sync_playwright

    with serve_voila(ROOT / "app" / "play.ipynb", tmp, cwd=ROOT / "app") as url:
        server = serve_voila.proc.pid
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                pages = [browser.new_context().new_page() for _ in range(n)]
                t = time.monotonic()
                boards = [page.locator(".p10-app .p10-turn").first for page in pages]
                # two at a time (as tests/play/test_app_class.py): ten pages loading at once
                # on a busy two-core machine can take minutes to connect to their kernels
                for k in range(0, n, 2):
                    for page in pages[k : k + 2]:
                        page.goto(url, wait_until="commit", timeout=120_000)
                    for board in boards[k : k + 2]:
                        expect(board.locator(".p10-roll")).to_be_visible(timeout=300_000)
                for page, board in zip(pages, boards):
                    if win:
                        play_to_win(page)
                        continue
                    if phase != 1 or layout != "recorded":
                        board.locator(".p10-settings-toggle").click()
                    if layout != "recorded":
                        board.locator(".p10-layout select").select_option(
                            label=LAYOUT_LABELS[layout]
                        )
                    if phase != 1:
                        board.locator(".p10-phase select").select_option(
                            label=f"Phase {phase}: {PHASES[phase].text}"
                        )
                        # the kernel has taken the new phase (loaded from the cache) before
                        # the roll: a click sent while it is busy may meet a disabled button
                        expect(board).to_contain_text(
                            f"Phase {phase}: {PHASES[phase].text} — press Roll", timeout=600_000
                        )
                    board.locator(".p10-roll").click()
                    expect(board.locator(".p10-verdict")).to_contain_text("Best:", timeout=600_000)
                took = time.monotonic() - t
                kernels = kernels_of(server)
                rss = sum(memory_mb(k, "Rss") for k in kernels)  # shared pages counted again
                return pss_mb(server), sum(pss_mb(k) for k in kernels), len(kernels), took, rss
            finally:
                browser.close()


def not_cached(phase: int, layout: str) -> str | None:
    """Why the sessions cannot start on this phase now: a heavy phase whose solution is not in
    the result cache (every kernel would solve it, gigabytes each), else None."""
    lay = get_layout(layout)
    if not tables.heavy_phase(phase, DEFAULT_RULES, lay):
        return None
    key = tables.turn_key(PHASES[phase], Objective.COMPLETE, DEFAULT_RULES, lay)
    if cache.load_large(key, TurnSolution) is not None or cache.load(key, TurnSolution):
        return None
    return (
        f"phase {phase} on the {layout} dice is not in the result cache "
        f"({cache.cache_dir()}): run `phase10math table --phases {phase} --solve` first"
    )


def main() -> None:
    import tempfile

    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30])
    ap.add_argument("--phase", type=int, default=1)
    ap.add_argument("--layout", default="recorded", choices=["recorded", "compact"])
    ap.add_argument(
        "--win", action="store_true", help="each session plays a game to win (recorded dice)"
    )
    args = ap.parse_args()
    why = not_cached(args.phase, args.layout)
    if why is not None:
        print(why, file=sys.stderr)
        raise SystemExit(2)
    what = "a game to win" if args.win else f"phase {args.phase}, {args.layout} dice"
    print(f"{what}; load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'sessions':>8} {'kernels':>7} {'server MB':>9} {'kernels MB':>10} {'total MB':>9} "
        f"{'MB/session':>10} {'kernels RSS MB':>14} {'all answered in':>15}"
    )
    for n in args.sessions:
        with tempfile.TemporaryDirectory() as tmp:
            server, kern, k, took, rss = measure(n, args.phase, args.layout, Path(tmp), args.win)
        total = server + kern
        print(
            f"{n:>8} {k:>7} {server:>9.0f} {kern:>10.0f} {total:>9.0f} {total / n:>10.0f} "
            f"{rss:>14.0f} {took:>13.1f} s",
            flush=True,
        )
    print(
        "PSS (proportional set size) shares each shared page among the processes that map it:\n"
        "the total is what the machine holds; the kernels' RSS sum counts shared pages again\n"
        f"(load average now {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
