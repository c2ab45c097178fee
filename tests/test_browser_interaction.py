"""What a reader does on the built site, in Debian's Chromium: moves the site-interactive
sliders (no kernel: every frame is stored), sets the explorables (computed in the browser) and
compares what they show with what torch computed, reads a chapter in the dark theme, and reads
the Chinese site and switches language. The site and the browser are tests/served_site.py; every
page's own checks are tests/test_browser.py. Screenshots land in _build/screenshots/.
"""

import base64
import pathlib

import pytest
from conftest import HTML, ROOT, load_notebook, site_widgets, widget_state
from served_site import CHAPTERS, DESKTOP, IMAGES, PHONE, RAW_TEX, SitePage, record_weight, shot_name

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


@pytest.fixture(scope="module")
def desktop_page(browser, site):
    """A chapter page on a desktop, loaded once for the two tests below (a chapter page takes
    seconds to load). Each moves widgets of its own kind only: the slider test the slider
    widgets, the explorable test the explorables."""
    views = {}

    def view(path: pathlib.Path) -> SitePage:
        if path not in views:
            views[path] = SitePage(browser, site, path)
        return views[path]

    yield view
    for opened in views.values():
        opened.close()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_site_interactive_slider_switches_frames_without_a_kernel(desktop_page, path):
    expected = expected_frames(path)
    assert expected, "this chapter has no site-interactive widget"
    view = desktop_page(path)
    page = view.page
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


@pytest.mark.parametrize("viewport", [DESKTOP, pytest.param(PHONE, marks=pytest.mark.full)],
                         ids=["desktop", "phone"])
@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_explorable_shows_what_torch_computed(browser, site, desktop_page, path, viewport):
    references = explorable_references(path)
    chapter = int(path.stem.split("_")[0])
    assert bool(references) == (chapter <= EXPLORABLE_CHAPTERS), f"{len(references)} explorables"
    if not references:
        return
    phone = viewport == PHONE
    view = SitePage(browser, site, path, viewport=viewport) if phone else desktop_page(path)
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
        if phone:
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
