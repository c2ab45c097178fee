"""What a reader does on the built site, in Debian's Chromium: moves the site-interactive
sliders (no kernel: every frame is stored) and reads their labels, sets the explorables (computed
in the browser) and compares what they show with what torch computed, gives them bad input and
drags their points with a finger, meets the blocks that run only in a notebook, reads every
chapter in the dark theme, and reads the Chinese site and switches language. The site and the
browser are tests/served_site.py; every page's own checks are tests/test_browser.py. Screenshots
land in _build/screenshots/.
"""

import base64
import pathlib
import time

import pytest
from conftest import HTML, ROOT, load_notebook, site_widgets, widget_state
from served_site import (
    CHAPTERS,
    DESKTOP,
    IMAGES,
    OPEN_EVERYTHING,
    PHONE,
    RAW_TEX,
    TEXT_CONTRAST,
    SitePage,
    record_weight,
    shot_name,
)

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

# Dark mode: every text contrasts with what is behind it (served_site.TEXT_CONTRAST: the texts of
# widgets and explorables, captions and labels among them), and figures keep a light background
# and their colours (a PNG drawn for white paper loses its black text on the dark page, and an
# inverting filter would turn its legend's swatches into other colours).
DARK_FIGURES = r"""() => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const problems = [];
  let seen = 0;
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  for (const img of document.querySelectorAll(".cell_output img, .jupyter-widgets img")) {
    if (!img.offsetParent || !img.naturalWidth) continue;
    seen += 1;
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0);
    const [r, g, b, a] = ctx.getImageData(1, 1, 1, 1).data;
    const corner = a > 127 ? [r, g, b] : background(img);
    const filter = getComputedStyle(img).filter;
    if (luminance(corner) < 0.6 || (filter !== "none" && /invert|hue-rotate/.test(filter)))
      problems.push(`figure ${img.src.slice(-40)} on a dark background or recoloured (${filter})`);
  }
  return {problems, seen};
}"""


DARK_LATER = [pytest.param(path, marks=pytest.mark.full) for path in CHAPTERS[1:]]  # test-full


@pytest.mark.parametrize("path", [CHAPTERS[0], *DARK_LATER], ids=lambda p: p.stem)
def test_a_chapter_in_dark_mode_is_readable(browser, site, path):
    view = SitePage(browser, site, path, dark=True)
    page = view.page
    try:
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        view.wait_until_drawn()
        page.evaluate(IMAGES)
        figures = page.evaluate(DARK_FIGURES)
        assert figures["seen"], "no figure to check"
        assert figures["problems"] == [], "figures hard to read in dark mode"
        page.screenshot(path=shot_name(path, "__dark"))
        page.evaluate(OPEN_EVERYTHING)
        found = page.evaluate(TEXT_CONTRAST)
        assert found["checked"] > 1000, f"only {found['checked']} texts found"
        assert found["problems"] == [], (
            f"{len(found['problems'])} texts hard to read in dark mode: {found['problems'][:5]}")
        box = page.locator(".site-interactive").first
        box.scroll_into_view_if_needed()
        page.screenshot(path=shot_name(path, "__dark-slider"))
        view.assert_clean()
    finally:
        view.close()


