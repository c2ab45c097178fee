"""Open every built page in Debian's Chromium, as a reader of the published site would, and check
what they see.

The built site is served over HTTP from 127.0.0.1 by a thread of this test (a random free port);
every other request is refused and reported. Needs `make book` first (`make test` does both) and
/usr/bin/chromium (`make test` installs it). Screenshots of every page (desktop, phone, dark mode)
and of every site-interactive widget before and after moving its slider are saved under
_build/screenshots/ for humans to look at.
"""

import base64
import functools
import gzip
import http.server
import itertools
import json
import pathlib
import re
import shutil
import threading
from urllib.parse import unquote, urlparse

import pytest
from conftest import HTML, ROOT, SCREENSHOTS, load_notebook, site_widgets, widget_state
from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"]
PAGES = sorted(p for p in HTML.rglob("*.html")
               if not {"_static", "_sources", "assets", "_images"} & set(p.relative_to(HTML).parts)
               and not (p.relative_to(HTML).parts[0] == "zh" and 'http-equiv="Refresh"' in p.read_text()))
CHAPTERS = [p for p in PAGES if p.relative_to(HTML).parts[0] == "notebooks"]
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}
A4_TEXT = {"width": 703, "height": 1060}  # 186 mm x 280 mm at 96 px per inch
MB = 1_000_000
# The whole site (PDFs aside) and one chapter page. The site budget grew from 15 MB with the
# chapters' third editions (their downloadable notebooks alone are 3 MB); what a reader loads is
# one page, whose budget has not moved.
SITE_BUDGET, CHAPTER_BUDGET = 18 * MB, 5 * MB
WEIGHTS = SCREENSHOTS / "weights.json"  # the measured figures, for the README
COMPRESSED = {".html", ".js", ".css", ".json", ".svg", ".txt", ".ipynb", ".inv"}

# Text a reader sees outside typeset maths and code must hold no TeX: a `$` there is a maths
# block that did not parse (a `$$` without blank lines around it shows "… and $" and garbage).
RAW_TEX = r"""() => {
  const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER"]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const raw = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let el = node.parentElement, inside = false;
    for (; el; el = el.parentElement) if (skip.has(el.tagName)) { inside = true; break; }
    if (!inside && /\$|\\\(|\\\[|\\begin\{|\\frac|\\mathbb|\\operatorname/.test(node.textContent))
      raw.push(node.textContent.trim().slice(0, 80));
  }
  return raw;
}"""

# The TeX source of every typeset formula. Garbled maths still typesets, so look at the source:
# a backtick or a `$` in it, or a run of three words, is prose or code swallowed by a formula.
MATHS_SOURCES = "() => Array.from(MathJax.startup.document.math).map(m => m.math)"
PROSE_IN_MATHS = r"""(source) => {
  const bare = source.replace(/\\(text|mathrm|operatorname|mathbf|texttt)\{[^}]*\}/g, " ")
                     .replace(/\\[A-Za-z]+/g, " ");
  return /[`$]|\\[()[\]]/.test(source) || /[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(bare);
}"""

IMAGES = """async () => {
  const imgs = Array.from(document.images);
  imgs.forEach(img => { img.loading = "eager"; });
  const ok = await Promise.all(imgs.map(img => img.decode().then(() => img.naturalWidth > 0, () => false)));
  return imgs.filter((img, i) => !ok[i]).map(img => img.src.slice(0, 120));
}"""

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

VISIBLE_FRAME = """async (box) => {
  const img = Array.from(box.querySelectorAll("img")).find(i => i.offsetParent !== null);
  if (!img) return null;
  const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  let text = ""; bytes.forEach(b => { text += String.fromCharCode(b); });
  return btoa(text);
}"""

# Where a site-interactive widget and its visible frame sit on the screen.
FRAME_FIT = """(box) => {
  const img = Array.from(box.querySelectorAll("img")).find(i => i.offsetParent !== null);
  const readout = box.querySelector(".widget-readout").getBoundingClientRect();
  const shown = img.getBoundingClientRect(), widget = box.getBoundingClientRect();
  return {natural: img.naturalWidth, shown: shown.width, left: Math.min(widget.left, shown.left),
          right: Math.max(widget.right, shown.right, readout.right),
          screen: document.documentElement.clientWidth};
}"""

