"""Sphinx configuration of the documentation site: README, rules, glossary, teaching guide,
every lesson with its stored outputs (nothing is executed) and the API reference.

Build (offline, warnings are errors): ``python -m sphinx -W -c docs/site . _build/site``
from the repository root (README, "Documentation site").
"""

import re

project = "phase10math"
author = "phase10math authors"
root_doc = "docs/site/index"
extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
# only these sources, from the repository root
include_patterns = [
    "README.md",
    "docs/*.md",
    "docs/site/*.md",
    "notebooks/*.ipynb",
]
exclude_patterns = ["_build", ".venv", "**/.ipynb_checkpoints"]

nb_execution_mode = "off"  # the lessons as committed, with their stored outputs
nb_output_stderr = "remove"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "html_image"]
myst_heading_anchors = 4  # GitHub's heading anchors, which the pages link to
# a widget's output also stores a static picture of its state (text/html): the site shows that
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
suppress_warnings = [
    "mystnb.unknown_mime_type",  # a widget stored without its picture: shown as its text
    "myst.header",  # heading levels (cli-bounds.md starts at H2); links are still checked
]

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_typehints = "none"

html_theme = "alabaster"
html_title = "phase10math"
html_theme_options = {"description": "Exact probabilities and optimal strategies for Phase 10 Dice"}
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"  # the local copy: offline
# the local copy is MathJax 2 with the STIX web fonts only; myst marks the pages "ignore" and the
# formulas "math" (MathJax 3's names), so MathJax 2 is told the same
mathjax2_config = {
    "tex2jax": {
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
        "ignoreClass": "tex2jax_ignore|mathjax_ignore",
    },
    "HTML-CSS": {
        "availableFonts": ["STIX-Web"],
        "preferredFont": "STIX-Web",
        "webFont": "STIX-Web",
        "imageFont": None,
    },
    "messageStyle": "none",
}


def drop_test_markers(app, docname, source):
    """The lessons without their ``# NBVAL_...`` lines (test markers, not for the reader)."""
    if docname.startswith("notebooks/"):
        source[0] = re.sub(r'"# NBVAL_[A-Z_]+\\n",\s*', "", source[0])


def setup(app):
    """Copy the local MathJax (package jupyter-server-mathjax) into the site's static files;
    hide the test markers."""
    from pathlib import Path

    import jupyter_server_mathjax

    app.config.html_static_path = [str(Path(jupyter_server_mathjax.__file__).parent / "static")]
    app.connect("source-read", drop_test_markers)
