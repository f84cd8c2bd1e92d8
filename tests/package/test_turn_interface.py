"""Whole games (``game/``) and the app (``play/``) reach the exact turn (``turn/``) only through
its public names, read from the source with ``ast``: a name from ``phase10math.turn`` itself is
in its ``__all__`` (or is one of its public modules); a name from one of its modules
(``phase10math.turn.tables``) is in that module's ``__all__`` (what the module offers the layers
above); an attribute of a turn module imported whole (``tables.cached_solution``) likewise. Never
a private name, never a module deeper than one level (``phase10math.turn.tensor.forward``: the
tensor engine's inside), never a module without an ``__all__``."""

from __future__ import annotations

import ast
import importlib
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "phase10math"
TURN = "phase10math.turn"
CLIENTS = ("game", "play")


def _absolute(module: str | None, level: int, here: str) -> str:
    """The absolute name of a (possibly relative) ``from`` import in module ``here`` (a
    package's ``__init__`` named with it: ``phase10math.game.__init__``)."""
    if not level:
        return module or ""
    base = here.split(".")[:-level]
    return ".".join([*base, *([module] if module else [])])


def _exports(module: str) -> list[str] | None:
    """The ``__all__`` of a turn module one level deep (or of ``phase10math.turn``), None where
    the module is private, deeper, or has none."""
    if module != TURN:
        rest = module.removeprefix(TURN + ".")
        if "." in rest or rest.startswith("_"):
            return None
    return getattr(importlib.import_module(module), "__all__", None)


def _is_public_module(package: str, name: str) -> bool:
    if name.startswith("_"):
        return False
    try:
        return isinstance(importlib.import_module(f"{package}.{name}"), types.ModuleType)
    except ImportError:
        return False


def turn_reaches(source: str, here: str) -> list[str]:
    """The imports of ``source`` (module ``here``) that reach ``turn/`` past its public names."""
    tree = ast.parse(source)
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> a turn module imported whole
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == TURN or a.name.startswith(TURN + "."):
                    if _exports(a.name) is None:
                        found.append(f"import {a.name} (not a public module of turn)")
                    elif a.asname:
                        modules[a.asname] = a.name
                    elif a.name != TURN:
                        found.append(f"import {a.name} (reached as a deep attribute)")
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, here)
            if module != TURN and not module.startswith(TURN + "."):
                continue
            public = _exports(module)
            for a in node.names:
                if public is None:
                    found.append(f"from {module} import {a.name} (no public module of turn)")
                elif module == TURN and _is_public_module(TURN, a.name):
                    modules[a.asname or a.name] = f"{TURN}.{a.name}"
                elif a.name not in public or a.name.startswith("_"):
                    found.append(f"from {module} import {a.name} (not in its __all__)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = modules.get(node.value.id)
            if module is None:
                continue
            public = _exports(module)
            if public is None or node.attr not in public:
                found.append(f"{node.value.id}.{node.attr} (not in {module}.__all__)")
    return found


def client_modules() -> dict[str, Path]:
    out = {}
    for layer in CLIENTS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT.parent).with_suffix("").parts
            out[".".join(parts)] = path
    return out


def test_the_check_catches_deep_private_and_unexported_names():
    here = "phase10math.game.example"
    bad = (
        "from phase10math.turn.tensor.forward import push_forward\n"
        "from phase10math.turn.tables import _MEMORY\n"
        "from phase10math.turn.engine import engine_for\n"
        "from phase10math.turn import no_such_name\n"
        "from ..turn.statespace import StateSpace, _private\n"
        "import phase10math.turn.tensor.forward\n"
        "from phase10math.turn import tables\n"
        "tables.cached_solution(1); tables._load_entry(2)\n"
    )
    found = turn_reaches(bad, here)
    assert [f.split(" (")[0] for f in found] == [
        "from phase10math.turn.tensor.forward import push_forward",
        "from phase10math.turn.tables import _MEMORY",
        "from phase10math.turn.engine import engine_for",
        "from phase10math.turn import no_such_name",
        "from phase10math.turn.statespace import _private",
        "import phase10math.turn.tensor.forward",
        "tables._load_entry",
    ], found
    good = (
        "from phase10math.turn import advise, HoldTable, tables\n"
        "from phase10math.turn.statespace import StateSpace\n"
        "from ..turn.tables import cached_solution\n"
        "tables.cached_solution(1)\n"
    )
    assert turn_reaches(good, here) == []


@pytest.mark.parametrize("module", sorted(client_modules()))
def test_games_and_the_app_reach_turn_only_through_its_public_names(module):
    path = client_modules()[module]
    here = module + (".__init__" if path.name == "__init__.py" else "")
    assert turn_reaches(path.read_text(encoding="utf-8"), here) == []


def test_every_turn_module_the_games_and_the_app_use_says_what_it_offers():
    """Every name a turn module's ``__all__`` lists exists there."""
    for name in sorted({p.stem for p in (ROOT / "turn").glob("[!_]*.py")}):
        module = importlib.import_module(f"{TURN}.{name}")
        for exported in getattr(module, "__all__", []):
            assert hasattr(module, exported), f"{TURN}.{name}.{exported}"
