"""A first solve on the command line shows one progress line on a terminal (standard error a
pseudo-terminal here), rewritten in place with the step and an estimate and erased at the
end; nothing when standard error is a pipe or with ``--json``. Each run solves phase 1 on the
compact dice in a fresh process with an empty cache, the line's delay lowered to 0 there (a
real first solve waits a second before it shows)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADVISE = "advise --phase 1 --rolls-left 2 --layout compact 1 1 2 3 5 5 6 7 8 9".split()

RUN = textwrap.dedent(
    """
    import sys
    import phase10math._base.progress
    phase10math._base.progress.DELAY = 0  # show at the first step: the solve here is short
    from phase10math.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def run_advice(
    tmp_path: Path, *extra: str, terminal: bool, argv: list[str] = ADVISE
) -> tuple[int, str, bytes]:
    """(exit code, standard output, standard error's bytes) of a cold advice (or ``argv``);
    standard error is a pseudo-terminal when ``terminal``, else a pipe."""
    env = {**os.environ, "PHASE10MATH_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PHASE10MATH_PROGRESS", None)
    argv = [sys.executable, "-c", RUN, *argv, *extra]
    if not terminal:
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, timeout=600)
        return done.returncode, done.stdout.decode(), done.stderr
    master, slave = pty.openpty()
    with subprocess.Popen(
        argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave
    ) as proc:
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed the terminal (EIO)
                break
            if not chunk:
                break
            err += chunk
        out = proc.stdout.read().decode()
        code = proc.wait(timeout=600)
    os.close(master)
    return code, out, err


def test_a_first_solve_on_a_terminal_shows_one_line_with_an_estimate(tmp_path):
    code, out, err = run_advice(tmp_path, terminal=True)
    assert code == 0, err
    assert "1*" in out  # the advice itself, on standard output
    text = err.decode()
    assert "\n" not in text.replace("\r\n", "")  # one line, rewritten in place
    frames = [f for f in text.split("\r") if f.strip("\x1b[K")]
    assert frames, text
    assert all(f.startswith("advise: phase 1 (complete): ") for f in frames), frames
    assert "first solve, step 1 of 3" in text and "so far" in text
    assert "left" in text or "finishing" in text  # the estimate
    assert text.endswith("\r\x1b[K")  # erased at the end


def test_a_second_answer_from_the_cache_solves_nothing(tmp_path):
    """The second answer reads the cache: no step (its line, drawn here at once because the
    delay is 0, says only the time)."""
    run_advice(tmp_path, terminal=True)
    code, out, err = run_advice(tmp_path, terminal=True)
    assert code == 0 and "1*" in out
    assert b"step" not in err


def test_a_table_of_one_phase_shows_its_solve_on_a_terminal(tmp_path):
    table = "table --layout compact --phases 1 --solve".split()
    code, out, err = run_advice(tmp_path, terminal=True, argv=table)
    assert code == 0 and "P(complete)" in out
    text = err.decode()
    assert "table: phase 1: solve, step 1 of 5" in text and text.endswith("\r\x1b[K"), text
    code, out, err = run_advice(tmp_path / "pipe", terminal=False, argv=table)
    assert code == 0 and "P(complete)" in out and err == b""


def test_no_progress_through_a_pipe(tmp_path):
    code, out, err = run_advice(tmp_path, terminal=False)
    assert code == 0 and "1*" in out
    assert err == b""


def test_no_progress_with_json_on_a_terminal(tmp_path):
    code, out, err = run_advice(tmp_path, "--json", terminal=True)
    assert code == 0 and out.lstrip().startswith("{")
    assert err == b""
