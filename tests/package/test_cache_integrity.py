"""Faults injected into the result cache: a damaged entry never gives a wrong number (one
warning, recomputed, removed), an entry that cannot be read now is never thrown away, and
nothing that is not a regular file blocks or is trusted."""

from __future__ import annotations

import enum
import errno
import hashlib
import json
import mmap
import os
import pickle
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import census
import numpy as np
import pytest

from phase10math import cache
from phase10math._base import files
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import as_phase
from phase10math.dice.rules import DEFAULT_RULES, Objective
from phase10math.turn import tables
from phase10math.turn.solver import solve_turn


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder, and this process as if just started (nothing warned, nothing
    verified, nothing in the memory cache)."""
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    new_process(monkeypatch, ("_WARNED", "_KEPT", "_DEAD", "_SWEPT"))
    return tmp_path


def new_process(monkeypatch, emptied: tuple[str, ...] = ("_WARNED", "_KEPT")):
    """Forget what this process has checked, warned and kept in memory (a second run); the
    cache's sets ``emptied`` emptied."""
    for name in emptied:
        monkeypatch.setattr(cache, name, set())
    monkeypatch.setattr(cache, "_VERIFIED", {})
    monkeypatch.setattr(tables, "_MEMORY", {})
    monkeypatch.setattr(tables, "_HOLDS", {})
    for k in list(os.environ):
        if k.startswith("PHASE10MATH_WARNED_"):
            monkeypatch.delenv(k)


def identity(path: Path) -> dict:
    """The identity an entry's file carries (its key and description)."""
    data = path.read_bytes()[len(cache._MAGIC) + 32 :]
    n = int.from_bytes(data[:4], "big")
    return json.loads(data[4 : 4 + n])


def key_of(path: Path) -> cache.EntryKey | str:
    """The key an entry's file was saved under (with its description when it has one)."""
    ident = identity(path)
    return cache.EntryKey(ident["description"]) if ident["description"] else ident["key"]


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("phase10math: warning")]


# --------------------------------------------------------------------------- large entries


@pytest.fixture
def large(fresh, monkeypatch):
    """Phase 1 on the compact dice stored as a large entry (its arrays as .npy files)."""
    monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
    monkeypatch.setattr(tables, "BIG_ROLLS", 1000)
    sol = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    return fresh / f"{entry_key('turn')}.arrays", sol


def entry_key(kind: str) -> str:
    """The key of phase 1's (compact dice, complete) values ("turn") or best holds ("holds")."""
    return tables.turn_key(
        as_phase(1), Objective.COMPLETE, DEFAULT_RULES, COMPACT_LAYOUT, kind=kind
    )


def test_a_large_solution_is_two_entries_and_its_holds_are_read_alone(large, truth, fresh):
    folder, sol = large
    holds = fresh / f"{entry_key('holds')}.arrays"
    assert sorted(p.name for p in fresh.glob("*.arrays")) == sorted([folder.name, holds.name])
    table = tables.cached_holds(1, "complete", layout=COMPACT_LAYOUT)
    for r in (1, 2):
        assert isinstance(table.arg[r], np.memmap)
        assert np.array_equal(table.arg[r], truth.roll_arg[r])
        assert np.array_equal(sol.roll_arg[r], truth.roll_arg[r])
    # the values entry does not hold the best holds a second time
    stored = [np.load(p) for p in folder.glob("*.npy")]
    for r in (1, 2):
        assert not any(np.array_equal(a, truth.roll_arg[r]) for a in stored)


@pytest.mark.parametrize("damage", ["bytes", "missing"])
def test_damaged_best_holds_are_found_again_from_the_values(
    large, truth, fresh, monkeypatch, capsys, damage
):
    holds = fresh / f"{entry_key('holds')}.arrays"
    npy = sorted(holds.glob("*.npy"))[0]
    if damage == "bytes":
        data = bytearray(npy.read_bytes())
        data[-3] ^= 0x01
        npy.write_bytes(bytes(data))
    else:
        npy.unlink()
    capsys.readouterr()
    new_process(monkeypatch)
    again = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert same_solution(again, truth)
    assert len(warnings(capsys.readouterr().err)) == 1
    # and stored again: the next run reads them without a word
    new_process(monkeypatch)
    table = tables.cached_holds(1, "complete", layout=COMPACT_LAYOUT)
    assert all(np.array_equal(table.arg[r], truth.roll_arg[r]) for r in (1, 2))
    assert warnings(capsys.readouterr().err) == []


