"""The free-hold dynamic program in place on one tensor, for layouts of distinct dice.

When no two (projected) dice are alike - the recorded layout with value and color kept has ten
dice of six different faces each - every die is its own type and a hold is one slot per die:
``0`` = not held, ``1 + f`` = held showing face ``f``. The holds form a plain tensor of shape
``(f_1 + 1, ..., f_n + 1)`` (7**10 = 282,475,249 holds for the recorded dice) and both passes of
the dynamic program run *in place* on one int64 array, axis by axis (the standard argument for
multidimensional transforms: after axes 1..i are processed, every entry whose not-held slots
lie within axes 1..i is final):

- expectation: ``N(K) = 6**n E[V | K held]`` - start with ``6**n V`` on the roll states, then
  along each axis fill the not-held slot with ``sum_f w_f (face slot f) / 6`` (an exact integer
  division: the face slots are multiples of 6). Axis ``j`` only needs the entries whose later
  axes show faces (the others are overwritten later), so the pass runs on a sub-tensor.
- subset maximum: ``M(K) = max over holds J within K of N(J)``: along each axis, face slot
  ``f`` = max(face slot f, not-held slot). Axis ``j`` only needs the entries whose earlier axes
  show faces. The arg-max is a code of the dice not held (uint16); holds are compared in
  the kit's one order (:func:`phase10math.turn.kernels.hold_ranks`: the keys, then more dice
  kept, then the larger state id), so the arg-max is the per-type solver's.

Only roll-state values (``6**n``) are stored per number of rolls left; hold values are
computed on demand (:class:`LazyHoldValues`): an exact solve's from the stored margins of
the roll values (:mod:`.margins`; a roll's sub-holds at once, more holds in pieces), a float
stage's by a restricted transform over the asked holds.
Values are exact int64 numerators (:func:`phase10math.exact.fits_int64` is checked first).

Speed: every pass over an axis runs in cache-sized blocks (the not-held slot and
the comparison scratch stay in cache while the face slots stream through), shared among
:func:`threads` threads (numpy releases the GIL in its loops; each thread writes only its own
blocks, so results do not depend on the split). Final scores and the greedy baseline are
computed on pairs of distinct half-profiles, one color at a time for a color group beside sets
or runs (:func:`~phase10math.turn.tensor.finals.max_over_colors`).

A second key (lexicographic objectives) costs its roll values per number of rolls
left and two more comparisons per face slot (:func:`subset_max`, ``second``), but no second
hold tensor: a stage where both keys fit in one int64 runs on one tensor (:func:`pack_keys`),
any other runs die 0's faces one at a time on the other dice's tensors, in the memory of the
one hold tensor (:func:`split_stage`). An exact stage of ten dice splits each of those again
on die 1's faces (:func:`~.memory.splits_again`): tensors of ``7**8`` entries, the same
values and best holds in a seventh of the memory.

The modules, one concern each: :mod:`.memory` (sizes, the memory budget, work buffers),
:mod:`.slabs` (threads, slabs and cache-sized blocks), :mod:`.passes` (expectation and subset
maximum), :mod:`.codes` (hold codes), :mod:`.stages` (one stage: one or two keys, floats or a fixed
policy), :mod:`.holdvalues` (hold values and best holds on demand), :mod:`.finals` (final
scores), :mod:`.greedy` (the greedy baseline) and :mod:`.forward` (a policy's outcome
distribution, the first roll's mass pushed forward). The stages are driven by the one backward
induction (:class:`~phase10math.turn.engine.TensorEngine`,
:func:`~phase10math.turn.engine.backward_induction`).

The public names (``__all__``) are the engine's settings: :func:`memory_budget` (the bytes a
solve may use), :func:`threads` (the threads of the passes), :func:`release_buffers` (free
the work buffers a large solve leaves allocated) and :func:`held_heap` (a block in which the
memory freed stays with the process for the next solve: for long runs of solves). The kernels
themselves are the engine's inside, not an API: they take the engine's state space and work
arrays whose shapes it fixes, and run per stage in the backward induction, so they are imported
from their modules by
:mod:`phase10math.turn.engine`, :mod:`phase10math.turn.solver` and
:mod:`phase10math.turn.family` (the tensor family's forward pass and hold values) only. The
public way to solve a turn on this engine is :func:`phase10math.turn.solve_turn` (and the
advice built on it).
"""

from phase10math.turn.tensor.memory import held_heap, memory_budget, release_buffers
from phase10math.turn.tensor.slabs import threads

__all__ = ["held_heap", "memory_budget", "release_buffers", "threads"]
