"""Screenshots of the play app for docs/app.md: the board in Chromium at 360, 390 and 1280 px,
in the scenes a player meets - the win advice with a made phase ("roll again for points"), a
made phase under each aim, roll 2 (a hold carried over, not judged yet), and hint mode after
"Check my hold" (the rule of thumb's hold beside the best, and its cost on this roll).

Run: ``python tools/app_screenshots.py [--out docs] [--scenes ...] [--widths ...]``. It serves a
notebook that builds each scene in Python (``?scene=NAME`` in the address) with Voilà and
saves ``app-<scene>-<width>.png`` (the board, as far as the advice's verdict).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, serve_voila  # noqa: E402

WIDTHS = {360: 740, 390: 844, 1280: 900}
SCENES = ("win-made", "made-complete", "made-score", "roll2", "thumb-check")

CELL = """
import os, urllib.parse
import ipywidgets
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.play.game_widget import GameWidget
from phase10math.play.turn_widget import TurnWidget

scene = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", "")).get("scene", ["win-made"])[0]


def made_and_rolling_best(t):
    for seed in range(80):
        t.state.new_turn()
        t.state.rng.seed(seed)
        t.refresh()
        t.roll_button.click()
        if t.state.made_now() is not None and t.best_move()[0] == "hold":
            return


if scene == "win-made":
    game = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5)
    made_and_rolling_best(game.turn)
    view = game.view
elif scene == "made-complete":
    t = TurnWidget(phase=1, seed=4)
    t.type_roll("6o 9b 6b 9r 6b 9g Wr 3g Wg 3b")
    t.mode.value = "roll"
    view = t.view
elif scene == "made-score":
    t = TurnWidget(phase=1, objective="score", seed=4)
    made_and_rolling_best(t)
    view = t.view
elif scene == "thumb-check":  # hint mode, checked: the rule of thumb keeps other dice
    t = TurnWidget(phase=3, seed=1)
    t.hint_toggle.value = True
    t.roll()
    t.reveal_button.click()
    view = t.view
else:  # roll 2: the hold of roll 1 carried over, not judged yet
    t = TurnWidget(phase=1, seed=4)
    t.type_roll("4 4 1 2 5 6 7 8 9 10")
    for i in [i for i, f in enumerate(t.state.dice) if f.value == 4]:
        t.click_die(i)
    t.type_roll("1 2 5 6 7 8 9 10")
    t.mode.value = "roll"
    view = t.view
app = ipywidgets.VBox([view])
app.add_class("p10-app")
app
"""


def main() -> None:
    import nbformat
    from playwright.sync_api import expect, sync_playwright

    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--scenes", nargs="+", default=list(SCENES))
    ap.add_argument("--widths", type=int, nargs="+", default=list(WIDTHS))
    args = ap.parse_args()
    out = Path(args.out)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(CELL)]
        nbformat.write(nb, d / "scenes.ipynb")
        with serve_voila(d / "scenes.ipynb", d, cwd=d) as url:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for scene in args.scenes:
                        for width in args.widths:
                            page = browser.new_page(
                                viewport={"width": width, "height": WIDTHS.get(width, 900)}
                            )
                            page.goto(f"{url}?scene={scene}", timeout=300_000)
                            verdict = page.locator(".p10-turn .p10-verdict").first
                            expect(verdict).to_be_visible(timeout=300_000)
                            page.wait_for_timeout(500)
                            path = out / f"app-{scene}-{width}.png"
                            page.screenshot(path=str(path), full_page=True)
                            print(path, flush=True)
                            page.close()
                finally:
                    browser.close()


if __name__ == "__main__":
    main()
