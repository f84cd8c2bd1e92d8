"""Table files: JSON tables and packed ``.npz`` tables written and read, the shipped ranges."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import numbers
import os
import zipfile
from collections.abc import Iterable, Mapping
from enum import Enum
from importlib import resources
from typing import Any

import numpy as np

from phase10math._base.files import open_regular
from phase10math.cache import package_version
from phase10math.dice.faces import Layout, parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidFileError, InvalidRulesError, OutsideTableError
from phase10math.game.duel.setting import (
    MATCHUPS,
    PLAYS,
    Bonus,
    DuelGame,
    Key,
    LastKey,
    Play,
    Player,
    Val,
    fingerprint,
)
from phase10math.game.duel.table import DuelSolution

# --------------------------------------------------------------------------- shipped tables


TABLE_PACKAGE = "phase10math.game.data"
MANIFEST = "manifest.json"  # the SHA-256 of every shipped table file
TABLE_FILE = "duel_table_9_10.npz"  # the default shipped range (its game is recorded inside)
# every range shipped (a range whose file is not in the package is skipped: the 10-phase
# game's packed table joins once its solve ends, ``duel --solve --phases 1-10``)
TABLE_FILES = {
    (9, 10): TABLE_FILE,
    (6, 10): "duel_table_6_10.npz",
    (1, 10): "duel_table_1_10.npz",
}


# tables whose color phase was solved on other dice than the others' (``SHIPPED_DICE``), by
# those dice (a layout of :data:`~phase10math.dice.layouts.LAYOUTS`), then phase range; a
# range whose file is not in the package is skipped (the recorded dice' end game and whole
# game: ``duel --solve --phases 8-10|1-10 --layout recorded``, resumable from ``tools/solves/``)
OTHER_DICE_TABLE_FILES: dict[Layout, dict[tuple[int, int], str]] = {
    RECORDED_LAYOUT: {
        (8, 10): "duel_table_8_10_recorded.npz",
        (1, 10): "duel_table_1_10_recorded.npz",
    },
}


def shipped_digests() -> dict[str, str]:
    """The SHA-256 of every shipped table file, by name (the package's ``MANIFEST``)."""
    text = resources.files(TABLE_PACKAGE).joinpath(MANIFEST).read_text(encoding="utf-8")
    return json.loads(text)["sha256"]


def shipped_bytes(name: str) -> bytes:
    """A shipped table file's bytes, refused (:class:`~phase10math.errors.InvalidFileError`)
    unless their SHA-256 is the manifest's: a damaged or altered install."""
    data = resources.files(TABLE_PACKAGE).joinpath(name).read_bytes()
    want = shipped_digests().get(name)
    if hashlib.sha256(data).hexdigest() != want:
        raise InvalidFileError(
            f"the shipped table {name} is not the one the package's manifest names "
            f"(SHA-256 {want}): a damaged install? Reinstall phase10math"
        )
    return data


def table_files(dice: Layout | None) -> Mapping[tuple[int, int], str]:
    """The table files of the tables solved on ``dice`` (None: ``SHIPPED_DICE``)."""
    return TABLE_FILES if dice is None else OTHER_DICE_TABLE_FILES.get(dice, {})


def shipped_ranges(dice: Layout | None = None) -> list[tuple[int, int]]:
    """The phase ranges whose solved tables ship with the package: those solved on ``dice``
    (a layout of :data:`OTHER_DICE_TABLE_FILES`; None: the compact dice, most tables)."""
    root = resources.files(TABLE_PACKAGE)
    return [r for r, name in table_files(dice).items() if root.joinpath(name).is_file()]


RECOMPUTE = "phase10math duel --solve --phases 9-10 --write TABLE"


def table_payload(sol: DuelSolution, command: str = RECOMPUTE) -> dict[str, Any]:
    """The solution as plain data: the setting, the headline, every value."""

    def enc_key(k: Key) -> list[int]:
        s, a, b, d = k
        return [s, *a, *b, d]

    def enc_last(k: LastKey) -> list[int]:
        p, dc, e = k
        return [*p, dc, e]

    opt = (Play.OPTIMAL, Play.OPTIMAL)
    return {
        "format": 2,  # 2: the optimal rows end with their proven error
        **table_payload_meta(sol, command),
        "values": {
            m[0].label + "-" + m[1].label: [
                enc_key(k) + [w, t] + ([sol.error(k)] if m == opt else [])
                for k, (w, t) in sol.values[m].items()
            ]
            for m in MATCHUPS
        },
        "last": {
            p.label: [
                enc_last(k) + [w, t] + ([sol.error(k)] if p == Play.OPTIMAL else [])
                for k, (w, t) in sol.last[p].items()
            ]
            for p in PLAYS
        },
    }


def table_payload_meta(sol: DuelSolution, command: str = RECOMPUTE) -> dict[str, Any]:
    """What a table says of itself: its game, rules, dice, code, command, bounds, headline."""
    g = sol.game
    return {
        "game": {
            "lo": g.lo,
            "hi": g.hi,
            "phases": {k: p.text for k, p in g.phases.items()},
            "reachable": g.reachable,
        },
        "rules": g.rules.to_dict(),
        "layout": g.dice.to_dict() if isinstance(g.dice, Layout) else None,
        "fingerprint": fingerprint(g),
        "code_version": package_version(),
        "command": command,
        "seconds": round(sol.seconds, 1),
        "bound": sol.bound,
        "tie_bound": sol.tie_bound,
        "headline": sol.headline(),
    }


def write_table(
    sol: DuelSolution,
    path: str | os.PathLike,
    command: str = RECOMPUTE,
    form: TableForm | None = None,
) -> None:
    """Write the table (atomically) as a packed table, the one format of the kit's tables
    (:func:`write_packed`): ``form`` FULL keeps every matchup's values at every state in
    float64, the default for a game of at most ``FULL_STATES`` states; PACKED optimal play's
    values as float32 and the matchups at the start, the default beyond (a 10-phase game)."""
    if form is None:
        states = sum(size for _, _, size in state_blocks(sol.game))
        form = TableForm.FULL if states <= FULL_STATES else TableForm.PACKED
    write_packed(sol, path, command, form)


FULL_STATES = 500_000  # a table of more states is written packed (float32) by default


# A packed table (``.npz``) keeps optimal play's values and errors as arrays in the order of
# the game's own states (blocks of consecutive score differences, stored in the file beside
# them), and the per-turn matchups at the start only: a 10-phase game has 1.5 million states, about
# 70 times the 6-10 table, far too many for rows of JSON or for dicts in memory. The values are
# float32 (the nearest to each float64), each state's error widened by its value's rounding and
# P(tie)'s bound by the largest of its roundings: intervals still certified, a file 0.57 as
# large. Blocks are int32.
PACKED_FORMAT = 3


class TableForm(Enum):
    """What a packed table keeps: ``PACKED`` optimal play's values as float32 (errors
    widened) and the matchups at the start; ``FULL`` every matchup's values at every state
    and every error as float64, exactly the solution's (the shipped tables of few phases)."""

    PACKED = "packed"
    FULL = "full"


def state_blocks(game: DuelGame) -> Iterable[tuple[tuple[int, Player, Player], int, int]]:
    """A packed table's normal-play states in order: ``((seat, me, opponent), first score
    difference, how many)``, layer by layer from the highest; each seat-0 block is followed
    by its partners' (seat 1, the differences negated)."""
    for layer in range(2 * game.hi, 2 * game.lo - 1, -1):
        for ka in range(game.lo, game.hi + 1):
            if not game.lo <= layer - ka <= game.hi:
                continue
            for a in game._players_at(ka):
                for b in game._players_at(layer - ka):
                    r = game._d_range(a, b)
                    if len(r):
                        yield (0, a, b), r.start, len(r)
                        yield (1, b, a), -(r.stop - 1), len(r)


def last_blocks(game: DuelGame) -> Iterable[tuple[tuple[Player, int], int, int]]:
    """A packed table's last-chance states in order: ``((chaser, eligible), first Dc, how
    many)``, from the last phase down (as the solve takes them)."""
    for k in range(game.hi, game.lo - 1, -1):
        for p in game._players_at(k):
            for elig in (0, 1):
                reach = game._reach(p, bool(elig))
                yield (p, elig), -reach, reach + 1


class PackedStates(Mapping):
    """Read-only ``key -> value`` over arrays in block order (see :func:`state_blocks`):
    a key's index is its block's offset plus its place in the block. ``split`` parts a key
    into (block, position); ``join`` puts them back; ``read(i)`` the value at index ``i``."""

    def __init__(self, blocks, split, join, read, count: int | None = None) -> None:
        self._at: dict[Any, tuple[int, int, int]] = {}
        n = 0
        for block, first, size in blocks:
            self._at[block] = (n, first, size)
            n += size
        if count is not None and n != count:
            raise InvalidRulesError(
                f"the packed table holds {count} states where its game has {n}: "
                "written by other code; solve it again"
            )
        self._n, self._split, self._join, self._read = n, split, join, read

    def index(self, key: Any) -> int | None:
        """Where ``key`` is in the arrays (None where the table has no such state)."""
        try:
            block, pos = self._split(key)
            off, first, size = self._at[block]
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        if isinstance(pos, bool) or not isinstance(pos, numbers.Integral):
            return None
        i = int(pos) - first  # a numpy integer too
        return off + i if 0 <= i < size else None

    def __getitem__(self, key: Any) -> Any:
        i = self.index(key)
        if i is None:
            raise KeyError(key)
        return self._read(i)

    def __contains__(self, key: object) -> bool:
        return self.index(key) is not None

    def __iter__(self):
        for block, (_, first, size) in self._at.items():
            for pos in range(first, first + size):
                yield self._join(block, pos)

    def __len__(self) -> int:
        return self._n


def _flat(block: tuple) -> list[int]:
    """A block's name as integers: (seat, me, opponent) or (chaser, eligible)."""
    out: list[int] = []
    for part in block:
        out += [int(x) for x in part] if isinstance(part, tuple) else [int(part)]
    return out


def _unflat(rows: np.ndarray, normal: bool) -> Iterable[tuple[tuple, int, int]]:
    """The blocks of a packed table's file (see :func:`_flat`)."""
    for r in rows.tolist():
        if normal:
            s, a, b = r[0], (r[1], Bonus(r[2]), r[3]), (r[4], Bonus(r[5]), r[6])
            yield (s, a, b), r[7], r[8]
        else:
            yield ((r[0], Bonus(r[1]), r[2]), r[3]), r[4], r[5]


def _split_normal(k: Key) -> tuple[Any, int]:
    return (k[0], k[1], k[2]), k[3]


def _join_normal(block: tuple, d: int) -> Key:
    return (*block, d)


def _split_last(k: LastKey) -> tuple[Any, int]:
    return (k[0], k[2]), k[1]


def _join_last(block: tuple, dc: int) -> LastKey:
    return (block[0], dc, block[1])


class PackedErrors(Mapping):
    """Each state's proven error in a packed table, normal-play and last-chance keys alike."""

    def __init__(self, normal: PackedStates, last: PackedStates) -> None:
        self.normal, self.last = normal, last

    def _part(self, key: Any) -> PackedStates:
        return self.last if isinstance(key, tuple) and len(key) == 3 else self.normal

    def __getitem__(self, key: Any) -> float:
        return self._part(key)[key][2]

    def __contains__(self, key: object) -> bool:
        return key in self._part(key)

    def __iter__(self):
        yield from self.normal
        yield from self.last

    def __len__(self) -> int:
        return len(self.normal) + len(self.last)


def _up32(e: np.ndarray) -> np.ndarray:
    """Errors as float32, each rounded up (a bound stays a bound)."""
    f = np.asarray(e, dtype=np.float64).astype(np.float32)
    low = f.astype(np.float64) < e
    f[low] = np.nextafter(f[low], np.float32(np.inf))
    return f


def narrow_values(
    win: np.ndarray, tie: np.ndarray, error: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Values (float64) as float32 with their errors widened to still bound them: ``(win32,
    tie32, error32, tie_rounding)``, each error plus its value's rounding (a difference of a
    float and its nearest float32, exact in float64), rounded up, then up to float32; the
    largest rounding of a P(tie), rounded up (the caller adds it to the tie bound).

    >>> w, t, e, r = narrow_values(np.array([0.1]), np.array([0.3]), np.array([1e-12]))
    >>> bool(abs(float(w[0]) - 0.1) <= float(e[0]) and float(e[0]) < 3e-9 and r < 1.5e-8)
    True
    """
    w32, t32 = win.astype(np.float32), tie.astype(np.float32)
    widened = np.nextafter(error + np.abs(win - w32.astype(np.float64)), np.inf)
    tie_rounding = float(np.abs(tie - t32.astype(np.float64)).max(initial=0.0))
    return w32, t32, _up32(widened), float(np.nextafter(tie_rounding, np.inf))


def write_packed(
    sol: DuelSolution,
    path: str | os.PathLike,
    command: str = RECOMPUTE,
    form: TableForm = TableForm.PACKED,
    provenance: Mapping[str, Any] | None = None,
) -> None:
    """Write a packed table (``.npz``, atomically): optimal play's (win, tie, error) of every
    state in block order, the matchups at the start (``form`` FULL: every matchup's values
    everywhere, float64). ``provenance``: the ``code_version``, ``command`` and ``seconds``
    of the solve and the headline it wrote, where they are not this code's (a table written
    again in this form).
    Refused unless every state is solved."""
    g = sol.game
    full = form is TableForm.FULL
    arrays: dict[str, np.ndarray] = {}
    tie_rounding = 0.0
    for name, blocks, join, tables in (
        ("", list(state_blocks(g)), _join_normal, [sol.values[m] for m in MATCHUPS]),
        ("last_", list(last_blocks(g)), _join_last, [sol.last[p] for p in PLAYS]),
    ):
        # the blocks go into the file (enumerating a 10-phase game's takes seconds)
        arrays[name + "blocks"] = np.array(
            [[*_flat(b), first, size] for b, first, size in blocks], dtype=np.int32
        ).reshape(len(blocks), -1)
        keys = [join(b, pos) for b, first, size in blocks for pos in range(first, first + size)]
        for i, table in enumerate(tables if full else tables[:1]):
            missing = [k for k in keys if k not in table]
            if missing:
                raise InvalidRulesError(
                    f"{len(missing)} states of {g.describe()} are not solved (e.g. "
                    f"{missing[0]}); finish the solve first"
                )
            vals = np.array([table[k] for k in keys], dtype=np.float64).reshape(-1, 2)
            if full:
                arrays[f"{name}win_{i}"], arrays[f"{name}tie_{i}"] = vals[:, 0], vals[:, 1]
                continue
            errors = np.array([sol.error(k) for k in keys], dtype=np.float64)
            w, t, e, r = narrow_values(vals[:, 0], vals[:, 1], errors)
            arrays[name + "win"], arrays[name + "tie"], arrays[name + "error"] = w, t, e
            tie_rounding = max(tie_rounding, r)
        if full:
            arrays[name + "error"] = np.array([sol.error(k) for k in keys], dtype=np.float64)
    start = g.start()
    meta = {**table_payload_meta(sol, command), "format": PACKED_FORMAT, "form": form.value}
    meta.update({k: v for k, v in (provenance or {}).items() if k in PROVENANCE})
    meta["tie_bound"] = float(np.nextafter(sol.tie_bound + tie_rounding, np.inf))
    if full:
        meta["tie_bound"] = sol.tie_bound  # nothing rounded
    meta["start"] = {m[0].label + "-" + m[1].label: list(sol.value(start, m)) for m in MATCHUPS}
    meta["states"], meta["last_states"] = len(arrays["error"]), len(arrays["last_error"])
    arrays["meta"] = np.array(json.dumps(meta, separators=(",", ":")))
    tmp = os.fspath(path) + ".tmp.npz"
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


PROVENANCE = ("code_version", "command", "seconds", "headline")  # what its solve said


def read_packed(fh, game: DuelGame | None = None) -> tuple[DuelSolution, dict[str, Any]]:
    """A solution from a packed table (a path or a binary file), checked against the code's
    fingerprint of its game (``game``: the one it was solved for, where it is not the kit's
    phases on a named layout) and the number of its states."""
    try:
        with np.load(fh, allow_pickle=False) as z:
            data = json.loads(str(z["meta"][()]))
            arr = {name: z[name] for name in z.files if name != "meta"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise InvalidRulesError(f"not a packed two-player table: {e}") from None
    if data.get("format") != PACKED_FORMAT:
        raise InvalidRulesError(f"not a packed two-player table (format {data.get('format')})")
    game = _table_game(data) if game is None else _checked(game, data)
    full = data.get("form") == TableForm.FULL.value
    try:
        normal = _packed_parts(arr, data, "", len(MATCHUPS) if full else 0)
        last = _packed_parts(arr, data, "last_", len(PLAYS) if full else 0)
    except KeyError as e:
        raise InvalidRulesError(f"not a packed two-player table: no array {e}") from None
    e_max = max((float(arr[n].max()) for n in ("error", "last_error") if len(arr[n])), default=0)
    bound = data["bound"] if full else max(data["bound"], e_max)  # float32: rounded up
    sol = DuelSolution(game, bound=bound, tie_bound=data["tie_bound"], seconds=data["seconds"])
    sol.errors = PackedErrors(normal[0], last[0])
    if full:
        for m, states in zip(MATCHUPS, normal, strict=True):
            sol.values[m] = _Pairs(states)
        for p, states in zip(PLAYS, last, strict=True):
            sol.last[p] = _Pairs(states)
        return sol, data
    sol.packed = True
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    by_label = {p.label: p for p in PLAYS}
    start = game.start()
    at_start = {}  # the start's values in full (the arrays' are float32)
    for name, (wm, tm) in data["start"].items():
        a, b = name.split("-")
        at_start[(by_label[a], by_label[b])] = {start: (float(wm), float(tm))}
    sol.values[opt] = _Pairs(normal[0], at_start.pop(opt, {}))
    sol.values.update(at_start)
    sol.last[Play.OPTIMAL] = _Pairs(last[0])
    return sol, data


def _packed_parts(
    arr: Mapping[str, np.ndarray], data: Mapping[str, Any], name: str, plays: int
) -> list[PackedStates]:
    """The states of a packed table's normal play (``name`` "") or last chances ("last_"):
    optimal play's (``plays`` 0: the arrays ``win``, ``tie``), else each of ``plays``
    matchups' (``win_i``, ``tie_i``); the errors beside them."""
    blocks = list(_unflat(arr[name + "blocks"], normal=not name))
    split, join = (_split_normal, _join_normal) if not name else (_split_last, _join_last)
    e = arr[name + "error"]
    out = []
    for suffix in [""] if not plays else [f"_{i}" for i in range(plays)]:
        w, t = arr[name + "win" + suffix], arr[name + "tie" + suffix]
        states = PackedStates(
            blocks,
            split,
            join,
            lambda i, w=w, t=t: (float(w[i]), float(t[i]), float(e[i])),
            data[name + "states"],
        )
        if not len(w) == len(t) == len(e) == len(states):
            raise InvalidRulesError("the packed table's arrays do not match its blocks")
        out.append(states)
    return out


