"""Open every built page in Debian's Chromium, as a reader of the published site would, and check
what they see: maths typeset, nothing scrolling sideways, images and widget snapshots drawn, an
accessibility audit (axe-core and the book's own checks), links that land, the page's weight and
what it prints; on the chapters also the page's length and where its first idea starts, every
figure's sharpness and the size of its text on a desktop and a phone, and the contrast of every
text. What a reader does on a page (sliders, explorables, the dark theme, the Chinese
site) is tests/test_browser_interaction.py; the site and the browser are tests/served_site.py.

Needs `make book` first (`make test` does both) and /usr/bin/chromium (`make test` installs it).
A screenshot of each page's first screen is saved under _build/screenshots/, and under `make
test-full` one of each whole chapter page.
"""

import base64
import hashlib
import io
import itertools
import pathlib
import re
from urllib.parse import unquote, urlparse

import lean_site  # book/_ext/ (pytest.ini's pythonpath)
import nbformat
import pytest
from conftest import HTML, ROOT, SCREENSHOTS, figure_metadata, load_notebook, widget_state
from served_site import (
    CHAPTERS,
    DESKTOP,
    IMAGES,
    OPEN_EVERYTHING,
    PAGES,
    PHONE,
    RAW_TEX,
    TEXT_CONTRAST,
    SitePage,
    record_weight,
    shot_name,
)
from test_hygiene import CSS_PPI, MIN_DESKTOP_PX, MIN_PHONE_PX

A4_TEXT = {"width": 703, "height": 1060}  # 186 mm x 280 mm at 96 px per inch
MB = 1_000_000
# The whole site (PDFs aside) and what one chapter page sends (text gzip-compressed).
SITE_BUDGET, CHAPTER_BUDGET = 16 * MB, 2.5 * MB
# A chapter page at 1280 x 900, its asides closed: at most this tall, and its first section after
# Setup starts within the first two screens. The goal is 35,000 px; chapters 2, 3 and 5 measure
# 35,100 to 36,300 (README), so the limit holds them there until they are folded further.
MAX_PAGE_HEIGHT, FIRST_IDEA_SCREENS = 35_000, 2

# The TeX source of every typeset formula. Garbled maths still typesets, so look at the source:
# a backtick or a `$` in it, or a run of three words, is prose or code swallowed by a formula.
GARBLED_MATHS = r"""() => Array.from(MathJax.startup.document.math).map(m => m.math)
  .filter((source) => {
    const bare = source.replace(/\\(text|mathrm|operatorname|mathbf|texttt)\{[^}]*\}/g, " ")
                       .replace(/\\[A-Za-z]+/g, " ");
    return /[`$]|\\[()[\]]/.test(source) || /[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(bare);
  })"""

