"""Where the browser tests cannot run they fail saying what to install, and skip only when
asked to (never in CI): the test command leaves no test out silently."""

from __future__ import annotations

import browser
import pytest


@pytest.fixture
def no_chromium(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    for name in ("CI", browser.SKIP_BROWSER):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_without_chromium_the_browser_tests_fail_saying_what_to_install(no_chromium):
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium.*SKIP_BROWSER"):
        browser.require_browser()


def test_they_skip_only_when_asked(no_chromium):
    no_chromium.setenv(browser.SKIP_BROWSER, "1")
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        browser.require_browser()
    no_chromium.setenv("CI", "1")  # never in CI
    with pytest.raises(pytest.fail.Exception):
        browser.require_browser()