class _Pairs(Mapping):
    """A packed table's (win, tie) per state (its error left out); ``full``: states whose
    values the file keeps in full beside the arrays (the start)."""

    def __init__(self, states: PackedStates, full: Mapping[Any, Val] | None = None) -> None:
        self.states = states
        self.full = dict(full or {})

    def __getitem__(self, key: Any) -> Val:
        if key in self.full:
            return self.full[key]
        w, t, _ = self.states[key]
        return (w, t)

    def __contains__(self, key: object) -> bool:
        return key in self.states

    def __iter__(self):
        return iter(self.states)

    def __len__(self) -> int:
        return len(self.states)


def _table_game(data: Mapping[str, Any]) -> DuelGame:
    """The game a table was solved for, refused unless the code's fingerprint agrees."""
    rules = Rules(**data["rules"])
    layout = parse_layout(data["layout"]) if data["layout"] else COMPACT_LAYOUT
    spec = data["game"]
    return _checked(
        DuelGame.standard(spec["lo"], spec["hi"], rules, layout, spec.get("reachable")), data
    )


def _checked(game: DuelGame, data: Mapping[str, Any]) -> DuelGame:
    """``game``, refused unless the code's fingerprint of it is the table's."""
    if fingerprint(game) != data["fingerprint"]:
        raise InvalidRulesError("the table was solved for another game or an older meld")
    return game


