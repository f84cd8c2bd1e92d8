"""``phase10math handouts``: every lesson as the lesson to read, a student worksheet of its
questions and the teacher's key, in HTML and in A4 and Letter PDF; the rules, the glossary and a
one-page rules summary beside them; every figure of the lessons as PNG and SVG.

The export uses the outputs stored in the notebooks (nothing is re-executed), so the printed
numbers are the ones the committed notebooks show. A lesson's exercise answers (and the code
that checks them) are the cells tagged ``answer``:

- the **lesson** (``<name>-lesson``) is the whole notebook without them, its code without its
  ``assert`` lines;
- the **worksheet** (``<name>-worksheet``) is the questions only: the lesson's title, the
  exercises with a box to write in under each, and the outputs of the cells tagged
  ``worksheet`` (a table or a picture a question needs; ``worksheet-code``: with the code);
  no answer, and no instruction that only makes sense in the notebook ("open the answer");
  an exercise that needs the kit is marked *at the computer*;
- the **teacher's key** (``<name>-teacher``) is the same questions with every answer unfolded
  and the code that computed it, with its output.

All drop the ``# NBVAL_...`` test markers, wrap long code lines, shrink wide text tables to fit
the page, replace each widget (blank on paper) by the static picture of its state that the
notebook stores beside it (``text/html``; a progress bar is dropped), point the links to
``../docs/*.md`` at the exported ``rules.html``/``glossary.html``, and typeset formulas with a
local copy of MathJax (the ``jupyter-server-mathjax`` package: no network needed). HTML comes
from nbconvert (the ``notebooks`` extra); each PDF is that HTML printed by headless Chromium.

Bad input is a :class:`HandoutError` (the command line prints one line on stderr, exit 2):

>>> find_chromium("/no/such/browser")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
phase10math.cli.handouts.HandoutError: no Chromium at '/no/such/browser': ... or use --no-pdf
>>> lesson_notebooks(Path("/no/such/dir"))
Traceback (most recent call last):
...
phase10math.cli.handouts.HandoutError: no lesson notebooks (*.ipynb) in /no/such/dir

The text transformations, one at a time:

>>> print(strip_asserts("x = 1\\nassert x == 1, (\\n    'one')\\nprint(x)"))
x = 1
print(x)
>>> print(strip_markers("# NBVAL_IGNORE_OUTPUT\\nplot()"))
plot()
>>> fix_links("[rules](../docs/rules.md#18-bonuses) and [words](glossary.md)")
'[rules](rules.html#18-bonuses) and [words](glossary.html)'
>>> slug("1.12 A worked turn"), slug("High die, low die")
('112-a-worked-turn', 'high-die-low-die')
"""

from __future__ import annotations

import argparse
import ast
import base64
import copy
import html as html_lib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from phase10math.cli.printing import PAPERS, add_paper_options, papers_of, print_written
from phase10math.cli.unplugged import dice_nets_markdown, score_sheet_markdown
from phase10math.errors import Phase10MathError

ROOT = Path(__file__).resolve().parents[2]
# the repository's lesson notebooks and docs (an editable install keeps the package beside them)
DEFAULT_NOTEBOOKS = ROOT / "notebooks"
DOCS = ROOT / "docs"
DOC_PAGES = ("rules", "glossary", "rules-summary")  # docs/<name>.md, exported beside the lessons
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PDF_TIMEOUT = 120  # seconds per file
VARIANTS = ("lesson", "worksheet", "teacher")
TITLES = {
    "lesson": "The lesson",
    "worksheet": "Student worksheet",
    "teacher": "Teacher's key, with answers",
}
ANSWER_TAG = "answer"
WORKSHEET_TAG = "worksheet"  # a cell's output a question needs (a table, a picture), on paper too
WORKSHEET_CODE_TAG = "worksheet-code"  # the same with the cell's code (a function to read)
WORKSHEET_TAGS = {WORKSHEET_TAG, WORKSHEET_CODE_TAG}
WIDE = 74  # characters of monospaced output that fit the page at the normal size (measured)
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
FIGURE_MIMES = {"image/png": "png", "image/svg+xml": "svg"}
# MathJax 2 from the local copy, with the STIX web fonts it ships (no network)
MATHJAX_URL = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
MATHJAX_CONFIG = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({"HTML-CSS": {availableFonts: ["STIX-Web"], preferredFont: "STIX-Web",
  webFont: "STIX-Web", imageFont: null}, messageStyle: "none"});