# Explorables as the chapters style them (EXPLORABLE_CONVENTION.md, 5), each inside a widget
# area as the site renders a widget, under the site's own style sheets: fixed light colours with
# no rule for the captions, the theme's variables for text and background together, and a caption
# colour of the explorable's own.
EXPLORABLES_STYLED = """() => {
  const style = document.createElement("style");
  style.textContent = `.x-light { color: #1a1a1a; background: #ffffff; }
    .x-theme { color: var(--pst-color-text-base); background: var(--pst-color-background); }
    .x-own { color: #1a1a1a; background: #ffffff; }
    .x-own caption, .x-own figcaption { color: #6b3d00; }`;
  document.head.append(style);
  const root = document.createElement("div");
  root.id = "styled-explorables";
  root.innerHTML = ["x-light", "x-theme", "x-own"].map((kind) => `<div class="cell_output">
    <div class="widget-subarea"><div class="explorable ${kind}">
      <table><caption>${kind} caption</caption><tr><th scope="row">x</th><td>1</td></tr></table>
      <figure><svg width="20" height="20"></svg><figcaption>${kind} figure</figcaption></figure>
      <p role="alert">${kind} text</p></div></div></div>`).join("");
  document.querySelector(".bd-article").append(root);
  return getComputedStyle(root.querySelector(".x-own caption")).color;
}"""
# What the dark theme's captions once were: the page's light text colour, whatever the
# explorable's background.
PAGE_COLOURED_CAPTIONS = """() => {
  const style = document.createElement("style");
  style.textContent = `html[data-theme="dark"] .explorable caption,
    html[data-theme="dark"] .explorable figcaption { color: var(--pst-color-text-base); }`;
  document.head.append(style);
}"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_explorables_keep_their_own_colours_in_both_themes(browser, site, dark):
    """The site's style sheets leave an explorable's colours to it: its captions readable however
    it sets its colours, its own caption colour kept; a rule that gives captions the page's text
    colour fails this in the dark theme."""
    view = SitePage(browser, site, HTML / "book" / "notation.html", dark=dark)
    try:
        page = view.page
        assert page.evaluate("() => document.documentElement.dataset.theme") == (
            "dark" if dark else "light")
        assert page.evaluate(EXPLORABLES_STYLED) == "rgb(107, 61, 0)", "its own caption colour lost"
        root = page.locator("#styled-explorables").element_handle()
        found = page.evaluate(TEXT_CONTRAST, root)
        assert found["checked"] == 3 * 5 and found["problems"] == [], found
        page.evaluate(PAGE_COLOURED_CAPTIONS)
        problems = page.evaluate(TEXT_CONTRAST, root)["problems"]
        assert len(problems) == (4 if dark else 0), problems
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


# A slider's description and readout shown whole: none cut (with an ellipsis or clipped), in `root`.
CUT_LABELS = """(root) => Array.from(root.querySelectorAll(".widget-label, .widget-readout"))
  .filter(el => el.offsetParent && el.scrollWidth > el.clientWidth + 1)
  .map(el => `"${el.textContent}" needs ${el.scrollWidth} px, has ${el.clientWidth}`)"""


# The same with the readout showing each of the slider's labels in turn (all that changes from one
# frame to the next is its text), then its own again.
CUT_AT_EVERY_LABEL = """([box, labels]) => {
  const readout = box.querySelector(".widget-readout"), own = readout.textContent, cut = [];
  for (const label of labels) {
    readout.textContent = label;
    for (const el of box.querySelectorAll(".widget-label, .widget-readout")) {
      if (el.offsetParent && el.scrollWidth > el.clientWidth + 1)
        cut.push(`"${el.textContent}" needs ${el.scrollWidth} px, has ${el.clientWidth}`);
    }
  }
  readout.textContent = own;
  return cut;
}"""


def labels_cut_at_every_frame(page, box, labels: list[str]) -> list[str]:
    """The slider's description and readout cut at any of its frames."""
    return page.evaluate(CUT_AT_EVERY_LABEL, [box.element_handle(), labels])


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
        # The readout is for reading: a reader who types in it changes nothing.
        assert readout.get_attribute("contenteditable") == "false", "the readout can be edited"
        readout.click()
        page.keyboard.type("3")
        page.keyboard.press("Enter")
        assert readout.inner_text() == labels[0], "typing in the readout changed it"
        assert box.evaluate(VISIBLE_FRAME) == frames[0], "typing in the readout changed the picture"
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
        # Every label and readout shown whole at every frame on a phone (a desktop gives the
        # slider more room: the page-wide check below covers it).
        try:
            page.set_viewport_size(PHONE)
            box.scroll_into_view_if_needed()
            cut = labels_cut_at_every_frame(page, box, labels)
        finally:
            page.set_viewport_size(DESKTOP)
        assert cut == [], f"slider labels cut on a phone: {cut}"
    # The other sliders' labels (explorables', notebook blocks'), on a desktop and on a phone.
    body = page.locator("body")
    cut = body.evaluate(CUT_LABELS)
    try:
        page.set_viewport_size(PHONE)
        cut += [f"on a phone: {c}" for c in body.evaluate(CUT_LABELS)]
    finally:
        page.set_viewport_size(DESKTOP)
    assert cut == [], f"labels cut: {cut}"
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


def has_explorable(path: pathlib.Path) -> bool:
    """Whether the chapter's code defines an explorable (read from its source, so that a chapter
    whose saved widget state lost its explorables still counts)."""
    return any("anywidget.AnyWidget" in "".join(cell["source"]) for cell in
               load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb"))["cells"]
               if cell["cell_type"] == "code")


EXPLORABLE_CHAPTERS = [path for path in CHAPTERS if has_explorable(path)]


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
    assert bool(references) == (path in EXPLORABLE_CHAPTERS), f"{len(references)} explorables"
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


