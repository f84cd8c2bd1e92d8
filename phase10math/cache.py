"""On-disk cache for long computations.

Entries are keyed by a SHA-256 hash of a JSON description of everything the result
depends on (rules, layout, phase, objective, package version). Files are written
atomically (temporary file + ``os.replace``) and carry a checksum, so a damaged or
truncated file is detected, removed and recomputed.

The cache lives in ``$PHASE10MATH_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/phase10math``,
else ``~/.cache/phase10math``. Set ``PHASE10MATH_CACHE_DIR=off`` to disable it.

>>> k = cache_key(kind="demo", phase=1)
>>> len(k)
64
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
_MAGIC = b"P10M1"


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is switched off."""
    env = os.environ.get("PHASE10MATH_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "phase10math"


_CODE_HASH: str | None = None


def code_hash() -> str:
    """A hash of the package's source files: results computed by other code are not reused."""
    global _CODE_HASH
    if _CODE_HASH is None:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
        _CODE_HASH = h.hexdigest()
    return _CODE_HASH


def package_version() -> str:
    """The installed package's version ("unknown" when run from a source tree not installed)."""
    try:
        return importlib.metadata.version("phase10math")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def cache_key(**parts: Any) -> str:
    """A stable hash of the keyword arguments (JSON, sorted keys), the package version and
    the package's source code."""
    text = json.dumps(
        {"version": package_version(), "code": code_hash(), **parts}, sort_keys=True, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key: str) -> Path | None:
    d = cache_dir()
    return None if d is None else d / f"{key}.pkl"


def load(key: str) -> Any | None:
    """The cached object, or None if absent or damaged (a damaged file is removed)."""
    path = _path(key)
    if path is None or not path.exists():
        return None
    try:
        data = path.read_bytes()
        if not data.startswith(_MAGIC):
            raise ValueError("bad header")
        digest, payload = data[len(_MAGIC) : len(_MAGIC) + 32], data[len(_MAGIC) + 32 :]
        if hashlib.sha256(payload).digest() != digest:
            raise ValueError("checksum mismatch")
        return pickle.loads(payload)
    except Exception:
        try:
            path.unlink()
        except OSError:
            pass
        return None


def save(key: str, obj: Any) -> None:
    """Write ``obj`` atomically under ``key`` (no-op when caching is off)."""
    path = _path(key)
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    blob = _MAGIC + hashlib.sha256(payload).digest() + payload
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cached(key: str, compute: Callable[[], T]) -> T:
    """Return the cached value for ``key``, computing and saving it when missing."""
    hit = load(key)
    if hit is not None:
        return hit
    value = compute()
    save(key, value)
    return value