@pytest.fixture(scope="module")
def truth():
    """Phase 1 (compact dice) solved without any cache."""
    return solve_turn(as_phase(1), "complete", layout=COMPACT_LAYOUT)


def same_arrays(x: dict, y: dict) -> bool:
    return x.keys() == y.keys() and all(np.array_equal(x[r], y[r]) for r in x)


def same_solution(a, b) -> bool:
    """Equal values and equal arrays of every key, and the same best holds."""
    return (
        (a.value(), a.value2()) == (b.value(), b.value2())
        and len(a.keys) == len(b.keys)
        and all(
            same_arrays(ka.hold_num, kb.hold_num) and same_arrays(ka.roll_num, kb.roll_num)
            for ka, kb in zip(a.keys, b.keys)
        )
        and same_arrays(a.roll_arg, b.roll_arg)
    )


def file_holding(folder: Path, array: np.ndarray) -> Path:
    """The .npy file of an entry whose data is this array."""
    for p in sorted(folder.glob("*.npy")):
        if np.array_equal(np.load(p), array):
            return p
    raise AssertionError("no file holds the array")


def test_a_large_entry_is_memory_mapped_and_right(large, truth):
    folder, sol = large
    assert isinstance(sol.roll_num[0], np.memmap)
    assert same_solution(sol, truth)


@pytest.mark.parametrize("key", ["first", "second"])
@pytest.mark.parametrize("where", ["magic", "header", "first", "middle", "last", "seventh"])
def test_damaged_array_bytes_give_the_right_answer_and_one_warning(
    large, truth, monkeypatch, capsys, key, where
):
    folder, sol = large
    array = sol.keys[0 if key == "first" else 1].roll_num[0]
    npy = file_holding(folder, np.asarray(array))
    data = bytearray(npy.read_bytes())
    start = len(data) - array.nbytes  # where the values begin (after the .npy header)
    if where == "seventh":  # every seventh value altered, the header intact
        values = np.frombuffer(data, dtype=np.int64, offset=start).copy()
        values[::7] += 1
        data[start:] = values.tobytes()
    else:
        pos = {"magic": 1, "header": 20, "first": start, "middle": (start + len(data)) // 2}
        data[pos.get(where, len(data) - 1)] ^= 0x10
    npy.write_bytes(bytes(data))
    capsys.readouterr()
    new_process(monkeypatch)
    again = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert same_solution(again, truth)
    (line,) = warnings(capsys.readouterr().err)
    assert "is damaged" in line and "checksum mismatch" in line
    # replaced by a good entry: the next run uses it without a word
    new_process(monkeypatch)
    third = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert isinstance(third.roll_num[0], np.memmap) and same_solution(third, truth)
    assert warnings(capsys.readouterr().err) == []


@pytest.mark.parametrize("damage", ["cut", "grown", "missing", "fifo", "folder"])
def test_array_file_cut_short_missing_or_not_a_file_is_damage(large, truth, monkeypatch, damage):
    folder, _ = large
    npy = sorted(folder.glob("*.npy"))[1]
    if damage == "cut":
        npy.write_bytes(npy.read_bytes()[:-8])
    elif damage == "grown":
        npy.write_bytes(npy.read_bytes() + b"\0" * 8)
    else:
        npy.unlink()
        if damage == "fifo":
            os.mkfifo(npy)
        elif damage == "folder":
            npy.mkdir()
    new_process(monkeypatch)
    t0 = time.monotonic()
    assert cache.load_large(folder.stem) is None
    assert time.monotonic() - t0 < 5  # a FIFO does not block
    assert not folder.exists()


@pytest.mark.parametrize(
    "code", [errno.ENOMEM, errno.EMFILE, errno.EAGAIN, errno.EIO, errno.EACCES]
)
def test_a_transient_error_keeps_the_large_entry(large, truth, monkeypatch, capsys, code):
    folder, _ = large
    before = sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir())
    new_process(monkeypatch)
    capsys.readouterr()

    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(mmap, "mmap", fail)  # mapping fails (numpy maps through mmap)
    again = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert same_solution(again, truth)  # computed in memory
    (line,) = warnings(capsys.readouterr().err)
    assert "kept" in line and os.strerror(code) in line
    assert sorted((p.name, p.stat().st_mtime_ns) for p in folder.iterdir()) == before


