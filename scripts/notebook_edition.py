"""Write the Jupyter/Colab edition (or the student edition) of the chapters.

Usage:
    python scripts/notebook_edition.py [--student] OUTPUT_DIR NOTEBOOK...

Jupyter and Colab do not render MyST, so every MyST construct of a chapter is
rewritten as plain Markdown; code cells, their outputs and the saved widget
state are kept exactly. This script assembles the notebook; the parts it calls
live in scripts/edition/ (named in its __init__.py):

- ``edition.markdown``: MyST to Markdown in one Markdown cell. ``{exercise}``
  blocks become numbered headings ("Exercise 2.3 (Title)") with an anchor named
  after the exercise label; ``{admonition}`` dropdowns become closed
  ``<details>`` blocks;
- ``edition.citations``: ``{cite}`` roles become author-year links to a
  reference list that replaces the ``{bibliography}`` directive, formatted by
  pybtex from book/references.bib;
- ``edition.deeper``: a Going-deeper block's prose goes into a closed
  ``<details>`` per cell, its code is collapsed;
- ``edition.exercises`` and ``edition.outputs``: a ``{solution-start}`` ...
  ``{solution-end}`` run of cells becomes one Markdown cell holding a closed
  ``<details>`` block with the solution's prose, its code and the output that
  code printed (a figure with its own alt text and width);
- ``edition.student``: what the student edition leaves out.

Exercises are self-checking in both editions. Where a solution stood, the
reader gets an answer cell: for an exercise followed by a check cell (tagged
``exercise-check``, ending in ``check(test, name, ...)``) a code cell setting
each answer name to None, which the check then reports as "not answered yet";
for a pen-and-paper exercise a Markdown cell for the derivation; otherwise an
empty code cell. The check cells keep no stored output (it reported on the
official solution).

A cell tagged ``no-js-fallback`` (the website's static stand-in for an explorable when JavaScript
is off) is left out: in Jupyter and Colab the explorable itself runs.

The student edition (``--student``) is the same conversion without the
solutions, without the answers to the "Check your understanding" questions
(admonitions of class ``answer``) and the cell that checks them (tagged
``answer-check``), with outputs and widget state cleared. Any MyST directive,
role or option the converter does not know raises an error naming the notebook
and cell: nothing reaches a reader raw.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import nbformat
import yaml
from bookkit import EXERCISE_LABEL, NO_JS_FALLBACK, ROOT, SOLUTION_START, chapter_number, tags
from edition import deeper
from edition import student as students
from edition.chapter import Chapter, MystError
from edition.citations import resolve_key
from edition.exercises import answer_cell, collapse_checks, solution_cell, split_at_solution_markers
from edition.markdown import FENCE, ROLE, Directive, convert_text, raw_myst, split_directive, strip_code


def survey(path: pathlib.Path, nb: nbformat.NotebookNode) -> Chapter:
    """Exercise numbers, titles and kinds, and the cited works and key prefix, of a chapter."""
    chapter = Chapter(path, chapter_number(path))
    exercises, keyprefixes, raw_keys = 0, [], []
    for index, cell in enumerate(nb.cells, 1):
        chapter.cell = index
        if cell.cell_type != "markdown":
            continue
        for role_match in ROLE.finditer(strip_code(cell.source)):
            if role_match["name"] == "cite":
                raw_keys += [(index, k.strip()) for k in role_match["content"].split(",") if k.strip()]
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            fence = FENCE.match(line)
            info = fence["info"].strip() if fence else ""
            if info.startswith("{exercise}"):
                directive, _ = split_directive(lines, i, chapter)
                label = directive.options.get("label")
                if not label:
                    raise chapter.fail("an {exercise} needs a :label:")
                exercises += 1
                chapter.exercises[label] = f"{chapter.number}.{exercises}"
                chapter.exercise_titles[label] = directive.argument
                kind = EXERCISE_LABEL.match(directive.body.strip().split("\n\n")[0].strip())
                chapter.kinds[label] = kind["kind"] if kind else "code"
            elif info.startswith("{bibliography}"):
                directive, _ = split_directive(lines, i, chapter)
                keyprefixes.append(directive.options.get("keyprefix", ""))
    if len(set(keyprefixes)) > 1:
        raise MystError(f"{path.name}: bibliographies with different key prefixes {keyprefixes}")
    chapter.keyprefix = keyprefixes[0] if keyprefixes else ""
    if raw_keys and not keyprefixes:
        raise MystError(f"{path.name}: citations but no {{bibliography}} to list them")
    for chapter.cell, key in raw_keys:  # the reference list holds every entry the chapter cites
        resolve_key(chapter, key)
    return chapter


def convert_cell(chapter: Chapter, cell: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A cell in plain Markdown; inside a Going-deeper block, prose in <details>, code collapsed."""
    converted = nbformat.from_dict(cell)
    was_open = chapter.deeper is not None
    if cell.cell_type == "markdown" and deeper.split_at_end(cell.source)[1]:
        # The main text after a {deeper-end} in the same cell stays outside the block.
        parts = [nbformat.from_dict(dict(cell, source=part))
                 for part in deeper.split_at_end(cell.source)]
        sources = [convert_cell(chapter, part).source for part in parts]
        converted.source = "\n\n".join(part for part in sources if part.strip())
        return converted
    if cell.cell_type == "markdown":
        text = convert_text(chapter, cell.source)
        left = raw_myst(text)
        if left:
            raise chapter.fail(f"MyST left after conversion: {left}")
        converted.source = deeper.prose(chapter, cell.source, text, was_open)
    elif cell.cell_type == "code" and was_open:
        deeper.collapse_code(chapter, converted)
    return converted


