"""On-disk cache for long computations.

Entries are keyed by a SHA-256 hash of a JSON description of everything the result
depends on (rules, layout, phase, objective, engine, package version and code fingerprint):
an :class:`EntryKey`, which keeps that description. Every entry carries its identity (its key
and the description, a JSON header under the entry's checksum), which the loader compares
with the request: an entry filed under another name (swapped, renamed, copied from another
cache folder) or whose description was edited answers another question and is damaged. Files
are written atomically (temporary file + ``os.replace``) and carry a checksum; the ``.npy``
arrays of a large entry each carry a hash (xxHash when installed, else BLAKE2b) checked on
their first use in a process. Every byte an answer depends on is checked before it is used:

- an entry proven damaged (wrong header or checksum, cut short, not a regular file, not an
  object of the kind asked for, an identity other than the request's) is removed with one
  warning and computed again;
- an entry that cannot be read *now* (no memory to map it, too many open files, an I/O or a
  permission error) is kept, with one warning, and the result is computed in memory.

The cache lives in ``$PHASE10MATH_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/phase10math``,
else ``~/.cache/phase10math``. Set ``PHASE10MATH_CACHE_DIR=off`` to disable it.

>>> k = cache_key(kind="demo", phase=1)
>>> len(k)
64
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import pickle
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from phase10math._base.files import NotRegularFileError, open_regular
from phase10math.version import package_version

T = TypeVar("T")
_MAGIC = b"P10M2"  # then the checksum, the identity's length (4 bytes), identity, payload


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


class EntryKey(str):
    """A cache key (the hash) that keeps the description it is the hash of, which every entry
    saved under it carries and which the loader compares with the entry's."""

    description: dict[str, Any]

    def __new__(cls, description: dict[str, Any]) -> EntryKey:
        text = json.dumps(description, sort_keys=True, default=str)
        key = super().__new__(cls, hashlib.sha256(text.encode()).hexdigest())
        key.description = json.loads(text)  # as it reads back from the entry's header
        return key


def cache_key(**parts: Any) -> EntryKey:
    """A stable hash of the keyword arguments (JSON, sorted keys), the package version and
    the package's source code, with that description (:class:`EntryKey`)."""
    return EntryKey({"version": package_version(), "code": code_hash(), **parts})


#: names of the description's fields in messages
FIELD_NAMES = {"code": "code fingerprint", "layout": "dice", "version": "package version"}


def _identity_of(key: str) -> dict[str, Any]:
    """What an entry saved under ``key`` carries: the key and its description (none for a
    bare string key)."""
    return {"key": str(key), "description": getattr(key, "description", None)}


def check_identity(key: str, identity: Any) -> None:
    """:class:`DamagedEntryError` naming what differs when an entry's identity (read from
    its header) is not the request's: another key, or a description that differs in a field
    or does not hash to the entry's key (edited)."""
    if not isinstance(identity, dict) or set(identity) != {"key", "description"}:
        raise DamagedEntryError("no identity")
    want, got = getattr(key, "description", None), identity["description"]
    if want is not None:
        if not isinstance(got, dict):
            raise DamagedEntryError("no description of what it answers")
        fields = sorted(f for f in want.keys() | got.keys() if want.get(f) != got.get(f))
        if fields:
            what = ", ".join(FIELD_NAMES.get(f, f) for f in fields)
            raise DamagedEntryError(f"it answers a different {what} than asked for")
    if identity["key"] != str(key):
        raise DamagedEntryError("it is filed under another key than its own")
    if isinstance(got, dict) and EntryKey(got) != identity["key"]:
        raise DamagedEntryError("its description does not match its key")


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


def _write_checked(fh, key: str, payload: bytes) -> None:
    """Write a header, the checksum, the identity of ``key`` (:func:`_identity_of`, JSON)
    and the payload to ``fh`` (closed after, synced to disk)."""
    ident = json.dumps(_identity_of(key), sort_keys=True).encode()
    body = len(ident).to_bytes(4, "big") + ident + payload
    with fh:
        fh.write(_MAGIC + hashlib.sha256(body).digest() + body)
        fh.flush()
        os.fsync(fh.fileno())


