"""Write the student edition of every chapter: the same notebooks with exercise solutions removed.

Usage: python scripts/student_edition.py OUTPUT_DIR NOTEBOOK...
Cells from a `{solution-start}` marker through its `{solution-end}` are dropped; outputs are cleared
so that students run the notebook themselves.
"""

import pathlib
import sys

import nbformat


def is_marker(cell: nbformat.NotebookNode, directive: str) -> bool:
    """Whether a markdown cell holds the given sphinx-exercise directive."""
    return cell.cell_type == "markdown" and "{" + directive + "}" in cell.source


def student_edition(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of nb without solution blocks, with outputs and widget state cleared."""
    cells, in_solution = [], False
    for cell in nb.cells:
        in_solution = in_solution or is_marker(cell, "solution-start")
        if not in_solution:
            cells.append(cell)
        in_solution = in_solution and not is_marker(cell, "solution-end")
    if in_solution:
        raise ValueError("a {solution-start} block is never closed by {solution-end}")
    student = nbformat.from_dict(nb)
    student.cells = [nbformat.from_dict(c) for c in cells]
    for cell in student.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    student.metadata.pop("widgets", None)
    return student


if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:]:
        path = pathlib.Path(name)
        nbformat.write(student_edition(nbformat.read(path, as_version=4)), out / path.name)
        print(f"student edition: {out / path.name}")
