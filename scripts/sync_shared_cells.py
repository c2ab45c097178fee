"""Copy the cells of scripts/shared_cells.py into each chapter, in place.

Usage:
    python scripts/sync_shared_cells.py NOTEBOOK...

A chapter's cells tagged `shared` are replaced by the canonical ones, in
order; cells missing at the end are inserted after the last shared cell and
extra ones removed. Outputs of a changed cell are cleared: re-execute after.
tests/test_shared.py checks the result.
"""

import pathlib
import re
import sys

import nbformat

SHARED = pathlib.Path(__file__).resolve().parent / "shared_cells.py"


CELL = re.compile(r"^# %%(?: chapters((?: \d+)+))?\n", re.MULTILINE)


def canonical_cells(chapter: int) -> list[str]:
    """The shared cells of a chapter, from scripts/shared_cells.py (`# %% chapters 3 4`: only those)."""
    parts = CELL.split(SHARED.read_text())[1:]  # [chapters or None, source, ...]
    return [source.strip("\n") for chapters, source in zip(parts[::2], parts[1::2], strict=True)
            if chapters is None or str(chapter) in chapters.split()]


def chapter_number(path: pathlib.Path) -> int:
    """The chapter a notebook is, from its name (notebooks/03_....ipynb is 3)."""
    return int(path.name.split("_")[0])


def sync(path: pathlib.Path) -> bool:
    """Make the notebook's shared cells the canonical ones; True if it changed."""
    nb = nbformat.read(path, as_version=4)
    shared = [i for i, c in enumerate(nb.cells) if "shared" in c.metadata.get("tags", [])]
    if not shared:
        raise SystemExit(f"{path}: no cells tagged `shared`")
    wanted, changed = canonical_cells(chapter_number(path)), False
    for index, source in zip(shared, wanted, strict=False):
        if nb.cells[index].source != source:
            nb.cells[index].source, nb.cells[index].outputs = source, []
            nb.cells[index].execution_count, changed = None, True
    for index in reversed(shared[len(wanted):]):
        del nb.cells[index]
        changed = True
    at = shared[min(len(shared), len(wanted)) - 1] + 1
    for offset, source in enumerate(wanted[len(shared):]):
        cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["shared"]})
        nb.cells.insert(at + offset, cell)
        changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        if sync(pathlib.Path(name)):
            print(f"shared cells updated: {name}")
