"""Copy the cells of scripts/shared_cells.py into each chapter, in place.

Usage:
    python scripts/sync_shared_cells.py NOTEBOOK...

A chapter's cells tagged `shared` are replaced by the canonical ones, in
order; cells missing at the end are inserted after the last shared cell and
extra ones removed. Outputs of a changed cell are cleared: re-execute after.
tests/test_shared.py checks the result.
"""

import pathlib
import sys

import nbformat
from bookkit import SHARED, chapter_number, shared_cells, tags


def sync(path: pathlib.Path) -> bool:
    """Make the notebook's shared cells the canonical ones; True if it changed."""
    nb = nbformat.read(path, as_version=4)
    shared = [i for i, c in enumerate(nb.cells) if SHARED in tags(c)]
    if not shared:
        raise SystemExit(f"{path}: no cells tagged `shared`")
    wanted, changed = shared_cells(chapter_number(path)), False
    for index, source in zip(shared, wanted, strict=False):
        if nb.cells[index].source != source:
            nb.cells[index].source, nb.cells[index].outputs = source, []
            nb.cells[index].execution_count, changed = None, True
    for index in reversed(shared[len(wanted):]):
        del nb.cells[index]
        changed = True
    at = shared[min(len(shared), len(wanted)) - 1] + 1
    for offset, source in enumerate(wanted[len(shared):]):
        cell = nbformat.v4.new_code_cell(source, metadata={"tags": [SHARED]})
        nb.cells.insert(at + offset, cell)
        changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        if sync(pathlib.Path(name)):
            print(f"shared cells updated: {name}")
