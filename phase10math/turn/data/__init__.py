"""Package data of :mod:`phase10math.turn`: the exact per-phase table of the recorded dice
(phase_rows.json), so that the table prints at once; ``python tools/ship_phase_rows.py``
solves it again."""
