"""The package's import graph, read from the source with ``ast``: layers, no cycles, no
private names taken from other modules, no function-level imports of the package outside the
command line (which imports on demand: ``--help`` and a refused input answer before the
solvers are imported; such imports are edges of the graph all the same).

The layers read bottom-up; a module may import only from its own layer or the ones below:

0. ``exact``, ``errors``, ``cache``, ``version`` and ``_base`` (the machinery: ``checks``,
   ``files``, ``lazy``, ``progress``, ``startup``, ``workers``) - shared pieces;
1. ``dice`` - the dice game's rules as data; ``guards`` - the ranges results lie in;
2. ``turn`` - the exact turn solver;
3. ``game`` - whole games;
4. ``play`` - the Jupyter play UI; ``cards`` and ``tenthousand`` - the other two games;
5. ``cli`` and the package's public API (``phase10math/__init__.py``).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "phase10math"

LAYER = {
    "exact": 0,
    "errors": 0,
    "cache": 0,
    "_base": 0,  # the machinery: checks, files, lazy, progress, startup, workers
    "version": 0,
    "dice": 1,
    "guards": 1,
    "turn": 2,
    "game": 3,
    "play": 4,
    "cards": 4,
    "tenthousand": 4,
    "cli": 5,
    "__main__": 5,
    "": 5,  # phase10math/__init__.py: the public API
}
# optional heavy dependencies that may be imported inside functions
LAZY_OK = {"ipywidgets", "IPython", "matplotlib", "playwright", "nbconvert", "nbformat", "tqdm",
           "jupyter_server_mathjax", "distributed", "dask"}  # fmt: skip
# modules that import these dependencies at their first use (the argument checks build
# beartype's check, with numpy's integers, after their plain checks: the command line's
# --help and refusals import neither)
LAZY_IN = {"phase10math._base.checks": {"beartype", "numpy"}}
# the command line's modules: their handlers import the solvers they run (on demand)
ON_DEMAND = {"phase10math.cli", "phase10math.cards.cli", "phase10math.tenthousand.cli"}


def on_demand(name: str) -> bool:
    """Whether module ``name`` may import inside its functions (the command line)."""
    return name in ON_DEMAND or name.startswith("phase10math.cli.")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """ids of the statements under a module-level ``if TYPE_CHECKING:`` (types only, never
    executed, but edges of the import graph all the same: a cycle through them is a cycle)."""
    return {
        id(sub)
        for node in tree.body
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for sub in node.body
    }


def imports_of(name: str, path: Path, modules: dict[str, Path]):
    """Yield (target module, imported names, at module level?) for each package import
    (imports under ``if TYPE_CHECKING:`` count as module level)."""
    tree = ast.parse(path.read_text())
    top = {id(n) for n in tree.body} | _type_checking_nodes(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        at_top = id(node) in top
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], at_top
            continue
        base = node.module or ""
        if node.level:
            pkg = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(pkg + ([base] if base else []))
        for a in node.names:
            sub = f"{base}.{a.name}"
            if sub in modules:  # "from package import module"
                yield sub, [], at_top
            else:
                yield base, [a.name], at_top


@functools.cache
def graph() -> tuple[dict[str, set[str]], list[str]]:
    modules = all_modules()
    edges: dict[str, set[str]] = {m: set() for m in modules}
    problems: list[str] = []
    for name, path in modules.items():
        for target, names, at_top in imports_of(name, path, modules):
            top_pkg = target.split(".")[0]
            if top_pkg != "phase10math":
                lazy_ok = LAZY_OK | LAZY_IN.get(name, set())
                if not at_top and top_pkg not in lazy_ok and not on_demand(name):
                    problems.append(f"{name}: function-level import of {target}")
                continue
            if not at_top and not on_demand(name):
                problems.append(f"{name}: function-level import of {target}")
            if target != name:
                edges[name].add(target)
            for n in names:
                if n.startswith("_") and not n.startswith("__"):
                    problems.append(f"{name}: imports private name {n} from {target}")
    return edges, problems


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the directed graph ``edges`` as a list of nodes, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state and (found := visit(m)):
                return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state and (found := visit(n)):
            return found
    return None


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYER[parts[1] if len(parts) > 1 else ""]


def test_find_cycle_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle():
    edges, _ = graph()
    assert find_cycle(edges) is None


def test_type_checking_imports_are_edges(tmp_path):
    """An import under ``if TYPE_CHECKING:`` is read as a module-level edge (a cycle through
    it is reported), an import inside a function is not module level."""
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from phase10math.game.engine import Game\n"
        "def f():\n    from phase10math.dice import faces\n"
    )
    got = sorted(imports_of("phase10math.m", src, all_modules()))
    assert ("phase10math.game.engine", ["Game"], True) in got
    assert ("phase10math.dice.faces", [], False) in got


def test_no_private_names_and_no_function_level_imports_of_the_package():
    _, problems = graph()
    assert problems == []


@pytest.mark.parametrize("module", sorted(all_modules()))
def test_layers_import_only_downwards(module):
    edges, _ = graph()
    up = [t for t in edges[module] if layer(t) > layer(module)]
    assert up == [], f"{module} (layer {layer(module)}) imports from a higher layer: {up}"


def test_every_module_is_described_in_its_package_docstring():
    for pkg in ("dice", "turn", "game", "play"):
        doc = ast.get_docstring(ast.parse((ROOT / pkg / "__init__.py").read_text())) or ""
        for path in (ROOT / pkg).glob("*.py"):
            if path.name != "__init__.py":
                assert f"phase10math.{pkg}.{path.stem}`" in doc, (pkg, path.stem)


def test_the_generic_steps_do_not_import_an_engine():
    """The per-type steps (``turn.kernels``) and the state space import neither the tensor
    nor the sticky engine nor the engine module: :mod:`phase10math.turn.engine` picks."""
    edges, _ = graph()
    for generic in ("phase10math.turn.kernels", "phase10math.turn.statespace"):
        special = {t for t in edges[generic] if t.startswith(("phase10math.turn.tensor",))}
        special |= edges[generic] & {"phase10math.turn.sticky", "phase10math.turn.engine"}
        assert special == set(), (generic, special)


def test_the_command_line_imports_on_demand_and_those_imports_are_edges():
    """The command line's handlers import the solvers inside functions; those imports are
    edges (layers and cycles are checked through them), and only the command line has them."""
    edges, _ = graph()
    assert "phase10math.turn.advisor" in edges["phase10math.cli.turn"]
    assert "phase10math.game.duel" in edges["phase10math.cli.duel"]
    assert on_demand("phase10math.cli.game") and on_demand("phase10math.cards.cli")
    assert not on_demand("phase10math.turn.tables") and not on_demand("phase10math._base.checks")