WIDGETS = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')).map(script => {
  const view = script.parentElement.querySelector(".jupyter-widgets");
  const box = view && view.getBoundingClientRect();
  return Boolean(box && box.width > 0 && box.height > 0 && view.innerText + view.innerHTML);
})"""

# At 1280 x 900 no code block, output block or display equation scrolls sideways (79-character
# lines fit; tests/test_hygiene.py holds the notebooks to them). Hidden solutions count too.
OVERFLOWING = r"""() => Array.from(document.querySelectorAll(
    ".bd-content div.highlight pre, .bd-content mjx-container[display='true']"))
  .filter(el => el.scrollWidth > el.clientWidth + 1)
  .map(el => {
    const lines = el.tagName === "PRE" ? el.textContent.split("\n") : [el.textContent];
    const longest = lines.reduce((a, line) => line.length > a.length ? line : a, "");
    return `${el.tagName === "PRE" ? "code/output" : "equation"} ${el.scrollWidth}px in ` +
           `${el.clientWidth}px: ${longest.trim().slice(0, 60)}`;
  })"""

LINKS = """() => Array.from(document.querySelectorAll("a[href]")).map(a => a.href.split("#")[0])"""

# Printed, nothing moves: no slider track, no explorable (its static stand-in instead), no code
# toggle, no control of a block that runs in a notebook, and each closed aside says where to
# read it. Counts of what a printed chapter shows.
PRINTED = """() => {
  const shown = (selector) => Array.from(document.querySelectorAll(selector))
    .filter(el => el.checkVisibility()).length;
  document.querySelectorAll("details.going-deeper").forEach(d => { d.open = false; });
  return {tracks: shown(".noUi-target"), explorables: shown(".explorable"),
          in_page: document.querySelectorAll(".explorable").length,
          stand_ins: shown(".tag_no-js-fallback"), toggles: shown("details.hide > summary"),
          controls: shown(".widget-interact select, .widget-interact input, .widget-interact button"),
          asides: document.querySelectorAll("details.going-deeper").length,
          asides_saying_where: shown("details.going-deeper .going-deeper-where")};
}"""


# Accessibility. axe-core (the rules engine behind Lighthouse), fetched from npm at a pinned
# version by `make test` (never shipped with the site), audits each page, its widgets drawn and
# every aside and answer opened, with every rule it has up to WCAG level AA: its best practices
# (`region` among them), its experimental rules (`td-has-header`) and its deprecated ones
# (`duplicate-id`) included; left out are the AAA rules and the two that only list what a person
# should review (`review-item`: hidden content, frames). Any violation fails, whatever its impact.
AXE = next((ROOT / "_build" / "test-assets").glob("axe-core-*.js"), None)
# Three rules measure the rendering of every text and target of a page: about 5 s on a chapter
# page (some 40,000 elements), under a second elsewhere. `make test` runs them on every page it
# opens but the Chinese chapter 1 (of the chapters it opens chapter 1 only, tests/conftest.py);
# `make test-full` runs them on every chapter on a desktop, and on every page on a phone and in
# the dark theme.
RENDERING_RULES = ["color-contrast", "link-in-text-block", "target-size"]
RENDERING_LATER = [p for p in PAGES if "notebooks" in p.relative_to(HTML).parts
                   and p != CHAPTERS[0]]
AXE_RUN = """async (later) => {
  const rules = Object.fromEntries(axe.getRules().map(rule => [rule.ruleId, {enabled:
    !later.includes(rule.ruleId) && !rule.tags.some(tag => /^wcag2\\d*aaa$|^review-item$/.test(tag))}]));
  const result = await axe.run(document, {resultTypes: ["violations"], rules});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))}));
}"""

# Every image says what it shows: its alt text is neither empty, nor a file name, nor its caption.
IMAGE_TEXTS = """() => Array.from(document.images).map(img => ({
  alt: img.getAttribute("alt"), src: img.getAttribute("src").slice(0, 80),
  caption: ((img.closest("figure") || {}).innerText || "").trim()}))"""

# The page's headings in order (levels 1-6): a level is never skipped on the way down.
HEADINGS = """() => Array.from(document.querySelectorAll(
  ".bd-article h1, .bd-article h2, .bd-article h3, .bd-article h4, .bd-article h5, .bd-article h6"))
  .map(h => [Number(h.tagName[1]), h.innerText.trim().slice(0, 60)])"""

# Typeset maths stays readable to a screen reader: MathJax's hidden MathML beside every formula.
ASSISTIVE_MATHML = """() => [document.querySelectorAll("mjx-container").length,
  document.querySelectorAll("mjx-container mjx-assistive-mml math").length]"""

# What a reader opens or moves by keyboard: sliders, dropdowns and collapsed blocks. Each is in
# the tab order (focusable by Tab, not disabled), except the controls of a block that runs only in
# a notebook, which the site disables (tests/test_browser_interaction.py).
KEYBOARD_TARGETS = """() => Array.from(document.querySelectorAll(
  ".noUi-handle, summary, button.toggle-button")).filter(el => !el.closest(".widget-interact"))
  .map(el => ({
  html: el.outerHTML.slice(0, 100), focusable: el.tabIndex >= 0 && !el.hasAttribute("disabled")}))"""


def alt_problem(image: dict) -> str | None:
    """Why an image's alt text does not say what it shows, or None."""
    alt = (image["alt"] or "").strip()
    if not alt:
        return f"no alt text: {image['src']}"
    if re.fullmatch(r"[\w./%-]+\.(png|jpe?g|svg|gif|webp)", alt) or alt.startswith("../_images"):
        return f"alt text is a file name: {alt!r}"
    if image["caption"] and alt.rstrip(".") == image["caption"].rstrip("."):
        return f"alt text repeats the caption: {alt!r}"
    return None


