"""Every module of the package with the first sentence of its docstring, as a Markdown table
(the full map of docs/package.md):

    python tools/package_map.py
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "phase10math"


def first_sentence(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    sentence = re.split(r"(?<=[.:])\s", text, maxsplit=1)[0]
    return sentence.rstrip(":").replace("|", "\\|")


def rows() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts) or "(the package)"
        lines = len(path.read_text(encoding="utf-8").splitlines())
        found.append((name, lines, first_sentence(path)))
    return found


def main() -> None:
    print("| module | lines | what it is (its docstring's first sentence) |")
    print("|---|---|---|")
    for name, lines, text in rows():
        print(f"| `{name}` | {lines:,} | {text} |")


if __name__ == "__main__":
    main()
