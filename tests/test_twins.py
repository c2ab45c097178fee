"""Each chapter notebook has a MyST-Markdown twin in md/ with the same cells.

The twins (paired through jupytext.toml) carry no outputs, so a change to a
chapter reads as an ordinary text diff. `make execute` syncs them; this test
fails when a notebook and its twin say different things.
"""

import jupytext
import pytest
from conftest import ROOT, toc_notebooks


def cells_of(notebook) -> list[tuple[str, str, list[str]]]:
    """Type, source and tags of every cell, the parts a twin must share."""
    return [(cell.cell_type, cell.source.strip(),
             sorted(cell.metadata.get("tags", []))) for cell in notebook.cells]


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_twin_matches_its_notebook_cell_for_cell(path):
    twin = ROOT / "md" / f"{path.stem}.md"
    assert twin.exists(), f"{twin.name} missing: run `make execute NB={path}`"
    notebook = jupytext.read(path)
    paired = jupytext.read(twin)
    ours, theirs = cells_of(notebook), cells_of(paired)
    assert len(ours) == len(theirs), (
        f"{path.name}: {len(ours)} cells, its twin {len(theirs)}; "
        f"run `.venv/bin/jupytext --sync {path}`")
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True), 1):
        assert a == b, f"{path.name} cell {i} differs from its twin"