def audit(page, later: list[str] = ()) -> list[str]:
    """Accessibility problems of the loaded page: axe-core's findings (its rules in `later` left
    out), images without a real alt text, skipped heading levels, maths without its MathML, and
    what the keyboard cannot reach."""
    problems = []
    assert AXE, "axe-core is missing: `make test` fetches it"
    page.add_script_tag(path=str(AXE))
    for violation in page.evaluate(AXE_RUN, list(later)):
        problems.append(f"axe {violation['impact']} {violation['id']}: {violation['help']} "
                        f"{violation['nodes']}")
    problems += [p for p in map(alt_problem, page.evaluate(IMAGE_TEXTS)) if p]
    levels = page.evaluate(HEADINGS)
    if levels and levels[0][0] != 1:
        problems.append(f"the first heading is h{levels[0][0]}: {levels[0][1]!r}")
    for (before, _), (level, text) in itertools.pairwise(levels):
        if level > before + 1:
            problems.append(f"heading h{level} after h{before} skips a level: {text!r}")
    formulas, mathml = page.evaluate(ASSISTIVE_MATHML)
    if formulas != mathml:
        problems.append(f"{formulas - mathml} of {formulas} formulas lack assistive MathML")
    problems += [f"not reachable by keyboard: {t['html']}" for t in page.evaluate(KEYBOARD_TARGETS)
                 if not t["focusable"]]
    return problems


def local_file(href: str) -> pathlib.Path:
    """The file in the built site that a link to the served site points to."""
    relative = unquote(urlparse(href).path).lstrip("/")
    target = HTML / relative
    return target / "index.html" if href.endswith("/") else target


@pytest.fixture(scope="module")
def chapter_page(browser, site):
    """Each chapter page on a desktop, loaded once and drawn, for the tests of this file that read
    it (a chapter page takes seconds to load). The test that measures the page with its asides
    closed comes first; each test leaves the viewport and the media as it found them."""
    views = {}

    def view(path: pathlib.Path) -> SitePage:
        if path not in views:
            views[path] = SitePage(browser, site, path)
            views[path].wait_until_drawn()
        return views[path]

    yield view
    for opened in views.values():
        opened.close()


# Where a chapter's first idea starts: the first section after its Setup (the first section if it
# has none), and how tall the page is.
PAGE_SHAPE = """() => {
  const headings = Array.from(document.querySelectorAll("article.bd-article h2"));
  const idea = headings[headings.findIndex(h => /Setup/.test(h.textContent)) + 1];
  return {height: document.documentElement.scrollHeight,
          first_idea: idea ? Math.round(idea.getBoundingClientRect().top + scrollY) : null,
          first_idea_title: idea ? idea.textContent.replace(/#$/, "").trim() : null};
}"""


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_opens_on_its_ideas(chapter_page, path):
    """At 1280 x 900, asides closed: the first section after Setup starts within the first two
    screens, and the page is at most MAX_PAGE_HEIGHT tall (heights kept for the README)."""
    shape = chapter_page(path).page.evaluate(PAGE_SHAPE)
    record_weight(f"height {path.relative_to(HTML).as_posix()}", shape)
    assert shape["first_idea"] is not None, "no section after Setup"
    assert shape["first_idea"] <= FIRST_IDEA_SCREENS * DESKTOP["height"], (
        f"the first idea ({shape['first_idea_title']!r}) starts {shape['first_idea']} px down")
    assert shape["height"] <= MAX_PAGE_HEIGHT, f"the page is {shape['height']} px tall"


MERGED = re.compile(r"\((\d+) cells\)")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_rubrics_and_quiet_cells_are_collapsed_not_lost(path):
    """book/_ext/book_blocks.py: each exercise's rubric sits whole in one closed details.rubric
    (its points inside), each "(N cells)" toggle opens on N inputs, and no two quiet hidden cells
    (hidden input, no output) stand side by side with a toggle each."""
    import bs4

    page = bs4.BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    cells = load_notebook(ROOT / "notebooks" / f"{path.stem}.ipynb")["cells"]
    source = "\n".join("".join(c["source"]) for c in cells
                       if "".join(c["source"]).startswith("```{exercise}"))
    rubrics = page.select("details.rubric")
    assert len(rubrics) == source.count("**Rubric.**"), "a rubric is not collapsed"
    for details in rubrics:
        assert not details.has_attr("open") and "points" in details.get_text()
        assert details.find_parent(class_="exercise") is not None
    for summary in page.select("details.above-input > summary"):
        merged = MERGED.search(summary.get_text())
        if merged:
            inputs = summary.parent.select("div.cell_inputs > div.cell_input")
            assert len(inputs) == int(merged.group(1)) > 1, summary.get_text()
    quiet = [cell for cell in page.select("div.cell.tag_hide-input")
             if not cell.select(".cell_output")]
    for cell in quiet:
        after = cell.find_next_sibling()
        assert after not in quiet, "two quiet hidden cells in a row, a toggle each"


