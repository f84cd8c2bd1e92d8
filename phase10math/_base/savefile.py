"""Files that cannot run code: a zip of ``.npy`` arrays read with ``allow_pickle=False``,
one of them a JSON header (the file's kind, its format version and what the writer adds:
the rules, the dice, the code's fingerprint of the game).

The data is a tree of dicts, lists, tuples, sets, numbers, strings, named enums and arrays.
A dict (or set) whose keys are tuples of whole numbers (one level of nested tuples, as the
two-player game's states are) and whose values are all floats, all tuples of floats of one
length or all one-dimensional arrays is stored as columns: the keys as an integer matrix,
the values as a float matrix, in the order the dict had (a table of a million states is
read back in seconds, not as a million objects of JSON). Anything else is JSON in the
header.

A file that is not one of these, or not of the kind asked for, is refused with
:class:`~phase10math.errors.InvalidFileError` (one line), and so is anything that is not a
regular file, before it is opened for reading (a FIFO would block).

>>> import os, tempfile
>>> from enum import IntEnum
>>> class Side(IntEnum):
...     LEFT = 0
...     RIGHT = 1
>>> path = os.path.join(tempfile.mkdtemp(), "t.npz")
>>> data = {"d": {(0, (1, Side.RIGHT), 5): (0.25, 1.0)}, "s": {(1, 2)}, "n": [Side.LEFT]}
>>> write_safe(path, "example", {"rules": "kit"}, data)
>>> head, back = read_safe(path, "example", (Side,))
>>> back == data, head["rules"], repr(next(iter(back["d"]))[1][1])
(True, 'kit', '<Side.RIGHT: 1>')
>>> read_safe(path, "checkpoint")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10math.errors.InvalidFileError: ...t.npz is not a checkpoint (its kind: example)
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any

import numpy as np

from phase10math._base.files import NotRegularFileError, open_regular
from phase10math.errors import InvalidFileError

FORMAT = 1  # the layout of the tree in the header (raised when it changes)
HEADER = "header"  # the array that holds the JSON header (UTF-8 bytes)


def write_safe(
    path: str | os.PathLike, kind: str, header: Mapping[str, Any], data: Any, level: int = 1
) -> None:
    """Write ``data`` (see the module) with ``header`` to ``path`` atomically (a temporary
    file beside it, then renamed: a stop while writing leaves the file before); ``level``:
    the zip's compression (1: fast, for files written often)."""
    arrays: list[np.ndarray] = []
    tree = _encode(data, arrays)
    head = {"kind": kind, "format": FORMAT, **header, "tree": tree}
    raw = np.frombuffer(json.dumps(head).encode(), dtype=np.uint8)
    path = os.fspath(path)
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as zf:
        for name, arr in [(HEADER, raw), *((f"a{i}", a) for i, a in enumerate(arrays))]:
            with zf.open(name + ".npy", "w", force_zip64=True) as fh:
                np.lib.format.write_array(fh, np.ascontiguousarray(arr), allow_pickle=False)
    os.replace(tmp, path)


def read_safe(
    path: str | os.PathLike, kind: str, enums: Iterable[type[IntEnum]] = ()
) -> tuple[dict[str, Any], Any]:
    """``(header, data)`` of a file :func:`write_safe` wrote with this ``kind``; ``enums``:
    the enum classes its data may name. Anything else is refused (:class:`InvalidFileError`,
    one line naming the file)."""
    named = {e.__name__: e for e in enums}
    try:
        with open_regular(path) as fh:
            _check_zip(fh)
            return _read_zip(path, fh, kind, named)
    except InvalidFileError:
        raise
    except NotRegularFileError as e:
        raise InvalidFileError(f"{os.fspath(path)} is {e.strerror}, not a {kind}") from None
    except FileNotFoundError:
        raise InvalidFileError(f"no {kind} {os.fspath(path)}") from None
    except (
        OSError,
        ValueError,
        KeyError,
        TypeError,
        IndexError,
        EOFError,
        zipfile.BadZipFile,
    ) as e:
        # json's and UTF-8's errors among them
        why = f"{type(e).__name__}: {e}".splitlines()[0]
        raise InvalidFileError(f"{os.fspath(path)} is not a {kind} ({why})") from None


