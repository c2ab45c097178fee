"""Proof that the notebook suite can fail: a changed stored output must be caught."""

import copy
import json
import re
import shutil
import subprocess
import sys

import pytest
from bookkit import IGNORE_OUTPUT, RAISES, shared_cell_defining, tags
from conftest import ROOT, load_notebook, toc_notebooks

DIGIT = re.compile(r"\d")
# Runs nbval once more on crafted notebooks: needed when the sanitize file, pytest.ini or the
# shared rounding() change, not on each change to a chapter, so `make test-full` runs it.
pytestmark = pytest.mark.full
VERDICT = re.compile(r"^(PASSED|FAILED) \S*/(\w+)\.ipynb::Cell (\d+)\b", re.MULTILINE)


def crafted_notebook(cells: list[dict]) -> dict:
    """A notebook of `cells` with the chapters' kernel metadata and no widget state."""
    metadata = load_notebook(toc_notebooks()[0])["metadata"] | {"widgets": {}}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def first_tensor_output(nb: dict) -> tuple[int, dict]:
    """Index of the first code cell whose compared output prints a tensor, and that output."""
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or IGNORE_OUTPUT in tags(cell):
            continue
        for out in cell["outputs"]:
            text = "".join(out.get("text", "")) or "".join(out.get("data", {}).get("text/plain", ""))
            if "tensor(" in text and DIGIT.search(text):
                return index, out
    raise AssertionError("no checked cell prints a tensor")


def change_one_digit(out: dict) -> None:
    """Replace the first digit of a stored stream or text/plain output with a different digit."""
    key, holder = ("text", out) if "text" in out else ("text/plain", out["data"])
    text = "".join(holder[key])
    match = DIGIT.search(text)
    new = "7" if match.group() != "7" else "3"
    holder[key] = text[: match.start()] + new + text[match.end():]


def changed_digit_notebooks() -> dict[str, dict]:
    """Chapter 1 up to its first checked tensor output, as stored and with one digit changed."""
    nb = load_notebook(toc_notebooks()[0])
    index, _ = first_tensor_output(nb)
    nb["cells"] = nb["cells"][: index + 1]  # only what is needed to reach the changed output
    changed = copy.deepcopy(nb)
    change_one_digit(first_tensor_output(changed)[1])
    return {"original": nb, "changed": changed}


def raising_notebooks() -> dict[str, dict]:
    """A cell that stores a ValueError but no longer raises one."""
    cell = {"cell_type": "code", "execution_count": 1, "id": "c1", "source": "x = 1",
            "metadata": {"tags": [RAISES]},
            "outputs": [{"output_type": "error", "ename": "ValueError", "evalue": "bad",
                         "traceback": []}]}
    return {"does_not_raise": crafted_notebook([cell])}


CASES = [  # (stored output, whether nbval must forgive it)
    ("max |A - B| = 1.5e-07 (rounding)", True),   # what this machine prints
    ("max |A - B| = 3.4e-07 (rounding)", True),   # another machine's noise
    ("max |A - B| = 0.0e+00 (rounding)", True),   # exact elsewhere
    ("max |A - B| = 1.5e-03 (rounding)", False),  # grew past its class
    ("max |A - B| = 1.5e-07", False),             # outside the convention
    ("max |A + B| = 1.5e-07 (rounding)", False),  # the words changed
]


def rounding_notebooks() -> dict[str, dict]:
    """The shared rounding() cell, then one print per case of CASES."""
    definition = shared_cell_defining("rounding")
    cells = [{"cell_type": "code", "execution_count": 1, "id": "c0", "metadata": {},
              "outputs": [], "source": definition}]
    for n, (stored, _) in enumerate(CASES, 1):
        cells.append({"cell_type": "code", "execution_count": n + 1, "id": f"c{n}", "metadata": {},
                      "source": 'print(f"max |A - B| = {rounding(1.5e-07)}")',
                      "outputs": [{"output_type": "stream", "name": "stdout", "text": stored + "\n"}]})
    return {"rounding": crafted_notebook(cells)}


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict[int, str]]:
    """Every crafted notebook of this file run by the suite's own nbval settings (pytest.ini), in
    one pytest process: {notebook: {cell number: PASSED or FAILED}}. They are written inside the
    book's folder, so that pytest names each cell with its notebook."""
    folder = ROOT / "_build" / "nbval-negative"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    notebooks = changed_digit_notebooks() | raising_notebooks() | rounding_notebooks()
    for name, nb in notebooks.items():
        (folder / f"{name}.ipynb").write_text(json.dumps(nb))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                          "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"),
                          *sorted(str(folder / f"{name}.ipynb") for name in notebooks)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    found = {name: {} for name in notebooks}
    for verdict, name, cell in VERDICT.findall(run.stdout):
        found[name][int(cell)] = verdict
    assert all(found.values()), f"a notebook was not run:\n{run.stdout[-3000:]}"
    return found


def test_a_changed_digit_in_a_stored_tensor_fails_nbval(verdicts):
    assert set(verdicts["original"].values()) == {"PASSED"}, f"the unchanged copy should pass: {verdicts}"
    failed = [cell for cell, verdict in verdicts["changed"].items() if verdict == "FAILED"]
    last = max(verdicts["changed"])
    assert failed == [last], f"nbval should fail the changed cell ({last}) only: {verdicts['changed']}"


def test_a_cell_tagged_raises_exception_must_really_raise(verdicts):
    assert verdicts["does_not_raise"] == {0: "FAILED"}, (
        f"nbval accepted a stored error that no longer happens: {verdicts['does_not_raise']}")


def test_only_rounding_level_noise_is_forgiven(verdicts):
    for n, (stored, forgiven) in enumerate(CASES, 1):
        verdict = "PASSED" if forgiven else "FAILED"
        assert verdicts["rounding"][n] == verdict, f"stored {stored!r} should have {verdict}"
