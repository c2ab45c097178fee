"""Shared paths and helpers for the checks that are not nbval."""

import base64
import functools
import hashlib
import html
import http.server
import json
import os
import pathlib
import re
import threading

import pytest
from bookkit import chapters
from isolated_runs import stored_seconds

ROOT = pathlib.Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def toc_notebooks() -> list[pathlib.Path]:
    """The chapter notebooks listed in _toc.yml (other pages that are notebooks left out)."""
    return chapters()


def load_notebook(path: pathlib.Path) -> dict:
    return json.loads(path.read_text())


def widget_state(nb: dict) -> dict:
    """The saved widget models of a notebook, by model id ({} if none)."""
    return nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


FRAME = re.compile(r'^<img alt="(?P<alt>[^"]*)" style="max-width:100%" '
                   r'src="data:image/png;base64,(?P<png>[A-Za-z0-9+/=]+)">$')


def site_widgets(nb: dict) -> list[tuple[list[str], list[str], list[str]]]:
    """Each site-interactive widget of a notebook: (slider labels, base64 PNG frames, alt texts)."""
    state = widget_state(nb)

    def model(ref: str) -> dict:
        return state[ref.removeprefix("IPY_MODEL_")]

    found = []
    for box in state.values():
        if "site-interactive" in box["state"].get("_dom_classes", []):
            slider, stack = (model(ref) for ref in box["state"]["children"])
            pages = [FRAME.match(model(ref)["state"]["value"]) for ref in stack["state"]["children"]]
            assert all(pages), "a frame is an <img> with alt text and a PNG (shared frame_view)"
            found.append((list(slider["state"]["_options_labels"]), [p["png"] for p in pages],
                          [html.unescape(p["alt"]) for p in pages]))
    return found


def figure_metadata(nb: dict) -> dict[str, dict]:
    """The PNG figures of a notebook, in its outputs and in its saved Output widgets: the output
    metadata `show()` stored for each, by the SHA-256 of the PNG (MyST-NB names the site's copy of
    an output's image after it)."""
    outputs = [out for cell in nb["cells"] for out in cell.get("outputs", [])]
    outputs += [out for model in widget_state(nb).values()
                for out in model["state"].get("outputs", [])]
    return {hashlib.sha256(base64.b64decode(out["data"]["image/png"])).hexdigest():
            out.get("metadata", {}).get("image/png", {})
            for out in outputs if "image/png" in out.get("data", {})}


# The built site in a browser (tests/served_site.py, imported here when a browser test asks: it
# needs this file's paths): one server and one Chromium per test file.
@pytest.fixture(scope="module")
def site():
    """The base URL of the built site, served over HTTP on 127.0.0.1 at a random free port."""
    from served_site import SiteHandler

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
    """Debian's Chromium, headless, driven by Playwright."""
    from playwright.sync_api import sync_playwright
    from served_site import CHROMIUM, FLAGS

    assert pathlib.Path(CHROMIUM).exists(), "Chromium is missing: `make test` installs Debian's chromium"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


def pytest_collection_modifyitems(items) -> None:
    """The longest files first, so that pytest-xdist (`make test`: two workers, one file each at a
    time) ends on short ones: the two browser files, then the chapters by their stored run time,
    longest first, then the rest.

    A chapter page takes the browser 10-25 s a check: `make test` runs the browser's checks of the
    book's other pages and of small test pages, and marks those of the chapters' pages, English
    and Chinese, `full` (`make test-full` and CI run them), except those of the chapter that
    BOOK_CHAPTER names (`make test NB=...` sets it)."""
    run_time = {f"notebooks/{p.name}": stored_seconds(p) for p in chapters()}

    def order(item) -> tuple:
        file = item.nodeid.split("::")[0]
        return (not file.startswith("tests/test_browser"), -run_time.get(file, 0.0))
    items.sort(key=order)
    named = os.environ.get("BOOK_CHAPTER")
    others = [p.stem for p in toc_notebooks() if p.stem != named]
    for item in items:
        if item.nodeid.startswith("tests/test_browser") and any(s in item.nodeid for s in others):
            item.add_marker(pytest.mark.full)