def _read_checked(path: Path, key: str) -> bytes:
    """The payload of a file written by :func:`_write_checked` for ``key``:
    :class:`DamagedEntryError` when its header or checksum is wrong, its identity is not
    ``key``'s (:func:`check_identity`) or it is not a regular file, ``OSError`` when it
    cannot be read now."""
    try:
        with open_regular(path) as fh:
            data = fh.read()
    except NotRegularFileError as exc:
        raise DamagedEntryError(exc.strerror) from None
    if not data.startswith(_MAGIC):
        raise DamagedEntryError("bad header")
    digest, body = data[len(_MAGIC) : len(_MAGIC) + 32], data[len(_MAGIC) + 32 :]
    if hashlib.sha256(body).digest() != digest:
        raise DamagedEntryError("checksum mismatch")
    n = int.from_bytes(body[:4], "big")
    try:
        identity = json.loads(body[4 : 4 + n])
    except ValueError:
        raise DamagedEntryError("bad identity") from None
    check_identity(key, identity)
    return body[4 + n :]


class DamagedEntryError(Exception):
    """A cache entry proven damaged: wrong header or checksum, cut short, not a regular file,
    not an object of the expected kind (it is removed and computed again)."""


#: Errors that say nothing about the entry (memory, file handles, I/O, permissions): the entry
#: stays, the command computes in memory.
TRANSIENT = (OSError, MemoryError)
_KEPT: set[str] = set()  # keys whose entry could not be read now: kept, not overwritten


def _damage(exc: BaseException) -> str | None:
    """Why an error while loading an entry proves it damaged, or None when it is transient.
    A payload that passed its checksum but does not load as this code's object is damaged."""
    if isinstance(exc, DamagedEntryError):
        return str(exc)
    if isinstance(exc, NotRegularFileError):
        return exc.strerror
    if isinstance(exc, FileNotFoundError):  # a file missing inside an entry's folder
        return f"{Path(exc.filename or '?').name} missing"
    if isinstance(exc, TRANSIENT):
        return None
    return f"{type(exc).__name__}: {exc}"


def _check_kind(obj: Any, expect: type | tuple[type, ...] | None) -> Any:
    if expect is not None and not isinstance(obj, expect):
        names = expect if isinstance(expect, tuple) else (expect,)
        raise DamagedEntryError(
            f"holds a {type(obj).__name__}, not a {' or '.join(t.__name__ for t in names)}"
        )
    return obj


