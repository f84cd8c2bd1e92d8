"""The command line's error paths: standard output closed or full, a FIFO as a layout file,
exact values past Python's int-to-string limit, colorless faces in --keep, the handouts'
arguments. Each ends with a clear message and exit code, never an internal error or a hang."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from phase10math import cli
from phase10math.exact import Exact, from_json, int_text, show, to_json

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "phase10math", *args], env=env, timeout=60, **kwargs
    )


CHECK = ["check", "--phase", "1", "8", "8", "8", "10", "10", "10", "1", "2", "3", "4"]


def test_closed_stdout_is_one_line_and_exit_74():
    out = run(
        CHECK,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
    )
    assert out.returncode == cli.EXIT_OUTPUT
    assert out.stderr == "phase10math: error: standard output is closed; nothing can be printed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [CHECK, ["--version"], ["--help"]])
def test_full_stdout_is_one_line_and_exit_74(args):
    with open("/dev/full", "w") as full:
        out = run(args, stdout=full, stderr=subprocess.PIPE, text=True)
    assert out.returncode == cli.EXIT_OUTPUT
    assert out.stderr == "phase10math: error: cannot write the output (No space left on device)\n"


def test_the_command_still_prints_normally_and_a_closed_pipe_is_quiet():
    out = run(CHECK, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout and out.stderr == ""
    r, w = os.pipe()
    os.close(r)  # nobody reads: a closed pipe
    try:
        out = run(CHECK, stdout=w, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(w)
    assert (out.returncode, out.stderr) == (0, "")


def test_in_process_a_full_or_missing_stdout_is_exit_74(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", None)
    assert cli.main(CHECK) == cli.EXIT_OUTPUT
    if os.path.exists("/dev/full"):
        full = open("/dev/full", "w")
        monkeypatch.setattr(sys, "stdout", full)
        assert cli.main(CHECK) == cli.EXIT_OUTPUT
        assert sys.stdout is full  # given back as it was
        with contextlib.suppress(OSError):  # what is still buffered cannot be written either
            full.close()
    assert "cannot write the output" in capsys.readouterr().err


def test_a_fifo_as_layout_file_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "dice.txt"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    assert cli.main(["layout", "--layout", str(fifo)]) == 2
    assert time.monotonic() - t0 < 10
    assert "not a regular file (a FIFO)" in capsys.readouterr().err


# --------------------------------------------------------------------------- long exact values


def test_exact_values_past_the_int_to_string_limit():
    big = Fraction(3**10000 + 1, 7**6000)  # 4,772 and 5,071 digits
    assert sys.get_int_max_str_digits() and len(int_text(big.numerator)) > 4300
    d = to_json(big)
    assert from_json(json.loads(json.dumps(d))) == big  # the round trip is exact
    top, bottom = d["fraction"].split("/")
    assert Fraction(int(top[-6:]), 1) == (3**10000 + 1) % 10**6
    assert len(bottom) == len(str(7**6000 // 10**3000)) + 3000
    assert show(big).endswith(f"({float(big):.6f})")
    assert show(big).startswith(top[:20])
    assert str(Exact(big)).endswith(f"{len(top) + len(bottom)} digits: see .fraction)")


# --------------------------------------------------------------------------- argument checks


def test_keep_without_colors_names_the_same_hold(capsys):
    roll = ["10r", "10g", "8", "8", "8", "5", "1", "2", "3", "4"]
    base = ["advise", "--phase", "1", "--rolls-left", "1", "--json"]
    values = []
    for keep in ("10r 10g", "10 10", "10g 10"):
        assert cli.main([*base, "--keep", keep, *roll]) == 0
        values.append(json.loads(capsys.readouterr().out)["your_hold"]["value"])
    assert values[0] == values[1] == values[2]
    assert cli.main([*base, "--keep", "10 10 10", *roll]) == 2  # still refused: only two
    assert "cannot keep" in capsys.readouterr().err


def test_handouts_refuse_an_empty_out_and_a_damaged_notebook(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["handouts", "--out", "", "--no-pdf"]) == 2
    assert "--out is empty" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    nbs = tmp_path / "nbs"
    nbs.mkdir()
    (nbs / "lesson.ipynb").write_text('{"cells": [')
    code = cli.main(
        ["handouts", "--out", str(tmp_path / "out"), "--no-pdf", "--notebooks", str(nbs)]
    )
    assert code == 2
    assert "lesson.ipynb is not a readable notebook" in capsys.readouterr().err