# Dark mode: text in widgets must contrast with what is behind it, and figures keep a light
# background (a PNG drawn for white paper, shown on the dark page, loses its black text).
DARK_READABILITY = r"""() => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const problems = [];
  let texts_seen = 0, figures_seen = 0;
  const texts = document.querySelectorAll(
    ".jupyter-widgets label, .jupyter-widgets .widget-readout, .jupyter-widgets .widget-label");
  for (const el of texts) {
    if (!el.offsetParent || !el.innerText.trim()) continue;
    texts_seen += 1;
    const ratio = contrast(rgb(getComputedStyle(el).color), background(el));
    if (ratio < 4.5) problems.push(`widget text "${el.innerText.trim()}" contrast ${ratio.toFixed(1)}`);
  }
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  for (const img of document.querySelectorAll(".cell_output img, .jupyter-widgets img")) {
    if (!img.offsetParent || !img.naturalWidth) continue;
    figures_seen += 1;
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0);
    const [r, g, b, a] = ctx.getImageData(1, 1, 1, 1).data;
    const corner = a > 127 ? [r, g, b] : background(img);
    const filter = getComputedStyle(img).filter;
    if (luminance(corner) < 0.6 || (filter !== "none" && /invert/.test(filter)))
      problems.push(`figure ${img.src.slice(-40)} on a dark background`);
  }
  return {problems, texts_seen, figures_seen};
}"""


# Accessibility. axe-core (the rules engine behind Lighthouse), fetched from npm at a pinned
# version by `make test` (never shipped with the site), audits each page; a serious or critical
# violation fails. Rules switched off, each with its reason:
AXE = next((ROOT / "_build" / "test-assets").glob("axe-core-*.js"), None)
AXE_DISABLED = {
    # Sphinx's own layout puts the sidebar's title and logo outside any landmark; a moderate
    # finding (content outside landmarks is still read), listed so that it is not forgotten.
    "region": "the theme's sidebar title sits outside a landmark (moderate, theme markup)",
}
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


