"""Ship only what the pages load: after the HTML build, remove the theme's files no page asks for.

Source maps (read only by a browser's developer tools), the theme's translation catalogues (used
at build time), the Font Awesome script that book/_templates/layout.html leaves out, and the
TrueType copies of the icon fonts (every browser that runs the site takes the woff2 copies),
MathJax's all-packages bundle (its TeX input loads each extension on its own, when a formula
needs it), the figures of earlier builds that no page shows any more, and from the widget
manager's bundle (assets/widgets/embed-amd.js) the modules for widgets saved by ipywidgets 7,
those defined on their own and the copies inside the manager with the libraries only they use
(the chapters are saved by ipywidgets 8: tests/test_browser.py checks every saved model), and
the source maps of its style sheets. The downloadable notebooks
are written as compact JSON (no indentation: the same notebook, a tenth smaller) and without the
times their execution recorded in every cell. The highlighted code is written without the spans
of the token kinds that the theme's style sheet colours as the code block itself (names,
punctuation, whitespace): the same colours, a chapter page a third smaller.
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
from urllib.parse import unquote

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
    remove_unshown_images(pathlib.Path(app.outdir))


IMAGE_REF = re.compile(r"""_images/([^"'?#\s)]+)""")


def remove_unshown_images(site: pathlib.Path) -> None:
    """Delete the figures no page shows (an incremental build keeps those of earlier builds)."""
    shown = {unquote(name) for page in site.rglob("*.html")
             for name in IMAGE_REF.findall(page.read_text(encoding="utf-8"))}
    for image in (site / "_images").glob("*"):
        if image.is_file() and image.name not in shown:
            image.unlink()


# The widget manager's bundle is its AMD modules one after the other, each a license comment, a
# define() on one line and a source-map comment. Those for ipywidgets 7 are loaded only for
# widgets saved by it (their model version 1.x).
IPYWIDGETS_7 = re.compile(r'/\*! For license information please see (base7|controls7)\.js\.LICENSE\.txt \*/\n'
                          r'define\("@jupyter-widgets/(base7|controls7)".*?\n//# sourceMappingURL=\S+\n',
                          re.DOTALL)
CSS_SOURCE_MAP = re.compile(r"\{version:3,sources:\[")


# The manager itself (the html-manager module) carries a second copy of ipywidgets 7's base and
# controls, with their style sheets and the libraries only they use (jQuery UI, an older
# underscore), loaded by its loadClass for a model of version 1.x:
#   "1.2.0"===(0,t.maxSatisfying)(["1.2.0","2.0.0"],i)?1583:2055   (base: 7's copy, or 8's)
#   "1.5.0"===(...)?(__webpack_require__(1534),...&&__webpack_require__(8717),
#                    n(__webpack_require__(1977))):...              (controls and its styles)
# Those entry modules, and every module that only they reach, become stubs that raise.
MANAGER = re.compile(r'define\("@jupyter-widgets/html-manager",.*?(?=\n//# sourceMappingURL=)', re.DOTALL)
MODULES_START, MODULES_END = "var __webpack_modules__={", "},__webpack_module_cache__={}"
MODULE_KEY = re.compile(r'(?:^|,)(\d+):(?:\([\w$,]*\)=>|[\w$]+=>|function\([\w$,]*\))\{')
NUMBER = re.compile(r'(?<![\w$.])(\d+)(?![\w$.])')
BASE_7 = re.compile(r'"1\.2\.0"===\(0,\w+\.maxSatisfying\)\(\["1\.2\.0","2\.0\.0"\],\w+\)\?(\d+):\d+')
CONTROLS_7 = re.compile(r'"1\.5\.0"===\(0,\w+\.maxSatisfying\)\(\["1\.5\.0","2\.0\.0"\],\w+\)\?'
                        r'\((__webpack_require__\(\d+\),[^?:]*?\w+\(__webpack_require__\(\d+\)\))\)')
STUB = '{}:()=>{{throw new Error("widgets saved by ipywidgets 7 are not shipped with this site")}}'


def webpack_modules(body: str) -> dict[str, str]:
    """The entries of a webpack modules object's text ("id:function"), by id."""
    keys = [(found.start() + (body[found.start()] == ","), found[1]) for found in MODULE_KEY.finditer(body)]
    ends = [start - 1 for start, _ in keys[1:]] + [len(body)]
    return {key: body[start:end] for (start, key), end in zip(keys, ends, strict=True)}


def without_ipywidgets_7(manager: str) -> tuple[str, list[str]]:
    """The html-manager module's text with its ipywidgets 7 modules (and those only they use)
    replaced by stubs, and the ids of the stubs. Any number in the code that names a module
    counts as a use of it, so a module kept is never one the rest might load."""
    start = manager.index(MODULES_START) + len(MODULES_START)
    end = manager.index(MODULES_END, start)
    modules = webpack_modules(manager[start:end])
    if "".join(f"{text}," for text in modules.values())[:-1] != manager[start:end]:
        raise ValueError("the widget manager's modules are not laid out as expected")
    base, controls = BASE_7.search(manager), CONTROLS_7.search(manager)
    if not (base and controls):
        raise ValueError("the widget manager no longer loads ipywidgets 7 as expected")
    entries = {base[1], *re.findall(r"__webpack_require__\((\d+)\)", controls[1])}
    used, todo = set(), [n for n in NUMBER.findall(manager[:start] + manager[end:]) if n in modules]
    while todo:
        key = todo.pop()
        if key in used or key in entries:
            continue
        used.add(key)
        todo += [n for n in NUMBER.findall(modules[key]) if n in modules and n not in used]
    stubs = [key for key in modules if key not in used]
    body = ",".join(STUB.format(key) if key in stubs else text for key, text in modules.items())
    return manager[:start] + body + manager[end:], stubs


def lean_widget_bundle(js: str) -> str:
    """The bundle without the ipywidgets 7 modules (those defined on their own, and the copies
    inside the manager) and with `null` for each style sheet's source map (css-loader then adds
    none to the style it injects)."""
    js = IPYWIDGETS_7.sub("", js)
    js = MANAGER.sub(lambda found: without_ipywidgets_7(found[0])[0], js, count=1)
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


def without_timings(notebook: dict) -> dict:
    """The notebook without the start and end times its execution recorded in every code cell
    (cell metadata `execution`: a reader's Jupyter neither shows nor needs them)."""
    for cell in notebook["cells"]:
        cell.get("metadata", {}).pop("execution", None)
    return notebook


def compact_notebooks(folder: pathlib.Path, into: pathlib.Path | None = None) -> None:
    """Write each notebook of `folder` (into `into`, or in place) as JSON without indentation
    and without its execution timings."""
    for notebook in sorted(folder.glob("*.ipynb")):
        text = json.dumps(without_timings(json.loads(notebook.read_text(encoding="utf-8"))),
                          ensure_ascii=False, separators=(",", ":"))
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


# Pygments wraps every token of highlighted code in a span whose class names its kind; the theme's
# style sheet (_static/pygments.css) gives most kinds a colour, but names, punctuation and
# whitespace the same colour as the code block itself, which book/_static/book.css gives the
# block's plain text too. Those spans change nothing a reader sees and are a third of a chapter
# page's bytes: their text is written without them. Outputs (stream text) are left as they are.
THEME_RULE = re.compile(r'html\[data-theme="(\w+)"\] \.highlight(?: \.(\w+))? \{([^}]*)\}')
HIGHLIGHTED = re.compile(r'(<div class="highlight-[\w-]+ notranslate"><div class="highlight"><pre>)(.*?)'
                         r'(</pre></div>)', re.DOTALL)


def plain_token_classes(css: str) -> set[str]:
    """The token classes whose only style, in every theme, is the code block's own colour."""
    block, rules = {}, {}
    for theme, token, declarations in THEME_RULE.findall(css):
        style = " ".join(declarations.replace(";", " ").split())
        if token:
            rules.setdefault(token, {})[theme] = style
        else:
            block[theme] = next((d.strip() for d in declarations.split(";")
                                 if d.strip().startswith("color:")), None)
    return {token for token, styles in rules.items()
            if block and all(theme in styles and styles[theme] == block[theme] for theme in block)}


def plain_code(html: str, plain: set[str]) -> str:
    """`html` with the spans of the `plain` token classes, in highlighted code, replaced by
    their text."""
    if not plain:
        return html
    kinds = "|".join(map(re.escape, sorted(plain)))
    span = re.compile(f'<span class="(?:{kinds})">([^<]*)</span>')
    return HIGHLIGHTED.sub(lambda m: m[1] + span.sub(r"\1", m[2]) + m[3], html)


def lean_code(app, exception) -> None:
    """Write the highlighted code of every page without its spans that carry no style."""
    if exception is not None or app.builder.format != "html":
        return
    # The theme writes its two-theme pygments.css when the build finishes; a translated site then
    # takes it from the English site when it is the same file.
    sites = [pathlib.Path(app.outdir), pathlib.Path(getattr(app.config, "translation_english_site", "")
                                                    or app.outdir)]
    css = next((site / "_static" / "pygments.css" for site in sites
                if (site / "_static" / "pygments.css").exists()), None)
    plain = plain_token_classes(css.read_text(encoding="utf-8")) if css else set()
    for page in pathlib.Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = plain_code(text, plain)
        if lean != text:
            page.write_text(lean, encoding="utf-8")


def chapters_only_launch(app, pagename, templatename, context, doctree) -> None:
    """Drop the launch buttons from pages that are not chapters (notebooks/...)."""
    if not pagename.startswith("notebooks/") and "header_buttons" in context:
        context["header_buttons"] = [b for b in context["header_buttons"]
                                     if b.get("label") != "launch-buttons"]


def setup(app):
    app.connect("build-finished", remove_unused)
    app.connect("build-finished", accessible_markup)
    app.connect("build-finished", lean_code, priority=900)  # after the theme's pygments.css
    app.connect("html-page-context", chapters_only_launch, priority=502)
    app.connect("doctree-resolved", unique_ids)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":  # make book, last: python book/_ext/lean_site.py NOTEBOOKS_FOLDER SITE
    # The download button's notebooks, compact; then the figures no page shows, now that the
    # translated pages of an earlier build, which may have shown one, are replaced.
    site = pathlib.Path(sys.argv[2])
    compact_notebooks(pathlib.Path(sys.argv[1]), site / "_sources" / "notebooks")
    remove_unshown_images(site)
