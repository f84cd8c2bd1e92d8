"""The one progress helper: quiet when switched off or when nobody watches, a tqdm bar otherwise,
and every long computation of the kit goes through it."""

import io
import sys
from pathlib import Path

import pytest

from phase10math._base import progress
from phase10math._base.progress import QuietBar, progress_bar, progress_enabled

ROOT = Path(__file__).resolve().parents[2] / "phase10math"


@pytest.mark.parametrize("value", ["off", "OFF", "0", "no", "false"])
def test_env_off_silences_even_in_a_terminal(monkeypatch, value):
    monkeypatch.setenv("PHASE10MATH_PROGRESS", value)
    monkeypatch.setattr(progress, "_interactive", lambda: True)
    assert not progress_enabled()
    assert isinstance(progress_bar(total=3), QuietBar)


def test_env_on_draws_a_tqdm_bar(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_PROGRESS", "on")
    monkeypatch.setattr(progress, "_interactive", lambda: False)
    bar = progress_bar(total=2, desc="x", file=io.StringIO())
    assert not isinstance(bar, QuietBar)
    bar.update()
    bar.close()


def test_unset_follows_interactivity_and_the_callers_request(monkeypatch):
    monkeypatch.delenv("PHASE10MATH_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "_interactive", lambda: False)
    assert not progress_enabled()
    monkeypatch.setattr(progress, "_interactive", lambda: True)
    assert progress_enabled() and not progress_enabled(requested=False)
    assert isinstance(progress_bar(total=1, enabled=False), QuietBar)


def test_not_a_tty_and_no_kernel_is_not_interactive(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert not progress._interactive()


def test_quiet_bar_has_the_methods_the_kit_uses():
    with QuietBar(total=2) as bar:
        bar.update(2)
        bar.set_postfix(states=3, refresh=False)
        bar.set_description("d")
    assert bar.n == 2
    assert list(QuietBar(range(3))) == [0, 1, 2] and list(QuietBar()) == []
    # every method the package calls on a bar (found in the source), e.g. set_postfix_str in
    # optimal solitaire, which once failed with PHASE10MATH_PROGRESS=off
    import re

    called = {m for p in ROOT.rglob("*.py") for m in re.findall(r"\bbar\.(\w+)\(", p.read_text())}
    assert "set_postfix_str" in called and "update" in called
    assert all(callable(getattr(QuietBar(), m, None)) for m in called), called


def test_the_phase_table_writes_nothing_when_quiet(monkeypatch, capsys):
    monkeypatch.setenv("PHASE10MATH_PROGRESS", "off")
    from phase10math.turn.tables import phase_table

    phase_table([1], show_progress=True, workers=1)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_tqdm_is_created_in_one_place_only():
    users = [
        p.relative_to(ROOT).as_posix()
        for p in ROOT.rglob("*.py")
        if "tqdm" in p.read_text() and "import tqdm" in p.read_text()
    ]
    assert users == ["_base/progress.py"]