def audit(page) -> list[str]:
    """Accessibility problems of the loaded page: axe-core's serious and critical findings,
    images without a real alt text, skipped heading levels, maths without its MathML, and what
    the keyboard cannot reach."""
    problems = []
    assert AXE, "axe-core is missing: `make test` fetches it"
    page.add_script_tag(path=str(AXE))
    for violation in page.evaluate(AXE_RUN, list(AXE_DISABLED)):
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


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site as GitHub Pages does: text files gzip-compressed when the browser
    accepts it, images and fonts as they are."""

    def log_message(self, format, *args):  # noqa: A002 (the base class names it so)
        pass

    def do_GET(self):
        path = pathlib.Path(self.translate_path(self.path))
        if path.suffix not in COMPRESSED or not path.is_file() or "gzip" not in self.headers.get(
                "Accept-Encoding", ""):
            return super().do_GET()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def record_weight(name: str, figures: dict) -> None:
    """Keep a measured figure in _build/screenshots/weights.json."""
    weights = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
    weights[name] = figures
    WEIGHTS.write_text(json.dumps(weights, indent=1, sort_keys=True))


@pytest.fixture(scope="module")
def site():
    """The base URL of the built site, served over HTTP on 127.0.0.1 at a random free port."""
    assert (HTML / "index.html").exists(), "no built site: run `make book` (or `make test`)"
    handler = functools.partial(SiteHandler, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    assert pathlib.Path(CHROMIUM).exists(), "Chromium is missing: `make test` installs Debian's chromium"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


class SitePage:
    """A page of the served site: every request elsewhere refused, console errors and bytes kept."""

    def __init__(self, browser, site: str, path: pathlib.Path, viewport=DESKTOP, dark=False,
                 query: str = ""):
        self.site = site
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(60_000)  # the CPU may be busy with notebooks
        self.network, self.errors, self.failed, self.bytes = [], [], [], {}
        self.context.route("**/*", self._route)
        if dark:  # what the theme's light/dark switch stores
            self.context.add_init_script(
                "localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');")
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))
        self.page.on("requestfinished", self._count)
        self.page.goto(self.url(path) + query, wait_until="load")
        self.page.wait_for_load_state("networkidle")

    def url(self, path: pathlib.Path) -> str:
        return self.site + path.relative_to(HTML).as_posix()

    def _route(self, route):
        if route.request.url.startswith(self.site):
            route.continue_()
        else:
            self.network.append(route.request.url)
            route.abort()

    def _count(self, request):
        if request.url.startswith(self.site):
            self.bytes[request.url] = max(0, request.sizes()["responseBodySize"])

    def weight(self) -> dict:
        """Bytes this page loaded: as transferred (text gzip-compressed) and as files on disk."""
        files = [HTML / unquote(urlparse(url).path).lstrip("/") for url in self.bytes]
        return {"transferred": sum(self.bytes.values()),
                "uncompressed": sum(f.stat().st_size for f in files if f.is_file()),
                "requests": len(self.bytes)}

    def wait_for_maths(self):
        self.page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        self.page.evaluate("() => MathJax.startup.promise")

    def assert_clean(self):
        assert self.errors == [], f"JavaScript console errors: {self.errors} (failed: {self.failed})"
        assert self.failed == [], f"requests the site could not serve: {self.failed}"
        assert self.network == [], f"the page tried to leave the site: {self.network}"

    def close(self):
        self.context.close()


def shot_name(path: pathlib.Path, suffix: str = "") -> pathlib.Path:
    name = path.relative_to(HTML).with_suffix("").as_posix().replace("/", "__")
    return SCREENSHOTS / f"{name}{suffix}.png"


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
            garbled = [s for s in page.evaluate(MATHS_SOURCES) if page.evaluate(PROSE_IN_MATHS, s)]
            assert garbled == [], f"formulas that swallowed prose or code: {garbled}"
        assert page.evaluate(RAW_TEX) == [], "raw TeX or a stray `$` left on the page"
        overflowing = page.evaluate(OVERFLOWING)
        assert overflowing == [], f"{len(overflowing)} blocks scroll sideways at 1280 px: {overflowing}"
        assert page.evaluate(IMAGES) == [], "images that did not load"
        assert all(page.evaluate(WIDGETS)), "a widget snapshot rendered blank"
        problems = audit(page)
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
        page.screenshot(path=shot_name(path), full_page=True)
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
@pytest.mark.parametrize("mode", ["phone", "dark"])
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(HTML).as_posix())
def test_page_is_accessible_on_a_phone_and_chapters_in_dark_mode(browser, site, path, mode):
    if mode == "dark" and "notebooks" not in path.relative_to(HTML).parts:
        pytest.skip("dark mode is audited on the chapters")
    view = SitePage(browser, site, path, viewport=PHONE if mode == "phone" else DESKTOP,
                    dark=mode == "dark")
    try:
        if view.page.locator(".math").count():
            view.wait_for_maths()
        problems = audit(view.page)
        assert problems == [], f"{len(problems)} accessibility problems ({mode}): {problems[:5]}"
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


@pytest.mark.parametrize("path", CHAPTERS[:1], ids=lambda p: p.stem)
def test_a_chapter_in_dark_mode_is_readable(browser, site, path):
    view = SitePage(browser, site, path, dark=True)
    page = view.page
    try:
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        view.wait_for_maths()
        page.evaluate(IMAGES)
        readability = page.evaluate(DARK_READABILITY)
        assert readability["texts_seen"] and readability["figures_seen"], f"nothing to check: {readability}"
        assert readability["problems"] == [], "hard to read in dark mode"
        page.screenshot(path=shot_name(path, "__dark"))
        box = page.locator(".site-interactive").first
        box.scroll_into_view_if_needed()
        page.screenshot(path=shot_name(path, "__dark-slider"))
        view.assert_clean()
    finally:
        view.close()


def expected_frames(path: pathlib.Path) -> list[tuple[list[str], list[str], list[str]]]:
    """For each site-interactive widget of a chapter page: its slider labels and PNG frames (base64)."""
    return site_widgets(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))


def drag_to(page, box, fraction: float | None = None) -> None:
    """Drag the slider's handle to a fraction of its track (None: past the track's right end)."""
    handle = box.locator(".noUi-handle").first.bounding_box()
    track = box.locator(".noUi-base").first.bounding_box()
    x = track["x"] + (track["width"] + 40 if fraction is None else track["width"] * fraction)
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, handle["y"] + handle["height"] / 2, steps=8)
    page.mouse.up()


def wait_for_readout(page, box, label: str) -> None:
    readout = box.locator(".widget-readout")
    page.wait_for_function("([el, text]) => el.innerText === text", arg=[readout.element_handle(), label])


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_site_interactive_slider_switches_frames_without_a_kernel(browser, site, path):
    expected = expected_frames(path)
    assert expected, "this chapter has no site-interactive widget"
    view = SitePage(browser, site, path)
    page = view.page
    try:
        boxes = page.locator(".site-interactive")
        page.wait_for_function("n => document.querySelectorAll('.site-interactive').length >= n",
                               arg=len(expected))  # the widget manager draws after the load
        assert boxes.count() == len(expected)
        for i, (labels, frames, _) in enumerate(expected):
            box = boxes.nth(i)
            box.scroll_into_view_if_needed()
            readout = box.locator(".widget-readout")
            assert readout.inner_text() == labels[0]
            assert box.evaluate(VISIBLE_FRAME) == frames[0], "the first frame is not the one shown"
            box.screenshot(path=shot_name(path, f"__slider{i}-before"))
            box.locator(".noUi-handle").first.focus()
            page.keyboard.press("ArrowRight")  # what a reader's keyboard (or a one-step drag) does
            wait_for_readout(page, box, labels[1])
            shown = box.evaluate(VISIBLE_FRAME)
            assert shown != frames[0], "moving the slider did not change the picture"
            assert shown == frames[1], "the picture shown is not the frame for the slider's value"
            box.screenshot(path=shot_name(path, f"__slider{i}-after"))
            drag_to(page, box)  # a reader dragging the handle to the far right
            wait_for_readout(page, box, labels[-1])
            assert box.evaluate(VISIBLE_FRAME) == frames[-1], "dragging did not show the last frame"
            fit = box.evaluate(FRAME_FIT)
            assert abs(fit["shown"] - fit["natural"]) <= 1, (
                f"the frame is drawn {fit['natural']} px wide but shown {fit['shown']:.0f} px wide")
        view.assert_clean()
    finally:
        view.close()


@pytest.mark.full
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_site_interactive_slider_on_a_phone(browser, site, path):
    """At 390 x 844 the widget fits the screen, and every frame is reached by drag and by keyboard."""
    expected = expected_frames(path)
    assert expected, "this chapter has no site-interactive widget"
    view = SitePage(browser, site, path, viewport=PHONE)
    page = view.page
    try:
        for i, (labels, frames, _) in enumerate(expected):
            box = page.locator(".site-interactive").nth(i)
            box.scroll_into_view_if_needed()
            fit = box.evaluate(FRAME_FIT)
            assert fit["left"] >= 0 and fit["right"] <= fit["screen"], (
                f"the widget spans {fit['left']:.0f}..{fit['right']:.0f} px on a {fit['screen']}-px screen")
            # figure_png draws text of at least 15 px: shown at >= 11/15 of its size, it stays >= 11 px.
            assert fit["shown"] >= fit["natural"] * 11 / 15, (
                f"a {fit['natural']}-px frame shown {fit['shown']:.0f} px wide: its text drops below 11 px")
            box.screenshot(path=shot_name(path, f"__slider{i}-phone"))
            last = len(frames) - 1
            for k in range(len(frames)):  # drag the handle to each stop of the track
                drag_to(page, box, k / last)
                wait_for_readout(page, box, labels[k])
                assert box.evaluate(VISIBLE_FRAME) == frames[k], f"dragged to {labels[k]}: wrong frame"
            box.locator(".noUi-handle").first.focus()
            for k in reversed(range(last)):  # and back, one key press per frame
                page.keyboard.press("ArrowLeft")
                wait_for_readout(page, box, labels[k])
                assert box.evaluate(VISIBLE_FRAME) == frames[k], f"keyed to {labels[k]}: wrong frame"
        root = "document.documentElement"
        wide = page.evaluate(f"() => {root}.scrollWidth - {root}.clientWidth")
        assert wide <= 0, f"the page scrolls sideways by {wide} px on a phone"
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=shot_name(path, "__phone"))
        view.assert_clean()
    finally:
        view.close()


# The explorables (anywidget): each computes in the browser, and stores in its `reference` trait
# the values the chapter computed with torch for a handful of settings, each as
# {"set": {trait: value}, "shows": {output name: [value, tolerance]}}. The test sets each setting
# through the explorable's `explorable-set` event, reads the numbers it shows (its elements with
# a data-name) and compares them with torch's.
EXPLORABLE_CHAPTERS = 3  # chapters 1-3 have one each


def explorable_references(path: pathlib.Path) -> list[list[dict]]:
    """The `reference` of every explorable of a chapter page, from the notebook's widget state."""
    state = widget_state(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))
    return [model["state"]["reference"] for model in state.values()
            if model["model_name"] == "AnyModel" and "reference" in model["state"]]


