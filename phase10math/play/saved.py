"""Games that survive a reload: the play app's state as JSON on the server's disk, one file
per browser session key (the ``?game=`` part of the app's address).

A turn is saved as its dice, holds, rolls and the state of its random dice; a game as its
settings (opponents, length, seed) and the human's finished turns, and is restored by playing
those turns again through the engine (the computer players' dice come from the same seed, so
the replay gives the same game). Files go to ``$PHASE10MATH_SAVE_DIR`` (default
``$XDG_DATA_HOME/phase10math/games`` or ``~/.local/share/phase10math/games``).

>>> from phase10math.play.models import Choice, TurnState
>>> st = TurnState(phase=2, seed=5)
>>> st.roll(); st.toggle(3)
>>> back = turn_from_dict(turn_to_dict(st))
>>> back.snapshot() == st.snapshot() and back.rng.random() == st.rng.random()
True
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import secrets
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from phase10math.dice.faces import Layout, parse_face, parse_layout
from phase10math.dice.layouts import LAYOUTS, get_layout
from phase10math.dice.phases import PHASES, as_phase
from phase10math.dice.rules import Rules
from phase10math.errors import Phase10MathError
from phase10math.play.models import Choice, TurnState

KEY = re.compile(r"[A-Za-z0-9_-]{8,40}")


def new_key() -> str:
    """A fresh session key (URL-safe, unguessable)."""
    return secrets.token_urlsafe(12)


def check_key(key: object) -> str:
    """``key`` if it is a session key (8-40 letters, digits, ``-`` or ``_``), else
    Phase10MathError (a file name is never built from anything else)."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        raise Phase10MathError(f"not a saved-game key: {key!r:.50}")
    return key


def save_dir() -> Path:
    env = os.environ.get("PHASE10MATH_SAVE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "phase10math" / "games"


def save(key: str, data: dict[str, Any]) -> Path:
    """Write the state of session ``key`` atomically (a reader never sees half a file)."""
    d = save_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{check_key(key)}.json"
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(key: str) -> dict[str, Any] | None:
    """The saved state of session ``key`` (None when there is none or it cannot be read)."""
    path = save_dir() / f"{check_key(key)}.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# --------------------------------------------------------------------------- pieces


def rng_to_list(rng: random.Random) -> list:
    version, state, gauss = rng.getstate()
    return [version, list(state), gauss]


def rng_from_list(x: list) -> random.Random:
    rng = random.Random()
    rng.setstate((x[0], tuple(x[1]), x[2]))
    return rng


def layout_to_dict(layout: Layout) -> dict[str, str]:
    for name, lay in LAYOUTS.items():
        if lay == layout:
            return {"name": name}
    return {"text": layout.to_text()}


def layout_from_dict(d: dict[str, str]) -> Layout:
    return get_layout(d["name"]) if "name" in d else parse_layout(d["text"])


def rules_from_dict(d: dict[str, Any]) -> Rules:
    return Rules().replace(**d)


def _faces(xs) -> tuple:
    return tuple(parse_face(x) if x is not None else None for x in xs)


def turn_to_dict(st: TurnState) -> dict[str, Any]:
    """Everything that defines a turn, its random dice included, as JSON-able values."""
    return {
        "phase": st.phase.number if st.phase.number in PHASES else st.phase.text,
        "objective": str(st.objective),
        "rules": st.rules.to_dict(),
        "layout": layout_to_dict(st.layout),
        "rng": rng_to_list(st.rng),
        "dice": [str(f) if f is not None else None for f in st.dice],
        "held": sorted(st.held),
        "aside": sorted(st.aside),
        "rolls_done": st.rolls_done,
        "stopped": st.stopped,
        "typed": st.typed,
        "pinned": sorted(st.pinned),
        "history": [[[str(f) for f in faces], sorted(kept)] for faces, kept in st.history],
    }


def turn_from_dict(d: dict[str, Any], rng: random.Random | None = None) -> TurnState:
    """The turn saved by :func:`turn_to_dict` (``rng``: share this one instead)."""
    st = TurnState(
        as_phase(d["phase"]),
        d["objective"],
        rules_from_dict(d["rules"]),
        layout_from_dict(d["layout"]),
        rng=rng if rng is not None else rng_from_list(d["rng"]),
    )
    st.dice = list(_faces(d["dice"]))
    st.held, st.aside, st.pinned = set(d["held"]), set(d["aside"]), set(d["pinned"])
    st.rolls_done, st.stopped, st.typed = int(d["rolls_done"]), bool(d["stopped"]), bool(d["typed"])
    st.history = [(_faces(faces), frozenset(kept)) for faces, kept in d["history"]]
    return st


def choices_to_list(choices) -> list[dict[str, Any]]:
    """The choices of a turn or a game (:class:`~phase10math.play.models.Choice`) as
    JSON-able values (each cost an exact fraction as text)."""
    return [dict(dataclasses.asdict(c), cost=str(c.cost)) for c in choices]


def choices_from_list(xs: list) -> list[Choice]:
    """The choices saved by :func:`choices_to_list`."""
    return [Choice(**dict(x, cost=Fraction(x["cost"]))) for x in xs]


def restore_error(e: Exception) -> bool:
    """A saved state that cannot be used (then the app starts afresh)."""
    return isinstance(e, (Phase10MathError, KeyError, TypeError, ValueError, IndexError))