# The pages Sphinx makes itself (the index and search pages) change with the toolchain only:
# `make test-full` opens them.
GENERATED = {"genindex.html", "search.html"}


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.full) if p.name in GENERATED else p for p in PAGES],
    ids=lambda p: p.relative_to(HTML).as_posix())
def test_page_renders_offline(browser, site, chapter_page, path):
    view = chapter_page(path) if path in CHAPTERS else SitePage(browser, site, path)
    page = view.page
    try:
        view.wait_until_drawn()
        if page.locator(".math").count():
            untypeset = page.evaluate(
                "() => Array.from(document.querySelectorAll('.math')).filter("
                "m => !m.querySelector('mjx-container')).length")
            assert untypeset == 0, f"{untypeset} maths elements were not typeset"
            garbled = page.evaluate(GARBLED_MATHS)
            assert garbled == [], f"formulas that swallowed prose or code: {garbled}"
        assert page.evaluate(RAW_TEX) == [], "raw TeX or a stray `$` left on the page"
        page.screenshot(path=shot_name(path))  # the first screen (whole pages: test-full)
        page.evaluate(OPEN_EVERYTHING)  # what follows holds for the asides and answers too
        overflowing = page.evaluate(OVERFLOWING)
        assert overflowing == [], f"{len(overflowing)} blocks scroll sideways at 1280 px: {overflowing}"
        assert page.evaluate(IMAGES) == [], "images that did not load"
        assert all(page.evaluate(WIDGETS)), "a widget snapshot rendered blank"
        problems = audit(page, RENDERING_RULES if path in RENDERING_LATER else [])
        assert problems == [], f"{len(problems)} accessibility problems: {problems[:5]}"
        assert page.locator("#pst-header .search-button-field").count() == 0, "a second search field"
        links = [href for href in page.evaluate(LINKS) if href.startswith(site)]
        if not (HTML / "pdf").exists():  # `make pdf` prints them; tests/test_pdf.py checks the links
            links = [href for href in links if not href.endswith(".pdf")]
        broken = [href for href in links if not local_file(href).exists()]
        assert broken == [], "links to files that are not in the built site"
        if path in CHAPTERS:
            notebook = path.relative_to(HTML).with_suffix(".ipynb").as_posix()
            colab = page.locator(f'a[href^="https://colab.research.google.com/github/"][href$="{notebook}"]')
            assert colab.count() >= 1, "no Colab launch link"
            download = page.locator(f'a[href$="_sources/{notebook}"]')
            assert download.count() >= 1, "no download button for the notebook"
        view.assert_clean()
        weight = view.weight()
        record_weight(path.relative_to(HTML).as_posix(), weight)
        if path in CHAPTERS:
            assert weight["transferred"] <= CHAPTER_BUDGET, (
                f"the page transfers {weight['transferred'] / MB:.2f} MB (budget {CHAPTER_BUDGET / MB} MB)")
            # Printed (A4 less the print stylesheet's margins): no solution, no code cut at the edge.
            page.set_viewport_size(A4_TEXT)
            page.emulate_media(media="print")
            shown = page.evaluate("() => Array.from(document.querySelectorAll('.solution'))"
                                  ".filter(s => getComputedStyle(s).display !== 'none').length")
            assert shown == 0, f"{shown} solutions would be printed"
            cut = [block for block in page.evaluate(OVERFLOWING) if block.startswith("code")]
            assert cut == [], f"code cut at the edge of the paper: {cut}"
            printed = page.evaluate(PRINTED)
            assert printed["tracks"] == printed["explorables"] == printed["toggles"] == 0, printed
            assert printed["controls"] == 0, printed
            assert printed["stand_ins"] >= printed["in_page"], printed
            assert printed["asides_saying_where"] == printed["asides"], printed
    finally:
        if path in CHAPTERS:
            page.emulate_media(media="screen")
            page.set_viewport_size(DESKTOP)
        else:
            view.close()