# Bad input gets a message (EXPLORABLE_CONVENTION.md): each explorable lists in its `refuses`
# trait the bad settings its chapter names, as {"set": {trait: value}, "says": phrase} (sent
# through its `explorable-set` event) or {"type": [selector, text], "says": phrase} (typed into one
# of its own inputs). For each: the explorable's role="alert" element shows the phrase and the
# numbers it shows stay as they were; after a valid setting the alert is empty again.
def explorable_states(path: pathlib.Path) -> list[dict]:
    """The saved state of every explorable of a chapter page (those with a `reference`)."""
    state = widget_state(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))
    return [model["state"] for model in state.values()
            if model["model_name"] == "AnyModel" and "reference" in model["state"]]


def send(box, setting: dict) -> None:
    box.evaluate("(el, detail) => el.dispatchEvent(new CustomEvent('explorable-set', {detail}))",
                 setting)


def type_into(box, selector: str, text: str) -> None:
    """Type `text` into one of the explorable's inputs as a reader would, then press Enter."""
    field = box.locator(selector).first
    try:
        field.fill(text)
    except Exception:  # a number input refuses text that is not a number: set it as a browser would
        field.evaluate("(el, text) => { el.focus(); el.value = text; "
                       "el.dispatchEvent(new Event('input', {bubbles: true})); }", text)
    field.press("Enter")
    field.evaluate("(el) => el.dispatchEvent(new Event('change', {bubbles: true}))")


def alert_text(box, wanted=None, seconds: float = 2.0) -> str:
    """The text of the explorable's alert, once it holds `wanted` (or is empty, for "") or after
    `seconds`; its text at once if `wanted` is None."""
    alert = box.locator('[role="alert"]')
    deadline = time.monotonic() + seconds
    while True:
        text = alert.inner_text().strip() if alert.count() else ""
        if wanted is None or (wanted in text if wanted else not text) or time.monotonic() > deadline:
            return text
        time.sleep(0.05)


def refusal_problems(box, state: dict) -> list[str]:
    """What is wrong with how an explorable refuses the bad input its `refuses` lists."""
    refuses = state.get("refuses")
    if not refuses:
        return ["no `refuses` trait (or an empty one) listing the bad input the explorable rejects"]
    alerts = box.locator('[role="alert"]').count()
    if alerts != 1:
        return [f"{alerts} elements with role=alert inside the explorable, not one"]
    valid, problems = state["reference"][0]["set"], []
    for case in refuses:
        send(box, valid)
        if alert_text(box, ""):
            problems.append(f"the alert is not empty for the valid setting {valid}")
        before = box.evaluate(SHOWN)
        if "set" in case:
            send(box, case["set"])
        else:
            type_into(box, *case["type"])
        said = alert_text(box, case["says"])
        if case["says"] not in said:
            problems.append(f"{case}: the alert says {said!r}")
        after = box.evaluate(SHOWN)
        if after != before:
            problems.append(f"{case}: the numbers changed from {before} to {after}")
    send(box, valid)
    if alert_text(box, ""):
        problems.append("the alert stays after a valid setting")
    return problems


@pytest.mark.parametrize("path", EXPLORABLE_CHAPTERS, ids=lambda p: p.stem)
def test_explorable_refuses_bad_input_with_a_message(desktop_page, path):
    states = explorable_states(path)
    assert states, "no explorable in this chapter"
    view = desktop_page(path)
    view.wait_until_drawn()
    boxes = view.page.locator(".explorable")
    assert boxes.count() == len(states), "an explorable did not render"
    problems = []
    for i, state in enumerate(states):
        boxes.nth(i).scroll_into_view_if_needed()
        problems += [f"explorable {i + 1}: {p}" for p in refusal_problems(boxes.nth(i), state)]
    assert problems == [], f"{len(problems)} problems: {problems[:4]}"
    view.assert_clean()


# A small explorable of its own (a square's area from its side), as the convention asks or
# silently clamping its input, for the test that proves the check can pass and fail.
SQUARE = """<div class="explorable">
  <label>side <input class="side" value="4"></label> area <output data-name="area">16</output>
  <p role="alert"></p></div>
<script>{
  const root = document.querySelector(".explorable"), input = root.querySelector(".side");
  const alert = root.querySelector("[role=alert]"), area = root.querySelector("output");
  const set = (side) => {
    const n = Number(side);
    if (CLAMP) { const c = Math.min(10, Math.max(1, Math.round(n) || 1)); area.textContent = c * c; return; }
    if (side === "" || !Number.isInteger(n) || n < 1 || n > 10) {
      alert.textContent = `the side is a whole number from 1 to 10; got ${side}`; return;
    }
    alert.textContent = ""; area.textContent = n * n; input.value = n;
  };
  root.addEventListener("explorable-set", (e) => set(e.detail.side));
  input.addEventListener("change", () => set(input.value));
}</script>"""
SQUARE_STATE = {"reference": [{"set": {"side": 3}, "shows": {"area": [9, 0]}}],
                "refuses": [{"set": {"side": 12}, "says": "from 1 to 10"},
                            {"set": {"side": "x"}, "says": "whole number"},
                            {"type": [".side", "1e3"], "says": "from 1 to 10"},
                            {"type": [".side", ""], "says": "whole number"}]}


