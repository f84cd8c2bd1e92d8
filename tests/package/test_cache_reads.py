"""Entries of a mapped array read from its file (cache.read_entries), not through the map:
the same numbers as indexing the map, in any order, with repeats, across pages and read
buffers; and indexing the map where the file is no longer the one checked."""

from __future__ import annotations

import os

import numpy as np
import pytest

from phase10math import cache


@pytest.fixture
def mapped(tmp_path, monkeypatch):
    """A large entry holding arrays of three dtypes, loaded again (memory-mapped)."""
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "LARGE_ARRAY", 1024)
    monkeypatch.setattr(cache, "_VERIFIED", {})
    rng = np.random.default_rng(4)
    arrays = {
        "int8": rng.integers(-100, 100, 100_003).astype(np.int8),
        "uint32": rng.integers(0, 2**32, 50_001, dtype=np.uint32),
        "int64": rng.integers(-(2**60), 2**60, 30_007),
    }
    key = cache.cache_key(kind="read-entries-test")
    assert cache.save_large(key, arrays)
    return arrays, cache.load_large(key, dict)


@pytest.mark.parametrize("pages, gap", [(1024, 4), (3, 0), (1, 2)])
def test_entries_read_from_the_file_are_the_maps(mapped, monkeypatch, pages, gap):
    monkeypatch.setattr(cache, "READ_PAGES", pages)
    monkeypatch.setattr(cache, "GAP", gap)
    arrays, loaded = mapped
    rng = np.random.default_rng(pages)
    for name, truth in arrays.items():
        a = loaded[name]
        assert isinstance(a, np.memmap) and a.file_id[0].endswith(".npy")
        n = len(truth)
        for idx in (
            rng.integers(0, n, 5_000),  # scattered, repeated, unsorted
            np.arange(n - 7, n),  # the last, partial page
            np.array([0]),
            np.arange(n)[::-1],  # all of it, backwards
        ):
            got = cache.read_entries(a, idx)
            assert got.dtype == truth.dtype and np.array_equal(got, truth[idx])


def test_a_replaced_file_or_a_bad_index_is_read_through_the_map(mapped, tmp_path):
    arrays, loaded = mapped
    a = loaded["uint32"]
    path = a.file_id[0]
    os.replace(path, path + ".moved")  # the map still holds the checked file
    with open(path, "wb") as f:
        f.write(b"\0" * 4096)
    assert np.array_equal(cache.read_entries(a, np.arange(10)), arrays["uint32"][:10])
    with pytest.raises(IndexError):
        cache.read_entries(a, np.array([len(a)]))
    plain = np.arange(10)
    assert np.array_equal(cache.read_entries(plain, np.array([3, 1])), [3, 1])
