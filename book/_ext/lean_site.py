"""Ship only what the pages load: after the HTML build, remove the theme's files no page asks for.

Source maps (read only by a browser's developer tools), the theme's translation catalogues (used
at build time), the Font Awesome script that book/_templates/layout.html leaves out, and the
TrueType copies of the icon fonts (every browser that runs the site takes the woff2 copies),
MathJax's all-packages bundle (its TeX input loads each extension on its own, when a formula
needs it), and from the widget manager's bundle (assets/widgets/embed-amd.js) the modules for
widgets saved by ipywidgets 7 (the chapters are saved by ipywidgets 8: tests/test_browser.py
checks every saved model) and the source maps of its style sheets. The downloadable notebooks
are written as compact JSON (no indentation: the same notebook, a tenth smaller).
Also: only the chapters get the Colab and Binder buttons. Another page that is a notebook (the
instructors' guide, whose hidden cells read the chapters) has no Jupyter edition to open.

And four repairs of the theme's and extensions' markup that accessibility checkers (axe-core,
tests/test_browser.py) report, made in the written pages: the search button and MyST-NB's "Show
code cell source" toggles carry an aria-label that differs from the words they show (a speech
user who says what they see would not reach them), and the bibliography marks its entries with
the deprecated role doc-biblioentry inside a role="list" that then has no list items; and
sphinx-exercise gives every exercise and solution the same id (exercise-content,
solution-content), which the page then holds many times.
"""

import json
import pathlib
import re
import shutil
import sys

from docutils import nodes

UNUSED = ["**/*.map", "scripts/fontawesome.js", "scripts/fontawesome.js.LICENSE.txt",
          "vendor/fontawesome/webfonts/*.ttf"]


def remove_unused(app, exception) -> None:
    """Delete the unused theme files from the built site's _static folder."""
    if exception is not None or app.builder.format != "html":
        return
    static = pathlib.Path(app.outdir) / "_static"
    for pattern in UNUSED:
        for path in static.glob(pattern):
            path.unlink()
    shutil.rmtree(static / "locales", ignore_errors=True)
    assets = pathlib.Path(app.outdir) / "assets"
    (assets / "mathjax" / "input" / "tex" / "extensions" / "all-packages.js").unlink(missing_ok=True)
    bundle = assets / "widgets" / "embed-amd.js"
    if bundle.exists():
        bundle.write_text(lean_widget_bundle(bundle.read_text(encoding="utf-8")), encoding="utf-8")
    compact_notebooks(pathlib.Path(app.outdir) / "student")


# The widget manager's bundle is its AMD modules one after the other, each a license comment, a
# define() on one line and a source-map comment. Those for ipywidgets 7 are loaded only for
# widgets saved by it (their model version 1.x).
IPYWIDGETS_7 = re.compile(r'/\*! For license information please see (base7|controls7)\.js\.LICENSE\.txt \*/\n'
                          r'define\("@jupyter-widgets/(base7|controls7)".*?\n//# sourceMappingURL=\S+\n',
                          re.DOTALL)
CSS_SOURCE_MAP = re.compile(r"\{version:3,sources:\[")


def lean_widget_bundle(js: str) -> str:
    """The bundle without the ipywidgets 7 modules and with `null` for each style sheet's source
    map (css-loader then adds none to the style it injects)."""
    js = IPYWIDGETS_7.sub("", js)
    out, start = [], 0
    for found in CSS_SOURCE_MAP.finditer(js):
        if found.start() < start:
            continue
        end, depth, quote = found.start(), 0, None  # the end of the object literal
        while True:
            char = js[end]
            if quote:
                if char == "\\":
                    end += 1
                elif char == quote:
                    quote = None
            elif char in "\"'`":
                quote = char
            elif char in "{[":
                depth += 1
            elif char in "}]":
                depth -= 1
                if depth == 0:
                    break
            end += 1
        out += [js[start:found.start()], "null"]
        start = end + 1
    return "".join(out) + js[start:]


def compact_notebooks(folder: pathlib.Path, into: pathlib.Path | None = None) -> None:
    """Write each notebook of `folder` (into `into`, or in place) as JSON without indentation."""
    for notebook in sorted(folder.glob("*.ipynb")):
        text = json.dumps(json.loads(notebook.read_text(encoding="utf-8")), ensure_ascii=False,
                          separators=(",", ":"))
        (into or folder).mkdir(parents=True, exist_ok=True)
        (into or folder).joinpath(notebook.name).write_text(text + "\n", encoding="utf-8")


ACCESSIBLE_MARKUP = [
    (re.compile(r'(<button class="btn search-button-field[^>]*?) aria-label="[^"]*"'), r"\1"),
    (re.compile(r'<summary aria-label="Toggle hidden content">'), "<summary>"),
    (re.compile(r'role="doc-biblioentry"'), 'role="listitem"'),
]


def accessible_markup(app, exception) -> None:
    """Repair the written pages' markup that screen readers and speech input stumble on."""
    if exception is not None or app.builder.format != "html":
        return
    for page in pathlib.Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        fixed = text
        for pattern, replacement in ACCESSIBLE_MARKUP:
            fixed = pattern.sub(replacement, fixed)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


REPEATED_IDS = {"exercise-content", "solution-content"}


def unique_ids(app, doctree, docname) -> None:
    """sphinx-exercise's sections with one id for all: the id becomes a class."""
    for section in doctree.findall(nodes.section):
        repeated = REPEATED_IDS & set(section["ids"])
        if repeated:
            section["ids"] = [i for i in section["ids"] if i not in repeated]
            section["classes"] += sorted(repeated)


def chapters_only_launch(app, pagename, templatename, context, doctree) -> None:
    """Drop the launch buttons from pages that are not chapters (notebooks/...)."""
    if not pagename.startswith("notebooks/") and "header_buttons" in context:
        context["header_buttons"] = [b for b in context["header_buttons"]
                                     if b.get("label") != "launch-buttons"]


def setup(app):
    app.connect("build-finished", remove_unused)
    app.connect("build-finished", accessible_markup)
    app.connect("html-page-context", chapters_only_launch, priority=502)
    app.connect("doctree-resolved", unique_ids)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":  # make book: python book/_ext/lean_site.py NOTEBOOKS_FOLDER INTO
    compact_notebooks(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
