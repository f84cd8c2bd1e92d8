"""Shared pieces of the browser tests: Debian's Chromium with Playwright, and a Voila server
for one notebook on 127.0.0.1 (always stopped). Without chromium, playwright or voila the
browser tests skip, except when the environment variable ``CI`` is set: then they fail with a
message saying what to install."""

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


def require_browser() -> None:
    """Skip (outside CI) or fail (in CI) when the browser tests cannot run."""
    why = missing()
    if why is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"browser end-to-end test cannot run in CI: {why}", pytrace=False)
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def artifacts() -> Path:
    """Where screenshots go: ``$PHASE10MATH_ARTIFACTS`` (default ``test-artifacts/``)."""
    d = Path(os.environ.get("PHASE10MATH_ARTIFACTS", ROOT / "test-artifacts"))
    d.mkdir(parents=True, exist_ok=True)
    return d


@contextlib.contextmanager
def serve_voila(notebook: Path, log_dir: Path) -> Iterator[str]:
    """Serve ``notebook`` with Voila on 127.0.0.1 and a free port; yield its URL; always stop
    the server."""
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
    ]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
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