@pytest.mark.full  # a check of the check: it changes with the test only
def test_the_refusal_check_passes_an_explorable_that_says_why_and_fails_others(browser):
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_content(SQUARE.replace("CLAMP", "false"))
        box = page.locator(".explorable")
        assert refusal_problems(box, SQUARE_STATE) == []
        assert refusal_problems(box, {**SQUARE_STATE, "refuses": []})[0].startswith("no `refuses`")
        page.set_content(SQUARE.replace("CLAMP", "true"))
        clamped = refusal_problems(page.locator(".explorable"), SQUARE_STATE)
        assert len(clamped) >= 4 and "the numbers changed" in " ".join(clamped), clamped
    finally:
        context.close()


# A finger dragging a point (EXPLORABLE_CONVENTION.md, 4): on a phone's touch screen, a drag on
# chapter 2's explorable moves the point by the distance the finger moved and does not scroll the
# page. The touches go through the DevTools protocol, as a touch screen sends them.
def touch_drag(view, start: tuple[float, float], move: tuple[float, float], steps: int = 10) -> None:
    cdp = view.context.new_cdp_session(view.page)
    try:
        (x, y), (dx, dy) = start, move
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x + dx * k / steps, "y": y + dy * k / steps}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


# Where a point and its drawing surface are on the page (CSS px from the page's top left corner).
WHERE = """(el) => {
  const b = el.getBoundingClientRect(), s = (el.ownerSVGElement || el).getBoundingClientRect();
  return {x: b.x + b.width / 2 + scrollX, y: b.y + b.height / 2 + scrollY, scroll: scrollY,
          panel: {x: s.x + s.width / 2 + scrollX, y: s.y + s.height / 2 + scrollY}}; }"""


def drag_problems(view, point_selector: str) -> list[str]:
    """Drag the point 30 px towards its panel's centre with a finger: what went wrong."""
    page = view.page
    point = page.locator(point_selector).first
    point.scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, 120)")  # room above and below: the page could scroll
    before = point.evaluate(WHERE)
    towards = (before["panel"]["x"] - before["x"], before["panel"]["y"] - before["y"])
    length = max(1.0, (towards[0] ** 2 + towards[1] ** 2) ** 0.5)
    move = (30 * towards[0] / length, 30 * towards[1] / length) if length > 5 else (0.0, -30.0)
    touch_drag(view, (before["x"], before["y"] - before["scroll"]), move)
    page.wait_for_timeout(300)
    after = page.locator(point_selector).first.evaluate(WHERE)
    problems = []
    if abs(after["scroll"] - before["scroll"]) > 1:
        problems.append(f"the page scrolled by {after['scroll'] - before['scroll']:.0f} px")
    moved = (after["x"] - before["x"], after["y"] - before["y"])
    if max(abs(moved[0] - move[0]), abs(moved[1] - move[1])) > 3:
        problems.append(f"the finger moved ({move[0]:.0f}, {move[1]:.0f}) px, "
                        f"the point ({moved[0]:.0f}, {moved[1]:.0f})")
    return problems


@pytest.mark.full
def test_a_finger_drags_a_point_not_the_page(browser, site):
    rotation = next(path for path in CHAPTERS if path.stem.startswith("02_"))  # its points drag
    view = SitePage(browser, site, rotation, viewport=PHONE, touch=True)
    try:
        view.wait_until_drawn()
        problems = drag_problems(view, ".explorable [data-point]")
        assert problems == [], f"a touch drag on the explorable: {problems}"
        view.assert_clean()
    finally:
        view.close()


