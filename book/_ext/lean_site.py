"""Ship only what the pages load: after the HTML build, remove the theme's files no page asks for.

Source maps (read only by a browser's developer tools), the theme's translation catalogues (used
at build time), the Font Awesome script that book/_templates/layout.html leaves out, and the
TrueType copies of the icon fonts (every browser that runs the site takes the woff2 copies).
Also: only the chapters get the Colab and Binder buttons. Another page that is a notebook (the
instructors' guide, whose hidden cells read the chapters) has no Jupyter edition to open.

And three repairs of the theme's and extensions' markup that accessibility checkers (axe-core,
tests/test_browser.py) report, made in the written pages: the search button and MyST-NB's "Show
code cell source" toggles carry an aria-label that differs from the words they show (a speech
user who says what they see would not reach them), and the bibliography marks its entries with
the deprecated role doc-biblioentry inside a role="list" that then has no list items.
"""

import pathlib
import re
import shutil

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


def chapters_only_launch(app, pagename, templatename, context, doctree) -> None:
    """Drop the launch buttons from pages that are not chapters (notebooks/...)."""
    if not pagename.startswith("notebooks/") and "header_buttons" in context:
        context["header_buttons"] = [b for b in context["header_buttons"]
                                     if b.get("label") != "launch-buttons"]


def setup(app):
    app.connect("build-finished", remove_unused)
    app.connect("build-finished", accessible_markup)
    app.connect("html-page-context", chapters_only_launch, priority=502)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