def edition(path: pathlib.Path, student: bool = False) -> nbformat.NotebookNode:
    """The chapter at path as plain-Markdown notebook: Jupyter/Colab edition, or student edition."""
    nb = nbformat.read(path, as_version=4)
    chapter = survey(path, nb)
    chapter.student = student
    nb.cells = [c for c in nb.cells if NO_JS_FALLBACK not in tags(c)]  # a website-only stand-in
    if student:
        nb.cells = students.without_answer_checks(nb.cells)
    cells, pending, start, start_index = [], [], None, 0
    for index, original in enumerate(nb.cells, 1):
        chapter.cell = index
        for cell in split_at_solution_markers(chapter, original):
            if isinstance(cell, Directive) and cell.name == SOLUTION_START:
                if start is not None:
                    raise chapter.fail("a {solution-start} inside another solution")
                start, start_index, pending = cell, index, []
            elif isinstance(cell, Directive):
                if start is None:
                    raise chapter.fail("{solution-end} without a {solution-start}")
                if not student:
                    cells.append(solution_cell(chapter, start, pending, f"solution-{start_index}"))
                cells.append((start.argument, f"answer-{start_index}"))  # filled in below
                start = None
            elif start is not None:
                pending.append(cell)
            else:
                cells.append(convert_cell(chapter, cell))
    if start is not None:
        raise MystError(f"{path.name}: a {{solution-start}} block is never closed by {{solution-end}}")
    for i, cell in enumerate(cells):
        if isinstance(cell, tuple):
            label, cell_id = cell
            following = next((c for c in cells[i + 1:] if not isinstance(c, tuple)), None)
            cells[i] = answer_cell(chapter, label, following, cell_id)
    if chapter.deeper is not None:
        raise MystError(f"{path.name}: a {{deeper-start}} block is never closed by {{deeper-end}}")
    collapse_checks(cells)
    cells = [c for c in cells if c.cell_type != "markdown" or c.source.strip()]
    first = next(c for c in cells if c.cell_type == "markdown")
    first.source = f"{first.source.rstrip()}\n\n{licence_note()}"
    result = nbformat.from_dict(nb)
    result.cells = cells
    if student:
        students.clear_outputs(result)
    return result


def licence_note() -> str:
    """The line under each edition's title: the book, its licences, the source (CITATION.cff)."""
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    licence = f"{repo['url']}/blob/{repo.get('branch', 'main')}/LICENSE"
    return (f"*From [{citation['title']}]({citation['url']}).\nText and figures under "
            "[CC BY 4.0](https://creativecommons.org/licenses/by/4.0/),\ncode under the "
            f"[MIT licence]({licence}).*")


def write_edition(out: pathlib.Path, paths: list[pathlib.Path], student: bool) -> list[pathlib.Path]:
    """Each chapter's edition written to out/, under the chapter's file name."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        target = out / path.name
        nbformat.write(edition(path, student=student), target)
        written.append(target)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--student", action="store_true", help="drop solutions and outputs")
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("notebooks", type=pathlib.Path, nargs="+")
    args = parser.parse_args()
    try:
        for written in write_edition(args.output, args.notebooks, args.student):
            print(f"{'student' if args.student else 'notebook'} edition: {written}")
    except MystError as error:
        sys.exit(f"notebook_edition.py: {error}")