# A draggable point of its own, as the convention asks (touch-action: none, pointer capture, the
# scale taken at pointerdown) or without touch-action, for the test that proves the check above.
DRAGGABLE = """<meta name="viewport" content="width=device-width, initial-scale=1">
<div style="height: 900px"></div>
<svg width="200" height="200" style="background: #eee; touch-action: TOUCH_ACTION">
  <circle data-point="0" cx="100" cy="60" r="12" fill="#0072b2"/></svg>
<div style="height: 1500px"></div>
<script>{
  const svg = document.querySelector("svg"), dot = svg.querySelector("circle");
  let start = null;
  svg.addEventListener("pointerdown", (e) => {
    if (e.target !== dot) return;
    svg.setPointerCapture(e.pointerId);
    start = {x: e.clientX, y: e.clientY, cx: +dot.getAttribute("cx"), cy: +dot.getAttribute("cy")};
  });
  svg.addEventListener("pointermove", (e) => {
    if (!start) return;
    dot.setAttribute("cx", start.cx + e.clientX - start.x);
    dot.setAttribute("cy", start.cy + e.clientY - start.y);
  });
  svg.addEventListener("pointerup", () => { start = null; });
  svg.addEventListener("pointercancel", () => { start = null; });
}</script>"""


@pytest.mark.full  # a check of the check: it changes with the test only
def test_the_drag_check_passes_a_point_that_follows_the_finger_and_fails_a_page_that_scrolls(browser):
    for touch_action, passes in (("none", True), ("auto", False)):
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        try:
            view = type("View", (), {"context": context, "page": context.new_page()})()
            view.page.set_content(DRAGGABLE.replace("TOUCH_ACTION", touch_action))
            problems = drag_problems(view, "[data-point]")
            assert (problems == []) == passes, f"touch-action: {touch_action}: {problems}"
        finally:
            context.close()


# Blocks made by `interact` run Python on each change of their controls: on the site they keep
# the picture the notebook drew, their controls are disabled, and a note on the block says that
# it runs in a notebook, with the chapter's Colab link (book/_static/site-widgets.js).
FROZEN = """() => Array.from(document.querySelectorAll(".widget-interact")).map(block => {
  const note = block.querySelector(":scope > .frozen-notice");
  const link = note && note.querySelector("a");
  const live = [
    ...Array.from(block.querySelectorAll("input, select, button, textarea")).filter(c => !c.disabled),
    ...Array.from(block.querySelectorAll(".noUi-target")).filter(s => !s.hasAttribute("disabled")),
    ...Array.from(block.querySelectorAll(".noUi-handle")).filter(h => h.tabIndex >= 0),
    ...Array.from(block.querySelectorAll("[contenteditable=true]"))];
  return {note: note && note.innerText, link: link && link.getAttribute("href"),
          live: live.map(el => el.outerHTML.slice(0, 80))};
})"""


def interact_blocks(path: pathlib.Path) -> int:
    """How many `interact` blocks a chapter's notebook saved."""
    state = widget_state(load_notebook(ROOT / path.relative_to(HTML).with_suffix(".ipynb")))
    return sum("widget-interact" in model["state"].get("_dom_classes", []) for model in state.values())


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_block_that_runs_in_a_notebook_says_so_and_is_disabled(desktop_page, path):
    expected = interact_blocks(path)
    view = desktop_page(path)
    page = view.page
    view.wait_until_drawn()
    page.wait_for_function("(n) => document.querySelectorAll('.widget-interact > .frozen-notice')"
                           ".length >= n", arg=expected)
    blocks = page.evaluate(FROZEN)
    assert len(blocks) == expected, f"{len(blocks)} blocks on the page, {expected} in the notebook"
    colab = page.locator('a[href^="https://colab.research.google.com/"]').first.get_attribute("href")
    for block in blocks:
        assert "runs in a notebook" in block["note"], f"the note says {block['note']!r}"
        assert block["link"] == colab, f"the note links to {block['link']}, not to {colab}"
        assert block["live"] == [], f"controls a reader can still move: {block['live']}"
    handles = page.locator(".widget-interact .noUi-handle")
    if handles.count():  # a reader's drag moves nothing
        handle = handles.first
        handle.scroll_into_view_if_needed()
        before = handle.get_attribute("aria-valuenow")
        box = handle.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + 80, box["y"] + box["height"] / 2, steps=5)
        page.mouse.up()
        assert handle.get_attribute("aria-valuenow") == before, "the slider of a frozen block moved"
    view.assert_clean()


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


@pytest.mark.full  # it changes with the font and the build only
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


@pytest.mark.parametrize("name", ["book/intro", pytest.param("book/how-to-use",
                                                              marks=pytest.mark.full)])
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
    """Every chapter but the first exists in English only: no switch on them, and their Chinese
    address sends the reader to the English page."""
    for path in CHAPTERS[1:]:
        assert "language-switch" not in path.read_text(), f"{path.name} offers a missing translation"
        stub = (HTML / "zh" / path.relative_to(HTML)).read_text()
        assert f'url=../../{path.relative_to(HTML).as_posix()}"' in stub
