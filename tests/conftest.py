import gc
import os
import sys

from phase10math.turn.tables import forget_large_solutions
from phase10math.turn.tensor import release_buffers

# tests import their brute-force helpers as plain modules
sys.path.insert(0, os.path.dirname(__file__))


def pytest_runtest_teardown(item, nextitem):
    """After the last test here, before the notebooks run (each in its own kernel, under
    nbval), hand back the tensor engine's memory: its work buffers and the large solutions
    kept in memory (those on disk stay, memory-mapped, in the shared result cache)."""
    if nextitem is None or not str(nextitem.path).startswith(os.path.dirname(__file__)):
        forget_large_solutions()
        release_buffers()
        gc.collect()