def _remove_entry(path: Path) -> bool:
    """Remove whatever is at ``path`` (a folder with what is in it, a file, a FIFO, a link)."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)
        else:
            path.unlink()
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _discard(path: Path, why: str) -> None:
    """A damaged entry: removed, with one warning."""
    if _remove_entry(path):
        what = "removed; it is computed again"
    else:
        what = "it could not be removed and is computed again"
    warn(f"cache entry {path.name} is damaged ({why}); {what}")


def _keep(key: str, path: Path, exc: BaseException) -> None:
    """An entry that cannot be read now: kept in place (and not overwritten), one warning."""
    _KEPT.add(key)
    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or "no memory"
    warn(f"cache entry {path.name} cannot be read now ({why}); kept, the result is computed")


def load(key: str, expect: type | tuple[type, ...] | None = None) -> Any | None:
    """The cached object, or None if absent or unusable: a damaged entry (or one that is not
    an ``expect``, when given) is removed with one warning; one that cannot be read now (no
    memory, too many open files, I/O or permission error) is kept, with one warning."""
    path = _path(key)
    if path is None:
        return None
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        _keep(key, path, exc)
        return None
    try:
        return _check_kind(pickle.loads(_read_checked(path, key)), expect)
    except Exception as exc:
        why = _damage(exc)
        if why is None:
            _keep(key, path, exc)
        else:
            _discard(path, why)
        return None


def save(key: str, obj: Any) -> None:
    """Write ``obj`` atomically under ``key`` (no-op when caching is off, and for an entry
    kept because it could not be read)."""
    path = _path(key)
    if path is None or key in _KEPT:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    except OSError as exc:
        _disable(path.parent, exc.strerror or str(exc))
        return
    try:
        _write_checked(
            os.fdopen(fd, "wb"), key, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        )
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


def cached(key: str, compute: Callable[[], T], expect: type | tuple[type, ...] | None = None) -> T:
    """Return the cached value for ``key``, computing and saving it when missing (or not an
    ``expect``, when given)."""
    hit = load(key, expect)
    if hit is not None:
        return hit
    value = compute()
    save(key, value)
    return value


# --------------------------------------------------------------------------- large results

LARGE_ARRAY = 1 << 20  # bytes: arrays at least this large are stored as .npy files (mapped)
BITS_ARRAY = 1 << 24  # entries: a 0/1 array of one-byte integers this long is stored as bits
DISK_MARGIN = 5 << 30  # bytes (at least; or a tenth of the disk) left free after a large entry


_xxhash: Any
try:  # xxHash (about 10 GB/s) when installed, else BLAKE2b (under 1 GB/s)
    _xxhash = importlib.import_module("xxhash")
except ImportError:
    _xxhash = None


def _hasher(algorithm: str | None = None):
    """A new hash object of ``algorithm`` (default: the fastest available); ValueError when
    this one is not available here."""
    algorithm = algorithm or ("xxh3_128" if _xxhash is not None else "blake2b")
    if algorithm == "xxh3_128" and _xxhash is not None:
        return _xxhash.xxh3_128()
    if algorithm == "blake2b":
        return hashlib.blake2b(digest_size=16)
    raise ValueError(f"hash {algorithm!r} is not available (pip install xxhash)")


def _algorithm(h) -> str:
    return "blake2b" if isinstance(h, type(hashlib.blake2b())) else "xxh3_128"


HASH_CHUNK = 1 << 22  # bytes hashed at a time when an array file is checked

# files checked in this process: (device, inode, size, mtime) -> digest (each file is hashed
# on its first use in a process, and not again while it is unchanged)
_VERIFIED: dict[tuple[int, int, int, int], str] = {}


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class _HashingWriter:
    """A write-only file that hashes what goes through it (``numpy.lib.format.write_array``
    then writes the array in chunks of 16 MiB)."""

    def __init__(self, fh):
        self.fh, self.hash, self.size = fh, _hasher(), 0

    def write(self, data) -> int:
        self.hash.update(data)
        self.size += len(data)
        return self.fh.write(data)


def as_bits(a: np.ndarray) -> bool:
    """Whether a large array is stored as bits (:func:`numpy.packbits`; on loading unpacked,
    or kept as bits, :class:`PackedBits`):
    one dimension, one-byte integers or booleans, only 0s and 1s, at least :data:`BITS_ARRAY`
    entries (a 0/1 utility of a color phase: 7.6 MB on disk instead of 60 MB)."""
    return (
        a.ndim == 1
        and a.size >= BITS_ARRAY
        and a.dtype in (np.int8, np.uint8, np.bool_)
        and int(a.min()) >= 0
        and int(a.max()) <= 1
    )


class _ArrayPickler(pickle.Pickler):
    """Pickles an object with its large numpy arrays written beside it as ``.npy`` files
    (each array once, however often it is referred to), each file's size and hash (computed
    while writing) in the reference kept in the pickle; a 0/1 array as its bits
    (:func:`as_bits`)."""

    def __init__(self, fh, folder: Path):
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.folder, self.names = folder, {}

    def persistent_id(self, obj):
        if isinstance(obj, np.ndarray) and obj.nbytes >= LARGE_ARRAY:
            pid = self.names.get(id(obj))
            if pid is None:
                name = f"a{len(self.names)}"
                bits = as_bits(obj)
                data = np.packbits(obj.view(np.uint8)) if bits else np.ascontiguousarray(obj)
                # no fsync for the arrays (gigabytes): the folder appears by an atomic rename
                # after they are written, and a file cut short or altered (power loss, a bad
                # disk) fails its size or hash check on loading, which removes the entry
                with open(self.folder / f"{name}.npy", "wb") as fh:
                    out = _HashingWriter(fh)
                    np.lib.format.write_array(out, data, allow_pickle=False)
                    fh.flush()
                    st = os.fstat(fh.fileno())
                digest = out.hash.hexdigest()
                _VERIFIED[_identity(st)] = digest
                pid = ("npy", name, _algorithm(out.hash), out.size, digest)
                if bits:
                    pid = ("bits", *pid[1:], obj.dtype.str, obj.size)
                self.names[id(obj)] = pid
            return pid
        return None


def _hash_file(fh, size: int, algorithm: str) -> str:
    """The hash of a file's first ``size`` bytes, read in chunks of :data:`HASH_CHUNK` bytes
    (not through a memory map: the pages of a map count in the process's own memory while it
    is mapped, the page cache a read goes through does not); the file's position is put
    back at its start."""
    h = _hasher(algorithm)
    buf = memoryview(bytearray(max(1, min(HASH_CHUNK, size))))
    fh.seek(0)
    left = size
    while left:
        n = fh.readinto(buf[: min(left, len(buf))])
        if not n:
            raise ValueError("the file ends before its size")
        h.update(buf[:n])
        left -= n
    fh.seek(0)
    return h.hexdigest()


def map_array(path: Path, size: int, algorithm: str, digest: str) -> np.memmap:
    """The ``.npy`` file at ``path`` memory-mapped read-only, after checking that it is a
    regular file of ``size`` bytes whose hash is ``digest`` (hashed once per process) and that
    its header describes exactly its data: :class:`DamagedEntryError` otherwise, ``OSError``
    or ``MemoryError`` when it cannot be mapped now."""
    try:
        fh = open_regular(path)
    except NotRegularFileError as exc:
        raise DamagedEntryError(f"{path.name}: {exc.strerror}") from None
    with fh:
        st = os.fstat(fh.fileno())
        if st.st_size != size:
            raise DamagedEntryError(f"{path.name} has {st.st_size:,} bytes, not {size:,}")
        if _VERIFIED.get(_identity(st)) != digest:
            try:
                got = _hash_file(fh, size, algorithm)
            except ValueError as exc:
                raise DamagedEntryError(f"{path.name}: {exc}") from None
            if got != digest:
                raise DamagedEntryError(f"{path.name}: checksum mismatch")
            _VERIFIED[_identity(st)] = digest
        try:
            read = _HEADER_READERS.get(np.lib.format.read_magic(fh))
            if read is None:
                raise ValueError("unknown .npy version")
            shape, fortran, dtype = read(fh)
        except ValueError as exc:
            raise DamagedEntryError(f"{path.name}: bad header ({exc})") from None
        offset = fh.tell()
        n = int(np.prod(shape, dtype=object))
        if dtype.hasobject or offset + n * dtype.itemsize != size:
            raise DamagedEntryError(f"{path.name}: the header does not match the data")
        order = "F" if fortran else "C"
        arr = np.memmap(fh, dtype=dtype, mode="r", offset=offset, shape=shape, order=order)
        arr.file_id = (str(path), st.st_dev, st.st_ino)  # the file checked (read_entries)
        return arr


PAGE = 4096  # bytes: read_entries reads whole pages
GAP = 4  # pages: read_entries reads through gaps of at most this many pages
READ_PAGES = 1024  # pages read into one buffer at a time (4 MiB)


def _read_groups(starts: list[int], ends: list[int], at: list[int]):
    """The runs of pages to read (file pages ``starts[i]:ends[i]``, at ``at[i]`` among the
    pages read) cut into pieces of at most :data:`READ_PAGES` pages, grouped so that a
    group's pages fit one buffer of :data:`READ_PAGES` pages: ``(first page, pieces)``."""
    group: list[tuple[int, int, int]] = []
    size = 0
    for s, e, b in zip(starts, ends, at):
        while s < e:
            step = min(e - s, READ_PAGES - size)
            group.append((s, s + step, b))
            s, b, size = s + step, b + step, size + step
            if size == READ_PAGES:
                yield group[0][2], group
                group, size = [], 0
    if group:
        yield group[0][2], group


