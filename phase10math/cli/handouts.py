"""``phase10math handouts``: every lesson notebook as an HTML and a PDF handout.

The export uses the outputs stored in the notebooks (nothing is re-executed), so the printed
numbers are the ones the committed notebooks show. HTML comes from nbconvert (an optional
dependency: the ``notebooks`` extra); each PDF is the HTML printed by headless Chromium
(``chromium --headless --print-to-pdf``), several files at once.

Bad input is a :class:`HandoutError` (the command line prints one line on stderr, exit 2):

>>> find_chromium("/no/such/browser")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10math.cli.handouts.HandoutError: no Chromium at '/no/such/browser': ... or use --no-pdf
>>> lesson_notebooks(Path("/no/such/dir"))
Traceback (most recent call last):
...
phase10math.cli.handouts.HandoutError: no lesson notebooks (*.ipynb) in /no/such/dir
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from phase10math.errors import Phase10MathError

# the repository's lesson notebooks (an editable install keeps the package next to them)
DEFAULT_NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PDF_TIMEOUT = 120  # seconds per file


class HandoutError(Phase10MathError):
    """The handouts cannot be made: output directory, nbconvert or Chromium missing."""


def lesson_notebooks(directory: Path) -> list[Path]:
    """The lesson notebooks of ``directory`` (``*.ipynb``, sorted; checkpoints skipped)."""
    found = sorted(p for p in Path(directory).glob("*.ipynb") if p.is_file())
    if not found:
        raise HandoutError(f"no lesson notebooks (*.ipynb) in {directory}")
    return found


def find_chromium(path: str | None = None) -> str:
    """The Chromium executable: ``path`` if given, else the first of :data:`CHROMIUM_NAMES`
    on ``PATH`` (or ``$PHASE10MATH_CHROMIUM``)."""
    candidates = [path] if path else [os.environ.get("PHASE10MATH_CHROMIUM"), *CHROMIUM_NAMES]
    for name in candidates:
        found = name and shutil.which(name)
        if found:
            return found
    shown = repr(path) if path else "on PATH (chromium)"
    raise HandoutError(
        f"no Chromium {'at ' if path else ''}{shown}: install chromium "
        "(Debian: apt-get install chromium) or use --no-pdf"
    )


def writable_dir(out: Path) -> Path:
    """Create ``out`` if needed and check that files can be written into it."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise HandoutError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    return out


def export_html(notebooks: list[Path], out: Path) -> list[Path]:
    """Each notebook as ``out/<name>.html`` with its stored outputs (no execution)."""
    try:
        import nbformat
        from nbconvert import HTMLExporter
    except ImportError:
        raise HandoutError(
            "nbconvert is not installed: pip install 'phase10math[notebooks]' (or nbconvert)"
        ) from None
    exporter = HTMLExporter()
    written = []
    for nb_path in notebooks:
        try:
            node = nbformat.read(nb_path, as_version=4)
        except Exception as exc:  # not JSON, not a notebook, unreadable: nothing internal
            raise HandoutError(
                f"{nb_path} is not a readable notebook ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'damaged'})"
            ) from None
        body, _ = exporter.from_notebook_node(node)
        target = out / f"{nb_path.stem}.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    return written


def print_pdf(chromium: str, html: Path, pdf: Path) -> Path:
    """Print one HTML file to PDF with headless Chromium (its own throwaway profile)."""
    with tempfile.TemporaryDirectory(prefix="p10-chromium-") as profile:
        cmd = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--user-data-dir={profile}",
            f"--print-to-pdf={pdf}",
            html.resolve().as_uri(),
        ]
        try:
            subprocess.run(cmd, capture_output=True, timeout=PDF_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise HandoutError(f"Chromium could not print {html.name}: {exc}") from None
    if not pdf.exists() or pdf.read_bytes()[:4] != b"%PDF":
        raise HandoutError(f"Chromium did not write a PDF for {html.name}")
    return pdf


def export_pdf(html_files: list[Path], chromium: str, workers: int = 4) -> list[Path]:
    """Every HTML file printed to a PDF beside it, ``workers`` Chromium runs at a time."""
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        jobs = [pool.submit(print_pdf, chromium, h, h.with_suffix(".pdf")) for h in html_files]
        return [j.result() for j in jobs]


def make_handouts(
    out: Path,
    notebooks_dir: Path = DEFAULT_NOTEBOOKS,
    pdf: bool = True,
    chromium: str | None = None,
    only: list[str] | None = None,
) -> list[Path]:
    """Export the lessons of ``notebooks_dir`` into ``out``: one HTML per notebook, and one
    PDF each unless ``pdf=False``. ``only`` restricts the export to these notebook names
    (stems). Returns the files written. Every check runs before anything is converted."""
    notebooks = lesson_notebooks(notebooks_dir)
    if only:
        unknown = sorted(set(only) - {p.stem for p in notebooks})
        if unknown:
            raise HandoutError(f"no notebook {', '.join(unknown)} in {notebooks_dir}")
        notebooks = [p for p in notebooks if p.stem in only]
    browser = find_chromium(chromium) if pdf else None
    writable_dir(out)
    html = export_html(notebooks, out)
    return html + (export_pdf(html, browser) if browser else [])


def cmd_handouts(args: argparse.Namespace) -> int:
    if not args.out.strip():  # Path("") is the current folder
        raise HandoutError("--out is empty: name the folder to write the handouts into")
    files = make_handouts(
        Path(args.out), Path(args.notebooks), pdf=not args.no_pdf, chromium=args.chromium
    )
    for f in files:
        print(f)
    print(f"{len(files)} files written to {args.out}", file=sys.stderr)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "handouts",
        help="export every lesson notebook to HTML and PDF (stored outputs, no re-execution)",
        description=(
            "Export every lesson notebook (notebooks/*.ipynb) to HTML with nbconvert and to PDF "
            "with headless Chromium, using the outputs stored in the notebooks."
        ),
    )
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (created)")
    p.add_argument("--no-pdf", action="store_true", help="HTML only (no Chromium needed)")
    p.add_argument(
        "--notebooks",
        default=str(DEFAULT_NOTEBOOKS),
        metavar="DIR",
        help="where the lesson notebooks are (default: the repository's notebooks/)",
    )
    p.add_argument("--chromium", metavar="PATH", help="the Chromium executable to print with")
    p.set_defaults(func=cmd_handouts)
