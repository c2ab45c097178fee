"""Ship only what the pages load: after the HTML build, remove the theme's files no page asks for.

Source maps (read only by a browser's developer tools), the theme's translation catalogues (used
at build time), the Font Awesome script that book/_templates/layout.html leaves out, and the
TrueType copies of the icon fonts (every browser that runs the site takes the woff2 copies).
Also: only the chapters get the Colab and Binder buttons. Another page that is a notebook (the
instructors' guide, whose hidden cells read the chapters) has no Jupyter edition to open.
"""

import pathlib
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


def chapters_only_launch(app, pagename, templatename, context, doctree) -> None:
    """Drop the launch buttons from pages that are not chapters (notebooks/...)."""
    if not pagename.startswith("notebooks/") and "header_buttons" in context:
        context["header_buttons"] = [b for b in context["header_buttons"]
                                     if b.get("label") != "launch-buttons"]


def setup(app):
    app.connect("build-finished", remove_unused)
    app.connect("html-page-context", chapters_only_launch, priority=502)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
