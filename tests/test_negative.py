"""Proof that the notebook suite can fail: a changed stored output must be caught."""

import copy
import json
import re
import subprocess
import sys

from conftest import ROOT, load_notebook, toc_notebooks

DIGIT = re.compile(r"\d")


def run_nbval(path) -> subprocess.CompletedProcess:
    """Run the suite's own nbval settings (pytest.ini) on one notebook, stopping at the first failure."""
    return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                           "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"), str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def first_tensor_output(nb: dict) -> tuple[int, dict]:
    """Index of the first code cell whose compared output prints a tensor, and that output."""
    for index, cell in enumerate(nb["cells"]):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] != "code" or "nbval-ignore-output" in tags:
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


def test_a_changed_digit_in_a_stored_tensor_fails_nbval(tmp_path):
    nb = load_notebook(toc_notebooks()[0])
    index, _ = first_tensor_output(nb)
    nb["cells"] = nb["cells"][: index + 1]  # only what is needed to reach the changed output
    original = tmp_path / "original.ipynb"
    original.write_text(json.dumps(nb))
    changed_nb = copy.deepcopy(nb)
    change_one_digit(first_tensor_output(changed_nb)[1])
    changed = tmp_path / "changed.ipynb"
    changed.write_text(json.dumps(changed_nb))

    control = run_nbval(original)
    assert control.returncode == 0, f"the unchanged copy should pass:\n{control.stdout[-2000:]}"
    result = run_nbval(changed)
    assert result.returncode == 1, f"nbval accepted a changed output:\n{result.stdout[-2000:]}"
    assert "1 failed" in result.stdout


def test_a_cell_tagged_raises_exception_must_really_raise(tmp_path):
    cell = {"cell_type": "code", "execution_count": 1, "id": "c1", "source": "x = 1",
            "metadata": {"tags": ["raises-exception"]},
            "outputs": [{"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}]}
    nb = {"cells": [cell], "metadata": load_notebook(toc_notebooks()[0])["metadata"] | {"widgets": {}},
          "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "does_not_raise.ipynb"
    path.write_text(json.dumps(nb))
    result = run_nbval(path)
    assert result.returncode == 1, f"nbval accepted a stored error that no longer happens:\n{result.stdout}"



CASES = [  # (stored output, whether nbval must forgive it)
    ("max |A - B| = 1.5e-07 (rounding)", True),   # what this machine prints
    ("max |A - B| = 3.4e-07 (rounding)", True),   # another machine's noise
    ("max |A - B| = 0.0e+00 (rounding)", True),   # exact elsewhere
    ("max |A - B| = 1.5e-03 (rounding)", False),  # grew past its class
    ("max |A - B| = 1.5e-07", False),             # outside the convention
    ("max |A + B| = 1.5e-07 (rounding)", False),  # the words changed
]


def test_only_rounding_level_noise_is_forgiven(tmp_path):
    """One notebook: the shared rounding() cell, then one print per case."""
    definition = (ROOT / "scripts" / "shared_cells.py").read_text().split("# %%\n")[2]
    cells = [{"cell_type": "code", "execution_count": 1, "id": "c0", "metadata": {},
              "outputs": [], "source": definition}]
    for n, (stored, _) in enumerate(CASES, 1):
        cells.append({"cell_type": "code", "execution_count": n + 1, "id": f"c{n}", "metadata": {},
                      "source": 'print(f"max |A - B| = {rounding(1.5e-07)}")',
                      "outputs": [{"output_type": "stream", "name": "stdout", "text": stored + "\n"}]})
    nb = {"cells": cells, "metadata": load_notebook(toc_notebooks()[0])["metadata"] | {"widgets": {}},
          "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "rounding.ipynb"
    path.write_text(json.dumps(nb))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                             "--rootdir", str(ROOT), "-c", str(ROOT / "pytest.ini"), str(path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=300)
    for n, (stored, forgiven) in enumerate(CASES, 1):
        verdict = "PASSED" if forgiven else "FAILED"
        assert re.search(rf"^{verdict} \S*::Cell {n}\b", result.stdout, re.MULTILINE), (
            f"stored {stored!r} should have {verdict}:\n{result.stdout[-3000:]}")
