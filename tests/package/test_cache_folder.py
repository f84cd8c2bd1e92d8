"""The cache folder as users meet it: unusable folders, damaged entries in a read-only folder,
stale temporary files, and the cache switched off in any case."""

from __future__ import annotations

import os
import time

from clirun import run

from phase10math import cache


def test_cache_folder_unusable_still_answers_with_one_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_WARNED", set())
    monkeypatch.setattr(cache, "_DEAD", set())
    monkeypatch.delenv("PHASE10MATH_WARNED_CACHE", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(blocker))
    code, out, err = run(["check", "--phase", "1", *"8 8 8 10 W W 1 2 5 6".split()])
    assert code == 0 and "complete" in out
    key = cache.cache_key(t="unusable")
    assert cache.cached(key, lambda: 5) == 5
    assert cache.cached(key, lambda: 6) == 6  # not cached, computed again
    assert sum("warning" in ln for ln in err.splitlines()) <= 1


def test_damaged_entry_in_read_only_folder_warns_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache, "_WARNED", set())
    monkeypatch.setattr(cache, "_DEAD", set())
    monkeypatch.delenv("PHASE10MATH_WARNED_CACHE", raising=False)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    keys = [cache.cache_key(t=i) for i in range(3)]
    for k in keys:
        (tmp_path / f"{k}.pkl").write_bytes(b"damaged")
    real_unlink = os.unlink

    def refuse(*a, **kw):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr("pathlib.Path.unlink", refuse)
    monkeypatch.setattr("tempfile.mkstemp", refuse)
    assert [cache.cached(k, lambda: 7) for k in keys] == [7, 7, 7]
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and "damaged" in err
    assert real_unlink


def test_stale_temporary_files_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "_SWEPT", set())
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    old, new = tmp_path / ".tmp-old.pkl", tmp_path / ".tmp-new.pkl"
    old.write_bytes(b"x")
    new.write_bytes(b"x")
    t = time.time() - cache.STALE_TMP_SECONDS - 10
    os.utime(old, (t, t))
    cache.load(cache.cache_key(t="sweep"))
    assert not old.exists() and new.exists()  # a writer may still be busy with the new one


def test_cache_off_in_any_case(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "OFF")
    assert cache.cache_dir() is None
    cache.save(cache.cache_key(t="off"), 1)
    assert not (tmp_path / "OFF").exists()