def _check_zip(fh: Any) -> None:
    """Refuse a file that is not a zip before numpy reads it (numpy would take it for a
    pickle); an older gzip pickle is named as one."""
    magic = fh.read(4)
    fh.seek(0)
    if magic[:2] == b"\x1f\x8b":
        raise ValueError("a gzip file: a pickle of an older version? Pickles are not read")
    if magic != b"PK\x03\x04":
        raise ValueError("not a zip of arrays")


def _read_zip(
    path: str | os.PathLike, fh: Any, kind: str, named: Mapping[str, type[IntEnum]]
) -> tuple[dict[str, Any], Any]:
    with np.load(fh, allow_pickle=False) as z:
        head = json.loads(bytes(z[HEADER]).decode())
        if not isinstance(head, dict) or head.get("kind") != kind:
            found = head.get("kind") if isinstance(head, dict) else None
            raise InvalidFileError(f"{os.fspath(path)} is not a {kind} (its kind: {found})")
        if head.get("format") != FORMAT:
            raise InvalidFileError(
                f"{os.fspath(path)}: a {kind} of format {head.get('format')}, this code "
                f"reads format {FORMAT}"
            )
        data = _decode(head.pop("tree"), z, named)
    return head, data


# ------------------------------------------------------------------ the tree
def _encode(x: Any, arrays: list[np.ndarray]) -> Any:
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, IntEnum):
        return {"enum": type(x).__name__, "value": int(x)}
    if isinstance(x, (int, float, np.integer, np.floating)):
        return x.item() if isinstance(x, np.generic) else x
    if isinstance(x, np.ndarray):
        arrays.append(x)
        return {"array": len(arrays) - 1}
    if isinstance(x, list):
        return [_encode(v, arrays) for v in x]
    if isinstance(x, tuple):
        return {"tuple": [_encode(v, arrays) for v in x]}
    if isinstance(x, (set, frozenset, dict)):
        cols = _columns(x, arrays)
        if cols is not None:
            return cols
        if isinstance(x, dict):
            if all(isinstance(k, str) for k in x):
                return {"dict": {k: _encode(v, arrays) for k, v in x.items()}}
            return {"pairs": [[_encode(k, arrays), _encode(v, arrays)] for k, v in x.items()]}
        return {"set": [_encode(v, arrays) for v in x]}
    raise TypeError(f"a {type(x).__name__} cannot be written to a safe file")


def _decode(t: Any, z: Any, enums: Mapping[str, type[IntEnum]]) -> Any:
    if not isinstance(t, (dict, list)):
        return t
    if isinstance(t, list):
        return [_decode(v, z, enums) for v in t]
    if "enum" in t:
        return enums[t["enum"]](t["value"])
    (tag, body), *rest = t.items()
    if rest:
        raise ValueError(f"a node of {len(t)} entries")
    if tag == "array":
        return z[f"a{int(body)}"]
    if tag == "tuple":
        return tuple(_decode(v, z, enums) for v in body)
    if tag == "dict":
        return {str(k): _decode(v, z, enums) for k, v in body.items()}
    if tag == "pairs":
        return {_decode(k, z, enums): _decode(v, z, enums) for k, v in body}
    if tag == "set":
        return {_decode(v, z, enums) for v in body}
    if tag == "columns":
        return _from_columns(body, z, enums)
    raise ValueError(f"an unknown node {tag!r}")


