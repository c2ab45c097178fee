"""Open every built page in Debian's Chromium, offline, and check what a reader sees.

Needs `make book` first (`make test` does both) and /usr/bin/chromium (`make test` installs it).
Screenshots of every page, and of every site-interactive widget before and after moving its
slider, are saved under _build/screenshots/ for humans to look at.
"""

import base64
import pathlib
import shutil
from urllib.parse import unquote, urlparse

import pytest
from conftest import HTML, ROOT, SCREENSHOTS, load_notebook, site_widgets
from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic"]
PAGES = sorted(p for p in HTML.rglob("*.html")
               if not {"_static", "_sources", "assets", "_images"} & set(p.relative_to(HTML).parts))
CHAPTERS = [p for p in PAGES if p.relative_to(HTML).parts[0] == "notebooks"]

RAW_TEX = r"""() => {
  const skip = new Set(["PRE", "CODE", "SCRIPT", "STYLE", "TEXTAREA", "MJX-CONTAINER"]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const raw = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let el = node.parentElement, inside = false;
    for (; el; el = el.parentElement) if (skip.has(el.tagName)) { inside = true; break; }
    if (!inside && /\$\$|\\\(|\\\[|\\begin\{|\\frac|\\mathbb|\\operatorname/.test(node.textContent))
      raw.push(node.textContent.trim().slice(0, 80));
  }
  return raw;
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

LOCAL_LINKS = """() => Array.from(document.querySelectorAll("a[href]"))
  .map(a => a.href).filter(href => href.startsWith("file:")).map(href => href.split("#")[0])"""

VISIBLE_FRAME = """async (box) => {
  const img = Array.from(box.querySelectorAll("img")).find(i => i.offsetParent !== null);
  if (!img) return null;
  const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  let text = ""; bytes.forEach(b => { text += String.fromCharCode(b); });
  return btoa(text);
}"""


@pytest.fixture(scope="module")
def browser():
    assert pathlib.Path(CHROMIUM).exists(), "Chromium is missing: `make test` installs Debian's chromium"
    assert (HTML / "index.html").exists(), "no built site: run `make book` (or `make test`)"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


class OfflinePage:
    """A page opened from disk with every non-file request refused and every console error kept."""

    def __init__(self, browser, path: pathlib.Path):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.network, self.errors = [], []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.as_uri(), wait_until="load")
        self.page.wait_for_load_state("networkidle")

    def _route(self, route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            self.network.append(route.request.url)
            route.abort()

    def close(self):
        self.context.close()


def shot_name(path: pathlib.Path, suffix: str = "") -> pathlib.Path:
    name = path.relative_to(HTML).with_suffix("").as_posix().replace("/", "__")
    return SCREENSHOTS / f"{name}{suffix}.png"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(HTML).as_posix())
def test_page_renders_offline(browser, path):
    view = OfflinePage(browser, path)
    page = view.page
    try:
        if page.locator(".math").count():
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("() => MathJax.startup.promise")
            untypeset = page.evaluate(
                "() => Array.from(document.querySelectorAll('.math')).filter("
                "m => !m.querySelector('mjx-container')).length")
            assert untypeset == 0, f"{untypeset} maths elements were not typeset"
        assert page.evaluate(RAW_TEX) == [], "raw TeX left on the page"
        assert page.evaluate(IMAGES) == [], "images that did not load"
        assert all(page.evaluate(WIDGETS)), "a widget snapshot rendered blank"
        links = [pathlib.Path(unquote(urlparse(href).path)) for href in page.evaluate(LOCAL_LINKS)]
        broken = [str(link) for link in links if not link.exists()]
        assert broken == [], "links to files that are not in the built site"
        if path in CHAPTERS:
            notebook = path.relative_to(HTML).with_suffix(".ipynb").as_posix()
            colab = page.locator(f'a[href^="https://colab.research.google.com/github/"][href$="{notebook}"]')
            assert colab.count() >= 1, "no Colab launch link"
            download = page.locator(f'a[href$="_sources/{notebook}"]')
            assert download.count() >= 1, "no download button for the notebook"
        page.screenshot(path=shot_name(path), full_page=True)
        assert view.errors == [], f"JavaScript console errors: {view.errors}"
        assert view.network == [], f"the page tried to use the network: {view.network}"
    finally:
        view.close()


def expected_frames(path: pathlib.Path) -> list[tuple[list[str], list[str]]]:
    """For each site-interactive widget of a chapter page: its slider labels and PNG frames (base64)."""
    return site_widgets(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))


def drag_to_end(page, box) -> None:
    """Press the mouse on the slider's handle and release it past the track's right end."""
    handle = box.locator(".noUi-handle").first.bounding_box()
    track = box.locator(".noUi-base").first.bounding_box()
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"] + track["width"] + 40, handle["y"] + handle["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_site_interactive_slider_switches_frames_without_a_kernel(browser, path):
    expected = expected_frames(path)
    assert expected, "this chapter has no site-interactive widget"
    view = OfflinePage(browser, path)
    page = view.page
    try:
        boxes = page.locator(".site-interactive")
        assert boxes.count() == len(expected)
        for i, (labels, frames) in enumerate(expected):
            box = boxes.nth(i)
            box.scroll_into_view_if_needed()
            readout = box.locator(".widget-readout")
            assert readout.inner_text() == labels[0]
            assert box.evaluate(VISIBLE_FRAME) == frames[0], "the first frame is not the one shown"
            box.screenshot(path=shot_name(path, f"__slider{i}-before"))
            box.locator(".noUi-handle").first.focus()
            page.keyboard.press("ArrowRight")  # what a reader's keyboard (or a one-step drag) does
            page.wait_for_function("([el, text]) => el.innerText === text",
                                   arg=[readout.element_handle(), labels[1]])
            shown = box.evaluate(VISIBLE_FRAME)
            assert shown != frames[0], "moving the slider did not change the picture"
            assert shown == frames[1], "the picture shown is not the frame for the slider's value"
            box.screenshot(path=shot_name(path, f"__slider{i}-after"))
            drag_to_end(page, box)  # a reader dragging the handle to the far right
            page.wait_for_function("([el, text]) => el.innerText === text",
                                   arg=[readout.element_handle(), labels[-1]])
            assert box.evaluate(VISIBLE_FRAME) == frames[-1], "dragging did not show the last frame"
        assert view.errors == [], f"JavaScript console errors: {view.errors}"
    finally:
        view.close()


def test_frames_are_pngs():
    for path in CHAPTERS:
        for _, frames in expected_frames(path):
            assert all(base64.b64decode(f)[:8] == b"\x89PNG\r\n\x1a\n" for f in frames)
