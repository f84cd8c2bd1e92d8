"""The state of a turn, without any widgets: the room of the play app where a turn lives.

A :class:`TurnState` holds the dice, the holds and the rolls, makes the moves (roll, hold,
a typed physical roll, stop, undo) and reads the turn the way a player needs it at the
table, as its methods:

- :meth:`~TurnState.standing`: your hold against the best, the cost in percentage points
  (or points for the score aim);
- :meth:`~TurnState.suggested_dice`: which of the ten dice the best hold keeps (to mark
  them); :meth:`~TurnState.meld_dice` the dice that make the phase;
- :meth:`~TurnState.made_now` / :meth:`~TurnState.stop_advised`: the roll already makes the
  phase - stop and score;
- :meth:`~TurnState.compare`: two holds side by side, with their value after each roll left;
- :meth:`~TurnState.enter_rerolled`: a physical roll typed as only the dice that were rolled
  (held dice stay), with errors that name the face and the reason
  (:meth:`~TurnState.check_rolled`); :meth:`~TurnState.example_faces` gives a valid example
  for the placeholder and :meth:`~TurnState.rolled_dice_faces` the six faces of each die
  rolled (for a "which die is this?" picker).

Each method is also a function of the turn under the same name (``made_now(state)``), as
earlier callers use it. Beside the turn: :class:`Choice` / :func:`judge`, a hold or stop
chosen, labelled best / fine / mistake / blunder by what it cost (:func:`mistake_label`), and
the words for values and costs (:func:`pct`, :func:`value_words`, :func:`cost_words`).

>>> st = TurnState(phase=1, seed=3)
>>> enter_rerolled(st, "10 10 W 5 6 7 1 2 3 8")
>>> st.hold(st.advice().best.keep)
>>> n = len(rolled_dice(st)); n
7
>>> try:
...     enter_rerolled(st, "10 10 10")
... except Exception as e:
...     print(e)
you rolled 7 dice (the dice not held); type 7 faces, not 3
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from phase10math._base.checks import public
from phase10math.dice.faces import (
    COLOR_NAMES,
    WILD,
    Face,
    Layout,
    parse_face,
    parse_faces,
    split_faces,
)
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import Meld, explain
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rolls import (
    assign_faces,
    dice_showing,
    first_unplaced,
    match_roll,
)
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules
from phase10math.errors import InvalidDiceError, InvalidHoldError, Phase10MathError
from phase10math.exact import percent
from phase10math.play.labels import (  # noqa: F401 - the names of a turn's words, here too
    CHANCE_AIMS,
    MISTAKE_LABELS,
    WIN_AIM,
    Choice,
    cost_words,
    judge,
    mistake_label,
    pct,
    severity,
    tie_ranks,
    value_words,
)
from phase10math.play.palette import LETTERS
from phase10math.turn.advisor import Advice, HoldOption, advise, turn_solution

# --------------------------------------------------------------------------- faces and dice


def face_label(f: Face | None) -> str:
    """What a die button shows: the number, ``W`` for a wild, ``?`` before the first roll."""
    if f is None:
        return "?"
    return "W" if f.is_wild else str(f.value)


def value_text(x: Fraction, objective: str) -> str:
    """A hold's value as shown in the advisor panel: a percentage or expected points."""
    return percent(x) if objective == "complete" else f"{float(x):.3f} pts"


def check_die_index(i: object, n: int) -> int:
    """``i`` as a die index 0..n-1 (counted from 0), else InvalidHoldError naming it.

    >>> check_die_index(3, 10)
    3
    >>> try:
    ...     check_die_index(1.5, 10)
    ... except ValueError as e:
    ...     print(e)
    die index 1.5: a whole number 0 to 9 (die 1 is 0)
    """
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n:
        raise InvalidHoldError(f"die index {i!r:.40}: a whole number 0 to {n - 1} (die 1 is 0)")
    return i


def die_indices(dice: object, n: int) -> set[int]:
    """``dice`` as a set of die indices 0..n-1, else InvalidHoldError naming the bad one.

    >>> sorted(die_indices([3, 1], 10))
    [1, 3]
    """
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Iterable):
        raise InvalidHoldError(f"die indices: a set or a list of them, not {dice!r:.40}")
    return {check_die_index(i, n) for i in dice}


