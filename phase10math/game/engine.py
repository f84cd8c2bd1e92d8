"""The whole game of Phase 10 Dice: players, turns, bonuses, end of game, solitaire scoring.

A :class:`Game` plays 1 to 8 players (each a :mod:`~phase10math.game.strategies` strategy) through
phases 1-10 (or 1-20) under :class:`~phase10math.dice.rules.Rules`, following RULES.md section 1:

- turn order by a roll-off of one high die (highest starts, tied leaders roll again), then in
  seat order from the starter;
- a turn is up to ``rules.rolls`` rolls; a strategy keeps a set of dice (by die index) after
  each roll but the last; keeping all ten stops the turn early; with sticky holds kept dice
  stay kept;
- only the current phase scores (best assignment, :func:`~phase10math.dice.meld.explain`);
- five-phase bonus: on completing phase 5, +40 if the total (phase scores and bonuses so far,
  penalties not counted) is then over 220;
- first-finish bonus: +40 to the first player to complete the last phase, and to a player
  later in the turn order who completes it in the same round (during their last chance);
- end of game: once a player completes the last phase, every other player gets one last
  chance - turns at their current phase, continuing to the next phase while they succeed;
- solitaire (one player): -5 per failed turn, counted at the end, and the first-finish bonus
  only if the last phase was made at the first try.

Dice come from a :class:`RandomDice` (seeded) or :class:`ScriptedDice` (fixed faces, for
tests and replays). Every roll, hold, score and bonus is an :class:`Event` in ``game.log``;
:meth:`GameResult.score_sheet` prints the score sheet.

>>> from phase10math.game.strategies import StopStrategy
>>> g = Game([StopStrategy()], seed=1, phases=1)
>>> res = g.play()
>>> res.players[0].phase_done  # one phase game, stops after the first roll of each turn
1
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from phase10math._base.checks import check_int, check_seed, public
from phase10math.dice.faces import Face, Layout, check_layout, parse_face
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import explain
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rolls import assign_faces
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import (
    InvalidDiceError,
    InvalidHoldError,
    InvalidRulesError,
    WrongTypeError,
)

MAX_PLAYERS = 8
MAX_TURNS = 100_000  # safety stop for strategies that never complete a phase


# --------------------------------------------------------------------------- dice sources


def check_dice(dice: Sequence[int], layout: Layout) -> list[int]:
    """The indices of the dice to roll: distinct dice of ``layout`` (InvalidDiceError else)."""
    n = len(layout.dice)
    picked = list(dice)
    if len(set(picked)) != len(picked) or not all(0 <= i < n for i in picked):
        raise InvalidDiceError(f"dice={picked!r:.60}; allowed: distinct die indices 0..{n - 1}")
    return picked


@public
class RandomDice:
    """Seeded fair dice: each die shows one of its six faces with probability 1/6."""

    def __init__(self, layout: Layout = DEFAULT_LAYOUT, seed: int | None = None) -> None:
        self.layout = layout
        self.rng = np.random.default_rng(check_seed(seed))

    def roll(self, dice: Sequence[int]) -> list[Face]:
        """Faces shown by the dice with these indices (layout order)."""
        dice = check_dice(dice, self.layout)
        picks = self.rng.integers(0, 6, size=len(dice))
        return [self.layout.dice[i].faces[int(k)] for i, k in zip(dice, picks, strict=True)]

    def high_die(self) -> int:
        """One roll of a high die (5..10) for the turn-order roll-off."""
        return int(self.rng.integers(5, 11))


@public
class ScriptedDice:
    """Dice that show given faces, in order: each entry of ``rolls`` is the faces of the dice
    rolled next (any order; ``'7'`` matches any 7, ``'7o'`` only an orange 7). ``high`` lists the
    roll-off results. Running out of script, or a face no rolled die shows, raises
    InvalidDiceError.

    >>> d = ScriptedDice(["10 10 10 5 5 5 W 1 2 3"])
    >>> sorted(str(f.value) for f in d.roll(range(10)))   # the scripted faces, on real dice
    ['0', '1', '10', '10', '10', '2', '3', '5', '5', '5']
    """

    def __init__(
        self,
        rolls: Iterable[str | Sequence[str | Face]],
        high: Iterable[int] = (),
        layout: Layout = DEFAULT_LAYOUT,
    ) -> None:
        self.layout = layout
        self.rolls = [r.split() if isinstance(r, str) else list(r) for r in rolls]
        self.high = list(high)
        self.used = 0

    def roll(self, dice: Sequence[int]) -> list[Face]:
        dice = check_dice(dice, self.layout)
        if self.used >= len(self.rolls):
            raise InvalidDiceError(f"scripted dice ran out after {self.used} rolls")
        want = [parse_face(t) for t in self.rolls[self.used]]
        self.used += 1
        if len(want) != len(dice):
            raise InvalidDiceError(
                f"scripted roll {self.used} gives {len(want)} faces for {len(dice)} rolled dice"
            )
        rolled = [self.layout.dice[i] for i in dice]
        where = assign_faces(want, rolled)
        if where is None:
            raise InvalidDiceError(
                f"scripted roll {self.used} ({' '.join(map(str, want))}) cannot be shown by the "
                f"rolled dice"
            )
        shown: list[Face] = [want[0]] * len(rolled)
        for f, d in zip(want, where):
            shown[d] = rolled[d].show(f)
        return shown

    def high_die(self) -> int:
        if not self.high:
            raise InvalidDiceError("scripted dice: no roll-off result left")
        v = int(self.high.pop(0))
        if not 5 <= v <= 10:
            raise InvalidDiceError(f"roll-off result {v}: a high die shows 5..10")
        return v


# --------------------------------------------------------------------------- events, players


@dataclass(frozen=True)
class Event:
    """One line of the game log. ``kind``: order, roll, hold, made, failed, bonus, penalty,
    last_chance, end."""

    kind: str
    player: int = -1
    round: int = 0
    phase: int = 0
    dice: tuple[Face, ...] = ()
    points: int = 0
    note: str = ""

    def __str__(self) -> str:
        who = f"P{self.player + 1}" if self.player >= 0 else "--"
        dice = " ".join(map(str, self.dice))
        parts = [f"r{self.round:<3} {who:<3} {self.kind:<11}"]
        if self.phase:
            parts.append(f"phase {self.phase:<2}")
        if dice:
            parts.append(dice)
        if self.points:
            parts.append(f"{self.points:+d}")
        if self.note:
            parts.append(self.note)
        return " ".join(parts)


@dataclass
class PlayerState:
    """A player's progress: ``phase`` is the phase being attempted (index into the game's
    phases, 1-based); ``scores[k]`` the points of phase k once made; ``tries[k]`` turns spent."""

    name: str
    seat: int
    phase: int = 1
    scores: dict[int, int] = field(default_factory=dict)
    tries: dict[int, int] = field(default_factory=dict)
    bonuses: dict[str, int] = field(default_factory=dict)
    failed_turns: int = 0
    penalty: int = 0
    finished: bool = False

    @property
    def running_total(self) -> int:
        """Phase scores plus bonuses (what the five-phase threshold looks at)."""
        return sum(self.scores.values()) + sum(self.bonuses.values())

    @property
    def total(self) -> int:
        """The grand total: phase scores, bonuses, minus solitaire penalties."""
        return self.running_total - self.penalty

    @property
    def phase_done(self) -> int:
        return len(self.scores)


@dataclass(frozen=True)
class TurnView:
    """What a strategy sees when choosing a hold. ``faces[i]`` shows on die i (layout order);
    ``held`` are the dice kept so far this turn; ``rolls_left`` >= 1 rolls remain."""

    phase: Phase
    number: int
    faces: tuple[Face, ...]
    rolls_left: int
    held: frozenset[int]
    rules: Rules
    layout: Layout
    player: PlayerState
    solitaire: bool
    last_chance: bool = False


@runtime_checkable
class Strategy(Protocol):
    """Anything with a ``name`` and ``hold(view) -> iterable of die indices to keep`` (the
    strategies themselves are in :mod:`phase10math.game.strategies`). A strategy that reads
    the other players' score sheets (``win``) also has ``attach(game)``, which the game calls
    once when it is set up."""

    name: str

    def hold(self, view: TurnView) -> Sequence[int] | frozenset[int]: ...


# --------------------------------------------------------------------------- the game


@dataclass
class GameResult:
    players: list[PlayerState]
    order: list[int]
    log: list[Event]
    rounds: int
    solitaire: bool
    phases: int

    @property
    def winners(self) -> list[int]:
        """Seats of the player(s) with the highest grand total."""
        best = max(p.total for p in self.players)
        return [p.seat for p in self.players if p.total == best]

    def score_sheet(self) -> str:
        """The score sheet: one row per phase, one column per player (points and tries)."""
        ps = [self.players[s] for s in self.order]
        w = 14
        lines = [
            "Phase 10 Dice score sheet" + (" (solitaire)" if self.solitaire else ""),
            f"{'phase':<6}" + "".join(f"{p.name[: w - 1]:>{w}}" for p in ps),
        ]
        for k in range(1, self.phases + 1):
            cells = []
            for p in ps:
                if k in p.scores:
                    cells.append(f"{p.scores[k]} ({p.tries[k]}t)")
                elif k in p.tries:
                    cells.append(f"- ({p.tries[k]}t)")
                else:
                    cells.append("")
            lines.append(f"{k:<6}" + "".join(f"{c:>{w}}" for c in cells))
        for label, key in (("bonus 5", "five_phase"), ("finish", "first_finish")):
            lines.append(f"{label:<6}" + "".join(f"{p.bonuses.get(key, 0):>{w}}" for p in ps))
        if self.solitaire:
            lines.append(f"{'fails':<6}" + "".join(f"{-p.penalty:>{w}}" for p in ps))
        lines.append(f"{'total':<6}" + "".join(f"{p.total:>{w}}" for p in ps))
        names = ", ".join(self.players[s].name for s in self.winners)
        lines.append(f"rounds played: {self.rounds}; winner: {names}")
        return "\n".join(lines)

    def log_text(self) -> str:
        return "\n".join(str(e) for e in self.log)


def sheet_legend(rules: Rules, solitaire: bool = False) -> list[str]:
    """What the rows and marks of :meth:`GameResult.score_sheet` mean under ``rules``."""
    lines = [
        "a phase's cell: its points (the dice that made it) and (Nt) the turns it took",
        "- (Nt): the phase not made in N turns",
        f"bonus 5: {rules.five_phase_bonus} points for a total over "
        f"{rules.five_phase_threshold} on making phase 5",
        f"finish: {rules.first_finish_bonus} points for finishing the last phase "
        + (
            "at its first try"
            if solitaire
            else "in the round it is first finished (a later seat of that round too)"
        ),
    ]
    if solitaire:
        lines.append(f"fails: {rules.solitaire_penalty} points lost per failed turn")
    return lines


@public
class Game:
    """A game between strategies (seat order as given). ``phases``: 10 or 20 (or fewer, for
    short test games); ``solitaire`` defaults to True for one player; ``start_phase``: the
    phase every player starts at with 0 points (1; a later one plays the end of a game, e.g.
    9 for the last two phases)."""

    def __init__(
        self,
        strategies: Sequence[Strategy],
        *,
        phases: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        dice: RandomDice | ScriptedDice | None = None,
        solitaire: bool | None = None,
        names: Sequence[str] | None = None,
        start_phase: int = 1,
    ) -> None:
        check_rules(rules)
        check_layout(layout)
        for i, s in enumerate(strategies):  # every seat (the check above samples one)
            if not isinstance(s, Strategy):
                raise WrongTypeError(
                    f"Game(): strategies[{i}]={s!r:.40} ({type(s).__name__}); accepts a "
                    "Strategy (a name and a hold(view) method)"
                )
        if not 1 <= len(strategies) <= MAX_PLAYERS:
            raise InvalidRulesError(f"{len(strategies)} players; allowed: 1..{MAX_PLAYERS}")
        if isinstance(phases, bool) or not isinstance(phases, int) or not 1 <= phases <= 20:
            raise InvalidRulesError(f"phases={phases!r}; allowed: 1..20 (10 or 20 for a game)")
        if (
            isinstance(start_phase, bool)
            or not isinstance(start_phase, int)
            or not 1 <= start_phase <= phases
        ):
            raise InvalidRulesError(f"start_phase={start_phase!r}; allowed: 1..{phases}")
        if solitaire and len(strategies) != 1:
            raise InvalidRulesError("solitaire scoring is for one player")
        if names is not None and len(names) != len(strategies):
            raise InvalidRulesError("give one name per player")
        self.strategies = list(strategies)
        self.phases = phases
        self.rules = rules
        self.layout = layout
        self.dice = dice if dice is not None else RandomDice(layout, seed)
        self.solitaire = len(strategies) == 1 if solitaire is None else solitaire
        nm = names or [f"{getattr(s, 'name', 'player')}#{i + 1}" for i, s in enumerate(strategies)]
        self.start_phase = start_phase
        self.players = [PlayerState(nm[i], i, start_phase) for i in range(len(strategies))]
        self.log: list[Event] = []
        self.round = 0
        for s in self.strategies:
            attach = getattr(s, "attach", None)
            if callable(attach):
                attach(self)

    # ---------------------------------------------------------------- turn order
    def roll_off(self) -> list[int]:
        """Seats in turn order: the high-die roll-off winner starts, then seat order."""
        contenders = list(range(len(self.players)))
        while len(contenders) > 1:
            rolls = {s: self.dice.high_die() for s in contenders}
            for s, v in rolls.items():
                self.log.append(Event("order", s, 0, note=f"rolls {v}"))
            top = max(rolls.values())
            contenders = [s for s in contenders if rolls[s] == top]
        first = contenders[0]
        n = len(self.players)
        order = [(first + i) % n for i in range(n)]
        self.log.append(
            Event("order", first, 0, note="starts; order " + " ".join(f"P{s + 1}" for s in order))
        )
        return order

    # ---------------------------------------------------------------- one turn
    def play_turn(self, seat: int, last_chance: bool = False) -> bool:
        """One turn of up to ``rules.rolls`` rolls at the player's phase; True if made."""
        check_int(seat, "seat", 0, len(self.players) - 1)
        p = self.players[seat]
        p.tries[p.phase] = p.tries.get(p.phase, 0) + 1
        faces = self._roll_and_hold(seat, last_chance)
        meld = explain(PHASES[p.phase], faces, self.rules)
        if not meld.complete:
            p.failed_turns += 1
            self._log(seat, "failed", faces)
            return False
        self._score_phase(seat, faces, meld.score)
        return True

    def _log(
        self, seat: int, kind: str, dice: Sequence[Face] = (), points: int = 0, note: str = ""
    ) -> None:
        """Append an event of this player at their phase in the current round."""
        phase = self.players[seat].phase
        self.log.append(Event(kind, seat, self.round, phase, tuple(dice), points, note))

    def _roll_and_hold(self, seat: int, last_chance: bool) -> list[Face]:
        """The rolls of one turn with the strategy's holds between them; the final faces."""
        n = len(self.layout.dice)
        faces = list(self.dice.roll(range(n)))
        held: frozenset[int] = frozenset()
        rolls = self.rules.rolls
        for roll_no in range(1, rolls + 1):
            self._log(seat, "roll", faces, note=f"roll {roll_no}")
            if roll_no == rolls:
                break
            view = self._view(seat, faces, rolls - roll_no, held, last_chance)
            keep = self._checked_hold(seat, view)
            self._log(seat, "hold", [faces[i] for i in sorted(keep)], note=f"keeps {len(keep)}")
            if len(keep) == n:
                break
            reroll = [i for i in range(n) if i not in keep]
            for i, f in zip(reroll, self.dice.roll(reroll), strict=True):
                faces[i] = f
            held = keep
        return faces

    def _view(
        self,
        seat: int,
        faces: Sequence[Face],
        rolls_left: int,
        held: frozenset[int],
        last_chance: bool,
    ) -> TurnView:
        """What the strategy of ``seat`` sees before choosing a hold."""
        p = self.players[seat]
        return TurnView(
            phase=PHASES[p.phase],
            number=p.phase,
            faces=tuple(faces),
            rolls_left=rolls_left,
            held=held,
            rules=self.rules,
            layout=self.layout,
            player=p,
            solitaire=self.solitaire,
            last_chance=last_chance,
        )

    def _checked_hold(self, seat: int, view: TurnView) -> frozenset[int]:
        """The strategy's hold as die indices, refused if it names no die or drops a sticky one."""
        strat = self.strategies[seat]
        n = len(self.layout.dice)
        keep = frozenset(int(i) for i in strat.hold(view))
        if not keep <= set(range(n)):
            raise InvalidHoldError(
                f"{strat.name}: hold {sorted(keep)} names dice outside 0..{n - 1}"
            )
        if self.rules.holds == "sticky" and not view.held <= keep:
            raise InvalidHoldError(
                f"{strat.name}: sticky holds keep dice set aside "
                f"({sorted(view.held)}); got {sorted(keep)}"
            )
        return keep

    def _score_phase(self, seat: int, faces: Sequence[Face], points: int) -> None:
        """Record a made phase: its score, the five-phase bonus, the move to the next phase."""
        p = self.players[seat]
        number = p.phase
        p.scores[number] = points
        self._log(seat, "made", faces, points)
        if number == 5 and p.running_total > self.rules.five_phase_threshold:
            p.bonuses["five_phase"] = self.rules.five_phase_bonus
            self._log(
                seat,
                "bonus",
                points=self.rules.five_phase_bonus,
                note=f"five-phase bonus (total {p.running_total - 40} > "
                f"{self.rules.five_phase_threshold})",
            )
        if number == self.phases:
            p.finished = True
        else:
            p.phase = number + 1

    # ---------------------------------------------------------------- the game
    def play(self) -> GameResult:
        """Play to the end and return the result."""
        flow = self.flow(self.roll_off(), self._computer_turn)
        try:
            while True:
                next(flow)
        except StopIteration as done:
            return done.value

    def _computer_turn(self, seat: int, last_chance: bool) -> Generator[Any, Any, bool]:
        return self.play_turn(seat, last_chance)
        yield  # a turn that never waits: makes this a generator for :meth:`flow`

    def flow(
        self, order: list[int], turn: Callable[[int, bool], Generator[Any, Any, bool]]
    ) -> Generator[Any, Any, GameResult]:
        """The game after the roll-off, as a generator: rounds in seat ``order`` until a player
        finishes, the others' last chances, the solitaire penalty, the result (its return
        value). ``turn(seat, last_chance)`` is a generator returning whether the phase was
        made; whatever it yields (e.g. a wait for a human's dice) is passed through."""
        finisher: int | None = None
        turns = 0
        while finisher is None:
            self.round += 1
            for seat in order:
                turns += 1
                if turns > MAX_TURNS:
                    raise InvalidRulesError(f"no player finished within {MAX_TURNS} turns")
                if (yield from turn(seat, False)) and self.players[seat].finished:
                    finisher = seat
                    self._finish_bonus(seat, first=True)
                    break
        if not self.solitaire:
            pos = order.index(finisher)
            for i in range(1, len(order)):
                seat = order[(pos + i) % len(order)]
                same_round = pos + i < len(order)
                p = self.players[seat]
                self.log.append(Event("last_chance", seat, self.round, p.phase))
                while not p.finished:
                    if not (yield from turn(seat, True)):
                        break
                    if p.finished and same_round:
                        self._finish_bonus(seat, first=False)
        else:
            p = self.players[0]
            p.penalty = self.rules.solitaire_penalty * p.failed_turns
            if p.penalty:
                self.log.append(
                    Event(
                        "penalty",
                        0,
                        self.round,
                        0,
                        (),
                        -p.penalty,
                        f"{p.failed_turns} failed turns x {self.rules.solitaire_penalty}",
                    )
                )
        self.log.append(
            Event("end", note="totals " + ", ".join(f"{p.name} {p.total}" for p in self.players))
        )
        return GameResult(self.players, order, self.log, self.round, self.solitaire, self.phases)

    def _finish_bonus(self, seat: int, first: bool) -> None:
        p = self.players[seat]
        if self.solitaire and p.tries[self.phases] != 1:
            amount, note = 0, "no first-finish bonus: last phase not made at the first try"
        else:
            amount = p.bonuses["first_finish"] = self.rules.first_finish_bonus
            note = "first-finish bonus" + ("" if first else " (same round, later in turn order)")
        self.log.append(Event("bonus", seat, self.round, self.phases, (), amount, note))
