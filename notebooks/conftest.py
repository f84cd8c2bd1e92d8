"""Before the notebooks run (each in its own kernel, under nbval), the test process hands back
the memory of the tensor engine: its work buffers and the large solutions it keeps (those are
on disk, memory-mapped, in the shared result cache)."""

import gc

from phase10math.turn.tables import forget_large_solutions
from phase10math.turn.tensor import release_buffers

_DONE = []


def pytest_runtest_setup(item):
    if not _DONE:
        _DONE.append(True)
        forget_large_solutions()
        release_buffers()
        gc.collect()