def face_list(faces: object, what: str) -> list[Face | str]:
    """``faces`` as a list of faces or face strings (a string is split by the caller), else
    InvalidDiceError naming what was given."""
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
        raise InvalidDiceError(
            f"{what} takes faces as text ('8 8 W') or a list of faces, not {faces!r:.40}"
        )
    out = list(faces)
    bad = next((f for f in out if not isinstance(f, (Face, str))), None)
    if bad is not None:
        raise InvalidDiceError(f"{what}: {bad!r:.40} is not a face (e.g. '8', 'W', '10o')")
    return out


@public
class TurnState:
    """One turn of Phase 10 Dice without any widgets.

    ``dice[i]`` is the face die ``i`` of the layout shows (None before the first roll),
    ``held`` the dice the player keeps for the next roll, ``aside`` (sticky holds only) the
    dice set aside at an earlier roll, which cannot be taken back. A method that refuses
    (bad input, a move the rules forbid) raises a :class:`Phase10MathError` and changes
    nothing.
    """

    def __init__(
        self,
        phase: Phase | int | str = 1,
        objective: str = "complete",
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        rng: random.Random | None = None,
    ):
        self.phase = as_phase(phase)
        self.objective = Objective.parse(objective)
        self.rules = rules
        self.layout = layout
        self.rng = rng if rng is not None else random.Random(seed)
        self._advice: dict = {}
        self.new_turn()

    # ------------------------------------------------------------------ state
    def new_turn(
        self, phase: Phase | int | str | None = None, objective: str | None = None
    ) -> None:
        """Start a fresh turn (optionally at another phase or objective); both are checked
        before anything changes."""
        new_phase = as_phase(phase) if phase is not None else self.phase
        new_objective = Objective.parse(objective) if objective is not None else self.objective
        self.phase, self.objective = new_phase, new_objective
        self.dice: list[Face | None] = [None] * len(self.layout.dice)
        self.held: set[int] = set()
        self.aside: set[int] = set()
        self.rolls_done = 0
        self.stopped = False
        self.typed = False  # faces typed in: the advisor matches them to the dice itself
        # typed faces the player placed on their dice ("which die is this?"): die i shows
        # dice[i] for sure; the advisor fits the other typed faces in every way they go
        self.pinned: set[int] = set()
        # one entry per roll: the ten faces after it and the dice kept (not rolled) at it
        self.history: list[tuple[tuple[Face, ...], frozenset[int]]] = []
        # one-step undo: the turn before the last hold, typed roll or stop, and its name
        # (a roll of the dice here is never undone: that would be a free reroll)
        self.undoable: tuple[tuple, str] | None = None

    @property
    def n_dice(self) -> int:
        return len(self.layout.dice)

    @property
    def rolls_left(self) -> int:
        return self.rules.rolls - self.rolls_done

    @property
    def over(self) -> bool:
        """The turn has ended: three rolls made, or the player stopped."""
        return self.rolls_done >= self.rules.rolls or self.stopped

    @property
    def faces(self) -> tuple[Face, ...]:
        return tuple(f for f in self.dice if f is not None)

    @property
    def hold_carried(self) -> bool:
        """The dice held now are the dice kept at the last roll, not changed since: the
        player has not chosen this roll's hold yet (it is judged once changed, or rolled or
        stopped with)."""
        return (
            bool(self.held)
            and bool(self.history)
            and not self.over
            and self.held == set(self.history[-1][1])
        )

    def held_faces(self) -> tuple[Face, ...]:
        return tuple(self.dice[i] for i in sorted(self.held))

    def snapshot(self) -> tuple:
        """Everything that defines the turn (to check that a refused move changed nothing)."""
        return (
            self.phase,
            self.objective,
            tuple(self.dice),
            frozenset(self.held),
            frozenset(self.aside),
            self.rolls_done,
            self.stopped,
            self.typed,
            tuple(self.history),
            frozenset(self.pinned),
        )

    # ------------------------------------------------------------------ moves
    def roll(self) -> None:
        """Roll: all ten dice at the first roll, then every die not held."""
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        if self.rolls_done and len(self.held) == self.n_dice:
            raise InvalidHoldError("every die is held: release some dice or stop")
        first = self.rolls_done == 0
        for i, die in enumerate(self.layout.dice):
            if first or i not in self.held:
                self.dice[i] = self.rng.choice(die.faces)
        self._rolled(set() if first else set(self.held), typed=False)
        self.undoable = None

    def _rolled(self, kept: set[int], typed: bool) -> None:
        if self.rules.holds == "sticky":
            self.aside = set(kept)
        self.held = set(kept)
        self.rolls_done += 1
        self.typed = typed
        self.pinned &= kept  # a die rolled again shows a new face
        self.history.append((tuple(self.dice), frozenset(kept)))

    def toggle(self, i: int) -> None:
        """Hold die ``i`` (counted from 0) or release it."""
        check_die_index(i, self.n_dice)
        if self.rolls_done == 0:
            raise InvalidHoldError("roll first")
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        if i in self.aside:
            raise InvalidHoldError(
                f"die {i + 1} ({self.dice[i]}) was set aside at an earlier "
                "roll; with sticky holds it stays set aside"
            )
        self._remember("hold" if i not in self.held else "release")
        self.held ^= {i}

    def hold(self, keep: Sequence[Face | str] | str) -> None:
        """Hold exactly the dice showing these faces (e.g. the advisor's best hold),
        preferring dice already set aside, then dice already held."""
        self._check_roll_to_hold()
        faces = parse_faces(keep) if isinstance(keep, str) else parse_faces(face_list(keep, "hold"))
        self._set_held(self.indices_for(faces))

    def hold_dice(self, dice: Iterable[int]) -> None:
        """Hold exactly these dice (indices counted from 0), e.g. the hold that plays to
        win; refused (nothing changes) for an index out of range."""
        if not isinstance(dice, (set, frozenset, list, tuple)):
            raise InvalidHoldError(
                f"hold_dice takes die indices (a set or a list), not {dice!r:.40}"
            )
        self._check_roll_to_hold()
        self._set_held({check_die_index(i, self.n_dice) for i in dice})

    def hold_option(self, option: HoldOption) -> None:
        """Hold exactly the dice of one of the advisor's holds for these dice (by position:
        where two different dice show the same face, the hold says which)."""
        if not isinstance(option, HoldOption):
            raise InvalidHoldError(
                f"hold_option takes one of the advisor's holds (a HoldOption), not {option!r:.40}"
            )
        self._check_roll_to_hold()
        self._set_held(self.option_dice(option))

    def _check_roll_to_hold(self) -> None:
        if self.rolls_done == 0 or self.over:
            raise InvalidHoldError("there is no roll to hold dice from")

    def _set_held(self, dice: set[int]) -> None:
        if not self.aside <= dice:
            raise InvalidHoldError("with sticky holds the dice set aside earlier stay set aside")
        if dice != self.held:
            self._remember("hold")
        self.held = dice

    def _remember(self, what: str) -> None:
        self.undoable = (self.snapshot(), what)

    def undo(self) -> str:
        """Take back the last hold, typed roll or stop of this turn (one step); returns what
        was undone. A roll of the dice here cannot be undone (it would be a free reroll)."""
        if self.undoable is None:
            raise InvalidHoldError(
                "nothing to undo (a hold, a typed roll or a stop of this turn can be undone "
                "once; a roll of the dice cannot)"
            )
        snap, what = self.undoable
        self._restore(snap)
        self.undoable = None
        return what

    def stop(self) -> None:
        """End the turn now with the dice as they are."""
        if self.rolls_done == 0:
            raise InvalidHoldError("roll first")
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        self._remember("stop")
        self.stopped = True

    def rolled_last(self) -> list[int]:
        """The dice rolled at the last roll (all ten at the first), in layout order."""
        if not self.history:
            return []
        return [i for i in range(self.n_dice) if i not in self.history[-1][1]]

    def place(self, face_at: int, die: int) -> None:
        """Say which die shows a typed face: the face now shown as die ``face_at`` lies on die
        ``die`` (both counted from 0, dice rolled at the last roll). The face on ``die`` moves
        to the face's old die where it can (the two swap, nothing else moves); otherwise the
        other faces rolled with it are fitted to the other dice again. The advisor fits the
        typed faces only in the ways that agree (see :func:`~phase10math.turn.advisor.advise`,
        ``dice_of``). Refusals change nothing.
        """
        if not self.typed or self.over:
            raise InvalidHoldError("only the faces of a typed roll are placed on their dice")
        rolled = self.rolled_last()
        for x, what in ((face_at, "face"), (die, "die")):
            if isinstance(x, bool) or not isinstance(x, int) or x not in rolled:
                raise InvalidHoldError(
                    f"{what} {x if not isinstance(x, int) else x + 1}: choose one of the dice "
                    f"rolled last ({', '.join(str(i + 1) for i in rolled)})"
                )
        f = self.dice[face_at]
        if self.layout.dice[die].show(f) is None:
            raise InvalidDiceError(
                f"die {die + 1} ({self.layout.dice[die]}) has no {f}: choose a die that shows it"
            )
        fixed = {i: i for i in self.pinned if i in rolled and i not in (face_at, die)}
        fixed[face_at] = die
        if die == face_at or self.layout.dice[face_at].show(self.dice[die]) is not None:
            # the two faces swap dice and every other face stays where the player saw it
            move = dict(fixed) | {die: face_at}
        else:
            rest_at = [i for i in rolled if i not in fixed]
            free = [d for d in rolled if d not in fixed.values()]
            where = assign_faces(
                [self.dice[i] for i in rest_at], [self.layout.dice[d] for d in free]
            )
            if where is None:
                raise InvalidDiceError(
                    f"with your {f} on die {die + 1} the other faces rolled cannot all fit "
                    "the other dice: check the faces"
                )
            move = dict(fixed) | {i: free[k] for i, k in zip(rest_at, where, strict=True)}
        old = self.snapshot()
        new = list(self.dice)
        for i, d in move.items():
            new[d] = self.dice[i]
        self.dice = new
        self.held = {move.get(i, i) for i in self.held}
        self.pinned = {i for i in self.pinned if i not in rolled} | set(fixed.values())
        faces, kept = self.history[-1]
        self.history[-1] = (tuple(new), kept)
        try:
            self.advice()
        except Phase10MathError:
            self._restore(old)
            raise
        self.undoable = (old, "placing the face")

    def enter(self, text: str | Sequence[Face | str]) -> None:
        """Use a physical roll: the ten faces in front of the player, typed in.

        After the first roll, the dice held must be among the faces typed (they were not
        rolled). Raises InvalidDiceError with a clear message, leaving the turn unchanged,
        when the faces cannot be rolled with the layout.
        """
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        faces = parse_faces(text if isinstance(text, str) else face_list(text, "enter"))
        if len(faces) != self.n_dice:
            raise InvalidDiceError(
                f"type the {self.n_dice} dice in front of you (e.g. "
                f"10o 10r W 5g ...); got {len(faces)}"
            )
        owners = match_roll(faces, self.layout)
        if self.rolls_done and len(self.held) == self.n_dice:
            raise InvalidHoldError("every die is held: release some dice or stop")
        if self.phase.uses_color:
            missing = [i for i, f in enumerate(faces, 1) if f.color is None]
            if missing:
                raise InvalidDiceError(
                    f"die {missing[0]} ({faces[missing[0] - 1]}) has no color; phase "
                    f"{self.phase.number} counts colors: write r/o/b/g after each number "
                    "(e.g. 10o, Wg)"
                )
        if not self.rolls_done:
            new: list[Face | None] = [None] * self.n_dice
            kept: set[int] = set()
            for f, di in zip(faces, owners, strict=True):
                new[di] = f
        else:
            new, kept = self._placed_after_holds(faces)
        old = self.snapshot()
        self.dice = new
        self._rolled(kept, typed=True)
        if not self.over:
            try:
                self.advice()  # the advisor may still refuse (e.g. ambiguous faces)
            except Phase10MathError:
                self._restore(old)
                raise
        self.undoable = (old, "typed roll")

    def _placed_after_holds(self, faces: list[Face]) -> tuple[list[Face | None], set[int]]:
        """The faces of a roll after the first, on the dice: the dice held stay where they
        are (each among the faces typed), the other faces go on the other dice; with the
        dice held."""
        new: list[Face | None] = [None] * self.n_dice
        kept: set[int] = set()
        # the dice held stay where they are; the other faces go on the other dice
        rest = list(faces)
        for i in sorted(self.held):
            j = next((j for j, f in enumerate(rest) if f == self.dice[i]), None)
            if j is None:
                j = next((j for j, f in enumerate(rest) if f.matches(self.dice[i])), None)
            if j is None:
                raise InvalidDiceError(
                    f"you hold {self.dice[i]} but it is not among the faces typed; the "
                    "dice held are not rolled again (release it first)"
                )
            rest.pop(j)
            new[i] = self.dice[i]
            kept.add(i)
        free = [d for d in range(self.n_dice) if d not in kept]
        free_dice = [self.layout.dice[d] for d in free]
        where = assign_faces(rest, free_dice) if len(rest) == len(free) else None
        if where is None:
            raise InvalidDiceError(
                "the faces typed cannot all show on the dice that were rolled (the dice "
                "not held): check the faces"
            )
        for f, k in zip(rest, where, strict=True):
            new[free[k]] = f
        return new, kept

    def _restore(self, snap: tuple) -> None:
        (
            self.phase,
            self.objective,
            dice,
            held,
            aside,
            self.rolls_done,
            self.stopped,
            self.typed,
            history,
            pinned,
        ) = snap
        self.dice, self.held, self.aside = list(dice), set(held), set(aside)
        self.pinned = set(pinned)
        self.history = list(history)

    # ------------------------------------------------------------------ analysis
    def advice(self) -> Advice | None:
        """The advisor's ranking of holds for the dice in front of the player (None before
        the first roll and after the turn)."""
        if self.rolls_done == 0 or self.over:
            return None
        key = (
            self.phase,
            self.objective,
            self.rules,
            self.layout,
            tuple(self.dice),
            self.rolls_left,
            frozenset(self.aside),
            self.typed,
            frozenset(self.pinned),
        )
        if key not in self._advice:
            if len(self._advice) > 64:
                self._advice.clear()
            aside = [self.dice[i] for i in sorted(self.aside)]
            self._advice[key] = advise(
                self.dice,
                self.rolls_left,
                self.phase,
                self.objective,
                self.rules,
                self.layout,
                set_aside=aside,
                by_die=not self.typed,
                dice_of={i: i for i in sorted(self.pinned)} if self.typed else None,
            )
        return self._advice[key]

    def current_option(self) -> tuple[int, HoldOption] | None:
        """The rank (1 = best) and option of the hold the player has chosen now."""
        adv = self.advice()
        if adv is None:
            return None
        gid = self._hold_state()
        for rank, o in enumerate(adv.options, 1):
            if o.state == gid:
                return rank, o
        want = Counter(f.value for f in self.held_faces())  # fallback: by numbers
        for rank, o in enumerate(adv.options, 1):
            if Counter(f.value for f in o.keep) == want:
                return rank, o
        return None

    def _hold_state(self) -> int:
        return self.hold_gid(self.held)

    def phase_value(self) -> Fraction:
        """The phase's value before the turn with optimal play (probability or points)."""
        return turn_solution(self.phase, self.objective, self.rules, self.layout).value()

    def result(self) -> Meld | None:
        """How the final dice meld (None while the turn goes on)."""
        if not self.over:
            return None
        return explain(self.phase, list(self.dice), self.rules)

    # ------------------------------------------------------------------ reading the turn

    def stop_value(self) -> Fraction:
        """What stopping now is worth for the aim: the chance 1 or 0 (the phase is made or not)
        or the score of the dice as they are (0 when the phase is not made). Not the value of
        holding every die, which keeps the rolls left (with free holds the dice can be rolled
        again later).

        >>> st = TurnState(phase=1)
        >>> st.enter("6o 9b 6b 9r 6b 9g Wr 3g Wg 3b")
        >>> stop_value(st)
        Fraction(1, 1)
        """
        m = explain(self.phase, list(self.dice), self.rules)
        if not m.complete:
            return Fraction(0)
        return Fraction(1) if self.objective == "complete" else Fraction(m.score)

    def standing(self) -> Standing | None:
        """Your hold against the best (None before the first roll and after the turn)."""
        adv = self.advice()
        if adv is None:
            return None
        ranks = tie_ranks(adv.options)
        cur = self.current_option()
        mine, my_rank = (cur[1], ranks[cur[0] - 1]) if cur is not None else (None, None)
        return Standing(self.objective, tuple(adv.options), tuple(ranks), mine, my_rank)

    def indices_for(self, keep: Iterable[Face]) -> set[int]:
        """The dice showing the faces of a hold, preferring dice set aside, then dice held now
        (so the marked dice move as little as possible)."""
        order = sorted(
            range(self.n_dice), key=lambda i: (i not in self.aside, i not in self.held, i)
        )
        keep = list(keep)
        chosen = dice_showing(self.dice, keep, order, Face.matches)
        if chosen is None:  # the first face that does not fit names the problem
            k = first_unplaced(self.dice, keep, order, Face.matches)
            raise InvalidHoldError(
                f"cannot hold {keep[k]}: the dice show {' '.join(map(str, self.dice))}"
            )
        return set(chosen)

    def option_dice(self, option: HoldOption) -> set[int]:
        """The dice (indices) one of the advisor's holds for these dice keeps: its positions
        (the advisor is given the dice in layout order), else the dice showing its faces."""
        if option.positions:
            if max(option.positions) >= self.n_dice:
                raise InvalidHoldError("this hold is for other dice")
            return set(option.positions)
        return self.indices_for(option.keep)

    def suggested_dice(self) -> set[int]:
        """The dice the best hold keeps (empty before the first roll, after the turn, and while
        the best hold depends on which die shows which typed face)."""
        adv = self.advice()
        return set() if adv is None or adv.ambiguous else self.option_dice(adv.best)

    def made_now(self) -> Meld | None:
        """How the dice in front of the player make the phase, while the turn goes on."""
        if self.rolls_done == 0 or self.over:
            return None
        m = explain(self.phase, list(self.dice), self.rules)
        return m if m.complete else None

    def option_of(self, dice: Iterable[int]) -> HoldOption | None:
        """The advisor's hold (for the turn's aim) that keeps these dice (indices), or None."""
        adv = self.advice()
        if adv is None:
            return None
        try:
            gid = self.hold_gid(dice)
        except (Phase10MathError, KeyError, ValueError):
            return None
        return next((o for o in adv.options if o.state == gid), None)

    def meld_dice(self) -> set[int]:
        """The dice whose faces make the phase now (empty when it is not made): what the stars
        mark when stopping is best (not the dice that do not count)."""
        m = self.made_now()
        if m is None:
            return set()
        try:
            return self.indices_for([f for g in m.groups for f in g.dice])
        except InvalidHoldError:
            return set()

    def stop_advised(self) -> bool:
        """The best hold keeps every die: the player should stop and score now."""
        adv = self.advice()
        return adv is not None and not adv.ambiguous and len(adv.best.keep) == self.n_dice

    def hold_gid(self, idx: Iterable[int]) -> int:
        """The solver's state id of holding these dice (indices in layout order)."""
        dice = die_indices(idx, self.n_dice)
        if any(self.dice[i] is None for i in dice):
            raise InvalidHoldError("roll first: the dice show no faces yet")
        sol = turn_solution(self.phase, self.objective, self.rules, self.layout)
        return sol.space.hold_id(self.layout, {i: self.dice[i] for i in dice})

    def compare(self, a: Iterable[int], b: Iterable[int]) -> list[CompareRow]:
        """Two holds (die indices) side by side: for each remaining roll, the chance (or expected
        score) if the turn ended after that roll, with the best play in between; the last row is
        the hold's value. Needs free holds (the sticky solver ranks holds the same way but is not
        split by roll here)."""
        if self.rolls_done == 0 or self.over:
            raise InvalidHoldError("roll first")
        sol = turn_solution(self.phase, self.objective, self.rules, self.layout)
        ga, gb = self.hold_gid(a), self.hold_gid(b)
        rows = []
        left = self.rolls_left
        for r in range(1, left + 1):
            label = (
                "after the next roll"
                if r == 1 and left > 1
                else "after the last roll"
                if r == left
                else f"after {r} more rolls"
            )
            try:
                rows.append(CompareRow(label, sol.hold_value(ga, r), sol.hold_value(gb, r)))
            except (KeyError, AttributeError, IndexError):  # pragma: no cover - other solvers
                continue
        return rows

    def rolled_dice(self) -> list[int]:
        """The dice rolled next: all of them at the first roll, then the dice not held."""
        if self.rolls_done == 0:
            return list(range(self.n_dice))
        return [i for i in range(self.n_dice) if i not in self.held]

    def example_faces(self) -> str:
        """A valid example of what to type for the dice rolled next (colors included)."""
        dice = self.rolled_dice()
        faces = [self.layout.dice[i].faces[(3 * k + 1) % 6] for k, i in enumerate(dice)]
        return " ".join(str(f) for f in faces)

    def check_rolled(self, text: str) -> list[Face]:
        """Parse and check faces typed for the dice rolled next; raise InvalidDiceError naming
        the face and the reason."""
        if not isinstance(text, str):
            raise InvalidDiceError(f"type the faces as text (e.g. '8 8 W'), not {text!r:.40}")
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        dice_idx = self.rolled_dice()
        if not dice_idx:
            raise InvalidHoldError("every die is held, so nothing is rolled: release dice or stop")
        n = len(dice_idx)
        which = "all ten dice" if self.rolls_done == 0 else "the dice not held"
        tokens = split_faces(text)
        if not tokens:
            raise InvalidDiceError(
                f"type the {n} faces you rolled ({which}), e.g. {self.example_faces()}"
            )
        faces = []
        for tok in tokens:
            try:
                faces.append(parse_face(tok))
            except InvalidDiceError:
                raise InvalidDiceError(
                    f"'{tok}' is not a die face: write 1-10 or W, with an optional color letter "
                    "r, o, b or g (e.g. 7r, Wg)"
                ) from None
        if len(faces) != n:
            raise InvalidDiceError(
                f"you rolled {n} dice ({which}); type {n} faces, not {len(faces)}"
            )
        dice = [self.layout.dice[i] for i in dice_idx]
        all_dice = self.layout.dice
        if self.phase.uses_color:
            for tok, f in zip(tokens, faces):
                if f.color is None:
                    colors = sorted(
                        {g.color for d in all_dice for g in d.faces if g.value == f.value},
                        key="robg".index,
                    )
                    opts = ", ".join(_what(f) + c for c in colors)
                    raise InvalidDiceError(
                        f"'{tok}' has no color: phase {self.phase.number} counts colors; "
                        f"write its color letter ({opts})"
                    )
        for tok, f in zip(tokens, faces):
            if not any(d.show(f) is not None for d in all_dice):
                same = sorted({str(g) for d in all_dice for g in d.faces if g.value == f.value})
                raise InvalidDiceError(
                    f"'{tok}': no die has {_a_face(f)}; the {_what(f)} faces are {' '.join(same)}"
                )
            if not any(d.show(f) is not None for d in dice):
                raise InvalidDiceError(
                    f"'{tok}': only dice you held show {_a_face(f)}, and held dice "
                    "are not rolled (release one to roll it)"
                )
        for kind, words in (("high", "5-10"), ("low", "1-4 or W")):
            typed = [
                t
                for t, f in zip(tokens, faces)
                if all(d.kind == kind for d in all_dice if d.show(f) is not None)
            ]
            rolled = sum(d.kind == kind for d in dice)
            if len(typed) > rolled:
                raise InvalidDiceError(
                    f"{len(typed)} faces show {words} ({' '.join(typed)}) but you rolled only "
                    f"{rolled} {kind} dice: each die shows one face"
                )
        if assign_faces(faces, dice) is None:
            # a group of faces that only fit fewer dice than there are faces (Hall's condition)
            for f in set(faces):
                fit = [d for d in dice if d.show(f) is not None]
                same = [
                    t
                    for t, g in zip(tokens, faces)
                    if {id(d) for d in dice if d.show(g) is not None} <= {id(d) for d in fit}
                ]
                if len(same) > len(fit):
                    raise InvalidDiceError(
                        f"{' '.join(same)}: only {len(fit)} of the dice you rolled can show "
                        f"{'this face' if len(same) == 1 else 'these faces'}"
                    )
            raise InvalidDiceError("these faces cannot all show at once on the dice you rolled")
        return faces

    def enter_rerolled(self, text: str) -> None:
        """Use a physical roll: the faces of the dice just rolled (all ten at the first roll,
        then only the dice not held - the held dice stay). Refusals change nothing."""
        faces = self.check_rolled(text)
        if self.rolls_done == 0:
            self.enter(list(faces))
            return
        held = [self.dice[i] for i in sorted(self.held)]
        try:
            self.enter(held + list(faces))
        except Phase10MathError as e:  # e.g. ambiguous faces for the advisor
            raise InvalidDiceError(str(e)) from None

    def dice_for_face(self, i: int) -> list[int]:
        """The dice that can show the typed face now shown as die ``i`` (among the dice rolled at
        the last roll): what the "which die is this?" picker offers."""
        f = self.dice[check_die_index(i, self.n_dice)]
        if f is None:
            return []
        return [d for d in self.rolled_last() if self.layout.dice[d].show(f) is not None]

    def rolled_dice_faces(self) -> list[tuple[int, tuple[Face, ...]]]:
        """Each die rolled next with its six faces (what a "which die is this?" picker shows)."""
        return [(i, self.layout.dice[i].faces) for i in self.rolled_dice()]


