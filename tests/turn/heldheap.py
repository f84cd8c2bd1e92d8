"""held_heap checked by glibc's own counters (``mallinfo2``), run in a fresh process by
``test_tensor.py``: within the block a large array comes from the heap (not a fresh mapping)
and stays there once freed, for the next one; after the block the heap is trimmed again and
large arrays are mapped as before. Prints ``held given back`` as each part passes."""

from __future__ import annotations

import ctypes
import os

import numpy as np

from phase10math.turn.tensor.memory import heap_is_held, held_heap

BIG = 64 * 2**20


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


LIBC = ctypes.CDLL("libc.so.6")
LIBC.mallinfo2.restype = MallInfo2


def info() -> MallInfo2:
    return LIBC.mallinfo2()


def resident() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    assert not heap_is_held()
    before = info().hblkhd
    a = np.ones(BIG // 8)
    assert info().hblkhd >= before + BIG  # outside: a mapping of its own
    del a
    with held_heap() as held:
        assert held and heap_is_held()
        mapped = info().hblkhd
        a = np.ones(BIG // 8)
        assert info().hblkhd < mapped + BIG  # from the heap
        del a
        kept_free, heap = info().fordblks, info().arena
        assert kept_free >= BIG  # freed, and kept
        b = np.ones(BIG // 8)  # the next one reuses it: the heap does not grow
        assert info().arena <= heap and info().fordblks <= kept_free - BIG + 2**20
        del b
        kept = resident()
        print("held")
    assert not heap_is_held()
    assert resident() <= kept - BIG // 2  # given back to the system after the block
    print("given")
    a = np.ones(BIG // 8)
    assert info().hblkhd >= before + BIG  # mapped as before
    del a
    print("back")


if __name__ == "__main__":
    main()
