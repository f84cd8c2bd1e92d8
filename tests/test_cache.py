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