# --------------------------------------------------------------------------- ranks and costs


@dataclass(frozen=True)
class Standing:
    """Your hold against the best for the dice in front of you."""

    objective: str
    options: tuple[HoldOption, ...]
    ranks: tuple[int, ...]
    mine: HoldOption | None
    my_rank: int | None

    @property
    def best(self) -> HoldOption:
        return self.options[0]

    @property
    def best_ties(self) -> int:
        """How many holds are as good as the best (1: the best is unique)."""
        return self.ranks.count(1)

    @property
    def n(self) -> int:
        return len(self.options)

    @property
    def cost(self) -> Fraction:
        return self.best.value - self.mine.value if self.mine is not None else Fraction(0)

    @property
    def is_best(self) -> bool:
        return self.mine is not None and self.cost == 0

    @property
    def label(self) -> str | None:
        """best / fine / mistake / blunder (None without a hold), see :func:`mistake_label`."""
        return None if self.mine is None else mistake_label(self.cost, self.objective)

    def rank_words(self) -> str:
        """``rank 3 of 576`` or ``tied 1st of 576 (with 5 others)``."""
        if self.my_rank is None:
            return ""
        same = self.ranks.count(self.my_rank)
        if same > 1:
            return f"tied at rank {self.my_rank} with {same - 1} other hold(s), of {self.n}"
        return f"rank {self.my_rank} of {self.n}"


