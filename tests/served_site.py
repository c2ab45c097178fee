"""The built site as a reader's browser sees it: served over HTTP from 127.0.0.1 (a thread, a
random free port) as GitHub Pages serves it, opened in Debian's Chromium with every request that
leaves the site refused and reported. Shared by tests/test_browser.py (every page) and
tests/test_browser_interaction.py (what a reader does on a page); conftest.py makes the `site`
and `browser` fixtures from it. Screenshots land in _build/screenshots/ for humans to look at.
"""

import fcntl
import gzip
import http.server
import json
import pathlib
import shutil
from urllib.parse import unquote, urlparse

from bookkit import CHROMIUM_FLAGS, toc_files
from conftest import HTML, SCREENSHOTS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = CHROMIUM_FLAGS
PAGES = sorted(p for p in HTML.rglob("*.html")
               if not {"_static", "_sources", "assets", "_images"} & set(p.relative_to(HTML).parts)
               and not (p.relative_to(HTML).parts[0] == "zh" and 'http-equiv="Refresh"' in p.read_text()))
CHAPTERS = [HTML / f"{name}.html" for name in toc_files() if name.startswith("notebooks/")]
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}
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

IMAGES = """async () => {
  const imgs = Array.from(document.images);
  imgs.forEach(img => { img.loading = "eager"; });
  const ok = await Promise.all(imgs.map(img => img.decode().then(() => img.naturalWidth > 0, () => false)));
  return imgs.filter((img, i) => !ok[i]).map(img => img.src.slice(0, 120));
}"""


# Every saved widget is drawn: each widget view's element has a size, and each explorable (an
# anywidget, whose module loads after the widget manager) has drawn its contents.
WIDGETS_DRAWN = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')).every(script => {
  const view = script.parentElement.querySelector(".jupyter-widgets");
  const box = view && view.getBoundingClientRect();
  return Boolean(box && box.width > 0 && box.height > 0);
}) && Array.from(document.querySelectorAll(".explorable")).every(e => e.childElementCount > 0)"""

# What a reader may open: every <details> (Going-deeper asides, hidden code) and every toggled
# block (answers, solutions), as the solutions handout opens them.
OPEN_EVERYTHING = """() => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  document.querySelectorAll(".toggle-hidden").forEach(e => e.classList.remove("toggle-hidden"));
}"""

# Contrast of every text a reader sees (WCAG 2: at least 4.5:1, 3:1 for large text), computed
# here rather than taken from axe-core, which leaves text whose background it cannot tell
# "incomplete" (a text coloured like its background among them). For each visible text node: its
# colour (an SVG text's fill), with the opacity of the elements above it, against the colour
# behind it: the backgrounds of its ancestors composited over the page's canvas. Text in a
# disabled control is exempt (WCAG 1.4.3), as is text hidden for screen readers only. Its argument:
# the element whose texts are checked (default: the page's body).
TEXT_CONTRAST = r"""(root) => {
  root = root || document.body;
  const canvas = document.createElement("canvas").getContext("2d");
  const rgba = (css) => {
    if (!css || css === "none" || css.startsWith("url")) return null;
    const m = /^rgba?\(([^)]*)\)$/.exec(css.trim());
    if (m) {
      const v = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
      return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    }
    canvas.fillStyle = "#000"; canvas.fillStyle = css;  // named, hex or other colour spaces
    const hex = /^#([0-9a-f]{6})$/i.exec(canvas.fillStyle);
    if (hex) return [0, 2, 4].map(i => parseInt(hex[1].slice(i, i + 2), 16)).concat([1]);
    return rgba(canvas.fillStyle);
  };
  const over = (top, below) => [0, 1, 2].map(i => top[i] * top[3] + below[i] * (1 - top[3]))
    .concat([1]);
  const luminance = (c) => c.slice(0, 3).map(v => v / 255)
    .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const backgrounds = new Map();
  const behind = (el) => {  // the colour painted behind an element's text
    if (!el) return [255, 255, 255, 1];
    if (backgrounds.has(el)) return backgrounds.get(el);
    const style = getComputedStyle(el);
    const found = over(rgba(style.backgroundColor), behind(el.parentElement));
    backgrounds.set(el, found);
    return found;
  };
  const opacities = new Map();
  const opacity = (el) => {  // the product of the element's and its ancestors' opacities
    if (!el) return 1;
    if (!opacities.has(el)) {
      opacities.set(el, Number(getComputedStyle(el).opacity) * opacity(el.parentElement));
    }
    return opacities.get(el);
  };
  const skip = "script, style, noscript, template, mjx-assistive-mml, .visually-hidden, "
    + ".sr-only, [disabled], [aria-disabled='true']";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const problems = new Map();
  let checked = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(skip)) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 1 || box.height < 1 || box.right + scrollX <= 0 || box.bottom + scrollY <= 0) {
      continue;  // off the page: a skip link until it has the focus
    }
    const style = getComputedStyle(el);
    const ink = rgba(el instanceof SVGElement ? style.fill : style.color);
    if (!ink) continue;  // an SVG text filled with a pattern
    ink[3] *= opacity(el);
    const back = behind(el);
    const contrast = ratio(over(ink, back), back);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    checked += 1;
    if (contrast < needed) {
      const text = node.textContent.trim().slice(0, 50);
      problems.set(text, `"${text}" ${contrast.toFixed(2)}:1 (needs ${needed}), `
        + `${style.color} on rgb(${back.slice(0, 3).map(Math.round)}) in `
        + `<${el.tagName.toLowerCase()} class="${el.className.baseVal ?? el.className}">`);
    }
  }
  return {checked, problems: Array.from(problems.values())};
}"""


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
    """Keep a measured figure in _build/screenshots/weights.json (locked: two test files write)."""
    with open(WEIGHTS.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        weights = json.loads(WEIGHTS.read_text()) if WEIGHTS.exists() else {}
        weights[name] = figures
        WEIGHTS.write_text(json.dumps(weights, indent=1, sort_keys=True))


class SitePage:
    """A page of the served site: every request elsewhere refused, console errors and bytes kept."""

    def __init__(self, browser, site: str, path: pathlib.Path, viewport=DESKTOP, dark=False,
                 query: str = "", touch=False):
        self.site = site
        # touch: a phone's touch screen (touch events, and the page scrolls under a finger)
        self.context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
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

    def wait_until_drawn(self):
        """Wait for the maths to be typeset (if any) and every saved widget to be drawn."""
        if self.page.locator(".math").count():
            self.wait_for_maths()
        self.page.wait_for_function(WIDGETS_DRAWN)

    def assert_clean(self):
        assert self.errors == [], f"JavaScript console errors: {self.errors} (failed: {self.failed})"
        assert self.failed == [], f"requests the site could not serve: {self.failed}"
        assert self.network == [], f"the page tried to leave the site: {self.network}"

    def close(self):
        self.context.close()


def shot_name(path: pathlib.Path, suffix: str = "") -> pathlib.Path:
    name = path.relative_to(HTML).with_suffix("").as_posix().replace("/", "__")
    return SCREENSHOTS / f"{name}{suffix}.png"
