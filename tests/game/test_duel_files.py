"""The two-player game's files cannot run code: a checkpoint is arrays and a JSON header
(``numpy.load`` with ``allow_pickle=False``), read back exactly as it was written; a file
that is not one (a pickle, a damaged file, another kind) is refused in one line, and a FIFO
before it is opened."""

from __future__ import annotations

import gzip
import hashlib
import os
import pickle
import threading
import time
from importlib.resources import files

import numpy as np
import pytest
from test_duel import reduced_game

from phase10math._base.savefile import read_safe, write_safe
from phase10math.cli import main
from phase10math.errors import InvalidFileError
from phase10math.game.duel import Bonus, Checkpoint, Play, solve_duel
from phase10math.game.duel.checkpoint import KIND
from phase10math.game.duel.files import (
    OTHER_DICE_TABLE_FILES,
    TABLE_FILES,
    TABLE_PACKAGE,
    shipped_digests,
)


@pytest.fixture(scope="module")
def checkpointed(tmp_path_factory):
    path = tmp_path_factory.mktemp("ck") / "reduced.ck"
    return solve_duel(reduced_game(reachable=True), checkpoint=path), path


def test_a_checkpoint_reads_back_as_it_was_written(checkpointed):
    sol, path = checkpointed
    back = Checkpoint(path).load(reduced_game(reachable=True))
    assert back is not None and back.bound == sol.bound and back.tie_bound == sol.tie_bound
    for name in ("values", "last", "errors", "gaps", "layers_done"):
        assert getattr(back, name) == getattr(sol, name), name
    assert list(back.errors) == list(sol.errors)  # in the same order
    for key, d in sol.dists.items():
        assert np.array_equal(back.dists[key], d) and back.dists[key].dtype == d.dtype
    # the keys keep their types: the bonus classes and the plays are the enums again
    ours, theirs = next(iter(sol.errors)), next(iter(back.errors))
    assert repr(theirs) == repr(ours) and "Bonus." in repr(theirs)
    assert [repr(m) for m in back.values] == [repr(m) for m in sol.values]


def test_the_file_is_a_zip_of_arrays_whose_header_names_the_game(checkpointed):
    sol, path = checkpointed
    with open(path, "rb") as fh:
        assert fh.read(4) == b"PK\x03\x04"
    head, data = read_safe(path, KIND, (Play, Bonus))
    assert head["game"] == sol.game.describe() and head["rules"] == sol.game.rules.to_dict()
    assert set(data) >= {"values", "errors", "dists"} and head["format"] == 1
    with np.load(path, allow_pickle=False) as z:  # every part reads without pickles
        assert all(z[name].dtype != object for name in z.files)


class Boom:
    """A pickle that runs code when it is loaded: it would create ``Boom.path``."""

    path = ""

    def __reduce__(self):
        return (open, (Boom.path, "w"))


def test_a_pickle_or_a_damaged_file_is_refused_in_one_line_and_runs_nothing(checkpointed, tmp_path):
    _, good = checkpointed
    Boom.path = str(tmp_path / "ran")
    old = tmp_path / "old.ck"  # the checkpoints before this format: gzips of pickles
    with gzip.open(old, "wb") as fh:
        pickle.dump({"fingerprint": "x", "values": Boom()}, fh)
    objects = tmp_path / "objects.ck"  # arrays, but one of objects (a pickle inside)
    with open(objects, "wb") as fh:
        np.savez(fh, header=np.frombuffer(b"{}", dtype=np.uint8), a0=np.array([Boom()]))
    cut = tmp_path / "cut.ck"
    cut.write_bytes(good.read_bytes()[:1000])
    empty = tmp_path / "empty.ck"
    empty.write_bytes(b"")
    for path in (old, objects, cut, empty, tmp_path / "missing.ck"):
        with pytest.raises(InvalidFileError) as exc:
            read_safe(path, KIND)
        assert len(str(exc.value).splitlines()) == 1 and str(path) in str(exc.value)
        assert not os.path.exists(Boom.path)
    with pytest.raises(InvalidFileError, match="gzip file"):
        Checkpoint(old).load(reduced_game(reachable=True))


def test_a_file_of_another_kind_is_refused(tmp_path):
    path = tmp_path / "other.npz"
    write_safe(path, "something else", {}, {"a": 1})
    with pytest.raises(InvalidFileError, match="not a two-player checkpoint"):
        read_safe(path, KIND)


def test_a_fifo_is_refused_before_it_is_opened(tmp_path, capsys):
    """``duel --table FIFO`` and ``--checkpoint FIFO`` end at once with one line (opening a
    FIFO for reading would wait for a writer: the writer here comes only after 20 s, so
    that a regression fails instead of hanging)."""
    fifos = [tmp_path / name for name in ("t.json.gz", "t.npz", "c.ck")]
    for f in fifos:
        os.mkfifo(f)
    stop = threading.Event()

    def unblock():
        if not stop.wait(20):
            for f in fifos:
                try:
                    os.close(os.open(f, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass

    threading.Thread(target=unblock, daemon=True).start()
    t0 = time.monotonic()
    runs = [["duel", "--table", str(f)] for f in fifos[:2]]
    runs.append(["duel", "--solve", "--phases", "9-10", "--checkpoint", str(fifos[2])])
    try:
        for argv in runs:
            assert main(argv) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and "FIFO" in err, err
    finally:
        stop.set()
    assert time.monotonic() - t0 < 20


def test_every_shipped_table_is_in_the_manifest_with_its_sha256():
    """The manifest names every table file of the package and no other (and the win
    strategy's candidate turns), each with the SHA-256 of its bytes; the ranges read are
    those files."""
    from phase10math.game.duel.candidates import DATA_FILE

    folder = files(TABLE_PACKAGE)
    on_disk = {p.name for p in folder.iterdir() if p.name.endswith((".npz", ".json.gz"))}
    on_disk.add(DATA_FILE)
    digests = shipped_digests()
    assert set(digests) == on_disk
    named = set(TABLE_FILES.values()) | {
        n for by_range in OTHER_DICE_TABLE_FILES.values() for n in by_range.values()
    }
    assert named | {DATA_FILE} == on_disk
    for name in on_disk:
        data = folder.joinpath(name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digests[name] and len(data) > 1000


def test_a_shipped_table_unlike_its_manifest_is_refused(monkeypatch):
    import phase10math.game.duel as duel

    real = shipped_digests()
    assert duel.read_table(phases=(9, 10))[0].game.describe() == "phases 9-10"
    wrong = {name: "0" * 64 for name in real}
    monkeypatch.setattr(duel.files, "shipped_digests", lambda: wrong)
    with pytest.raises(InvalidFileError, match="not the one the package's manifest names"):
        duel.read_table(phases=(9, 10))