# --------------------------------------------------------------------------- words


def groups_words(m: Meld, colors: bool = False) -> str:
    """The groups that make a phase, e.g. ``set of 3: 8 8 8; set of 3: 10 W(=10) W(=10)``;
    ``colors``: with each face's color letter, as the chips show it (``7G``).

    >>> from phase10math.dice.meld import explain
    >>> groups_words(explain(1, parse_faces("6o 9b 6b 9r 6b 9g Wr 3g Wg 3b")))
    'set of 3: 6 6 6; set of 3: 9 9 9'
    """
    out = []
    for g in m.groups:
        shown = " ".join(
            ("W" if f.is_wild else str(f.value))
            + (LETTERS[f.color] if colors else "")
            + (f"(={s})" if f.is_wild and s is not None else "")
            for f, s in zip(g.dice, g.stands_for)
        )
        name = f"{g.size} of one color" if g.kind == "color" else f"{g.kind} of {g.size}"
        out.append(f"{name}: {shown}")
    return "; ".join(out)


@dataclass(frozen=True)
class CompareRow:
    label: str
    a: Fraction
    b: Fraction


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (an orange, a red, an 8, an 11).

    >>> [article(w) for w in ("orange", "red", "8", "11", "W")]
    ['an', 'a', 'an', 'an', 'a']
    """
    return "an" if word[:1].lower() in "aeiou8" or word[:2] in ("11", "18") else "a"


def _what(f: Face) -> str:
    return "W" if f.value == WILD else str(f.value)


def _color_word(f: Face) -> str:
    return f"{COLOR_NAMES[f.color]} " if f.color else ""


def _a_face(f: Face) -> str:
    words = f"{_color_word(f)}{_what(f)}"
    return f"{article(words)} {words}"


# the methods of a turn, as functions of it (``made_now(state)``), for existing callers
stop_value = TurnState.stop_value
standing = TurnState.standing
indices_for = TurnState.indices_for
option_dice = TurnState.option_dice
suggested_dice = TurnState.suggested_dice
made_now = TurnState.made_now
option_of = TurnState.option_of
meld_dice = TurnState.meld_dice
stop_advised = TurnState.stop_advised
hold_gid = TurnState.hold_gid
compare = TurnState.compare
rolled_dice = TurnState.rolled_dice
example_faces = TurnState.example_faces
check_rolled = TurnState.check_rolled
enter_rerolled = TurnState.enter_rerolled
dice_for_face = TurnState.dice_for_face
rolled_dice_faces = TurnState.rolled_dice_faces