def read_table(
    path: str | os.PathLike | None = None,
    phases: tuple[int, int] = (9, 10),
    dice: Layout | None = None,
) -> tuple[DuelSolution, dict[str, Any]]:
    """A solution from a table file (default: the shipped one of ``phases`` solved on
    ``dice``, see :func:`shipped_ranges`), checked against the code's fingerprint of its
    game."""
    if path is None:
        if phases not in shipped_ranges(dice):
            shipped = ", ".join(f"{a}-{b}" for a, b in shipped_ranges(dice))
            on = "" if dice is None else f" solved on the {dice.name} dice"
            raise OutsideTableError(
                f"no table of phases {phases[0]}-{phases[1]}{on} ships with the package "
                f"(shipped: {shipped or 'none'}); solve it with duel --solve"
            )
        # every shipped table is packed (the tables of few phases in full, TableForm.FULL)
        return read_packed(io.BytesIO(shipped_bytes(table_files(dice)[phases])))
    try:  # never a FIFO or a device: opening one for reading could wait forever
        raw = open_regular(path)
    except OSError as e:
        raise InvalidRulesError(f"not a two-player table: {e}") from None
    with raw:
        magic = raw.read(2)
        raw.seek(0)
        if magic == b"PK":  # a zip: a packed table
            return read_packed(raw)
        if magic != b"\x1f\x8b":
            raise InvalidRulesError(
                f"not a two-player table: {os.fspath(path)} is neither a packed table (.npz) "
                "nor rows of JSON (.json.gz)"
            )
        try:  # rows of JSON, as tables of few phases were written before 2026-12-06
            with gzip.open(raw, "rt", encoding="utf-8") as fh:
                data = json.load(fh)
            if not isinstance(data, dict) or "fingerprint" not in data:
                raise ValueError("no fingerprint")
        except (OSError, EOFError, ValueError) as e:  # gzip, UTF-8 and JSON errors among them
            raise InvalidRulesError(f"not a two-player table: {e}") from None
    try:
        return _table_rows(data)
    except (KeyError, TypeError, IndexError, ValueError) as e:  # a file of another shape
        if isinstance(e, InvalidRulesError):
            raise
        raise InvalidRulesError(f"not a two-player table: {type(e).__name__} {e}") from None


