"""ruff keeps the code clean: lint and formatting are part of the test run."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATHS = ["phase10math", "tests", "benchmarks"]


def _ruff(*args):
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    return subprocess.run([exe, *args, *PATHS], cwd=ROOT, capture_output=True, text=True)


def test_ruff_lint_is_clean():
    res = _ruff("check")
    assert res.returncode == 0, res.stdout + res.stderr


def test_ruff_format_is_clean():
    res = _ruff("format", "--check")
    assert res.returncode == 0, res.stdout + res.stderr
