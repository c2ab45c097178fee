"""Every chapter carries the shared cells of scripts/shared_cells.py verbatim.

A chapter must run alone on Colab, so it cannot import its helpers; instead
each chapter holds the same cells, tagged `shared`. This test keeps them
identical, so a fix made in scripts/shared_cells.py and copied reaches every
chapter, and no chapter quietly drifts.
"""

import ast
import re

import pytest
from bookkit import IGNORE_OUTPUT, SHARED, chapter_number, checking_cells, tags
from bookkit import shared_cells as canonical_cells
from conftest import load_notebook, toc_notebooks


def shared_cells(nb: dict) -> list[str]:
    """The source of a notebook's code cells tagged `shared`, in order."""
    return ["".join(cell["source"]).strip("\n") for cell in nb["cells"] if SHARED in tags(cell)]


def test_the_shared_file_is_valid_python_with_short_cells():
    cells = canonical_cells()
    assert len(cells) == 16, f"expected 16 shared cells, found {len(cells)}"
    assert len(canonical_cells(1)) == 14 and len(canonical_cells(3)) == 16
    for cell in cells:
        assert len([line for line in cell.splitlines() if line.strip()]) <= 15
    names = {node.name for cell in cells for node in ast.parse(cell).body
             if isinstance(node, ast.FunctionDef)}
    assert names == {"rounding", "signed", "palette_png", "figure_png", "retina_png", "show", "frame_view",
                     "site_slider",
                     "as_flag", "as_number", "_own", "_with_helpers", "check", "index_answers",
                     "install"}, names


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_chapter_carries_the_shared_cells_verbatim(path):
    found = shared_cells(load_notebook(path))
    expected = canonical_cells(chapter_number(path))
    assert len(found) == len(expected), (
        f"{path.name}: {len(found)} cells tagged `shared`, expected "
        f"{len(expected)} (python scripts/sync_shared_cells.py copies them)")
    for i, (have, want) in enumerate(zip(found, expected, strict=True), 1):
        assert have == want, (
            f"{path.name}: shared cell {i} differs from scripts/shared_cells.py")


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_shared_cells_come_first_and_only_the_setup_output_is_ignored(path):
    cells = [c for c in load_notebook(path)["cells"] if c["cell_type"] == "code"]
    n = len(canonical_cells(chapter_number(path)))
    tagged = [SHARED in tags(c) for c in cells]
    assert tagged[:n] == [True] * n, f"{path.name}: shared cells open Setup"
    ignored = [IGNORE_OUTPUT in tags(c) for c in cells[:n]]
    assert ignored == [True] + [False] * (n - 1), (
        f"{path.name}: only the device cell's output is machine-specific")


NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    .split())}


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_setup_paragraph_counts_the_shared_cells(path):
    """The Setup paragraph says how many cells are shared: the count must be the real one."""
    text = "".join("".join(c["source"]) for c in load_notebook(path)["cells"]
                   if c["cell_type"] == "markdown")
    said = re.search(r"The first (\w+) cells are the same", text)
    assert said, f"{path.name}: the Setup paragraph names how many cells are shared"
    n = len(canonical_cells(chapter_number(path)))
    assert NUMBER_WORDS.get(said[1]) == n, f"{path.name}: says {said[1]!r}, has {n}"


# A check cell's test, reading the shared helpers by their global names.
SHAPE_TEST = """
def shape_of(x):
    try:
        as_number("x", x, (1, 2))
    except AnswerTypeError:
        return None if as_flag("flag", as_number("x", x, (2,)).sum() == 3) else "no"
    return "the wrong shape was taken"
"""


def test_check_reads_its_helpers_whatever_an_answer_names_so(capsys):
    """check() runs a test with as_number, as_flag, AnswerTypeError and the built-ins as the shared
    cells define them, and check() and the helpers read nothing an answer can rebind (here: all
    of them, torch, types and the built-ins they call)."""
    import torch

    ns = {"torch": torch}
    exec(checking_cells(), ns)
    exec(SHAPE_TEST, ns)
    ns.update(torch=None, as_number=None, as_flag=None, AnswerTypeError=KeyError,  # an answer's,
              types=None, builtins=None, type=None, print=None, any=None, str=None, sum=None,
              isinstance=None, tuple=None, bool=None, Exception=None)  # and built-ins named anew
    ns["check"](ns["shape_of"], [1.0, 2.0])
    ns["check"](ns["shape_of"], [1.0, 1.0])
    ns["check"](ns["shape_of"], "12")
    assert capsys.readouterr().out == (
        "correct\nnot yet: no\nnot yet: x should be finite numbers, shape (2,) (not nan or inf),"
        " got '12'\n")