def _table_rows(data: dict[str, Any]) -> tuple[DuelSolution, dict[str, Any]]:
    """The solution a table's rows of JSON hold."""
    game = _table_game(data)
    sol = DuelSolution(
        game, bound=data["bound"], tie_bound=data["tie_bound"], seconds=data["seconds"]
    )
    by_label = {p.label: p for p in PLAYS}
    for name, rows in data["values"].items():
        a, b = name.split("-")
        vm = sol.values[(by_label[a], by_label[b])]
        for r in rows:
            key = (r[0], (r[1], r[2], r[3]), (r[4], r[5], r[6]), r[7])
            vm[key] = (r[8], r[9])
            if len(r) > 10:
                sol.errors[key] = r[10]
    for name, rows in data["last"].items():
        lm = sol.last[by_label[name]]
        for r in rows:
            lk = ((r[0], r[1], r[2]), r[3], r[4])
            lm[lk] = (r[5], r[6])
            if len(r) > 7:
                sol.errors[lk] = r[7]
    return sol, data


def format_headline(h: Mapping[str, Any], dice: str, start: int) -> str:
    """The headline as text: the game, the ``dice`` it holds for (their name) and where it
    starts (both players at phase ``start`` with 0 points), the optimal game, then the
    per-turn matchups."""
    lines = [
        f"Two-player Phase 10 Dice, {h['game']} on the {dice} dice; the start: both players "
        f"at phase {start} with 0 points",
        f"P(first player wins) = {h['p_first_wins']:.6f}   P(tie) = {h['p_tie']:.6f}   "
        f"P(second player wins) = {h['p_second_wins']:.6f}",
        f"worth of the first seat {h['first_worth']:.6f}, of the second {h['second_worth']:.6f} "
        "(chance to win, a tie counted half)",
        f"proven: the first seat's worth within {h['bound']:.1e} (certified interval "
        f"[{h['first_worth'] - h['bound']:.6f}, {h['first_worth'] + h['bound']:.6f}]); every "
        f"state's value within {h.get('bound_all', h['bound']):.1e}; P(tie) and the matchups "
        f"within {h['tie_bound']:.1e}",
        "",
        f"{'first seat':<11} {'second seat':<12} {'P(first wins)':>14} {'P(tie)':>9} "
        f"{'first worth':>12}",
    ]
    for r in h["matchups"]:
        lines.append(
            f"{r['first']:<11} {r['second']:<12} {r['p_first_wins']:>14.6f} {r['p_tie']:>9.6f} "
            f"{r['first_worth']:>12.6f}"
        )
    return "\n".join(lines)