</script>
"""

PRINT_CSS = """
@page { size: PAPER; margin: 14mm 13mm 16mm 13mm; }
body { font-size: 11pt; }
.jp-Notebook { padding: 0 !important; }
.jp-Cell { padding: 2px 0 !important; }
.jp-InputPrompt, .jp-OutputPrompt { display: none !important; }
pre, .jp-RenderedText pre, .highlight pre, .CodeMirror pre {
  white-space: pre-wrap !important; overflow-wrap: anywhere; word-break: break-all; }
table { font-size: 9pt; max-width: 100%; }
pre.p10-wide { font-family: var(--jp-code-font-family, monospace); line-height: 1.3; }
img, svg { max-width: 100% !important; height: auto; }
.jp-OutputArea-output, img, svg, table, pre, .p10-write { break-inside: avoid; }
h1, h2, h3 { break-after: avoid; }
.p10-write { border: 1px solid #999; border-radius: 4px; min-height: 4.5cm; margin: 6px 0 14px;
  background: repeating-linear-gradient(#fff 0 0.9cm, #ddd 0.9cm calc(0.9cm + 1px)); }
.p10-answer { border-left: 4px solid #0072B2; padding: 2px 10px; margin: 4px 0 10px;
  background: #f3f8fc; }
.p10-banner { font-size: 9pt; color: #555; border-bottom: 1px solid #ccc; margin-bottom: 8px; }
.p10-widget-note { font-size: 9pt; color: #555; }
a { color: #0055aa; }
"""


class HandoutError(Phase10MathError):
    """The handouts cannot be made: output directory, nbconvert or Chromium missing."""


# --------------------------------------------------------------------------- inputs


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


def find_mathjax() -> Path:
    """The local MathJax 2 of the ``jupyter-server-mathjax`` package (formulas offline)."""
    try:
        import jupyter_server_mathjax
    except ImportError:
        raise HandoutError(
            "jupyter-server-mathjax is not installed (formulas are typeset offline with it): "
            "pip install 'phase10math[notebooks]'"
        ) from None
    return Path(jupyter_server_mathjax.__file__).parent / "static"


def writable_dir(out: Path) -> Path:
    """Create ``out`` if needed and check that files can be written into it."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise HandoutError(f"cannot write to --out {out}: {exc.strerror or exc}") from None
    return out


def import_nbconvert():
    """``(nbformat, HTMLExporter)``, or a clear error when the notebooks extra is missing."""
    try:
        import nbformat
        from nbconvert import HTMLExporter
    except ImportError:
        raise HandoutError(
            "nbconvert is not installed: pip install 'phase10math[notebooks]' (or nbconvert)"
        ) from None
    return nbformat, HTMLExporter


# --------------------------------------------------------------------------- text


def strip_markers(source: str) -> str:
    """The code without its ``# NBVAL_...`` test-marker lines."""
    return "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith("# NBVAL"))


def strip_asserts(source: str) -> str:
    """The code without its ``assert`` statements (the worksheet must not give answers away)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython syntax: drop single-line asserts only
        return "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith("assert "))
    drop = {
        n
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert)
        for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    lines = source.splitlines()
    return "\n".join(ln for i, ln in enumerate(lines, 1) if i not in drop).rstrip()


def fix_links(markdown: str) -> str:
    """Links to ``../docs/NAME.md`` point at the exported ``NAME.html`` beside the handout."""
    return re.sub(r"\((?:\.\./)?(?:docs/)?([\w-]+)\.md(#[^)\s]*)?\)", r"(\1.html\2)", markdown)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading (what the links in the lessons and docs use)."""
    text = re.sub(r"<[^>]+>", "", html_lib.unescape(heading)).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def github_anchors(body: str) -> str:
    """nbconvert's heading ids replaced by GitHub's, so ``rules.html#18-bonuses`` works."""

    def one(m: re.Match) -> str:
        level, text = m.group(1), m.group(3)
        s = slug(text)
        return f'<h{level} id="{s}">{text}<a class="anchor-link" href="#{s}">'

    return re.sub(r'<h([1-6]) id="([^"]*)">(.*?)<a class="anchor-link" href="#[^"]*">', one, body)


# --------------------------------------------------------------------------- notebooks


def is_answer(cell) -> bool:
    return ANSWER_TAG in cell.get("metadata", {}).get("tags", [])


def wide_text_output(text: str) -> dict | None:
    """A text output wider than the page as HTML in a smaller font (so tables fit), else None."""
    width = max((len(ln) for ln in text.splitlines()), default=0)
    if width <= WIDE:
        return None
    size = max(50, int(100 * WIDE / width))  # smaller still, a line would wrap
    escaped = html_lib.escape(text.rstrip("\n"))
    return {"text/html": f'<pre class="p10-wide" style="font-size:{size}%">{escaped}</pre>'}


PROGRESS_TEXT = re.compile(r"\d+%\|.*\| *\d+/\d+")  # a tqdm bar's text: ' 0%|   | 0/10'


def widget_output(output, nbformat):
    """What a widget's output shows on paper: the static picture of the widget's state stored
    beside its view (``text/html``, e.g. the board of :class:`~phase10math.play.TurnWidget`),
    nothing for a progress bar, else a note that the control is interactive.

    >>> import nbformat
    >>> view = {"application/vnd.jupyter.widget-view+json": {"model_id": "x"}}
    >>> out = nbformat.v4.new_output("display_data", data={**view, "text/html": "<b>board</b>"})
    >>> widget_output(out, nbformat)["data"]
    {'text/html': '<b>board</b>'}
    >>> bar = {**view, "text/plain": "solving:   0%|          | 0/10 [00:00<?, ?phase/s]"}
    >>> widget_output(nbformat.v4.new_output("display_data", data=bar), nbformat) is None
    True
    """
    data = output.get("data", {})
    if "text/html" in data:
        return nbformat.v4.new_output("display_data", data={"text/html": data["text/html"]})
    if PROGRESS_TEXT.search(data.get("text/plain", "")):
        return None
    note = (
        '<p class="p10-widget-note">An interactive control appears here when the lesson runs '
        "in Jupyter.</p>"
    )
    return nbformat.v4.new_output("display_data", data={"text/html": note})


FOLDED_ANSWER = re.compile(r"<details>\s*<summary>Answer</summary>(.*?)</details>", re.S)


def unfolded(m: re.Match) -> str:
    """A folded answer (``<details>``) as an open, marked block (the teacher's copy).

    >>> FOLDED_ANSWER.sub(unfolded, "Q?<details><summary>Answer</summary>42</details>")
    'Q?<div class="p10-answer">\\n\\n**Answer.**42</div>'
    """
    return f'<div class="p10-answer">\n\n**Answer.**{m.group(1)}</div>'


def printable(nb, variant: str, nbformat):
    """A copy of the notebook ready to print as ``variant`` (``lesson``, ``worksheet`` or
    ``teacher``: see the module's docstring)."""
    if variant != "lesson":
        return question_sheet(nb, variant, nbformat)
    nb = copy.deepcopy(nb)
    cells = []
    for cell in nb.cells:
        if is_answer(cell):
            continue
        if cell.cell_type == "markdown":
            cell.source = FOLDED_ANSWER.sub("", fix_links(cell.source))
            cell.source = NOTEBOOK_ONLY.sub("", cell.source)
        elif not code_for_paper(cell, nbformat, asserts=False):
            continue
        cells.append(cell)
    nb.cells = cells
    return nb


def code_for_paper(cell, nbformat, asserts: bool) -> bool:
    """The code cell made printable in place (markers, and unless ``asserts`` the assert lines,
    dropped; outputs printable); False where nothing is left to print."""
    cell.source = strip_markers(cell.source)
    if not asserts:
        cell.source = strip_asserts(cell.source)
    outputs = (printable_output(o, nbformat) for o in cell.get("outputs", []))
    cell.outputs = [o for o in outputs if o is not None]
    return bool(cell.source.strip() or cell.outputs)


# a sentence that only makes sense in the notebook (the folded answers, the cells under them)
NOTEBOOK_ONLY = re.compile(
    r"[^.!?\n]*(?:open the answer|the cell under each answer)[^.!?]*[.!?]"
    r"(?:[^.!?\n]*(?:the cell under each answer|checks it)[^.!?]*[.!?])?",
    re.I,
)
EXERCISES_HEADING = re.compile(r"^#+\s*Exercises\s*$", re.M)
# an exercise that needs the kit: it names code, or asks to run or simulate
AT_THE_COMPUTER = re.compile(r"`[^`]*[_(.][^`]*`|\b(?:run|simulate|simulation of \d)", re.I)


def question_sheet(nb, variant: str, nbformat):
    """The worksheet (questions, a box under each) or the teacher's key (each question with its
    answers unfolded and the code that computed them) of a lesson."""
    title = next(
        (m.group(1) for c in nb.cells if c.cell_type == "markdown"
         for m in [re.search(r"^#\s+(.+)$", c.source, re.M)] if m),
        "Questions",
    )  # fmt: skip
    head = f"# {title}\n\n" + (
        "Name: ______________________ Date: ____________\n\n"
        "Write your answers in the boxes. Questions marked *at the computer* need the kit."
        if variant == "worksheet"
        else "The questions of the worksheet, each with its answer and the code that computed "
        "it (run in the lesson's notebook; the output is the one stored there)."
    )
    cells = [nbformat.v4.new_markdown_cell(head)]
    started = context = False
    for cell in nb.cells:
        cell = copy.deepcopy(cell)
        text = cell.source if cell.cell_type == "markdown" else ""
        heading = EXERCISES_HEADING.search(text)
        if heading and not started:  # what the exercises share: the intro after the heading
            started = True
            intro = text[heading.end() :].split("**Exercise")[0]
            intro = NOTEBOOK_ONLY.sub("", fix_links(intro)).strip()
            if intro:
                cells.append(nbformat.v4.new_markdown_cell(intro))
        if cell.cell_type == "markdown" and "**Exercise" in text:
            started = True
            question = fix_links(text[text.index("**Exercise") :])
            answer = "".join(m.group(0) for m in FOLDED_ANSWER.finditer(question))
            question = FOLDED_ANSWER.sub("", question).strip()
            if AT_THE_COMPUTER.search(question):
                question = question.replace(".**", ".** *(at the computer)*", 1)
            cells.append(nbformat.v4.new_markdown_cell(question))
            if variant == "teacher" and answer:
                cells.append(nbformat.v4.new_markdown_cell(FOLDED_ANSWER.sub(unfolded, answer)))
            if variant == "worksheet":
                cells.append(nbformat.v4.new_markdown_cell('<div class="p10-write"></div>'))
        elif WORKSHEET_TAGS & set(cell.metadata.get("tags", [])):  # what a question refers to
            if not context:
                context = True
                cells.append(nbformat.v4.new_markdown_cell("**From the lesson.**"))
            if cell.cell_type == "markdown":  # its headings as bold lines, not the lesson's
                text = re.sub(r"^#+\s*(.+)$", r"**\1**", fix_links(text), flags=re.M)
                cells.append(nbformat.v4.new_markdown_cell(text))
            elif code_for_paper(cell, nbformat, asserts=False):
                if WORKSHEET_TAG in cell.metadata.get("tags", []):
                    cell.metadata["transient"] = {"remove_source": True}  # output, no code
                cells.append(cell)
        elif variant == "teacher" and started and is_answer(cell):
            if cell.cell_type == "markdown":
                answer = FOLDED_ANSWER.sub(unfolded, fix_links(text))
                cells.append(nbformat.v4.new_markdown_cell(answer))
            elif code_for_paper(cell, nbformat, asserts=True):
                cells.append(cell)
    nb = copy.deepcopy(nb)
    nb.cells = cells
    return nb


def printable_output(output, nbformat):
    if output.get("output_type") == "stream":
        wide = wide_text_output(output.get("text", ""))
        return nbformat.v4.new_output("display_data", data=wide) if wide else output
    data = output.get("data", {})
    if WIDGET_MIME in data:
        return widget_output(output, nbformat)
    if "text/plain" in data and len(data) == 1 and output.get("output_type") != "error":
        wide = wide_text_output(data["text/plain"])
        if wide:
            output = copy.deepcopy(output)
            output["data"] = wide
    return output


def figures_of(nb) -> list[dict[str, bytes]]:
    """Every stored figure of the notebook, in order: ``{"png": bytes, "svg": bytes}`` (the
    formats the notebook stores)."""
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            formats = {}
            for mime, ext in FIGURE_MIMES.items():
                if mime in data:
                    raw = "".join(data[mime]) if isinstance(data[mime], list) else data[mime]
                    formats[ext] = base64.b64decode(raw) if ext == "png" else raw.encode()
            if formats:
                found.append(formats)
    return found


def export_figures(nb, stem: str, out: Path) -> list[Path]:
    """``out/figures/<lesson>-<k>.png`` and ``.svg`` (the formats the notebook stores)."""
    written = []
    for number, formats in enumerate(figures_of(nb), start=1):
        for ext, data in formats.items():
            target = out / "figures" / f"{stem}-{number}.{ext}"
            target.parent.mkdir(exist_ok=True)
            target.write_bytes(data)
            written.append(target)
    return written


# --------------------------------------------------------------------------- HTML and PDF


def to_html(nb, title: str, banner: str, exporter, paper: str = "A4") -> str:
    """The printable HTML page of a notebook node."""
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    style = f"<style>{PRINT_CSS.replace('PAPER', paper)}</style>"
    body = body.replace("</head>", f"{style}\n</head>", 1)
    body = body.replace("<!-- Load mathjax -->", MATHJAX_CONFIG + "<!-- Load mathjax -->", 1)
    body = re.sub(r"(<body[^>]*>)", rf'\1<div class="p10-banner">{banner}</div>', body, count=1)
    return github_anchors(body)


def with_paper(page: str, paper: str) -> str:
    """The same page printed on another paper size."""
    return page.replace("size: A4;", f"size: {paper};", 1)


def print_pdf(chromium: str, html: Path, pdf: Path) -> Path:
    """Print one HTML file to PDF with headless Chromium (its own throwaway profile), after
    MathJax has typeset the formulas."""
    with tempfile.TemporaryDirectory(prefix="p10-chromium-") as profile:
        cmd = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            "--allow-file-access-from-files",
            "--virtual-time-budget=20000",
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


def export_pdf(jobs: list[tuple[Path, Path]], chromium: str, workers: int = 2) -> list[Path]:
    """Print each ``(html, pdf)`` pair, ``workers`` Chromium runs at a time."""
    from phase10math._base.workers import result_of

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(print_pdf, chromium, h, p) for h, p in jobs]
        return [result_of(f) for f in futures]


def copy_mathjax(out: Path) -> None:
    """The local MathJax beside the handouts (``out/mathjax``), so that the HTML works offline
    and can be copied elsewhere with its folder."""
    target = out / "mathjax"
    if not (target / "MathJax.js").exists():
        shutil.copytree(find_mathjax(), target, dirs_exist_ok=True)


def make_handouts(
    out: Path,
    notebooks_dir: Path = DEFAULT_NOTEBOOKS,
    pdf: bool = True,
    chromium: str | None = None,
    only: list[str] | None = None,
    papers: tuple[str, ...] = ("a4", "letter"),
    docs: bool | tuple[str, ...] = True,
) -> list[Path]:
    """Export the lessons of ``notebooks_dir`` into ``out``: per lesson ``<name>-lesson``,
    ``<name>-worksheet`` and ``<name>-teacher`` as HTML and (unless ``pdf=False``) one PDF per
    paper of ``papers`` (``<name>-worksheet-a4.pdf``, ...); the figures under
    ``out/figures``; with ``docs``, the rules, glossary, rules summary, dice nets and score
    sheet the same way. ``docs`` may also name the pages to make (``("rules-summary",)``).
    ``only`` restricts the lessons to these names (stems). Returns the files written. Every
    check runs before anything is converted."""
    notebooks = lesson_notebooks(notebooks_dir)
    if only:
        unknown = sorted(set(only) - {p.stem for p in notebooks})
        if unknown:
            raise HandoutError(f"no notebook {', '.join(unknown)} in {notebooks_dir}")
        notebooks = [p for p in notebooks if p.stem in only]
    bad_paper = sorted(set(papers) - set(PAPERS))
    if bad_paper or not papers:
        raise HandoutError(f"--paper {', '.join(bad_paper) or '(none)'}: choose from a4, letter")
    nbformat, HTMLExporter = import_nbconvert()
    find_mathjax()
    browser = find_chromium(chromium) if pdf else None
    writable_dir(out)
    copy_mathjax(out)
    exporter = HTMLExporter(template_name="lab", mathjax_url=MATHJAX_URL)
    pages: list[tuple[str, str]] = []  # (file stem, A4 page)
    written: list[Path] = []
    for nb_path in notebooks:
        try:
            nb = nbformat.read(nb_path, as_version=4)
        except Exception as exc:  # not JSON, not a notebook, unreadable: nothing internal
            raise HandoutError(
                f"{nb_path} is not a readable notebook ({type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else 'damaged'})"
            ) from None
        for variant in VARIANTS:
            banner = f"Phase 10 Dice lessons &middot; {nb_path.stem} &middot; {TITLES[variant]}"
            page = to_html(printable(nb, variant, nbformat), nb_path.stem, banner, exporter)
            pages.append((f"{nb_path.stem}-{variant}", page))
        written += export_figures(nb, nb_path.stem, out)
    texts = {name: (DOCS / f"{name}.md").read_text(encoding="utf-8") for name in DOC_PAGES}
    texts.update({"dice-nets": dice_nets_markdown(), "score-sheet": score_sheet_markdown()})
    wanted = texts if docs is True else (docs or ())
    for name, text in ((n, texts[n]) for n in wanted):
        cell = nbformat.v4.new_markdown_cell(fix_links(text))
        doc = nbformat.v4.new_notebook(cells=[cell])
        banner = f"Phase 10 Dice lessons &middot; {name}"
        pages.append((name, to_html(doc, name, banner, exporter)))
    return written + write_pages(pages, out, papers, browser)


def write_pages(
    pages: list[tuple[str, str]], out: Path, papers: tuple[str, ...], browser: str | None
) -> list[Path]:
    """Each page (file stem, A4 page) as HTML into ``out`` and, with a ``browser``, one PDF
    per paper of ``papers``; the files written."""
    written: list[Path] = []
    jobs: list[tuple[Path, Path]] = []
    for stem, page in pages:
        html = out / f"{stem}.html"
        html.write_text(page, encoding="utf-8")
        written.append(html)
        for paper in papers if browser else ():
            source = html if paper == "a4" else out / f".{stem}-{paper}.html"
            if source != html:
                source.write_text(with_paper(page, PAPERS[paper].css), encoding="utf-8")
            jobs.append((source, out / f"{stem}-{paper}.pdf"))
    if browser:
        written += export_pdf(jobs, browser)
        for source, _ in jobs:
            if source.name.startswith("."):
                source.unlink()
    return written


def cmd_handouts(args: argparse.Namespace) -> int:
    if not args.out.strip():  # Path("") is the current folder
        raise HandoutError("--out is empty: name the folder to write the handouts into")
    files = make_handouts(
        Path(args.out),
        Path(args.notebooks),
        pdf=not args.no_pdf,
        chromium=args.chromium,
        only=args.only,
        papers=papers_of(args),
    )
    print_written(files)
    print(f"{len(files)} files written to {args.out}", file=sys.stderr)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "handouts",
        help="every lesson, its worksheet of questions and the teacher's key (HTML and PDF)",
        description=(
            "Export every lesson notebook (notebooks/*.ipynb) as the lesson (no answers), a "
            "student worksheet (the questions only, a box to write in under each) and the "
            "teacher's key (the questions with their answers and how they were computed), in "
            "HTML and in A4 and Letter PDF (headless Chromium), with the rules, the glossary, a "
            "one-page rules summary and every figure as PNG and SVG; from the outputs stored in "
            "the notebooks."
        ),
    )
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (created)")
    add_paper_options(
        p,
        "HTML only (no Chromium needed)",
        "paper size of the PDFs (repeat for both; default: a4 and letter)",
    )
    p.add_argument("--only", nargs="+", metavar="LESSON", help="only these lessons (names)")
    p.add_argument(
        "--notebooks",
        default=str(DEFAULT_NOTEBOOKS),
        metavar="DIR",
        help="where the lesson notebooks are (default: the repository's notebooks/)",
    )
    p.add_argument("--chromium", metavar="PATH", help="the Chromium executable to print with")
    p.set_defaults(func=cmd_handouts)
