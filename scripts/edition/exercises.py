"""Exercises' solutions as closed <details>, the answer cell where each stood, the check cells collapsed."""

from __future__ import annotations

import ast

import nbformat
from bookkit import ANSWER, ANSWER_CHECK, EXERCISE_CHECK, SOLUTION_END, SOLUTION_START, tags

from edition.chapter import Chapter, MystError, hide_source
from edition.markdown import FENCE, Directive, check_options, convert_text, inline, split_directive
from edition.outputs import output_markdown

CHECK_TITLE = "#@title Check your answer (run this cell; its code is hidden)"
ANSWERS_TITLE = "#@title Checks the answers above (its code is hidden)"
SOLUTION_MARKERS = (SOLUTION_START, SOLUTION_END)


def split_at_solution_markers(chapter: Chapter, cell: nbformat.NotebookNode) -> list:
    """The cell, or for a Markdown cell holding solution markers, its pieces in order:

    plain Markdown cells (the text around the markers) and the marker Directives themselves.
    """
    if cell.cell_type != "markdown" or not any("{" + m + "}" in cell.source for m in SOLUTION_MARKERS):
        return [cell]
    lines, pieces, text, i = cell.source.splitlines(), [], [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        info = fence["info"].strip() if fence else ""
        if fence and any(info.startswith("{" + m + "}") for m in SOLUTION_MARKERS):
            pieces.append("\n".join(text))
            directive, i = split_directive(lines, i, chapter)
            pieces.append(directive)
            text = []
        else:
            text.append(lines[i])
            i += 1
    pieces.append("\n".join(text))
    cells = []
    for n, piece in enumerate(p for p in pieces if not (isinstance(p, str) and not p.strip())):
        if isinstance(piece, Directive):
            cells.append(piece)
        else:
            part = nbformat.from_dict(cell)
            part.source = piece.strip("\n")
            if n and "id" in part:
                part.id = f"{cell.id}-{n}"
            cells.append(part)
    return cells


def solution_cell(chapter: Chapter, start: Directive, cells: list, cell_id: str) -> nbformat.NotebookNode:
    """The solution cells as one Markdown cell with a collapsed <details> block."""
    check_options(chapter, start, {"class"})
    label = start.argument
    if label not in chapter.exercises:
        raise chapter.fail(f"solution to unknown exercise {label!r}")
    title = chapter.exercise_titles.get(label)
    name = f"Exercise {chapter.exercises[label]}" + (f" ({inline(chapter, title)})" if title else "")
    parts = []
    for cell in cells:
        if cell.cell_type == "markdown":
            parts.append(convert_text(chapter, cell.source))
        elif cell.cell_type == "code":
            parts.append("```python\n" + cell.source.rstrip("\n") + "\n```")
            parts += [output_markdown(o) for o in cell.outputs]
    body = "\n\n".join(p for p in parts if p.strip())
    summary = f"<summary><b>Solution to {name}</b></summary>"
    return nbformat.v4.new_markdown_cell(f"<details>\n{summary}\n\n{body}\n\n</details>", id=cell_id)


def answer_names(cell: nbformat.NotebookNode) -> list[str]:
    """The answer names of a check cell: the plain names after the test in its final check(...)."""
    last = ast.parse(cell.source).body[-1]
    call = last.value if isinstance(last, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "check"
            and len(call.args) >= 2 and all(isinstance(a, ast.Name) for a in call.args[1:])):
        raise MystError(f"a cell tagged {EXERCISE_CHECK!r} must end with check(test, name, ...): "
                        f"{cell.source!r}")
    return [a.id for a in call.args[1:]]


def answer_cell(chapter: Chapter, label: str, following, cell_id: str) -> nbformat.NotebookNode:
    """The cell where a reader writes the answer to exercise `label`."""
    metadata = {"tags": [ANSWER], "exercise": label}
    if following is not None and following.cell_type == "code" and EXERCISE_CHECK in tags(following):
        names = answer_names(following)
        stub = "\n".join(f"{name} = None" for name in names)
        text = f"# Your answer: replace each None, then run the check below.\n{stub}"
        return nbformat.v4.new_code_cell(text, id=cell_id, metadata=metadata)
    if chapter.kinds.get(label) == "pen and paper":
        return nbformat.v4.new_markdown_cell("*Your derivation:*", id=cell_id, metadata=metadata)
    return nbformat.v4.new_code_cell("# Your answer.", id=cell_id, metadata=metadata)


def collapse_checks(cells: list) -> None:
    """Check cells collapsed under a title; an exercise's check without the official run's output."""
    for cell in cells:
        if EXERCISE_CHECK in tags(cell):
            cell.outputs, cell.execution_count = [], None  # it reported on the official solution
            hide_source(cell, CHECK_TITLE)
        elif ANSWER_CHECK in tags(cell):
            hide_source(cell, ANSWERS_TITLE)
