"""Shared pieces of the browser tests: Debian's Chromium with Playwright, and a Voila server
for one notebook on 127.0.0.1 (always stopped). Without chromium, playwright or voila the
browser tests fail with a message saying what to install (the test command runs every test:
none is left out silently), unless the environment variable ``PHASE10MATH_SKIP_BROWSER`` is
set: then they skip, the reason in the run's summary (never in CI, ``CI`` set)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("PHASE10MATH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_TIMEOUT = 40  # seconds for voila to answer


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return (
            f"no Chromium at {CHROMIUM}: install Debian's chromium package "
            "(apt-get install chromium) or set PHASE10MATH_CHROMIUM"
        )
    for mod, pkg in [("playwright", "playwright"), ("voila", "voila")]:
        if importlib.util.find_spec(mod) is None:
            return f"python package {pkg!r} is not installed (pip install -e '.[web]')"
    return None


#: set to skip the browser tests where they cannot run (outside CI)
SKIP_BROWSER = "PHASE10MATH_SKIP_BROWSER"


def require_browser() -> None:
    """Fail when the browser tests cannot run, saying what to install; skip instead where
    :data:`SKIP_BROWSER` is set (not in CI)."""
    why = missing()
    if why is None:
        return
    if os.environ.get(SKIP_BROWSER) and not os.environ.get("CI"):
        pytest.skip(f"{why} ({SKIP_BROWSER} is set)")
    pytest.fail(
        f"the browser end-to-end test cannot run: {why}; or set {SKIP_BROWSER}=1 to skip it",
        pytrace=False,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def artifacts() -> Path:
    """Where screenshots go: ``$PHASE10MATH_ARTIFACTS`` (default ``test-artifacts/``)."""
    d = Path(os.environ.get("PHASE10MATH_ARTIFACTS", ROOT / "test-artifacts"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def kernels_of(pid: int) -> list[int]:
    """The kernel processes (``ipykernel``) whose parent is ``pid`` (read from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid and b"ipykernel" in cmd:
            out.append(int(d.name))
    return out


@contextlib.contextmanager
def serve_voila(
    notebook: Path, log_dir: Path, extra: list[str] | None = None, cwd: Path | None = None
) -> Iterator[str]:
    """Serve ``notebook`` with Voila on 127.0.0.1 and a free port; yield its URL (the server's
    process is ``serve_voila.proc``); always stop the server. ``cwd``: where Voila starts
    (it reads ``voila.json`` there); ``extra``: more command-line options."""
    require_browser()
    port = free_port()
    log = open(log_dir / "voila.log", "w+b")  # noqa: SIM115 - closed below
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",
        *(extra or []),
    ]
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        PHASE10MATH_SAVE_DIR=str(log_dir / "saved"),  # saved games stay with the test
    )
    proc = subprocess.Popen(
        cmd, cwd=cwd or ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env
    )
    serve_voila.proc = proc
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + SERVER_TIMEOUT
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail("voila exited early:\n" + log.read().decode(errors="replace"))
            try:  # any HTTP answer (even 403/404) means the server listens
                with urllib.request.urlopen(url + "api/status", timeout=2):
                    break
            except urllib.error.HTTPError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(
                        f"voila did not answer within {SERVER_TIMEOUT} s:\n"
                        + log.read().decode(errors="replace")[-3000:]
                    )
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
