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
import io
import json
import os
import pickle
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
_MAGIC = b"P10M1"


STALE_TMP_SECONDS = 3600  # a temporary file this old is left over from a killed writer
_WARNED: set[str] = set()
_DEAD: set[str] = set()  # cache folders that could not be used (warned once, then skipped)
_SWEPT: set[str] = set()


def warn(message: str, once: str = "cache") -> None:
    """One line on stderr, at most once per process for the same ``once`` key (by default one
    warning about the cache in all)."""
    key = once
    flag = f"PHASE10MATH_WARNED_{key.upper()}"
    if key in _WARNED or os.environ.get(flag):
        return
    _WARNED.add(key)
    os.environ[flag] = "1"  # worker processes started later do not repeat it
    try:
        print(f"phase10math: warning: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is switched off (``off``, any case)."""
    env = os.environ.get("PHASE10MATH_CACHE_DIR")
    if env is not None and env.strip().lower() in ("off", "none", "0", "false", "no"):
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
    if d is None or str(d) in _DEAD:
        return None
    _sweep(d)
    return d / f"{key}.pkl"


def usable() -> bool:
    """Whether results can be written to the cache folder (creating it if needed); warns once
    and switches the cache off for this process when not."""
    d = cache_dir()
    if d is None or str(d) in _DEAD:
        return False
    try:
        d.mkdir(parents=True, exist_ok=True)
        if not os.access(d, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
    except OSError as exc:
        _disable(d, exc.strerror or str(exc))
        return False
    return True


def _disable(d: Path, why: str) -> None:
    """Stop using cache folder ``d`` for this process, with one warning."""
    _DEAD.add(str(d))
    warn(f"cache folder {str(d)!r} cannot be used ({why}); results are not cached")


def _sweep(d: Path) -> None:
    """Remove temporary files left by writers that were killed (once per process)."""
    if str(d) in _SWEPT:
        return
    _SWEPT.add(str(d))
    try:
        now = time.time()
        for tmp in [*d.glob(".tmp-*.pkl"), *d.glob(".tmp-*.arrays")]:
            try:
                if now - tmp.stat().st_mtime > STALE_TMP_SECONDS:
                    shutil.rmtree(tmp) if tmp.is_dir() else tmp.unlink()
            except OSError:
                pass
    except OSError:
        pass


def _write_checked(fh, payload: bytes) -> None:
    """Write a header, the payload's checksum and the payload to ``fh`` (closed after, synced
    to disk)."""
    with fh:
        fh.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        fh.flush()
        os.fsync(fh.fileno())


def _read_checked(path: Path) -> bytes:
    """The payload of a file written by :func:`_write_checked` (ValueError if damaged)."""
    data = path.read_bytes()
    if not data.startswith(_MAGIC):
        raise ValueError("bad header")
    digest, payload = data[len(_MAGIC) : len(_MAGIC) + 32], data[len(_MAGIC) + 32 :]
    if hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch")
    return payload


def load(key: str) -> Any | None:
    """The cached object, or None if absent or damaged (a damaged file is removed)."""
    path = _path(key)
    try:
        if path is None or not path.exists():
            return None
    except OSError:
        return None
    try:
        return pickle.loads(_read_checked(path))
    except Exception as exc:
        why = "cannot be read" if isinstance(exc, OSError) else "is damaged"
        try:
            path.unlink()
            what = "removed; it is computed again"
        except OSError:
            what = "it could not be removed and is computed again"
        warn(f"cache entry {path.name} {why} ({exc}); {what}")
        return None


def save(key: str, obj: Any) -> None:
    """Write ``obj`` atomically under ``key`` (no-op when caching is off)."""
    path = _path(key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    except OSError as exc:
        _disable(path.parent, exc.strerror or str(exc))
        return
    try:
        _write_checked(os.fdopen(fd, "wb"), pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
    except OSError as exc:  # disk full, read-only, ...: the result is still returned
        _remove(tmp)
        _disable(path.parent, exc.strerror or str(exc))
    except BaseException:
        _remove(tmp)
        raise


def _remove(tmp: str) -> None:
    try:
        if os.path.exists(tmp):
            os.unlink(tmp)
    except OSError:
        pass


def cached(key: str, compute: Callable[[], T]) -> T:
    """Return the cached value for ``key``, computing and saving it when missing."""
    hit = load(key)
    if hit is not None:
        return hit
    value = compute()
    save(key, value)
    return value


# --------------------------------------------------------------------------- large results

LARGE_ARRAY = 1 << 24  # bytes: arrays at least this large are stored as .npy files
DISK_MARGIN = 5 << 30  # bytes (at least; or a tenth of the disk) left free after a large entry


class _ArrayPickler(pickle.Pickler):
    """Pickles an object with its large numpy arrays written beside it as ``.npy`` files
    (each array once, however often it is referred to)."""

    def __init__(self, fh, folder: Path):
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.folder, self.names = folder, {}

    def persistent_id(self, obj):
        if isinstance(obj, np.ndarray) and obj.nbytes >= LARGE_ARRAY:
            name = self.names.get(id(obj))
            if name is None:
                name = self.names[id(obj)] = f"a{len(self.names)}"
                # no fsync for the arrays (gigabytes): the folder appears by an atomic rename
                # after they are written, and a file cut short (power loss) fails to map on
                # loading, which removes the entry
                with open(self.folder / f"{name}.npy", "wb") as fh:
                    np.save(fh, np.ascontiguousarray(obj))
            return ("npy", name)
        return None


class _ArrayUnpickler(pickle.Unpickler):
    def __init__(self, fh, folder: Path):
        super().__init__(fh)
        self.folder, self.arrays = folder, {}

    def persistent_load(self, pid):
        kind, name = pid
        if kind != "npy" or not str(name).isalnum():
            raise pickle.UnpicklingError(f"unknown array reference {pid!r}")
        if name not in self.arrays:  # one mapping per file, however often it is referred to
            self.arrays[name] = np.load(self.folder / f"{name}.npy", mmap_mode="r")
        return self.arrays[name]


def large_bytes(obj: Any) -> int:
    """Bytes of the large numpy arrays reachable through an object's attributes, lists,
    tuples and dicts (what :func:`save_large` writes as ``.npy`` files)."""
    seen: set[int] = set()
    total = 0
    stack = [obj]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, np.ndarray):
            total += x.nbytes if x.nbytes >= LARGE_ARRAY else 0
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif hasattr(x, "__dict__"):
            stack.extend(vars(x).values())
    return total


def save_large(key: str, obj: Any) -> bool:
    """Write ``obj`` under ``key`` with its large arrays as ``.npy`` files (a folder written
    under a temporary name, then renamed: atomic). Skipped, with one warning, when the disk
    would keep less than :data:`DISK_MARGIN` or a tenth of its size free. Returns whether it
    was written."""
    path = _path(key)
    if path is None or not usable():
        return False
    folder = path.with_suffix(".arrays")
    _drop_stale_large(path.parent)
    need = large_bytes(obj)
    try:
        usage = shutil.disk_usage(path.parent)
        free, margin = usage.free, max(DISK_MARGIN, usage.total // 10)
    except OSError:
        free, margin = 0, DISK_MARGIN
    if free - need < margin:
        warn(
            f"a result of {need / 2**30:.1f} GiB is not cached on disk: {free / 2**30:.1f} GiB "
            f"free in {str(path.parent)!r}; it is computed again when needed",
            once="large",
        )
        return False
    tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=".tmp-", suffix=".arrays"))
    try:
        buf = io.BytesIO()
        _ArrayPickler(buf, tmp).dump(obj)
        _write_checked(open(tmp / "object.pkl", "wb"), buf.getvalue())
        (tmp / "code").write_text(code_hash())
        os.rename(tmp, folder)
        return True
    except OSError as exc:  # disk full, another writer was first, ...
        shutil.rmtree(tmp, ignore_errors=True)
        if not folder.exists():
            warn(f"a large result could not be cached ({exc.strerror or exc})", once="large")
        return False
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _drop_stale_large(d: Path) -> None:
    """Remove the large entries written by other versions of the code (their keys can never
    be asked for again, and each is gigabytes)."""
    mine = code_hash()
    try:
        folders = list(d.glob("*.arrays"))
    except OSError:
        return
    for f in folders:
        if f.name.startswith(".tmp-"):
            continue
        try:
            stale = (f / "code").read_text().strip() != mine
        except OSError:
            stale = True
        if stale:
            shutil.rmtree(f, ignore_errors=True)


def load_large(key: str) -> Any | None:
    """An object written by :func:`save_large`, its large arrays memory-mapped read-only (so
    loading is instant and their pages are read, and can be dropped, as they are used), or
    None if absent or damaged (a damaged entry is removed)."""
    path = _path(key)
    if path is None:
        return None
    folder = path.with_suffix(".arrays")
    try:
        if not (folder / "object.pkl").exists():
            return None
    except OSError:
        return None
    try:
        payload = _read_checked(folder / "object.pkl")
        return _ArrayUnpickler(io.BytesIO(payload), folder).load()
    except Exception as exc:
        shutil.rmtree(folder, ignore_errors=True)
        warn(f"cache entry {folder.name} is damaged ({exc}); removed, it is computed again")
        return None
