"""A seeded simulator of the Phase 10 card game for 2-6 computer players, with an event log.

Each turn a player takes the top card of the draw pile or of the discard pile (never a Skip
from the discard pile), lays down the whole current phase if able, then (once their phase is
down) hits cards onto any laid-down groups, then discards. A discarded Skip makes a chosen
player lose their next turn; a player already waiting out a Skip cannot be chosen again until
that turn has passed; a Skip turned up to start the discard pile skips the first player.
A hand ends when a player has no cards left; leftover cards score against their holders
(1-9: 5, 10-12: 10, Skip: 15, Wild: 25); players who laid down their phase move on. The first
player to complete phase 10 wins; if several do in the same hand, fewest points wins; if still
tied, the tied players play further hands and the first to lay down phase 10 wins.

The computer players lay down as soon as they can, hit every card they can, take the discard
only when it brings them closer (or can be hit), and discard the card that keeps them closest
to their phase (Skips and high cards first).

>>> g = play_game(players=2, seed=3)
>>> g.winner in (0, 1), g.phases_done[g.winner]
(True, 10)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from phase10math._base.checks import check_seed, public
from phase10math.cards.deck import STANDARD, Card, DeckSpec, format_cards, hand_points
from phase10math.cards.errors import InvalidCardError
from phase10math.cards.phases import find_laydown, parse_phase, shortfall
from phase10math.cards.rules import LaidGroup, can_hit, hit, validate_laydown

MIN_PLAYERS, MAX_PLAYERS = 2, 6
HAND_SIZE = 10
MAX_TURNS_PER_HAND = 3000


@dataclass(frozen=True)
class Event:
    """One line of the game log."""

    hand: int
    turn: int
    player: int | None
    action: str
    detail: str = ""

    def __str__(self) -> str:
        who = f"P{self.player + 1} " if self.player is not None else ""
        where = (
            f"hand {self.hand:>2} turn {self.turn:>3}: " if self.turn else f"hand {self.hand:>2}: "
        )
        return f"{where}{who}{self.action}{(' ' + self.detail) if self.detail else ''}"


@dataclass
class PlayerState:
    index: int
    phase: int = 1  # the phase this player is trying to make
    score: int = 0
    hand: list[Card] = field(default_factory=list)
    laid: bool = False
    skip_pending: bool = False

    @property
    def name(self) -> str:
        return f"P{self.index + 1}"


@dataclass
class GameResult:
    """Outcome of :func:`play_game`: winner (0-based), phases completed, points, log."""

    players: int
    seed: int
    winner: int
    phases_done: list[int]
    scores: list[int]
    hands: int
    log: list[Event]
    reason: str

    def summary(self) -> str:
        lines = [f"{'player':<8}{'phases':>7}{'points':>8}"]
        for i in range(self.players):
            mark = "  <- winner" if i == self.winner else ""
            lines.append(f"P{i + 1:<7}{self.phases_done[i]:>7}{self.scores[i]:>8}{mark}")
        lines.append(f"{self.hands} hands; P{self.winner + 1} wins ({self.reason})")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "seed": self.seed,
            "winner": self.winner + 1,
            "phases_done": self.phases_done,
            "scores": self.scores,
            "hands": self.hands,
            "reason": self.reason,
            "log": [str(e) for e in self.log],
        }


class _Game:
    def __init__(self, players: int, seed: int, deck: DeckSpec, max_hands: int) -> None:
        self.rng = random.Random(seed)
        self.deck = deck
        self.players = [PlayerState(i) for i in range(players)]
        self.max_hands = max_hands
        self.log: list[Event] = []
        self.hand_no = 0
        self.turn = 0

    # ---------------------------------------------------------------- helpers
    def emit(self, player: int | None, action: str, detail: str = "") -> None:
        self.log.append(Event(self.hand_no, self.turn, player, action, detail))

    def short(self, cards: list[Card], p: PlayerState) -> int:
        return shortfall(cards, parse_phase(p.phase, self.deck), self.deck)

    def hittable(self, card: Card) -> LaidGroup | None:
        for g in self.table:
            if can_hit(g, card, self.deck):
                return g
        return None

    # ---------------------------------------------------------------- decisions
    def wants_discard(self, p: PlayerState, top: Card) -> bool:
        if top.is_skip:
            return False  # never taken from the discard pile
        if p.laid:
            return self.hittable(top) is not None
        if top.is_wild:
            return True
        return self.short(p.hand + [top], p) < self.short(p.hand, p)

    def pick_discard(self, p: PlayerState) -> Card:
        targets = self.skip_targets(p)
        best_key, best = None, p.hand[0]
        for c in dict.fromkeys(p.hand):
            rest = list(p.hand)
            rest.remove(c)
            if p.laid:
                useful = self.hittable(c) is not None
                key = (useful, c.is_wild, not (c.is_skip and targets), -c.points)
            else:
                key = (self.short(rest, p), c.is_wild, not (c.is_skip and targets), -c.points)
            if best_key is None or key < best_key:
                best_key, best = key, c
        return best

    def skip_targets(self, p: PlayerState) -> list[PlayerState]:
        return [q for q in self.active if q is not p and not q.skip_pending]

    # ---------------------------------------------------------------- a hand
    def play_hand(self, active: list[PlayerState], tiebreak: bool) -> PlayerState | None:
        """Play one hand; returns the player who lays down phase 10 first in a tie-break."""
        order = self._deal(active, tiebreak)
        out: PlayerState | None = None
        i = 0
        while out is None:
            if self.turn >= MAX_TURNS_PER_HAND:
                self.emit(None, "hand stopped", f"after {self.turn} turns")
                break
            p = order[i % len(order)]
            i += 1
            self.turn += 1
            if p.skip_pending:
                p.skip_pending = False
                self.emit(p.index, "is skipped")
                continue
            card = self._draw(p)
            if card is None:
                break
            p.hand.append(card)
            if not p.laid and self._lay_down(p) and tiebreak and p.phase == 10:
                return p
            if p.laid:
                self._hit_all(p)
            if p.hand:
                self._discard(p)
            if not p.hand:
                out = p
        if out is not None:
            self.emit(out.index, "goes out")
        if not tiebreak:
            self._score_hand(active)
        return None

    def _deal(self, active: list[PlayerState], tiebreak: bool) -> list[PlayerState]:
        """Shuffle, deal ten cards each, turn up the discard pile; the players in turn order."""
        self.hand_no += 1
        self.turn = 0
        self.active = active
        self.table: list[LaidGroup] = []
        cards = self.deck.cards()
        self.rng.shuffle(cards)
        dealer = (self.hand_no - 1) % len(active)
        order = active[dealer + 1 :] + active[: dealer + 1]
        for p in active:
            p.hand, p.laid, p.skip_pending = [], False, False
        for _ in range(HAND_SIZE):
            for p in order:
                p.hand.append(cards.pop())
        self.pile, self.discard = cards, [cards.pop()]
        what = "tie-break hand" if tiebreak else "deal"
        self.emit(
            None,
            what,
            f"dealer {active[dealer].name}; discard pile starts with "
            f"{self.discard[-1]}; phases " + ", ".join(f"{p.name}:{p.phase}" for p in active),
        )
        if self.discard[-1].is_skip:
            order[0].skip_pending = True
            self.emit(order[0].index, "will be skipped", "(a Skip was turned up)")
        return order

    def _draw(self, p: PlayerState) -> Card | None:
        """The card ``p`` takes (discard pile or draw pile, reshuffled if empty); None if none."""
        if self.discard and self.wants_discard(p, self.discard[-1]):
            card = self.discard.pop()
            self.emit(p.index, "takes", f"{card} from the discard pile")
            return card
        if not self.pile:
            top = self.discard.pop()
            self.pile, self.discard = self.discard, [top]
            self.rng.shuffle(self.pile)
            self.emit(None, "reshuffles", f"{len(self.pile)} discards into a new draw pile")
        if not self.pile:
            self.emit(None, "hand stopped", "no cards left to draw")
            return None
        self.emit(p.index, "draws", "from the pile")
        return self.pile.pop()

    def _lay_down(self, p: PlayerState) -> bool:
        """Lay down ``p``'s whole phase if the hand holds it; True if laid down now."""
        ph = parse_phase(p.phase, self.deck)
        groups = find_laydown(p.hand, ph, self.deck)
        if groups is None:
            return False
        laid = validate_laydown(ph, groups, hand=p.hand, deck=self.deck)
        for g in laid:
            g.owner = p.index
            for c in g.cards:
                p.hand.remove(c)
        self.table.extend(laid)
        p.laid = True
        self.emit(p.index, f"lays down phase {p.phase}:", "; ".join(map(str, laid)))
        return True

    def _hit_all(self, p: PlayerState) -> None:
        """Hit every card of ``p``'s hand that fits a laid-down group, until none fits."""
        changed = True
        while changed and p.hand:
            changed = False
            for c in list(p.hand):
                g = self.hittable(c)
                if g is not None:
                    hit(g, c, self.deck)
                    p.hand.remove(c)
                    owner = "own" if g.owner == p.index else f"P{(g.owner or 0) + 1}'s"
                    self.emit(p.index, "hits", f"{c} on {owner} {g.kind} -> {g}")
                    changed = True

    def _discard(self, p: PlayerState) -> None:
        """Discard ``p``'s chosen card; a Skip skips the leading player who can be skipped."""
        c = self.pick_discard(p)
        p.hand.remove(c)
        self.discard.append(c)
        detail = str(c)
        if c.is_skip:
            targets = self.skip_targets(p)
            if targets:
                q = max(targets, key=lambda q: (q.phase, -q.score, -q.index))
                q.skip_pending = True
                detail += f", skipping {q.name}"
            else:
                detail += " (no player can be skipped)"
        self.emit(p.index, "discards", detail)

    def _score_hand(self, active: list[PlayerState]) -> None:
        """Score the cards left in each hand; players who laid down move to the next phase."""
        for p in active:
            pts = hand_points(p.hand)
            p.score += pts
            self.emit(
                p.index,
                "scores",
                f"{pts} for {format_cards(p.hand) or 'no cards'} "
                f"(total {p.score}); phase {p.phase} {'made' if p.laid else 'not made'}",
            )
            if p.laid:
                p.phase += 1

    # ---------------------------------------------------------------- a game
    def play(self, seed: int) -> GameResult:
        reason = ""
        winner: PlayerState | None = None
        while winner is None:
            if self.hand_no >= self.max_hands:
                winner = min(self.players, key=lambda p: (-p.phase, p.score, p.index))
                reason = f"hand limit {self.max_hands} reached: most phases, then fewest points"
                break
            self.play_hand(self.players, tiebreak=False)
            finished = [p for p in self.players if p.phase > 10]
            if not finished:
                continue
            low = min(p.score for p in finished)
            tied = [p for p in finished if p.score == low]
            if len(tied) == 1:
                winner = tied[0]
                reason = (
                    "completed phase 10"
                    if len(finished) == 1
                    else "completed phase 10 with the fewest points"
                )
                break
            self.emit(
                None,
                "tie",
                "between "
                + ", ".join(p.name for p in tied)
                + f" on {low} points: they play on until one lays down phase 10",
            )
            saved = {p.index: p.phase for p in tied}
            for p in tied:
                p.phase = 10
            while winner is None and self.hand_no < self.max_hands:
                winner = self.play_hand(tied, tiebreak=True)
            for p in tied:
                p.phase = saved[p.index]
            if winner is None:
                winner = tied[0]
                reason = "tie-break unresolved within the hand limit; first in seat order"
            else:
                reason = "won the tie-break hand"
        self.emit(winner.index, "wins", reason)
        return GameResult(
            players=len(self.players),
            seed=seed,
            winner=winner.index,
            phases_done=[min(p.phase - 1, 10) for p in self.players],
            scores=[p.score for p in self.players],
            hands=self.hand_no,
            log=self.log,
            reason=reason,
        )


@public
def play_game(
    players: int = 4, seed: int = 0, deck: DeckSpec = STANDARD, max_hands: int = 200
) -> GameResult:
    """Play one seeded game between ``players`` computer players (2-6)."""
    seed = check_seed(seed)
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise InvalidCardError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
    if deck.size < players * HAND_SIZE + 1:
        raise InvalidCardError(
            f"{players} players need at least {players * HAND_SIZE + 1} cards; "
            f"the deck has {deck.size}"
        )
    if not isinstance(max_hands, int) or max_hands < 1:
        raise InvalidCardError(f"max_hands must be a whole number >= 1, got {max_hands!r}")
    return _Game(players, seed, deck, max_hands).play(seed)


__all__ = ["Event", "GameResult", "play_game", "MIN_PLAYERS", "MAX_PLAYERS"]
