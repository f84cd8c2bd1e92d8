"""The state space of a turn: multisets of (projected) dice, identical dice grouped.

A *hold* (keep state) is, for every die type, a multiset of faces showing on the kept dice of
that type. Holds are numbered in mixed radix over the types, so that a state is an integer
and the whole space is handled with numpy index arrays. A *roll state* is a hold in which every
die is present (all ten dice).

>>> from phase10math.dice.layouts import DEFAULT_LAYOUT
>>> from phase10math.turn.projection import VALUE
>>> sp = StateSpace.build(DEFAULT_LAYOUT, VALUE)
>>> [(t.count, t.faces) for t in sp.types]
[(6, (5, 6, 7, 8, 9, 10)), (4, (0, 1, 2, 3, 4))]
>>> sp.n_states, int(sp.full.sum())   # holds, and distinct rolls of ten dice
(116424, 32340)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from phase10math.dice.faces import COLORS, Die, Face, Layout
from phase10math.dice.rolls import dice_showing
from phase10math.errors import InvalidHoldError
from phase10math.exact import fits_int64
from phase10math.turn.projection import Projection

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["StateSpace"]


@dataclass(frozen=True)
class DieType:
    """Dice that are identical after projection: distinct face keys, sides per key, count."""

    faces: tuple[Hashable, ...]
    weights: tuple[int, ...]
    count: int


def sub_multisets(f: int, m: int) -> np.ndarray:
    """All count vectors over f faces with total <= m, ordered by total then lexicographic."""
    rows = [c for c in itertools.product(range(m + 1), repeat=f) if sum(c) <= m]
    rows.sort(key=lambda c: (sum(c), tuple(-x for x in c)))
    return np.array(rows, dtype=np.int16).reshape(len(rows), f)


@dataclass
class StateSpace:
    """All holds for a layout under a projection, with the tables the solver needs."""

    types: list[DieType]
    projection: Projection
    sub: list[np.ndarray] = field(repr=False)  # per type: (n_t, f_t) count vectors
    strides: np.ndarray = field(repr=False)

    @classmethod
    def build(
        cls, layout: Layout | Sequence[Die], projection: Projection, merge: bool = True
    ) -> StateSpace:
        """Group the dice of a layout (or any list of dice, e.g. a reduced game) by their
        projected faces (``merge=False``: every die its own type, for checks)."""
        dice = layout.dice if isinstance(layout, Layout) else tuple(layout)
        groups: Counter = Counter()
        for i, die in enumerate(dice):
            w: Counter = Counter(projection.key(f) for f in die.faces)
            keys = tuple(sorted(w, key=_sort_key))
            groups[(keys, tuple(w[k] for k in keys), 0 if merge else i)] += 1
        types = [
            DieType(k, w, n)
            for (k, w, _), n in sorted(
                groups.items(),
                key=lambda kv: (-kv[1], [_sort_key(x) for x in kv[0][0]], kv[0][1], kv[0][2]),
            )
        ]
        sub = [sub_multisets(len(t.faces), t.count) for t in types]
        sizes = [len(s) for s in sub]
        strides = np.cumprod([1] + sizes[::-1])[:-1][::-1].astype(np.int64)
        return cls(types, projection, sub, strides)

    def key(self) -> tuple:
        """What the space is made of (its projection and die types): equal keys, equal spaces."""
        return (self.projection.name, tuple(self.types))

    def __getstate__(self) -> dict:
        # cached tables are rebuilt on demand; only the definition is stored
        return {k: self.__dict__[k] for k in ("types", "projection", "sub", "strides")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    # ------------------------------------------------------------------ basic tables
    @cached_property
    def n_states(self) -> int:
        return int(np.prod([len(s) for s in self.sub], dtype=np.int64))

    @cached_property
    def digits(self) -> list[np.ndarray]:
        """Per type, the sub-multiset index of every state."""
        gid = np.arange(self.n_states, dtype=np.int64)
        return [self.digits_of(t, gid).astype(np.int32) for t in range(len(self.sub))]

    def digits_of(self, t: int, gids) -> np.ndarray:
        """Type ``t``'s sub-multiset index of the states ``gids``, from their ids (no table over
        the whole space, which a tensor space cannot afford: :attr:`digits` holds one per state
        and type)."""
        return (np.asarray(gids, dtype=np.int64) // int(self.strides[t])) % len(self.sub[t])

    @cached_property
    def type_sizes(self) -> list[np.ndarray]:
        """Per type, how many of its dice every state holds."""
        return [s.sum(axis=1)[d].astype(np.int8) for s, d in zip(self.sub, self.digits)]

    @cached_property
    def size(self) -> np.ndarray:
        """How many dice every state holds."""
        return np.sum(self.type_sizes, axis=0).astype(np.int8)

    def sizes_of(self, gids) -> np.ndarray:
        """How many dice the states ``gids`` hold, from their digits (no array over the whole
        space: a tensor space has hundreds of millions of states).

        >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
        >>> from phase10math.turn.projection import VALUE
        >>> sp = StateSpace.build(DEFAULT_LAYOUT, VALUE)
        >>> ids = np.array([0, 1, sp.n_states - 1])
        >>> bool((sp.sizes_of(ids) == sp.size[ids]).all())
        True
        """
        gids = np.asarray(gids, dtype=np.int64)
        total = np.zeros(gids.shape, dtype=np.int64)
        for t, sub in enumerate(self.sub):
            total += sub.sum(axis=1)[self.digits_of(t, gids)]
        return total

    @property
    def n_dice(self) -> int:
        return sum(t.count for t in self.types)

    @cached_property
    def full(self) -> np.ndarray:
        """Mask of the roll states (all dice present)."""
        return self.size == self.n_dice

    @property
    def distinct(self) -> bool:
        """Every type is a single die: the holds form a plain tensor (see :mod:`.tensor`)."""
        return all(t.count == 1 for t in self.types)

    @cached_property
    def full_ids(self) -> np.ndarray:
        if self.distinct:  # without the per-state tables: slot 1 + f of every die, C order
            ids = np.zeros(1, dtype=np.int64)
            for st, t in zip(self.strides, self.types):
                ids = (ids[:, None] + int(st) * np.arange(1, len(t.faces) + 1)).ravel()
            return ids
        return np.flatnonzero(self.full)

    def positions(self, gids) -> np.ndarray:
        """Positions of roll states in :attr:`full_ids` order (int64): on ten different dice
        arithmetic on each die's slot (C order; no table of 60 million ids is built), else a
        search in :attr:`full_ids`. Refused (:class:`InvalidHoldError`) for a state that is
        not a roll of every die.

        >>> from phase10math.dice.layouts import COMPACT_LAYOUT
        >>> from phase10math.turn.projection import VALUE
        >>> sp = StateSpace.build(COMPACT_LAYOUT, VALUE)
        >>> bool((sp.positions(sp.full_ids[[0, 5, -1]]) == [0, 5, len(sp.full_ids) - 1]).all())
        True
        """
        g = np.asarray(gids, dtype=np.int64)
        if self.distinct:
            pos = np.zeros_like(g)
            ok = np.ones(g.shape, dtype=bool)
            for st, t in zip(self.strides, self.types):
                slot = (g // int(st)) % (len(t.faces) + 1)
                ok &= slot > 0
                pos = pos * len(t.faces) + (slot - 1)
            ok &= (g >= 0) & (g < self.n_states)
        else:
            ids = self.full_ids
            pos = np.minimum(np.searchsorted(ids, g), len(ids) - 1)
            ok = ids[pos] == g
        if not ok.all():
            bad = int(np.atleast_1d(g)[~np.atleast_1d(ok)][0])
            raise InvalidHoldError(f"state {bad} is not a roll of all {self.n_dice} dice")
        return pos

    def type_index(self, t: int) -> np.ndarray:
        """Lookup array: mixed-radix code of a count vector (base count+1) -> sub-multiset
        index of type t (used to turn sampled counts into state ids quickly)."""
        typ = self.types[t]
        base = typ.count + 1
        codes = (self.sub[t].astype(np.int64) * base ** np.arange(len(typ.faces))).sum(axis=1)
        table = np.full(base ** len(typ.faces), -1, dtype=np.int64)
        table[codes] = np.arange(len(self.sub[t]))
        return table

    def _index_of(self, t: int) -> dict[tuple[int, ...], int]:
        return {tuple(int(x) for x in row): i for i, row in enumerate(self.sub[t])}

    @cached_property
    def sub_index(self) -> list[dict[tuple[int, ...], int]]:
        """Per type: the index of each sub-multiset (a tuple of face counts)."""
        return [self._index_of(t) for t in range(len(self.types))]

    def _step_tables(self, delta: int) -> list[np.ndarray]:
        """Per type, ``(n_t, f_t)``: index after adding (delta=1) or removing (delta=-1) one
        die showing face f, or -1 where there is no such sub-multiset."""
        out = []
        for t, s in enumerate(self.sub):
            idx = self.sub_index[t]
            tab = np.full(s.shape, -1, dtype=np.int32)
            for i, row in enumerate(s):
                for f in range(s.shape[1]):
                    r = [int(x) for x in row]
                    r[f] += delta
                    tab[i, f] = idx.get(tuple(r), -1)
            out.append(tab)
        return out

    @cached_property
    def add_tables(self) -> list[np.ndarray]:
        """Per type, ``(n_t, f_t)``: index after adding one die showing face f, or -1."""
        return self._step_tables(1)

    @cached_property
    def remove_tables(self) -> list[np.ndarray]:
        """Per type, ``(n_t, f_t)``: index after removing one die showing face f, or -1."""
        return self._step_tables(-1)

    # ------------------------------------------------------------------ conversions
    def die_types(self, layout: Layout | Sequence[Die]) -> list[int]:
        """For each die of ``layout``, the index of its type in this space (the type whose
        projected faces and weights it has).

        >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
        >>> from phase10math.turn.projection import VALUE
        >>> StateSpace.build(DEFAULT_LAYOUT, VALUE).die_types(DEFAULT_LAYOUT)
        [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
        """
        dice = layout.dice if isinstance(layout, Layout) else layout
        lookup = {
            tuple(sorted(zip(typ.faces, typ.weights), key=lambda kw: _sort_key(kw[0]))): t
            for t, typ in enumerate(self.types)
        }
        out = []
        for die in dice:
            w = Counter(self.projection.key(f) for f in die.faces)
            out.append(lookup[tuple(sorted(w.items(), key=lambda kw: _sort_key(kw[0])))])
        return out

    def hold_id(self, layout: Layout | Sequence[Die], shown: dict[int, Face]) -> int:
        """The id of the hold in which die ``i`` of ``layout`` shows ``shown[i]`` (a face it
        has, the color possibly left out) for every kept die ``i``."""
        dice = layout.dice if isinstance(layout, Layout) else layout
        types = self.die_types(dice)
        return self.state_id(self.counts_for((types[i], dice[i].show(f)) for i, f in shown.items()))

    def counts_for(self, typed: Iterable[tuple[int, Face]]) -> list[list[int]]:
        """Per-type face counts of dice given as ``(type, face shown)`` pairs (faces -> the
        counts of :meth:`state_id`)."""
        counts = [[0] * len(t.faces) for t in self.types]
        for t, f in typed:
            counts[t][self.types[t].faces.index(self.projection.key(f))] += 1
        return counts

    def ids_of(self, counts: Sequence[np.ndarray]) -> np.ndarray:
        """State ids of many holds from their per-type face counts (one ``(P, f_t)`` array
        per type; the inverse of :meth:`counts_per_type`)."""
        gid = np.zeros(len(counts[0]) if counts else 0, dtype=np.int64)
        for t, typ in enumerate(self.types):
            c = np.asarray(counts[t], dtype=np.int64)
            code = (c * (typ.count + 1) ** np.arange(len(typ.faces))).sum(axis=1)
            gid += self.strides[t] * self.type_index(t)[code]
        return gid

    def counts_per_type(self, gids) -> list[np.ndarray]:
        """Per type, the face counts ``(len(gids), f_t)`` (int64) of the states ``gids``."""
        return [
            self.sub[t][self.digits_of(t, gids)].astype(np.int64) for t in range(len(self.types))
        ]

    def dice_for(
        self, gid: int, typed: Sequence[tuple[int, Face]], order: Sequence[int] | None = None
    ) -> frozenset[int]:
        """The dice (indices into ``typed``, each die a ``(type, face shown)`` pair) that
        realise hold ``gid``: per type and face key, the first dice in ``order``."""
        want = [
            (t, k)
            for t, cs in enumerate(self.counts_of(gid))
            for k, c in zip(self.types[t].faces, cs, strict=True)
            for _ in range(c)
        ]
        shown = [(t, self.projection.key(f)) for t, f in typed]
        got = dice_showing(shown, want, order)
        if got is None:
            raise InvalidHoldError(f"hold {gid} is not within these dice")
        return frozenset(got)

    def state_id(self, per_type_counts: Sequence[Sequence[int]]) -> int:
        """The id of the hold with the given per-type face counts."""
        gid = 0
        for t, counts in enumerate(per_type_counts):
            gid += int(self.strides[t]) * self.sub_index[t][tuple(int(c) for c in counts)]
        return gid

    def counts_of(self, gid: int) -> list[tuple[int, ...]]:
        """Per-type face counts of a state id."""
        return [
            tuple(int(x) for x in self.sub[t][(gid // int(st)) % len(self.sub[t])])
            for t, st in enumerate(self.strides)
        ]

    def faces_of(self, gid: int) -> list[tuple[int, Hashable]]:
        """``[(type, face key), ...]`` of the dice in a state."""
        out = []
        for t, counts in enumerate(self.counts_of(gid)):
            for k, c in zip(self.types[t].faces, counts):
                out.extend([(t, k)] * c)
        return out

    def holds_keeping(self, kept_profiles: np.ndarray) -> np.ndarray:
        """Hold ids, one per roll state (``full_ids`` order), from the counts to keep per meld
        cell (``(P, 11, 4)``): per type and face, as many of the roll's dice as the cell still
        asks for."""
        remaining = np.asarray(kept_profiles).astype(np.int64).copy()
        takes = []
        for t, have in enumerate(self.counts_per_type(self.full_ids)):  # (P, f) each
            take = np.zeros_like(have)
            for f, key in enumerate(self.types[t].faces):
                rep = self.projection.representative(key)
                cell = (slice(None), rep.value, COLORS.index(rep.color))
                got = np.minimum(have[:, f], remaining[cell])
                take[:, f] = got
                remaining[cell] -= got
            takes.append(take)
        return self.ids_of(takes)

    def profiles(self, ids: np.ndarray) -> np.ndarray:
        """``(len(ids), 11, 4)`` meld profiles of states (through representative faces)."""
        out = np.zeros((len(ids), 11, 4), dtype=np.int16)
        for t, typ in enumerate(self.types):
            cnt = self.sub[t][self.digits[t][ids]]  # (P, f_t)
            for f, key in enumerate(typ.faces):
                rep: Face = self.projection.representative(key)
                out[:, rep.value, COLORS.index(rep.color)] += cnt[:, f]
        return out

    @cached_property
    def roll_weights(self) -> np.ndarray:
        """For every roll state, the number of the 6**n_dice equally likely rolls giving it
        (exact integers: int64 when they fit, else Python ints)."""
        fits = fits_int64(1, 6**self.n_dice)
        if self.distinct:
            w = np.ones(1, dtype=np.int64 if fits else object)
            for t in self.types:
                w = (w[:, None] * np.array(t.weights, dtype=w.dtype)).ravel()
            return w
        ids = self.full_ids
        tables = []
        for t, typ in enumerate(self.types):
            table = np.zeros(len(self.sub[t]), dtype=np.int64)
            for i, row in enumerate(self.sub[t]):
                if row.sum() == typ.count:
                    mult = math.factorial(typ.count)
                    for c, wt in zip(row, typ.weights):
                        mult = mult // math.factorial(int(c)) * wt ** int(c)
                    table[i] = mult
            tables.append(table)
        w = np.ones(len(ids), dtype=np.int64 if fits else object)
        for t, table in enumerate(tables):
            w = w * table[self.digits[t][ids]].astype(w.dtype)
        return w

    def describe(self) -> str:
        parts = [f"{t.count} x ({' '.join(map(str, t.faces))})" for t in self.types]
        return f"{self.n_states:,} holds, {len(self.full_ids):,} rolls; dice: " + ", ".join(parts)


def _sort_key(k: Hashable):
    if isinstance(k, Face):
        return (k.value, k.color or "")
    if isinstance(k, int):
        return (k, "")
    return (0, str(k))
