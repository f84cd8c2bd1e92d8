"""Files read without blocking: only regular files are opened for reading.

Opening a FIFO for reading waits for a writer, a device may wait for anything; a layout file
or a cache entry is opened with ``O_NONBLOCK`` and refused at once when it is not a regular
file (:class:`NotRegularFileError`, an ``OSError``).

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> fifo = os.path.join(d, "fifo")
>>> os.mkfifo(fifo)
>>> open_regular(fifo)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10math._base.files.NotRegularFileError: [Errno 22] not a regular file (a FIFO): '...fifo'
>>> with open(os.path.join(d, "text"), "w") as fh:
...     _ = fh.write("5r 6o")
>>> with open_regular(os.path.join(d, "text")) as fh:
...     fh.read()
b'5r 6o'
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import BinaryIO

from phase10math.errors import InvalidArgumentError

_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a directory",
}


class NotRegularFileError(OSError):
    """The path names something that is not a regular file (FIFO, device, socket, folder)."""


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words ("a regular file", "a FIFO", ...)."""
    return "a regular file" if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "not a file")


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """``path`` opened for reading in binary, never blocking: anything that is not a regular
    file (after following links; a loop of links included) raises
    :class:`NotRegularFileError`."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise NotRegularFileError(
            errno.EINVAL, "not a regular file (a directory)", os.fspath(path)
        ) from None
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise NotRegularFileError(
            errno.ELOOP, "not a regular file (a loop of symbolic links)", os.fspath(path)
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(
                errno.EINVAL, f"not a regular file ({kind_of(mode)})", os.fspath(path)
            )
        if flags & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def check_output_file(path: str | os.PathLike, what: str) -> None:
    """Refuse (:class:`~phase10math.errors.InvalidArgumentError`, naming the option ``what``)
    an output file that could not be written: a folder in its place, its folder missing, or
    no file can be created there. Checked before the work whose result it would hold."""
    path = os.fspath(path)
    shown = path if len(path) <= 60 else path[:57] + "..."
    if os.path.isdir(path):
        raise InvalidArgumentError(f"{what} {shown!r} is a folder; give a file name")
    folder = os.path.dirname(path) or "."
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".check-"):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InvalidArgumentError(
            f"{what} {shown!r}: nothing can be written in its folder ({why})"
        ) from None