# Figures for the column they sit in. `show()` stores each figure's PNG at twice its CSS width with
# that width and its smallest text (points) in the output's metadata (tests/test_hygiene.py checks
# the notebooks). Here each figure as the page shows it: its <img> holds 2 pixels per CSS pixel,
# is never shown wider than its CSS width, and its smallest text, scaled to the width it is shown
# at, is at least MIN_DESKTOP_PX on a 1280-px desktop and MIN_PHONE_PX on a 390-px phone. Slider
# frames, drawn for their slider, are tests/test_browser_interaction.py's.
FIGURES = """async () => {
  const images = Array.from(document.querySelectorAll("article.bd-article img"));
  await Promise.all(images.map(img => { img.loading = "eager"; return img.decode().catch(() => null); }));
  return images.map(img => ({src: img.getAttribute("src"), natural: img.naturalWidth,
                             shown: img.getBoundingClientRect().width}));
}"""


def shown_figures(page, metadata: dict[str, dict]) -> list[tuple[dict, dict]]:
    """(stored metadata, what the page shows) for each figure of `metadata` the page shows."""
    found = []
    for img in page.evaluate(FIGURES):
        src = img["src"]
        key = (hashlib.sha256(base64.b64decode(src.split(",", 1)[1])).hexdigest()
               if src.startswith("data:image/png;base64,") else pathlib.PurePosixPath(src).stem)
        if key in metadata and img["shown"] > 0:  # not one hidden on the site (a no-JS stand-in)
            found.append((metadata[key], img))
    return found


def figure_problems(meta: dict, shown: dict, least_px: float) -> list[str]:
    """Why a figure, as shown, is not sharp or its text too small ([] if neither)."""
    if not {"width", "text_pt"} <= meta.keys():
        return ["no CSS width and smallest text stored: display it with show()"]
    problems = []
    if abs(shown["natural"] - 2 * meta["width"]) > 1:
        problems.append(f"{shown['natural']} px drawn for {meta['width']} CSS px, not 2x")
    if shown["shown"] > meta["width"] + 1:
        problems.append(f"shown {shown['shown']:.0f} px wide, wider than its {meta['width']} px")
    text = meta["text_pt"] * CSS_PPI / 72 * shown["shown"] / meta["width"]
    if text < least_px:
        problems.append(f"smallest text {text:.1f} px at {shown['shown']:.0f} px wide "
                        f"(at least {least_px})")
    return problems


def figure_report(page, metadata: dict[str, dict]) -> tuple[int, list[str]]:
    """(figures checked, problems) on a desktop and on a phone; the viewport is restored."""
    checked, problems = 0, []
    try:
        for viewport, least in ((DESKTOP, MIN_DESKTOP_PX), (PHONE, MIN_PHONE_PX)):
            page.set_viewport_size(viewport)
            for meta, shown in shown_figures(page, metadata):
                checked += 1
                problems += [f"{viewport['width']} px, {str(meta.get('alt'))[:50]!r}: {problem}"
                             for problem in figure_problems(meta, shown, least)]
    finally:
        page.set_viewport_size(DESKTOP)
    return checked, problems


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_figures_are_sharp_and_readable_on_a_desktop_and_a_phone(chapter_page, path):
    page = chapter_page(path).page
    page.evaluate(OPEN_EVERYTHING)  # figures in asides and answers too
    metadata = figure_metadata(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))
    checked, problems = figure_report(page, metadata)
    assert checked, "no figure of the notebook found on the page"
    assert problems == [], f"{len(problems)} problems of {checked} figures shown: {problems[:4]}"


