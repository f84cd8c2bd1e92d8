"""``phase10math card``: the strategy card's JSON against the engine, its PDF pages and HTML,
and the shipped prices against their seeded Monte Carlo checks."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from phase10math.cli.card import card_data, make_card
from phase10math.turn.thumb import shipped_rules
from tests.clirun import one_line_error, run


def test_json_gives_every_phase_with_exact_fractions():
    code, out, _ = run(["card", "--json"])
    assert code == 0
    data = json.loads(out)
    assert sorted(map(int, data["phases"])) == list(range(1, 21))
    for entry in data["phases"].values():
        p = Fraction(entry["complete"]["p_complete"]["fraction"])
        best = Fraction(entry["optimal"]["p_complete"]["fraction"])
        assert 0 < p <= best <= 1
        assert Fraction(entry["cost_points_of_chance"]["fraction"]) == (best - p) * 100


def test_the_card_prices_are_the_engine_prices_of_its_rules():
    """Phase 4 (no colors, cheap): the rule read back from the shipped file, priced now."""
    entry = card_data()["phases"]["4"]
    rule = shipped_rules()["recorded"][4].rule("complete")
    assert rule.steps() == entry["complete"]["words"]
    price = rule.price()
    assert price.p_complete == Fraction(entry["complete"]["p_complete"]["fraction"])
    assert price.e_score == Fraction(entry["complete"]["e_score"]["fraction"])


@pytest.mark.parametrize("layout", ["recorded", "compact"])
def test_every_shipped_price_agrees_with_its_monte_carlo(layout):
    """Each shipped rule's exact P(complete) and E[score] lie within 4.5 standard errors of
    its seeded simulation on physical dice (40 checks: one in 150,000 fails by chance)."""
    for n, item in shipped_rules()[layout].items():
        for aim in ("complete", "score"):
            mc = item.monte_carlo(aim)
            assert mc is not None, (layout, n, aim)
            assert abs(float(item.p_complete(aim)) - mc["p_complete"]) < 4.5 * mc["p_se"]
            e = item.e_score(aim)
            if e is not None:
                assert abs(float(e) - mc["e_score"]) < 4.5 * mc["e_se"], (layout, n, aim)


def test_the_card_as_html_and_two_page_pdfs(tmp_path):
    files = make_card(tmp_path)
    names = sorted(f.name for f in files)
    assert "card.html" in names and "card-a4.pdf" in names and "card-letter.pdf" in names
    page = (tmp_path / "card.html").read_text()
    for n in range(1, 21):
        assert f"Phase {n}:" in page
    for paper in ("a4", "letter"):
        pdf = (tmp_path / f"card-{paper}.pdf").read_bytes()
        assert pdf[:4] == b"%PDF"
        assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 2
        assert (tmp_path / f"card-{paper}-page2.png").stat().st_size > 10_000


def test_the_win_rules_are_in_the_json_and_in_the_box_of_page_2(tmp_path):
    """The card's JSON carries every shipped win rule with its price (the optimum's chance to
    win minus the rule's, each seat); the HTML and page 2 of each PDF show the card rule's
    words and its price in a box."""
    from pypdf import PdfReader

    from phase10math.game.duel.winrules import WIN_RULES

    _, out, _ = run(["card", "--json"])
    win = json.loads(out)["win_rules"]
    assert [r["name"] for r in win["rules"]] == [r.name for r in WIN_RULES]
    for r in win["rules"]:
        for seat in ("first", "second"):
            assert r["price"][seat] == pytest.approx(
                win["optimal"][seat] - r["worth"][seat], abs=1e-15
            )
    main = next(r for r in win["rules"] if r["name"] == win["card_rule"])
    said = f"gives up {100 * main['price']['mean']:.1f} points of chance to win in 100"
    make_card(tmp_path, papers=("a4",))
    page = (tmp_path / "card.html").read_text()
    assert "Playing to win" in page and said in page
    text = " ".join(PdfReader(tmp_path / "card-a4.pdf").pages[1].extract_text().split())
    assert "Playing to win" in text and said in text
    assert "pass their total" in text


def test_without_out_or_json_says_what_to_give():
    code, _, err = run(["card"])
    assert "--out" in one_line_error(err, code)
