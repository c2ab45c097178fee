"""Open every built page in Debian's Chromium, as a reader of the published site would, and check
what they see: maths typeset, nothing scrolling sideways, images and widget snapshots drawn, an
accessibility audit (axe-core and the book's own checks), links that land, the page's weight and
what it prints. What a reader does on a page (sliders, explorables, the dark theme, the Chinese
site) is tests/test_browser_interaction.py; the site and the browser are tests/served_site.py.

Needs `make book` first (`make test` does both) and /usr/bin/chromium (`make test` installs it).
A screenshot of each page's first screen is saved under _build/screenshots/, and under `make
test-full` one of each whole chapter page.
"""

import itertools
import pathlib
import re
from urllib.parse import unquote, urlparse

import pytest
from conftest import HTML, ROOT, SCREENSHOTS
from served_site import CHAPTERS, DESKTOP, IMAGES, PAGES, PHONE, RAW_TEX, SitePage, record_weight, shot_name

A4_TEXT = {"width": 703, "height": 1060}  # 186 mm x 280 mm at 96 px per inch
MB = 1_000_000
# The whole site (PDFs aside) and one chapter page. The site budget grew from 15 MB with the
# chapters' third editions (their downloadable notebooks alone are 3 MB); what a reader loads is
# one page, whose budget has not moved.
SITE_BUDGET, CHAPTER_BUDGET = 18 * MB, 5 * MB

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


# Accessibility. axe-core (the rules engine behind Lighthouse), fetched from npm at a pinned
# version by `make test` (never shipped with the site), audits each page; a serious or critical
# violation fails. Rules switched off, each with its reason:
AXE = next((ROOT / "_build" / "test-assets").glob("axe-core-*.js"), None)
AXE_DISABLED = {
    # Sphinx's own layout puts the sidebar's title and logo outside any landmark; a moderate
    # finding (content outside landmarks is still read), listed so that it is not forgotten.
    "region": "the theme's sidebar title sits outside a landmark (moderate, theme markup)",
}
# Three rules measure the rendering of every text and target of a page: about 5 s on a chapter
# page (some 40,000 elements), under a second elsewhere. `make test` runs them on every page but
# chapters 2-4 and the Chinese chapter 1; `make test-full` runs them on every chapter on a
# desktop, and on every page on a phone and in the dark theme.
RENDERING_RULES = ["color-contrast", "link-in-text-block", "target-size"]
RENDERING_LATER = [p for p in PAGES if "notebooks" in p.relative_to(HTML).parts
                   and p != CHAPTERS[0]]
AXE_RUN = """async (disabled) => {
  const rules = Object.fromEntries(disabled.map(id => [id, {enabled: false}]));
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
# the tab order (focusable by Tab, not disabled).
KEYBOARD_TARGETS = """() => Array.from(document.querySelectorAll(
  ".noUi-handle, summary, button.toggle-button")).map(el => ({
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
    """Accessibility problems of the loaded page: axe-core's serious and critical findings (its
    rules in `later` left out), images without a real alt text, skipped heading levels, maths
    without its MathML, and what the keyboard cannot reach."""
    problems = []
    assert AXE, "axe-core is missing: `make test` fetches it"
    page.add_script_tag(path=str(AXE))
    for violation in page.evaluate(AXE_RUN, [*AXE_DISABLED, *later]):
        if violation["impact"] in ("serious", "critical"):
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


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(HTML).as_posix())
def test_page_renders_offline(browser, site, path):
    view = SitePage(browser, site, path)
    page = view.page
    try:
        if page.locator(".math").count():
            view.wait_for_maths()
            untypeset = page.evaluate(
                "() => Array.from(document.querySelectorAll('.math')).filter("
                "m => !m.querySelector('mjx-container')).length")
            assert untypeset == 0, f"{untypeset} maths elements were not typeset"
            garbled = page.evaluate(GARBLED_MATHS)
            assert garbled == [], f"formulas that swallowed prose or code: {garbled}"
        assert page.evaluate(RAW_TEX) == [], "raw TeX or a stray `$` left on the page"
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
        page.screenshot(path=shot_name(path))  # the first screen (whole pages: test-full)
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
    finally:
        view.close()


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
        if view.page.locator(".math").count():
            view.wait_for_maths()
        problems = audit(view.page)
        assert problems == [], f"{len(problems)} accessibility problems ({mode}): {problems[:5]}"
        if mode == "desktop":
            view.page.screenshot(path=shot_name(path, "__whole"), full_page=True)
    finally:
        view.close()


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