# ------------------------------------------------------------------ columns
def _signature(key: Any) -> tuple[tuple[int, ...], tuple] | None:
    """A key's shape (each entry: -1 a whole number, n a tuple of n whole numbers) and the
    enum class of each flat column (None: a plain number); None: not such a key."""
    if type(key) is not tuple:
        return None
    shape, kinds = [], []
    for x in key:
        items = x if type(x) is tuple else (x,)
        for v in items:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                return None
            kinds.append(type(v) if isinstance(v, IntEnum) else None)
        shape.append(len(x) if type(x) is tuple else -1)
    return tuple(shape), tuple(kinds)


def _value_kind(v: Any) -> tuple | None:
    if isinstance(v, float):
        return ("float",)
    if type(v) is tuple and v and all(isinstance(e, float) for e in v):
        return ("tuple", len(v))
    if isinstance(v, np.ndarray) and v.ndim == 1 and v.dtype.kind in "fiu":
        return ("array", len(v), v.dtype.str)
    return None


def _columns(x: set | frozenset | dict, arrays: list[np.ndarray]) -> dict | None:
    """``x`` as columns (see the module), or None where its keys or values do not fit."""
    if not x:
        return None
    is_set = not isinstance(x, dict)
    groups: dict[tuple, list] = {}
    order: list[int] = []
    for k, v in ((k, None) for k in x) if is_set else x.items():
        sig = _signature(k)
        vk = ("none",) if is_set else _value_kind(v)
        if sig is None or vk is None:
            return None
        g = groups.setdefault((sig[0], vk), [len(groups), sig[1], [], []])
        g[2].append([e for item in k for e in (item if type(item) is tuple else (item,))])
        g[3].append(v)
        order.append(g[0])
    out = []
    for (shape, vk), (_, kinds, keys, vals) in groups.items():
        arrays.append(np.array(keys, dtype=np.int64))
        entry: dict[str, Any] = {"shape": list(shape), "keys": len(arrays) - 1}
        entry["enums"] = [None if k is None else k.__name__ for k in kinds]
        entry["values"] = list(vk)
        if vk[0] != "none":
            dtype = np.dtype(vk[2]) if vk[0] == "array" else np.float64
            arrays.append(np.array(vals, dtype=dtype))
            entry["column"] = len(arrays) - 1
        out.append(entry)
    body: dict[str, Any] = {"set": is_set, "groups": out, "order": None}
    if len(groups) > 1:
        arrays.append(np.array(order, dtype=np.int32))
        body["order"] = len(arrays) - 1
    return {"columns": body}


def _from_columns(body: Mapping[str, Any], z: Any, enums: Mapping[str, type[IntEnum]]) -> Any:
    parts = []
    for g in body["groups"]:
        keys = z[f"a{int(g['keys'])}"]
        cols = [None if e is None else enums[e] for e in g["enums"]]
        if keys.ndim != 2 or keys.shape[1] != len(cols):
            raise ValueError("the keys' columns do not match their shape")
        rows = [
            [v if c is None else c(v) for v, c in zip(r, cols, strict=True)] for r in keys.tolist()
        ]
        made = [_rebuild(g["shape"], r) for r in rows]
        kind = g["values"][0]
        if kind == "none":
            vals: list[Any] = [None] * len(made)
        else:
            col = z[f"a{int(g['column'])}"]
            if len(col) != len(made):
                raise ValueError("a column of values does not match its keys")
            vals = list(col) if kind == "array" else col.tolist()
            if kind == "tuple":
                vals = [tuple(v) for v in vals]
        parts.append(iter(zip(made, vals, strict=True)))
    if body["order"] is None:
        pairs: Iterable = parts[0]
    else:
        pairs = (next(parts[i]) for i in z[f"a{int(body['order'])}"].tolist())
    if body["set"]:
        return {k for k, _ in pairs}
    return dict(pairs)


def _rebuild(shape: list[int], row: list[Any]) -> tuple:
    out, i = [], 0
    for n in shape:
        if n < 0:
            out.append(row[i])
            i += 1
        else:
            out.append(tuple(row[i : i + n]))
            i += n
    return tuple(out)