def read_entries(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` of a one-dimensional array. Where ``a`` was mapped by :func:`map_array`,
    the pages holding the entries are read from its file (``os.preadv``, consecutive pages
    at once) instead of through the map: a scattered read through a map maps the pages
    around every entry read (the kernel's fault-around, 64 KiB each), which count in the
    process's own memory (PSS) for as long as the file is mapped, while the page cache a
    read goes through does not; the pages go through one buffer of :data:`READ_PAGES`
    pages. Any other array, a file that is no longer the one checked,
    or an index out of range: ``a[idx]``."""
    idx = np.asarray(idx, dtype=np.int64)
    ident = getattr(a, "file_id", None)
    if ident is None or a.ndim != 1 or not len(idx) or idx.min() < 0 or idx.max() >= len(a):
        return np.asarray(a[idx])
    try:
        fd = os.open(ident[0], os.O_RDONLY)
    except OSError:
        return np.asarray(a[idx])
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != ident[1:]:
            return np.asarray(a[idx])
        size = a.dtype.itemsize
        per = max(1, PAGE // size)
        page = idx // per
        wanted = np.zeros((len(a) + per - 1) // per + GAP + 1, dtype=bool)
        wanted[page] = True
        # runs of wanted pages, gaps of at most GAP pages read through (fewer reads)
        pages = np.flatnonzero(wanted)
        cut = np.flatnonzero(np.diff(pages) > GAP + 1) + 1
        starts, ends = pages[np.r_[0, cut]], pages[np.r_[cut - 1, len(pages) - 1]] + 1
        slot = np.zeros(len(wanted), dtype=np.int64)  # each page's place in the runs read
        at = np.r_[0, np.cumsum(ends - starts)]
        for s, e, b in zip(starts.tolist(), ends.tolist(), at[:-1].tolist()):
            slot[s:e] = np.arange(b, b + e - s)
        pos = slot[page] * per + idx % per  # each entry's place in the runs read
        order = np.argsort(pos, kind="stable")
        pos = pos[order]
        out = np.empty(len(idx), dtype=a.dtype)
        buf = np.empty(min(int(at[-1]), READ_PAGES) * per, dtype=a.dtype)
        raw = memoryview(buf).cast("B")
        for first, pieces in _read_groups(starts.tolist(), ends.tolist(), at[:-1].tolist()):
            for s, e, b in pieces:
                into = raw[(b - first) * per * size : (b - first + e - s) * per * size]
                os.preadv(fd, [into], a.offset + s * per * size)
            last = pieces[-1][2] + pieces[-1][1] - pieces[-1][0]
            lo, hi = np.searchsorted(pos, [first * per, last * per])
            out[order[lo:hi]] = buf[pos[lo:hi] - first * per]
        return out
    finally:
        os.close(fd)


_HEADER_READERS = {
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}


class _ArrayUnpickler(pickle.Unpickler):
    def __init__(self, fh, folder: Path, packed: bool = False):
        super().__init__(fh)
        self.folder, self.arrays, self.packed = folder, {}, packed

    def persistent_load(self, pid):
        ok = isinstance(pid, tuple) and (
            (len(pid) == 5 and pid[0] == "npy") or (len(pid) == 7 and pid[0] == "bits")
        )
        if not ok or not str(pid[1]).isalnum():
            raise DamagedEntryError(f"unknown array reference {pid!r}")
        _, name, algorithm, size, digest = pid[:5]
        if name not in self.arrays:  # one mapping per file, however often it is referred to
            a = map_array(self.folder / f"{name}.npy", size, algorithm, digest)
            if pid[0] == "bits":
                a = PackedBits(a, pid[5], pid[6]) if self.packed else _unpack_bits(a, *pid[5:])
            self.arrays[name] = a
        return self.arrays[name]


def _bits_dtype(packed: np.ndarray, dtype: str, n: int) -> np.dtype:
    """The dtype of the 0/1 array of ``n`` entries whose bits are ``packed``
    (:class:`DamagedEntryError` where they do not match)."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise DamagedEntryError(f"unknown dtype {dtype!r}") from None
    if (
        packed.ndim != 1
        or packed.dtype != np.uint8
        or dt.itemsize != 1
        or not 0 <= n <= 8 * len(packed)
    ):
        raise DamagedEntryError("the bits do not match their description")
    return dt


def _unpack_bits(packed: np.ndarray, dtype: str, n: int) -> np.ndarray:
    """The 0/1 array of :func:`as_bits` from its bits (read-only, one byte an entry)."""
    dt = _bits_dtype(packed, dtype, n)
    out = np.unpackbits(np.asarray(packed), count=n).view(dt)  # in memory, not a map
    out.flags.writeable = False
    return out


class PackedBits:
    """A long 0/1 array of :func:`as_bits` kept as its bits (``load_large(packed=True)``):
    ``self[idx]`` reads only the bytes holding the entries asked for (through
    :func:`read_entries`: no page of the map counts in the process's own memory) and
    unpacks them; ``numpy.asarray(self)`` unpacks the whole array (a temporary copy, one
    byte an entry). Read-only, one-dimensional, of the dtype the array was written with."""

    ndim = 1

    def __init__(self, packed: np.ndarray, dtype: str, n: int):
        self.dtype = _bits_dtype(packed, dtype, n)
        self.packed, self.size = packed, int(n)

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def __len__(self) -> int:
        return self.size

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = np.unpackbits(np.asarray(self.packed), count=self.size).view(self.dtype)
        return out if dtype is None else out.astype(dtype)

    def __getitem__(self, idx):
        i = np.asarray(idx)
        if i.size == 0 and i.ndim == 1:
            return np.empty(0, dtype=self.dtype)
        if isinstance(idx, slice) or i.dtype.kind not in "iu":  # slices, masks: unpacked
            return np.asarray(self)[idx]
        i = i.astype(np.int64)
        if i.size and (i.min() < -self.size or i.max() >= self.size):
            raise IndexError(f"index out of range for {self.size:,} entries")
        i = np.where(i < 0, i + self.size, i)
        byte = read_entries(self.packed, (i >> 3).reshape(-1)).reshape(i.shape)
        out = ((byte >> (7 - (i & 7)).astype(np.uint8)) & 1).astype(self.dtype)
        return out[()] if out.ndim == 0 else out


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
            if x.nbytes >= LARGE_ARRAY:
                total += x.size // 8 if as_bits(x) else x.nbytes
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif hasattr(x, "__dict__"):
            stack.extend(vars(x).values())
    return total


def save_large(key: str, obj: Any) -> bool:
    """Write ``obj`` under ``key`` with its large arrays as ``.npy`` files (a folder written
    under a temporary name, then renamed: atomic), each array's hash computed while it is
    written. Skipped, with one warning, when the disk would keep less than
    :data:`DISK_MARGIN` or a tenth of its size free, and when an entry is already there (one
    kept because it could not be read now). Returns whether it was written."""
    path = _path(key)
    if path is None or key in _KEPT or not usable():
        return False
    folder = path.with_suffix(".arrays")
    if os.path.lexists(folder):
        return False
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
        _write_checked(open(tmp / "object.pkl", "wb"), key, buf.getvalue())
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
            with open_regular(f / "code") as fh:
                stale = fh.read(200).decode(errors="replace").strip() != mine
        except (NotRegularFileError, FileNotFoundError, NotADirectoryError):
            stale = True
        except OSError:  # cannot be read now: not proof of anything
            continue
        if stale:
            _remove_entry(f)


def load_large(
    key: str, expect: type | tuple[type, ...] | None = None, packed: bool = False
) -> Any | None:
    """An object written by :func:`save_large`, its large arrays memory-mapped read-only (so
    loading is instant and their pages are read, and can be dropped, as they are used), each
    array file's size, hash and header checked on its first use in this process; None if
    absent or unusable. A damaged entry (or one that is not an ``expect``, when given) is
    removed with one warning; one that cannot be read or mapped now (no memory, too many
    open files, I/O or permission error) is kept, with one warning. ``packed``: a 0/1 array
    stored as bits comes back as :class:`PackedBits` (its bits, unpacked where read), else
    unpacked in memory."""
    path = _path(key)
    if path is None:
        return None
    folder = path.with_suffix(".arrays")
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        _keep(key, folder, exc)
        return None
    try:
        if not stat.S_ISDIR(st.st_mode):
            raise NotRegularFileError(0, "not a folder")
        payload = _read_checked(folder / "object.pkl", key)
        obj = _ArrayUnpickler(io.BytesIO(payload), folder, packed).load()
        return _check_kind(obj, expect)
    except Exception as exc:
        why = _damage(exc)
        if why is None:
            _keep(key, folder, exc)
        else:
            _discard(folder, why)
        return None
