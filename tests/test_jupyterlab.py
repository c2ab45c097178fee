"""A student opens the student edition in JupyterLab: the check code is collapsed, not shown.

The student edition keeps each exercise's check cell (a student runs it to learn whether the
answer is right) but marks its source hidden (`jupyter.source_hidden`, which Jupyter and
JupyterLab honour, and a Colab form with a `#@title` line). This test serves the four student
notebooks with a real JupyterLab on 127.0.0.1 and opens each in Debian's Chromium, as a student
would: every check cell must show only its one-line title, every answer cell its editable code.
JupyterLab's notebook is told to render every cell (windowingMode "none", a user setting) so that
cells far down the page are in the document.
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

import nbformat
import notebook_edition as editions
import pytest
from bookkit import ANSWER, CHROMIUM_FLAGS, EXERCISE_CHECK, tags
from conftest import toc_notebooks
from edition.exercises import CHECK_TITLE
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = CHROMIUM_FLAGS
SETTINGS = {"@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
            "@jupyterlab/apputils-extension/notification": {"fetchNews": "false"}}
CELL_STATE = """(cell) => ({
  placeholder: !!cell.querySelector('.jp-InputPlaceholder'),
  text: cell.innerText,
  editor: !!Array.from(cell.querySelectorAll('.jp-InputArea-editor')).find(e => e.offsetParent)})"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab serving the student editions from a fresh folder: (base URL, token, folder)."""
    root, home = tmp_path_factory.mktemp("student"), tmp_path_factory.mktemp("jupyter")
    for path in toc_notebooks():
        nbformat.write(editions.edition(path, student=True), root / path.name)
    for name, values in SETTINGS.items():
        file = home / "settings" / f"{name}.jupyterlab-settings"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(16)
    env = os.environ | {"JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
                        "JUPYTER_CONFIG_DIR": str(home / "config"),
                        "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
         "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.extension_manager=readonly"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("JupyterLab did not start within 40 s")
        yield base, token, root
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.full
@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.stem)
def test_student_sees_check_titles_not_check_code(lab, path):
    base, token, root = lab
    nb = nbformat.read(root / path.name, as_version=4)
    checks = [i for i, c in enumerate(nb.cells) if EXERCISE_CHECK in tags(c)]
    answers = [i for i, c in enumerate(nb.cells) if ANSWER in tags(c) and c.cell_type == "code"]
    assert checks and answers, f"{path.name}: a student edition with checks and answer cells"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base}/lab/workspaces/{path.stem}/tree/{path.name}?reset&token={token}")
            cells = page.locator(".jp-Notebook .jp-Cell")
            page.wait_for_function("n => document.querySelectorAll("
                                   "'.jp-Notebook .jp-Cell').length >= n", arg=len(nb.cells),
                                   timeout=60_000)
            assert cells.count() == len(nb.cells)
            for i in checks:
                state = cells.nth(i).evaluate(CELL_STATE)
                body = [line for line in nb.cells[i].source.splitlines()[1:] if len(line) > 20]
                assert state["placeholder"] and not state["editor"], f"cell {i} shows its code"
                assert state["text"].strip() == CHECK_TITLE, state
                assert not any(line.strip() in state["text"] for line in body)
            for i in answers:
                state = cells.nth(i).evaluate(CELL_STATE)
                assert state["editor"] and not state["placeholder"], f"answer cell {i} is collapsed"
        finally:
            browser.close()