SHOWN = """(box) => Object.fromEntries(Array.from(box.querySelectorAll("[data-name]"))
  .map((out) => [out.dataset.name, out.textContent]))"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_explorable_shows_what_torch_computed(browser, site, path, viewport):
    references = explorable_references(path)
    chapter = int(path.stem.split("_")[0])
    assert bool(references) == (chapter <= EXPLORABLE_CHAPTERS), f"{len(references)} explorables"
    if not references:
        return
    view = SitePage(browser, site, path, viewport=viewport)
    try:
        boxes = view.page.locator(".explorable")
        view.page.wait_for_function("(n) => document.querySelectorAll('.explorable [data-name]')"
                                    ".length && document.querySelectorAll('.explorable')"
                                    ".length >= n", arg=len(references))
        assert boxes.count() == len(references), "an explorable did not render"
        for i, reference in enumerate(references):
            box = boxes.nth(i)
            box.scroll_into_view_if_needed()
            view.page.wait_for_function("(b) => b.querySelector('[data-name]')",
                                        arg=box.element_handle())
            for case in reference:
                box.evaluate("(el, detail) => el.dispatchEvent(new CustomEvent("
                             "'explorable-set', {detail}))", case["set"])
                shown = box.evaluate(SHOWN)
                for name, (value, tolerance) in case["shows"].items():
                    number = float(shown[name].split()[0])
                    assert abs(number - value) <= tolerance, (
                        f"{case['set']}: {name} shows {shown[name]}, torch computed {value}")
            width = box.evaluate("(b) => b.getBoundingClientRect().right")
            assert width <= viewport["width"], f"the explorable is {width:.0f} px wide"
        controls = view.page.locator(".explorable-box .noUi-handle")
        if controls.count():  # a reader's keyboard moves a linked slider and the numbers follow
            before = boxes.first.evaluate(SHOWN)
            at_end = controls.first.evaluate(
                "(h) => h.getAttribute('aria-valuenow') === h.getAttribute('aria-valuemax')")
            controls.first.focus()
            view.page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
            view.page.wait_for_function("([b, old]) => JSON.stringify(Object.fromEntries("
                                        "Array.from(b.querySelectorAll('[data-name]'))"
                                        ".map(o => [o.dataset.name, o.textContent]))) !== "
                                        "JSON.stringify(old)",
                                        arg=[boxes.first.element_handle(), before])
        view.assert_clean()
    finally:
        view.close()


def test_frames_are_pngs():
    for path in CHAPTERS:
        for _, frames, _ in expected_frames(path):
            assert all(base64.b64decode(f)[:8] == b"\x89PNG\r\n\x1a\n" for f in frames)


# The Chinese edition (_build/html/zh/, pages with a translation; the others send the reader to the
# English page and are left out of PAGES above).
ZH_CHAPTER = HTML / "zh" / "notebooks" / "01_embedding_is_onehot_matmul.html"

# How the page draws its Chinese: the advance width of each distinct CJK character of the article
# (in em), the width of a character no font has (.notdef, what a tofu box measures), whether the
# site's font face is loaded, and a fingerprint of each character's pixels: tofu boxes all look alike.
CJK_GLYPHS = r"""async () => {
  await document.fonts.ready;
  const paragraph = document.querySelector("article.bd-article p");
  const family = getComputedStyle(paragraph).fontFamily;
  const chars = [...new Set(document.querySelector("article.bd-article").innerText
                            .match(/[\u4e00-\u9fff]/g))];
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;font-size:40px";
  paragraph.appendChild(probe);
  const width = (c) => { probe.textContent = c.repeat(10);
                         return probe.getBoundingClientRect().width / 400; };
  const widths = chars.map(width), notdef = width("\uE000");
  probe.remove();
  const canvas = document.createElement("canvas"); canvas.width = canvas.height = 48;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  ctx.font = `40px ${family}`;
  const prints = chars.slice(0, 60).map(c => {
    ctx.clearRect(0, 0, 48, 48); ctx.fillText(c, 4, 40);
    const data = ctx.getImageData(0, 0, 48, 48).data;
    let hash = 0, ink = 0;
    for (let i = 3; i < data.length; i += 4) { hash = (hash * 31 + data[i]) >>> 0; ink += data[i] > 0; }
    return `${hash}:${ink}`;
  });
  const loaded = [...document.fonts].filter(f => f.family.includes("Book Noto Sans SC")
                                            && f.status === "loaded").length;
  return {count: chars.length, min: Math.min(...widths), max: Math.max(...widths), notdef,
          distinct: new Set(prints).size, sampled: prints.length, loaded, family};
}"""


def test_chinese_chapter_renders_with_a_real_font(browser, site):
    """The Chinese chapter 1 offline: maths typeset, CJK drawn by the shipped font (square,
    consistent, distinct glyphs, not the .notdef box), nothing sideways on a 390-px phone."""
    view = SitePage(browser, site, ZH_CHAPTER)
    page = view.page
    try:
        assert page.evaluate("() => document.documentElement.lang") == "zh-CN"
        view.wait_for_maths()
        assert page.locator("mjx-container").count() > 50, "the chapter's maths were not typeset"
        assert page.evaluate(RAW_TEX) == [], "raw TeX or a stray `$` left on the page"
        glyphs = page.evaluate(CJK_GLYPHS)
        record_weight("zh glyphs", glyphs)
        assert glyphs["count"] > 500, f"only {glyphs['count']} distinct Chinese characters: {glyphs}"
        assert glyphs["loaded"] >= 1, f"the site's CJK font did not load: {glyphs}"
        assert 0.95 <= glyphs["min"] <= glyphs["max"] <= 1.05, f"CJK advances not one em: {glyphs}"
        assert abs(glyphs["notdef"] - glyphs["min"]) > 0.05, f"CJK as wide as tofu: {glyphs}"
        assert glyphs["distinct"] == glyphs["sampled"], f"identical glyphs (tofu boxes): {glyphs}"
        page.screenshot(path=shot_name(ZH_CHAPTER), full_page=False)
        english = ZH_CHAPTER.relative_to(HTML / "zh").as_posix()
        back = page.locator('.language-switch a[hreflang="en"]').evaluate("a => a.href")
        assert back == site + english, f"the switch leads to {back}"
        assert f'href="../zh/{english}"' in (HTML / english).read_text(), "no switch to 中文"
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        root = "document.documentElement"
        wide = page.evaluate(f"() => {root}.scrollWidth - {root}.clientWidth")
        assert wide <= 0, f"the Chinese page scrolls sideways by {wide} px on a phone"
        page.screenshot(path=shot_name(ZH_CHAPTER, "__phone"))
        view.assert_clean()
    finally:
        view.close()


def test_chinese_search_finds_a_chinese_word(browser, site):
    view = SitePage(browser, site, HTML / "zh" / "search.html", query="?q=梯度")
    page = view.page
    try:
        page.locator("#search-results ul.search li").first.wait_for(timeout=20_000)
        page.wait_for_load_state("networkidle")
        titles = page.locator("#search-results ul.search li a").all_inner_texts()
        assert any("独热矩阵乘法" in title for title in titles), f"梯度 not found in chapter 1: {titles}"
        view.assert_clean()
    finally:
        view.close()


@pytest.mark.parametrize("name", ["book/intro", "book/how-to-use"])
def test_language_switch_links_both_ways(browser, site, name):
    """Click English -> 中文 -> English (the chapter's switch: test_chinese_chapter_...)."""
    view = SitePage(browser, site, HTML / f"{name}.html")
    page = view.page
    try:
        page.locator('.language-switch a[hreflang="zh-CN"]').click()
        page.wait_for_load_state("networkidle")
        assert page.url == site + f"zh/{name}.html"
        assert page.locator('.language-switch [aria-current="page"]').inner_text() == "中文"
        page.locator('.language-switch a[hreflang="en"]').click()
        page.wait_for_load_state("networkidle")
        assert page.url == site + f"{name}.html"
        view.assert_clean()
    finally:
        view.close()


def test_no_switch_where_no_translation():
    """Chapters 2-4 exist in English only: no switch on them, and their Chinese address sends the
    reader to the English page."""
    for path in CHAPTERS[1:]:
        assert "language-switch" not in path.read_text(), f"{path.name} offers a missing translation"
        stub = (HTML / "zh" / path.relative_to(HTML)).read_text()
        assert f'url=../../{path.relative_to(HTML).as_posix()}"' in stub
