"""The disk cache: keys, atomic writes, damaged files detected and recomputed."""

import pytest

from phase10math import cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_round_trip_and_key_depends_on_everything(cache_dir):
    k1 = cache.cache_key(phase=1, rules={"holds": "free"})
    assert k1 != cache.cache_key(phase=1, rules={"holds": "sticky"})
    assert k1 == cache.cache_key(rules={"holds": "free"}, phase=1)
    calls = []
    assert cache.cached(k1, lambda: calls.append(1) or {"p": 3}) == {"p": 3}
    assert cache.cached(k1, lambda: calls.append(1) or {"p": 4}) == {"p": 3}
    assert calls == [1]
    assert not list(cache_dir.glob(".tmp-*"))  # no temporary file left behind


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_damaged_file_is_detected_and_recomputed(cache_dir, damage):
    key = cache.cache_key(test=damage)
    cache.save(key, list(range(1000)))
    path = next(cache_dir.glob(f"{key}.pkl"))
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[-10] ^= 0xFF
    else:
        data = bytearray(b"not a cache file")
    path.write_bytes(bytes(data))
    assert cache.load(key) is None
    assert not path.exists()
    assert cache.cached(key, lambda: "fresh") == "fresh"


def test_cache_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")
    key = cache.cache_key(x=1)
    cache.save(key, 1)
    assert cache.load(key) is None


# --------------------------------------------------------------------------- large results


class Holder:
    def __init__(self, arrays):
        self.arrays = arrays
        self.alias = arrays["big"]  # the same array twice: written once


def _big_object():
    import numpy as np

    big = np.arange(3 * cache.LARGE_ARRAY // 8, dtype=np.int64)
    return Holder({"big": big, "small": np.arange(5), "other": big[::-1] * 2})


def test_large_round_trip_memory_maps_the_arrays(cache_dir):
    import numpy as np

    key = cache.cache_key(test="large")
    obj = _big_object()
    assert cache.large_bytes(obj) == 2 * obj.arrays["big"].nbytes
    assert cache.load_large(key) is None
    assert cache.save_large(key, obj)
    folder = next(cache_dir.glob(f"{key}.arrays"))
    assert sorted(p.name for p in folder.iterdir()) == ["a0.npy", "a1.npy", "code", "object.pkl"]
    assert not list(cache_dir.glob(".tmp-*"))
    back = cache.load_large(key)
    assert isinstance(back.arrays["big"], np.memmap) and back.alias is back.arrays["big"]
    assert not back.arrays["big"].flags.writeable
    for name, arr in obj.arrays.items():
        assert (back.arrays[name] == arr).all()


def test_large_damaged_entry_is_removed(cache_dir):
    key = cache.cache_key(test="large-damaged")
    cache.save_large(key, _big_object())
    pkl = next(cache_dir.glob(f"{key}.arrays")) / "object.pkl"
    data = bytearray(pkl.read_bytes())
    data[-3] ^= 0xFF
    pkl.write_bytes(bytes(data))
    assert cache.load_large(key) is None
    assert not list(cache_dir.glob(f"{key}.arrays"))


def test_large_result_not_written_when_the_disk_is_nearly_full(cache_dir, monkeypatch, capsys):
    monkeypatch.setattr(cache, "DISK_MARGIN", 1 << 62)
    monkeypatch.delenv("PHASE10MATH_WARNED_LARGE", raising=False)
    monkeypatch.setattr(cache, "_WARNED", set())
    key = cache.cache_key(test="large-full")
    assert not cache.save_large(key, _big_object())
    assert not list(cache_dir.iterdir()) or not list(cache_dir.glob(f"{key}.arrays"))
    assert "is not cached on disk" in capsys.readouterr().err


def test_stale_temporary_folder_is_swept(cache_dir, monkeypatch):
    import os

    stale = cache_dir / ".tmp-abc.arrays"
    stale.mkdir()
    (stale / "a0.npy").write_bytes(b"x")
    old = 10 * cache.STALE_TMP_SECONDS
    os.utime(stale, (os.path.getmtime(stale) - old,) * 2)
    monkeypatch.setattr(cache, "_SWEPT", set())
    cache._sweep(cache_dir)
    assert not stale.exists()


def test_large_entries_of_other_code_versions_are_dropped(cache_dir, monkeypatch):
    old_key = cache.cache_key(test="large-old")
    cache.save_large(old_key, _big_object())
    assert cache.load_large(old_key) is not None
    monkeypatch.setattr(cache, "_CODE_HASH", "another version of the code")
    new_key = cache.cache_key(test="large-new")
    cache.save_large(new_key, _big_object())
    folders = sorted(p.name for p in cache_dir.glob("*.arrays"))
    assert folders == [f"{new_key}.arrays"]


def test_large_entry_with_a_truncated_array_is_removed(cache_dir):
    key = cache.cache_key(test="large-truncated")
    cache.save_large(key, _big_object())
    npy = next(cache_dir.glob(f"{key}.arrays")) / "a0.npy"
    npy.write_bytes(npy.read_bytes()[: npy.stat().st_size // 2])
    assert cache.load_large(key) is None
    assert not list(cache_dir.glob(f"{key}.arrays"))
