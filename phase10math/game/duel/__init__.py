"""The two-player game of Phase 10 Dice solved: the chance to win of every state.

Each player is at a phase ``k`` (the one being attempted) with a total; the mover's turn ends
(failed) or (made, score x), so its best play is one turn solve with a utility over those
outcomes (:class:`~phase10math.turn.batch.TurnBatch`). The rules are the kit's (RULES.md):
the five-phase bonus (+40 on completing phase 5 when the total is then over 220), the
first-finish bonus (+40 to the finisher, and to the second seat if it completes the last
phase in the same round, during its last chance), the last chances (after a player finishes,
the other plays turns until one fails or it finishes too), ties reported as P(tie) and
counted half in the chance to win.

**States** (the reduction): a player is ``(k, c, t)`` with ``c`` its five-phase-bonus class:
``UNDECIDED`` (the bonus still depends on the total, which is then ``t``), ``NONE`` (no bonus
to come) or ``PENDING`` (+40 sure on completing phase 5); a normal-play state is ``(s, me,
opp, D)``: the mover's seat ``s`` (0 = first in turn order), both players and the score
difference ``D`` = mover's total - opponent's total. A last-chance state is ``(chaser, Dc,
eligible)``: ``Dc`` the chaser's total minus the finisher's, ``eligible`` whether a finish
still earns the bonus. Differences beyond what the other side can still score are decided
and are not stored. A game solved from its start (:attr:`DuelGame.reachable`, the default
from phase 1) keeps only the totals a player can have there: between the least and the most
points of the phases before (:meth:`DuelGame.totals_at`; at phase 1 always 0), which leaves
768,983 pairs of states of the 10-phase game instead of 4,299,919.

**Solving**: last chances first (no cycles, later phases first), then normal play in layers
of decreasing sum of both phases. Inside a layer the only cycle is "both fail": state
``(0, a, b, D)`` fails to ``(1, b, a, -D)`` and back, so every pair is a fixed point ``x =
f(1 - y), y = g(1 - x)`` with ``f``, ``g`` convex in the fail value. It is solved by policy
iteration (Newton on the piecewise-linear map): solve both turns at the current values, then
take the exact fixed point of the two policies found (a 2 x 2 linear system), until the turn
solves reproduce the values. A pair leaves the batch once it has converged, and a fresh
layer first solves every ``SEED_EVERY``-th score difference, then starts each other pair at
the exact fixed point of its nearest seed's two policies
(:func:`~phase10math.game.duel.pair.policy_fixed_point`, the pair step 10,000 shares:
:func:`~phase10math._base.pairs.pair_fixed_point`) at its own utilities: most then
converge after two solves a seat.

**Error bound** (float64): every turn value is within its proven margin (rounding for a
batched solve; the family's interval for a color phase). Each state keeps its own proven
error (:meth:`DuelSolution.error`). A last chance's error is its turn's margin plus the most
any policy gains from the errors after its outcomes (a turn solve of those errors). A pair's
fixed point is certified by an interval check
(:func:`~phase10math.game.duel.certificate.certify`, the pair certificate 10,000 shares:
:mod:`phase10math._base.pairs`): the map ``h(x) = f(1 - g(1 - x))``
increases, so ``h(x - delta) >= x - delta`` and ``h(x + delta) <= x + delta``,
evaluated with each outcome's utility moved by its error (upper values by turn solves,
lower values by the policies found: any policy's value is a lower value of the optimum) and
every margin on the safe side, put the true value within ``delta``. So an error reaches a
state only in proportion to the chance of passing through it, and
:attr:`DuelSolution.bound` is the largest over all states. P(tie) and the per-turn
matchups are fixed-policy evaluations (exact linear fixed points of float distributions),
with their own bound ``tie_bound``.

**Color phases** (the certified family, :mod:`phase10math.turn.family`): a color phase's
turn needs the full projection (9.7 million holds on the compact dice), so its turns are
answered from a family of exactly solved policies: the best member's value below, a
verified linear program over the solved utilities above. With a ``target`` for the start's
error, :func:`solve_duel` solves exactly the turns whose estimated visits from the start
(:func:`visits`, a per-turn policy standing in below the layers solved) times interval
width count, then, round by round, the states whose expected visits times interval width
is largest, and solves again the states that depend on them where they weigh. On the
recorded set's ten different dice (7**10 holds) a color phase's family solves on the tensor
engine (:class:`~phase10math.turn.family.TensorFamily`, about 25 s an exact solve), two at a
time, the rows left checked again after each pair.

The phases may be a sub-range (``phases=(9, 10)``: both players start at phase 9, the game
ends with phase 10) or a reduced game (any dice, any phases, for checks).

**Where each step is done** (the modules of this package, in the order of the method):

- :mod:`~phase10math.game.duel.setting` - the game, its rules and dice, the states, each
  phase's batched turn;
- :mod:`~phase10math.game.duel.table` - the table of values and proven errors
  (:class:`DuelSolution`);
- :mod:`~phase10math.game.duel.columns` - a phase's turn solved at many utilities at once;
- :mod:`~phase10math.game.duel.layers` - the states of each layer and the last chances
  solved;
- :mod:`~phase10math.game.duel.pair` - the pair step: policy iteration of a layer's pairs;
- :mod:`~phase10math.game.duel.certificate` - the pair's interval check (the error bound);
- :mod:`~phase10math.game.duel.refinement` - a color phase's wide turns solved exactly;
- :mod:`~phase10math.game.duel.rounds` - visits and the targeted refinement rounds;
- :mod:`~phase10math.game.duel.solve` - the whole solve in order (:func:`solve_duel`);
- :mod:`~phase10math.game.duel.cluster` - the solve's steps as tasks on a Dask cluster
  (:class:`Cluster`), and :mod:`~phase10math.game.duel.tasks` - those tasks;
- :mod:`~phase10math.game.duel.checkpoint` - checkpoints, resuming after a kill (in the
  kit's files that cannot run code when read, :mod:`~phase10math._base.savefile`);
- :mod:`~phase10math.game.duel.files` - table files written and read;
- :mod:`~phase10math.game.duel.shipped` - the shipped tables and the chance to win read
  from them;
- :mod:`~phase10math.game.duel.strategy` - the win strategy in games;
- :mod:`~phase10math.game.duel.advice` - the holds ranked by the chance to win, in words;
- :mod:`~phase10math.game.duel.winrules` - rules for playing to win a person can remember,
  priced against the optimal player;
- :mod:`~phase10math.game.duel.samples` - seeded games' results against the table's values
  (their mean, standard error and difference in standard errors).
"""

