"""Helpers of the command-line tests: run ``main`` in-process and read its one-line errors."""

from __future__ import annotations

import io

from phase10math.cli import main


def run(argv, stdin: str | None = None, monkeypatch=None):
    """main(argv) in-process: (exit code, stdout, stderr)."""
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def one_line_error(err: str, code: int) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    return lines[0]