@pytest.mark.full  # a check of the check: it changes with the test only
def test_the_figure_check_passes_a_compliant_figure_and_fails_the_others(browser):
    """The check above on pages of its own: a 500-CSS-px figure stored at 2x with 10-pt text
    passes (13.9 px on a desktop, 10.4 px in a 374-px phone column); text of 7 pt, a PNG at 1x, a
    1000-px figure squeezed onto a phone, or no metadata fails."""
    from PIL import Image

    def png(width: int) -> str:
        out = io.BytesIO()
        Image.new("RGB", (width, width // 3), "white").save(out, "PNG")
        return base64.b64encode(out.getvalue()).decode()

    def report(meta: dict | None, pixels: int, css_width: int) -> list[str]:
        data = png(pixels)
        outputs = [{"data": {"image/png": data}, "metadata": {"image/png": meta} if meta else {}}]
        metadata = figure_metadata({"cells": [{"outputs": outputs}], "metadata": {}})
        context = browser.new_context(viewport=DESKTOP)
        try:
            page = context.new_page()
            page.set_content(f'<article class="bd-article"><img alt="a test figure" '
                             f'style="width:{css_width}px;max-width:100%" '
                             f'src="data:image/png;base64,{data}"></article>')
            checked, problems = figure_report(page, metadata)
            assert checked == 2, "the figure was not found on the page"
            return problems
        finally:
            context.close()

    assert report({"width": 500, "text_pt": 10}, 1000, 500) == []
    assert "smallest text 9.7 px" in " ".join(report({"width": 500, "text_pt": 7}, 1000, 500))
    assert "not 2x" in " ".join(report({"width": 500, "text_pt": 10}, 500, 500))
    assert "smallest text 5.2 px" in " ".join(report({"width": 1000, "text_pt": 10}, 2000, 1000))
    assert "show()" in " ".join(report(None, 1000, 500))


# Contrast of every text on a chapter page in the light theme, asides and answers opened
# (served_site.TEXT_CONTRAST; the dark theme: tests/test_browser_interaction.py).
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_text_has_contrast_in_the_light_theme(chapter_page, path):
    page = chapter_page(path).page
    page.evaluate(OPEN_EVERYTHING)
    found = page.evaluate(TEXT_CONTRAST)
    assert found["checked"] > 1000, f"only {found['checked']} texts found"
    assert found["problems"] == [], f"{len(found['problems'])} texts hard to read: {found['problems'][:5]}"


def test_the_contrast_check_passes_readable_text_and_fails_the_rest(browser):
    """The check above on a page of its own: dark text on a light widget area passes; a caption
    in the page's light text colour on that area (what the dark theme once did), grey on white
    and a half-transparent black fail; a disabled control's text is exempt."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_content("""<!doctype html><body style="background: #121212; color: #ced6dd">
          <p>Page text on the dark page.</p>
          <div style="background: #ced6dd; color: #222832"><p>Widget text.</p>
            <table><caption id="caption">A caption</caption><tr><td>1</td></tr></table>
            <select disabled style="color: #ced6dd"><option>off</option></select></div></body>""")
        found = page.evaluate(TEXT_CONTRAST)
        assert found["checked"] == 4 and found["problems"] == [], found
        page.evaluate("() => { document.querySelector('#caption').style.color = '#ced6dd'; }")
        problems = page.evaluate(TEXT_CONTRAST)["problems"]
        assert len(problems) == 1 and problems[0].startswith('"A caption" 1.00:1'), problems
        page.set_content('<!doctype html><p style="background: white; color: #999">grey on white</p>'
                         '<p style="background: white; color: rgba(0, 0, 0, 0.3)">faint black</p>')
        assert len(page.evaluate(TEXT_CONTRAST)["problems"]) == 2
    finally:
        context.close()


@pytest.mark.full
@pytest.mark.parametrize("mode", ["desktop", "phone", "dark"])
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(HTML).as_posix())
def test_every_rule_on_a_phone_and_on_chapters_in_both_themes(browser, site, path, mode):
    """Every rule on every page on a phone, and on the chapters on a desktop (light and dark);
    a screenshot of each whole chapter page."""
    chapter = "notebooks" in path.relative_to(HTML).parts
    if mode != "phone" and not chapter:
        pytest.skip("the desktop audit of this page is in `make test`")
    view = SitePage(browser, site, path, viewport=PHONE if mode == "phone" else DESKTOP,
                    dark=mode == "dark")
    try:
        view.wait_until_drawn()
        if mode == "desktop":
            view.page.screenshot(path=shot_name(path, "__whole"), full_page=True)
        view.page.evaluate(OPEN_EVERYTHING)
        problems = audit(view.page)
        assert problems == [], f"{len(problems)} accessibility problems ({mode}): {problems[:5]}"
    finally:
        view.close()


def test_every_saved_widget_is_one_the_site_can_draw():
    """The site ships the widget manager's modules for ipywidgets 8 only (book/_ext/lean_site.py
    leaves out those for widgets saved by ipywidgets 7): every saved base or control model is of
    version 2 (the Output widget, version 1 in both, is the manager's own)."""
    for path in CHAPTERS:
        state = widget_state(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))
        old = {model["model_module"] + " " + model["model_module_version"] for model in state.values()
               if model["model_module"] in ("@jupyter-widgets/base", "@jupyter-widgets/controls")
               and not model["model_module_version"].startswith("2.")}
        assert not old, f"{path.stem}: widgets saved by an older ipywidgets: {old}"


def test_whole_site_weight():
    """The built site, everything a host serves except the chapter PDFs, within the budget."""
    files = [f for f in HTML.rglob("*") if f.is_file() and f.suffix != ".pdf"]
    total = sum(f.stat().st_size for f in files)
    by_folder: dict[str, int] = {}
    for f in files:
        top = f.relative_to(HTML).parts[0] if len(f.relative_to(HTML).parts) > 1 else "."
        by_folder[top] = by_folder.get(top, 0) + f.stat().st_size
    record_weight("whole site", {"bytes": total, "files": len(files), "by folder": by_folder})
    assert total <= SITE_BUDGET, f"site: {total / MB:.1f} MB (budget {SITE_BUDGET / MB} MB), {by_folder}"


# What book/_ext/lean_site.py leaves out of the built site, each shown to cost the reader nothing.
@pytest.mark.parametrize("folder", ["_sources/notebooks", "student"])
def test_downloadable_notebooks_hold_all_but_their_timings(folder):
    """Each notebook the site serves (the download button's Jupyter edition, the student
    edition) is a valid notebook equal to the one it was written from, cell by cell (sources,
    outputs, tags, saved widget state), less the execution times of its cells."""
    written_from = {"_sources/notebooks": ROOT / "_build" / "jupyter-edition",
                    "student": ROOT / "_build" / "site-assets" / "student"}[folder]
    for path in CHAPTERS:
        name = path.with_suffix(".ipynb").name
        served = nbformat.read(HTML / folder / name, as_version=4)
        nbformat.validate(served)
        original = nbformat.read(written_from / name, as_version=4)
        timed = [cell for cell in original.cells if "execution" in cell.metadata]
        assert timed, f"{name}: no timings to leave out (the comparison would prove nothing)"
        kept = [cell.id for cell in served.cells if "execution" in cell.metadata]
        assert kept == [], f"{folder}/{name} keeps the timings of cells {kept}"
        for cell in timed:
            del cell.metadata["execution"]
        assert served == original, f"{folder}/{name} differs from the notebook it was written from"


# The kinds of token whose spans the highlighted code is written without: on the served page, in
# each theme, a span of each kind inside a code block is drawn exactly as the bare text beside
# it (colour, background, weight, style, decoration, font), and a keyword span is not (the probe
# sees a difference where there is one: without book.css's plain colour for code, names too).
SPAN_LOOKS = """(kinds) => {
  const pre = document.querySelector('article div[class^="highlight-"] > div.highlight > pre');
  const look = (kind) => {
    const span = document.createElement("span");
    if (kind) span.className = kind;
    span.textContent = "x";
    pre.appendChild(span);
    const style = getComputedStyle(span);
    const seen = [style.color, style.backgroundColor, style.fontWeight, style.fontStyle,
                  style.textDecorationLine, style.fontFamily].join(" | ");
    span.remove();
    return seen;
  };
  const bare = look("");
  return Object.fromEntries(kinds.map(kind => [kind, look(kind) === bare]));
}"""


@pytest.mark.full  # it changes with book/_ext/book_blocks.py only
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_code_spans_left_out_change_nothing_seen(browser, site, dark):
    css = (HTML / "_static" / "pygments.css").read_text(encoding="utf-8")
    plain = sorted(lean_site.plain_token_classes(css))
    assert {"n", "p"} <= set(plain), f"names and punctuation no longer written bare: {plain}"
    view = SitePage(browser, site, CHAPTERS[0], dark=dark)
    try:
        theme = view.page.evaluate("() => document.documentElement.dataset.theme")
        assert theme == ("dark" if dark else "light"), theme
        looks = view.page.evaluate(SPAN_LOOKS, plain + ["k"])
        assert looks.pop("k") is False, "the probe cannot tell a keyword's colour from plain text"
        assert all(looks.values()), f"spans left out that are drawn differently: {looks}"
        bare = view.page.evaluate("(kinds) => kinds.map(k => document.querySelectorAll("
                                  "`div.highlight pre span.${k}`).length)", plain)
        assert sum(bare) == 0, f"spans of {plain} still written: {bare}"
    finally:
        view.close()


def test_code_written_bare_keeps_its_text_and_its_coloured_spans():
    css = """html[data-theme="light"] .highlight { background: #fefefe; color: #080808 }
html[data-theme="light"] .highlight .n { color: #080808 }
html[data-theme="light"] .highlight .k { color: #6730C5 }
html[data-theme="light"] .highlight .o { color: #080808 }
html[data-theme="dark"] .highlight { background: #2b2b2b; color: #F8F8F2 }
html[data-theme="dark"] .highlight .n { color: #F8F8F2 }
html[data-theme="dark"] .highlight .k { color: #F8F8F2 }
html[data-theme="dark"] .highlight .o { color: #00ff00 }"""
    plain = lean_site.plain_token_classes(css)
    assert plain == {"n"}, plain  # .k is coloured in light, .o in dark
    block = '<div class="highlight-{} notranslate"><div class="highlight"><pre>{}</pre></div>'
    code = ('<p><span class="n">prose</span></p>'
            + block.format("ipython3", '<span></span><span class="k">def</span> <span class="n">f</span>'
                           '<span class="o">(</span>):')
            + '<div class="output stream highlight-myst-ansi notranslate"><div class="highlight"><pre>'
              '<span class="n">out</span></pre></div>')
    assert lean_site.plain_code(code, plain) == code.replace('<span class="n">f</span>', "f")
    page = (HTML / CHAPTERS[1].relative_to(HTML)).read_text(encoding="utf-8")
    text = lambda html: re.sub(r"<[^>]+>", "", html)  # noqa: E731
    assert text(lean_site.plain_code(page, {"k", "o", "s2"})) == text(page)


def test_the_widget_manager_ships_no_ipywidgets_7_module():
    """The manager's bundle as fetched holds ipywidgets 7's base and controls inside its
    html-manager module; on the site those (and what only they use) are stubs that raise, and
    nothing else is left out (applied again, the step finds nothing more)."""
    bundle = pathlib.Path("assets", "widgets", "embed-amd.js")
    fetched = (ROOT / "_build" / "site-assets" / bundle).read_text(encoding="utf-8")
    shipped = (HTML / bundle).read_text(encoding="utf-8")
    manager = lean_site.MANAGER.search(fetched)[0]
    _, stubs = lean_site.without_ipywidgets_7(manager)
    entries = {lean_site.BASE_7.search(manager)[1],
               *re.findall(r"\((\d+)\)", lean_site.CONTROLS_7.search(manager)[1])}
    assert entries < set(stubs), (entries, stubs)  # and what only they use
    shipped_manager = lean_site.MANAGER.search(shipped)[0]
    again, more = lean_site.without_ipywidgets_7(shipped_manager)
    assert again == shipped_manager and set(more) == set(stubs), "the shipped manager is not the lean one"
    assert all(lean_site.STUB.format(key) in shipped_manager for key in stubs)
    for module in ("base7", "controls7"):
        defined = f'define("@jupyter-widgets/{module}"'
        assert defined in fetched and defined not in shipped, module


def test_every_figure_file_is_shown_by_a_page():
    shown = {unquote(name) for page in HTML.rglob("*.html")
             for name in re.findall(r"""_images/([^"'?#\s)]+)""", page.read_text(encoding="utf-8"))}
    unshown = [image.name for image in (HTML / "_images").iterdir() if image.name not in shown]
    assert unshown == [], f"figures no page shows: {unshown}"


def test_search_finds_a_word_with_excerpts(browser, site):
    view = SitePage(browser, site, HTML / "search.html", query="?q=embedding")
    page = view.page
    try:
        results = page.locator("#search-results ul.search li")
        results.first.wait_for(timeout=20_000)
        page.wait_for_function(
            "() => document.querySelectorAll('#search-results ul.search li p.context').length > 0",
            timeout=20_000)
        page.wait_for_load_state("networkidle")
        excerpts = page.locator("#search-results ul.search li p.context").all_inner_texts()
        assert results.count() >= len(CHAPTERS), f"only {results.count()} results for 'embedding'"
        assert any("embedding" in text.lower() for text in excerpts), f"excerpts without the word: {excerpts}"
        page.screenshot(path=SCREENSHOTS / "search-embedding.png", full_page=True)
        view.assert_clean()
    finally:
        view.close()