from phase10math.game.duel.advice import (
    format_advice,
    win_advice,
)
from phase10math.game.duel.certificate import (
    FIRST_DELTA,
)
from phase10math.game.duel.checkpoint import (
    CHECKPOINT_EVERY,
    CHECKPOINT_SPACING,
    Checkpoint,
    seed_families,
)
from phase10math.game.duel.cluster import (
    CONNECT_TIMEOUT,
    Cluster,
)
from phase10math.game.duel.files import (
    OTHER_DICE_TABLE_FILES,
    PACKED_FORMAT,
    RECOMPUTE,
    TABLE_FILE,
    TABLE_FILES,
    TABLE_PACKAGE,
    PackedErrors,
    PackedStates,
    TableForm,
    format_headline,
    last_blocks,
    narrow_values,
    read_packed,
    read_table,
    shipped_ranges,
    state_blocks,
    table_payload,
    table_payload_meta,
    write_packed,
    write_table,
)
from phase10math.game.duel.pair import (
    MAX_ITER,
    NOISE,
    SEED_EVERY,
    SEED_START,
    TIGHTEN,
    TOL,
    VALUE_FIRST_BELOW,
)
from phase10math.game.duel.refinement import (
    COSTLY_CHUNK,
    REFINE_ALL,
    REFINE_CHUNK,
    spread_order,
)
from phase10math.game.duel.rounds import (
    MAX_GAIN,
    visits,
)
from phase10math.game.duel.setting import (
    MATCHUPS,
    PLAYS,
    Bonus,
    DuelGame,
    Key,
    LastKey,
    LazyTurns,
    Play,
    Player,
    Val,
    families,
    fingerprint,
    outcome_of,
    turn_of,
)
from phase10math.game.duel.shipped import (
    SHIPPED_DICE,
    chance_error,
    chance_to_win,
    check_covered,
    check_table_rules,
    color_reason,
    colors_fit,
    first_covered,
    serves_start,
    serving_tables,
    shipped_dice,
    shipped_table,
    state_reason,
    table_for_state,
    totals_reason,
    widest_table,
)
from phase10math.game.duel.solve import (
    FIRST_SHARE,
    MAX_ROUNDS,
    ROUND_LEAVE,
    ROUND_PICKS,
    solve_duel,
)
from phase10math.game.duel.strategy import (
    DuelStrategy,
    WinStrategy,
)
from phase10math.game.duel.table import (
    DuelSolution,
    iter_solved,
)

#: The public API: what a user of the two-player game imports (the same names as
#: :mod:`phase10math.game` offers). The package's other names (the solution class among them)
#: (the method's constants, its steps, the file formats) are importable from here for the
#: tests, benchmarks and tools, but are not a promised API.
__all__ = [
    "DuelGame",
    "Play",
    "WinStrategy",
    "chance_to_win",
    "chance_error",
    "shipped_table",
    "widest_table",
    "table_for_state",
    "serving_tables",
    "solve_duel",
    "win_advice",
    "visits",
]