def test_memory_limit_on_mapping_keeps_the_entry(large, fresh):
    """A real ENOMEM: the address space limited (``ulimit -v``) below what the map needs."""
    folder, _ = large
    script = textwrap.dedent(
        f"""
        import resource
        import phase10math.turn.tables
        from phase10math import cache
        cache.LARGE_ARRAY = 1024
        for line in open("/proc/self/status"):
            if line.startswith("VmSize:"):
                used = int(line.split()[1]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 20), used + (1 << 20)))
        filler = []
        try:  # use up what is left so that the next map fails
            while True:
                filler.append(bytearray(1 << 16))
        except MemoryError:
            del filler[-2:]  # room for small objects, not for a map of the arrays
        print(cache.load_large({folder.stem!r}) is None)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PHASE10MATH_CACHE_DIR": str(fresh)},
    )
    assert out.stdout.strip() == "True", out.stderr
    assert "kept" in out.stderr and "damaged" not in out.stderr, out.stderr
    assert (folder / "object.pkl").exists() and len(list(folder.glob("*.npy"))) >= 2


def test_a_large_entry_of_the_wrong_kind_is_damage(large, truth, monkeypatch, capsys):
    folder, _ = large
    key = key_of(folder / "object.pkl")
    cache._remove_entry(folder)
    assert cache.save_large(key, {"roll_num": np.arange(1000)})
    new_process(monkeypatch)
    capsys.readouterr()
    again = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert same_solution(again, truth)
    (line,) = warnings(capsys.readouterr().err)
    assert "holds a dict, not a TurnSolution" in line


def test_a_large_zero_one_array_is_stored_as_bits_and_read_back_equal(fresh, monkeypatch):
    """A long 0/1 array of one-byte integers is written as its bits (an eighth of the bytes)
    and read back equal, of the same dtype and read-only, shared by every reference; any
    other array as it is. A bit file altered on disk is damage (the entry is removed)."""
    monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
    monkeypatch.setattr(cache, "BITS_ARRAY", 4096)
    rng = np.random.default_rng(5)
    ones = (rng.random(10_007) < 0.3).astype(np.int8)
    flags = rng.random(10_001) < 0.5
    small = rng.integers(0, 3, 10_000).astype(np.int8)  # a 2: stored as it is
    obj = {"a": ones, "b": [ones], "c": flags, "d": small}
    assert cache.save_large("bits", obj)
    (folder,) = fresh.glob("*.arrays")
    sizes = sorted(p.stat().st_size for p in folder.glob("*.npy"))
    assert len(sizes) == 3 and sizes[0] < 1400 and sizes[1] < 1400 and sizes[2] > 10_000
    new_process(monkeypatch)
    got = cache.load_large("bits")
    assert got["a"] is got["b"][0]
    for k in "acd":
        assert got[k].dtype == obj[k].dtype and np.array_equal(got[k], obj[k])
        assert not got[k].flags.writeable
    # kept as bits: the entries asked for unpacked from their bytes alone
    kept = cache.load_large("bits", packed=True)
    assert kept["a"] is kept["b"][0] and isinstance(kept["d"], np.ndarray)
    for k in "ac":
        bits, want = kept[k], obj[k]
        assert isinstance(bits, cache.PackedBits) and len(bits) == len(want)
        assert bits.dtype == want.dtype and np.array_equal(np.asarray(bits), want)
        idx = rng.integers(-len(want), len(want), 500)
        assert bits[idx].dtype == want.dtype and np.array_equal(bits[idx], want[idx])
        assert bits[len(want) - 1] == want[-1] and bits[[]].shape == (0,)
        with pytest.raises(IndexError):
            bits[len(want)]
    bit_file = min(folder.glob("*.npy"), key=lambda p: p.stat().st_size)
    data = bytearray(bit_file.read_bytes())
    data[-1] ^= 1
    bit_file.write_bytes(bytes(data))
    new_process(monkeypatch)
    assert cache.load_large("bits") is None and not folder.exists()


def test_the_memory_cache_keeps_the_solutions_asked_for_last(fresh, monkeypatch):
    """A game moves on through the phases: the memory cache keeps the solutions asked for
    last (at most tables.MEMORY_KEEP), one asked for again moves to the end, and one asked
    for after it was dropped is read from the disk cache, equal to the one solved."""
    keep = tables.MEMORY_KEEP
    first = {n: tables.cached_solution(n, layout=COMPACT_LAYOUT) for n in range(1, keep + 3)}
    kept = list(tables._MEMORY.values())
    assert len(kept) == keep and all(a is first[n] for a, n in zip(kept, range(3, keep + 3)))
    again = tables.cached_solution(1, layout=COMPACT_LAYOUT)  # dropped: read from the disk
    assert again is not first[1] and same_solution(again, first[1])
    assert tables.cached_solution(4, layout=COMPACT_LAYOUT) is first[4]  # kept: moved last
    tables.cached_solution(2, layout=COMPACT_LAYOUT)
    kept = list(tables._MEMORY.values())
    assert len(kept) == keep and kept[-2] is first[4] and kept[-3] is again
    assert all(k is not first[n] for k in kept for n in (1, 3, 5))
    # the hold tables alike, at most tables.HOLDS_KEEP of them
    monkeypatch.setattr(tables, "HOLDS_KEEP", 2)
    holds = {n: tables.cached_holds(n, layout=COMPACT_LAYOUT) for n in (1, 2, 3)}
    kept = list(tables._HOLDS.values())
    assert len(kept) == 2 and kept[0] is holds[2] and kept[1] is holds[3]
    again = tables.cached_holds(1, layout=COMPACT_LAYOUT)
    assert again is not holds[1] and same_arrays(again.arg, holds[1].arg)


# --------------------------------------------------------------------------- small entries


def write_entry(folder: Path, key: str, obj) -> None:
    """An entry saved under ``key`` with a valid header, identity and checksum (whatever it
    holds)."""
    cache._write_checked(open(folder / f"{key}.pkl", "wb"), key, pickle.dumps(obj))


def test_a_small_entry_of_the_wrong_kind_is_damage(fresh, truth, monkeypatch, capsys):
    key = tables.turn_key(as_phase(1), Objective.COMPLETE, DEFAULT_RULES, COMPACT_LAYOUT)
    write_entry(fresh, key, {"not": "a solution"})
    for _run in range(2):
        new_process(monkeypatch)
        sol = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
        assert same_solution(sol, truth)
    err = capsys.readouterr().err
    (line,) = warnings(err)  # the first run only: the entry was replaced
    assert "holds a dict, not a TurnSolution" in line


def test_a_table_row_of_the_wrong_kind_is_damage(fresh, monkeypatch, capsys):
    key = tables.solution_key("row", as_phase(1), DEFAULT_RULES, COMPACT_LAYOUT)
    write_entry(fresh, key, ["p_optimal", 1])
    row = tables.phase_row(1, layout=COMPACT_LAYOUT)
    assert row["p_optimal"] == solve_turn(as_phase(1), layout=COMPACT_LAYOUT).value()
    assert len(warnings(capsys.readouterr().err)) == 1


@pytest.mark.parametrize("thing", ["folder", "fifo"])
def test_a_folder_or_fifo_in_place_of_an_entry_is_handled_once(fresh, monkeypatch, capsys, thing):
    key = cache.cache_key(test=thing)
    path = fresh / f"{key}.pkl"
    if thing == "folder":
        path.mkdir()
        (path / "inside").write_text("x")
    else:
        os.mkfifo(path)
    t0 = time.monotonic()
    assert cache.cached(key, lambda: 42) == 42
    assert time.monotonic() - t0 < 5
    assert len(warnings(capsys.readouterr().err)) == 1
    new_process(monkeypatch)
    assert cache.cached(key, lambda: 43) == 42  # the entry written in its place is used
    assert warnings(capsys.readouterr().err) == []


@pytest.mark.parametrize("code", [errno.ENOMEM, errno.EMFILE, errno.EIO, errno.EACCES])
def test_a_transient_error_keeps_the_small_entry(fresh, monkeypatch, capsys, code):
    key = cache.cache_key(test="transient")
    cache.save(key, "stored")
    path = fresh / f"{key}.pkl"
    stamp = path.stat().st_mtime_ns

    def fail(p):
        raise OSError(code, os.strerror(code), str(p))

    monkeypatch.setattr(cache, "open_regular", fail)
    assert cache.cached(key, lambda: "computed") == "computed"
    assert path.stat().st_mtime_ns == stamp  # neither removed nor overwritten
    (line,) = warnings(capsys.readouterr().err)
    assert "kept" in line
    monkeypatch.setattr(cache, "open_regular", files.open_regular)
    assert cache.load(key) == "stored"


def test_memory_error_while_unpickling_keeps_the_entry(fresh, monkeypatch):
    key = cache.cache_key(test="nomem")
    cache.save(key, [1, 2, 3])

    def fail(data):
        raise MemoryError

    monkeypatch.setattr(cache.pickle, "loads", fail)
    assert cache.load(key) is None
    assert (fresh / f"{key}.pkl").exists()


def test_a_file_in_place_of_a_large_entry_is_removed_once(fresh, monkeypatch, capsys):
    key = cache.cache_key(test="large-file")
    (fresh / f"{key}.arrays").write_bytes(b"not a folder")
    assert cache.load_large(key) is None
    assert not (fresh / f"{key}.arrays").exists()
    (line,) = warnings(capsys.readouterr().err)
    assert "not a folder" in line
    new_process(monkeypatch)
    assert cache.load_large(key) is None
    assert warnings(capsys.readouterr().err) == []


# --------------------------------------------------------------------------- identity


def rewrite_identity(path: Path, edit) -> None:
    """Edit the identity an entry's file carries (``edit(identity)`` changes it in place),
    its checksum made valid again: only the identity check can tell."""
    data = path.read_bytes()
    start = len(cache._MAGIC) + 32
    n = int.from_bytes(data[start : start + 4], "big")
    ident = json.loads(data[start + 4 : start + 4 + n])
    edit(ident)
    payload = data[start + 4 + n :]
    text = json.dumps(ident, sort_keys=True).encode()
    body = len(text).to_bytes(4, "big") + text + payload
    path.write_bytes(cache._MAGIC + hashlib.sha256(body).digest() + body)


FIELDS = {  # a field of a turn's description and an edit of it
    "phase": lambda d: d.update(phase="2 sets of 3"),
    "objective": lambda d: d.update(objective="score"),
    "rules": lambda d: d["rules"].update(rolls=2),
    "dice": lambda d: d.update(layout="another layout's fingerprint"),
    "engine": lambda d: d.update(engine="sticky"),
    "code fingerprint": lambda d: d.update(code="0" * 64),
    "kind": lambda d: d.update(kind="holds"),
    "package version": lambda d: d.update(version="0.0.0"),
}


def turn_description() -> dict:
    """What a turn's values entry says it answers (phase 1, compact dice, complete)."""
    return dict(entry_key("turn").description)


def identity_fields() -> list[str]:
    """The fields of an entry's identity, read from what the cache writes for a turn (not
    from :data:`FIELDS`): each is edited and swapped below."""
    return sorted(turn_description())


def another(value):
    """A value of an identity field other than ``value``."""
    return {**value, "rolls": value.get("rolls", 3) - 1} if isinstance(value, dict) else f"{value}+"


@pytest.mark.parametrize("field", identity_fields())
def test_entries_swapped_across_one_identity_field_are_never_trusted(
    fresh, monkeypatch, capsys, field
):
    """Two entries that differ in one field of what they answer, their files swapped (both
    intact, valid checksums): neither is trusted, and the warning names the field."""
    mine = turn_description()
    keys = [cache.EntryKey(mine), cache.EntryKey({**mine, field: another(mine[field])})]
    for k in keys:
        cache.save(k, [k.description[field]])
    swap(*(fresh / f"{k}.pkl" for k in keys))
    name = cache.FIELD_NAMES.get(field, field)
    for k in keys:
        new_process(monkeypatch)
        capsys.readouterr()
        assert cache.cached(k, lambda: ["computed"]) == ["computed"]
        (line,) = warnings(capsys.readouterr().err)
        assert f"it answers a different {name} than asked for" in line, line


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("field", FIELDS)
def test_an_entry_whose_identity_was_edited_is_never_trusted(
    fresh, truth, monkeypatch, capsys, field, size
):
    if size == "large":
        monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
        monkeypatch.setattr(tables, "BIG_ROLLS", 1000)
    tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    path = entry_file(fresh, size)
    rewrite_identity(path, lambda ident: FIELDS[field](ident["description"]))
    new_process(monkeypatch)
    capsys.readouterr()
    sol = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert same_solution(sol, truth)
    (line,) = warnings(capsys.readouterr().err)
    assert f"it answers a different {field} than asked for" in line, line


@pytest.mark.parametrize("size", ["small", "large"])
def test_an_entry_filed_under_another_key_is_never_trusted(fresh, monkeypatch, capsys, size):
    if size == "large":
        monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
        monkeypatch.setattr(tables, "BIG_ROLLS", 1000)
    tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    path = entry_file(fresh, size)
    rewrite_identity(path, lambda ident: ident.update(key="0" * 64))
    new_process(monkeypatch)
    capsys.readouterr()
    sol = tables.cached_solution(1, "complete", layout=COMPACT_LAYOUT)
    assert sol.value() == solve_turn(as_phase(1), layout=COMPACT_LAYOUT).value()
    (line,) = warnings(capsys.readouterr().err)
    assert "filed under another key" in line, line


def test_a_description_that_does_not_hash_to_its_key_is_never_trusted(fresh, capsys):
    key = cache.cache_key(test="bare")
    cache.save(key, 1)
    (path,) = fresh.glob("*.pkl")
    rewrite_identity(path, lambda ident: ident["description"].update(test="edited"))
    assert cache.load(str(key)) is None  # a bare key: the description is checked against it
    assert "does not match its key" in capsys.readouterr().err


def entry_file(folder: Path, size: str) -> Path:
    """The file of phase 1's values entry (compact dice, complete): a pickle, or the object
    of a large entry (whose best holds are an entry of their own beside it)."""
    if size == "large":
        return folder / f"{entry_key('turn')}.arrays" / "object.pkl"
    (path,) = folder.glob("*.pkl")
    return path


def swap(a: Path, b: Path) -> None:
    tmp = a.with_name("swapping")
    a.rename(tmp)
    b.rename(a)
    tmp.rename(b)


@pytest.mark.parametrize("size", ["small", "large", "holds"])
def test_swapped_complete_and_score_entries_are_solved_again(fresh, monkeypatch, capsys, size):
    if size != "small":
        monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
        monkeypatch.setattr(tables, "BIG_ROLLS", 1000)
    want = {o: tables.cached_solution(1, o, layout=COMPACT_LAYOUT) for o in Objective}
    assert want[Objective.COMPLETE].value() != want[Objective.SCORE].value()
    if size == "small":
        swap(*sorted(fresh.glob("*.pkl")))
    else:  # the values entries, or the best holds' entries, of the two objectives
        kind = "turn" if size == "large" else "holds"
        keys = [
            tables.turn_key(as_phase(1), o, DEFAULT_RULES, COMPACT_LAYOUT, kind=kind)
            for o in Objective
        ]
        swap(*(fresh / f"{k}.arrays" for k in keys))
    new_process(monkeypatch)
    capsys.readouterr()
    for _run in range(2):
        for o in Objective:
            got = tables.cached_solution(1, o, layout=COMPACT_LAYOUT)
            assert got.value() == want[o].value()
            table = tables.cached_holds(1, o, layout=COMPACT_LAYOUT)
            for r in (1, 2):
                assert np.array_equal(table.arg[r], want[o].roll_arg[r])
                assert np.array_equal(got.roll_arg[r], want[o].roll_arg[r])
        new_process(monkeypatch)
    lines = warnings(capsys.readouterr().err)
    assert len(lines) == 1 and "a different objective than asked for" in lines[0], lines


def test_a_loop_of_links_in_place_of_an_entry_is_replaced_once(fresh, monkeypatch, capsys):
    key = cache.cache_key(test="loop")
    path = fresh / f"{key}.pkl"
    os.symlink(path, path)
    assert cache.cached(key, lambda: 42) == 42
    (line,) = warnings(capsys.readouterr().err)
    assert "loop of symbolic links" in line and "damaged" in line, line
    new_process(monkeypatch)
    assert cache.cached(key, lambda: 43) == 42  # the entry written in its place is used
    assert warnings(capsys.readouterr().err) == []


# --------------------------------------------------------------------------- every damage


def _flip(offset: int):
    def damage(path: Path, other: Path) -> None:
        data = bytearray(path.read_bytes())
        data[offset] ^= 0xFF
        path.write_bytes(bytes(data))

    return damage


def _replace_with(make):
    def damage(path: Path, other: Path) -> None:
        path.unlink()
        make(path, other)

    return damage


#: Every kind of damage to a small entry (``other``: a valid entry of another request).
DAMAGE = {
    "cut in half": lambda p, o: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
    "empty": lambda p, o: p.write_bytes(b""),
    "garbage": lambda p, o: p.write_bytes(b"not a cache entry"),
    "magic flipped": _flip(0),
    "checksum flipped": _flip(len(cache._MAGIC)),
    "identity length flipped": _flip(len(cache._MAGIC) + 32),
    "identity flipped": _flip(len(cache._MAGIC) + 40),
    "payload flipped": _flip(-10),
    "old format": lambda p, o: p.write_bytes(b"P10M1" + p.read_bytes()[5:]),
    "swapped with another entry": lambda p, o: swap(p, o),
    "another entry copied over it": lambda p, o: p.write_bytes(o.read_bytes()),
    "key edited": lambda p, o: rewrite_identity(p, lambda i: i.update(key="0" * 64)),
    "description edited": lambda p, o: rewrite_identity(
        p, lambda i: i["description"].update(value="other")
    ),
    "no description": lambda p, o: rewrite_identity(p, lambda i: i.update(description=None)),
    "identity not an object": lambda p, o: rewrite_identity(p, lambda i: i.clear()),
    "a folder": _replace_with(lambda p, o: p.mkdir()),
    "a fifo": _replace_with(lambda p, o: os.mkfifo(p)),
    "a loop of links": _replace_with(lambda p, o: os.symlink(p, p)),
    "a dangling link": _replace_with(lambda p, o: os.symlink(p.with_name("gone"), p)),
    "a link to another entry": _replace_with(lambda p, o: os.symlink(o, p)),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_every_kind_of_damage_gives_the_right_answer_and_one_warning(
    fresh, monkeypatch, capsys, kind
):
    key, other = cache.cache_key(value="mine"), cache.cache_key(value="other")
    cache.save(key, ["mine"])
    cache.save(other, ["other"])
    path, other_path = fresh / f"{key}.pkl", fresh / f"{other}.pkl"
    DAMAGE[kind](path, other_path)
    new_process(monkeypatch)
    capsys.readouterr()
    assert cache.cached(key, lambda: ["computed"]) == ["computed"]
    assert len(warnings(capsys.readouterr().err)) == 1
    new_process(monkeypatch)  # the entry written in its place is used, without a warning
    assert cache.cached(key, lambda: ["again"]) == ["computed"]
    assert warnings(capsys.readouterr().err) == []


# --------------------------------------------------------------------------- the census

EVERY = "test_every_kind_of_damage_gives_the_right_answer_and_one_warning"
ARRAY_BYTES = "test_damaged_array_bytes_give_the_right_answer_and_one_warning"
ARRAY_FILE = "test_array_file_cut_short_missing_or_not_a_file_is_damage"
SWAPPED = "test_swapped_complete_and_score_entries_are_solved_again"
OTHER_KEY = "test_an_entry_filed_under_another_key_is_never_trusted"
IN_PLACE = "test_a_folder_or_fifo_in_place_of_an_entry_is_handled_once"
HOLDS = "test_damaged_best_holds_are_found_again_from_the_values"
EDITED = "test_an_entry_whose_identity_was_edited_is_never_trusted"
SWAPPED_FIELD = "test_entries_swapped_across_one_identity_field_are_never_trusted"
NOT_ITS_KEY = "test_a_description_that_does_not_hash_to_its_key_is_never_trusted"
LOOP_REPLACED = "test_a_loop_of_links_in_place_of_an_entry_is_replaced_once"
SMALL_KIND = "test_a_small_entry_of_the_wrong_kind_is_damage"
ROW_KIND = "test_a_table_row_of_the_wrong_kind_is_damage"
LARGE_KIND = "test_a_large_entry_of_the_wrong_kind_is_damage"
FILE_IN_PLACE = "test_a_file_in_place_of_a_large_entry_is_removed_once"
BITS = "test_a_large_zero_one_array_is_stored_as_bits_and_read_back_equal"


def injected_by(test: str, **words: str | None) -> dict[str, tuple[str, ...]]:
    """The kinds of damage ``test`` injects: each kind's name -> (the test, the parameter
    that injects it), or (the test,) where it injects that kind alone."""
    return {kind: (test,) if word is None else (test, word) for kind, word in words.items()}


#: Every kind of damage to the result cache that the loader must catch, by the test (and
#: parameter) that injects it; the census below checks that each has its case. Edits and
#: swaps of each identity field are counted apart, per field of an entry's identity
#: (:func:`identity_fields`).
Damage = enum.unique(
    enum.Enum(
        "Damage",
        {
            **injected_by(
                EVERY,
                CUT_IN_HALF="cut in half",
                EMPTY="empty",
                GARBAGE="garbage",
                MAGIC_FLIPPED="magic flipped",
                CHECKSUM_FLIPPED="checksum flipped",
                IDENTITY_LENGTH_FLIPPED="identity length flipped",
                IDENTITY_FLIPPED="identity flipped",
                PAYLOAD_FLIPPED="payload flipped",
                OLD_FORMAT="old format",
                SWAPPED_WITH_ANOTHER_ENTRY="swapped with another entry",
                ANOTHER_ENTRY_COPIED_OVER_IT="another entry copied over it",
                KEY_EDITED="key edited",
                DESCRIPTION_EDITED="description edited",
                NO_DESCRIPTION="no description",
                IDENTITY_NOT_AN_OBJECT="identity not an object",
                A_FOLDER="a folder",
                A_FIFO="a fifo",
                A_LOOP_OF_LINKS="a loop of links",
                A_DANGLING_LINK="a dangling link",
                A_LINK_TO_ANOTHER_ENTRY="a link to another entry",
            ),
            **injected_by(LOOP_REPLACED, LOOP_OF_LINKS_REPLACED=None),
            **injected_by(IN_PLACE, FOLDER_WITH_FILES="folder", FIFO_READ_WITHOUT_BLOCKING="fifo"),
            **injected_by(SMALL_KIND, SMALL_ENTRY_OF_ANOTHER_KIND=None),
            **injected_by(ROW_KIND, TABLE_ROW_OF_ANOTHER_KIND=None),
            **injected_by(LARGE_KIND, LARGE_ENTRY_OF_ANOTHER_KIND=None),
            **injected_by(FILE_IN_PLACE, FILE_IN_PLACE_OF_A_LARGE_ENTRY=None),
            **injected_by(
                ARRAY_BYTES,
                ARRAY_MAGIC="magic",
                ARRAY_HEADER="header",
                ARRAY_FIRST_VALUE="first",
                ARRAY_MIDDLE_VALUE="middle",
                ARRAY_LAST_VALUE="last",
                ARRAY_EVERY_SEVENTH_VALUE="seventh",
            ),
            **injected_by(
                ARRAY_FILE,
                ARRAY_FILE_CUT="cut",
                ARRAY_FILE_GROWN="grown",
                ARRAY_FILE_MISSING="missing",
                ARRAY_FILE_A_FIFO="fifo",
                ARRAY_FILE_A_FOLDER="folder",
            ),
            **injected_by(BITS, ARRAY_OF_BITS_ALTERED=None),
            **injected_by(HOLDS, BEST_HOLDS_BYTES="bytes", BEST_HOLDS_MISSING="missing"),
            **injected_by(
                OTHER_KEY,
                SMALL_ENTRY_FILED_UNDER_ANOTHER_KEY="small",
                LARGE_ENTRY_FILED_UNDER_ANOTHER_KEY="large",
            ),
            **injected_by(
                SWAPPED,
                COMPLETE_AND_SCORE_SWAPPED_SMALL="small",
                COMPLETE_AND_SCORE_SWAPPED_LARGE="large",
                COMPLETE_AND_SCORE_HOLDS_SWAPPED="holds",
            ),
            **injected_by(NOT_ITS_KEY, DESCRIPTION_NOT_ITS_KEYS=None),
        },
    )
)


def test_fuzz_census_every_kind_of_damage_is_a_case(record_property):
    """Counts: the cases of the tests that damage the cache against the kinds of damage
    (:class:`Damage`) and, per field of an entry's identity (read from what the cache
    writes), an edit of it in a small and a large entry and a swap of two entries that
    differ in it."""
    cases = census.module_cases(sys.modules[__name__])
    fields = identity_fields()
    names = {cache.FIELD_NAMES.get(f, f) for f in fields}
    assert sorted(names - set(FIELDS)) == [], "an identity field is never edited"
    uncovered = [
        kind.name
        for kind in Damage
        if not any(c[0] == kind.value[0] and set(kind.value[1:]) <= set(c[1:]) for c in cases)
    ]
    assert uncovered == [], "kinds of damage without a case"
    tests = {kind.value[0] for kind in Damage} | {EDITED, SWAPPED_FIELD}
    injected = sum(1 for c in cases if c[0] in tests)
    edits = [c for c in cases if c[0] == EDITED and c[1] in names]
    swaps = [c for c in cases if c[0] == SWAPPED_FIELD and c[1] in fields]
    assert len(edits) >= 2 * len(fields) and len(swaps) >= len(fields)
    census.record(
        record_property,
        "cache damage (tests/package/test_cache_integrity.py)",
        injected,
        len(Damage) + 3 * len(fields),
        f"{len(Damage)} kinds of damage to entries, files and arrays; each of the "
        f"{len(fields)} identity fields edited in a small and a large entry and swapped",
    )
