"""Going-deeper blocks: their prose in a closed <details> per cell, their code collapsed."""

from __future__ import annotations

import re

import nbformat
from bookkit import DEEPER_END, DEEPER_START

from edition.chapter import Chapter, hide_source

DEEPER = "Going deeper: "
END_FENCE = re.compile(rf"^```\{{{DEEPER_END}\}}[^\n]*\n```[ \t]*$", re.MULTILINE)


def split_at_end(source: str) -> tuple[str, str]:
    """A Markdown cell's source cut after its {deeper-end} fence: the block's last prose (with the
    fence) and the main text that follows it in the same cell ("" where there is none)."""
    end = END_FENCE.search(source)
    if end is None:
        return source, ""
    return source[:end.end()], source[end.end():].strip("\n")


def open_block(chapter: Chapter, title: str) -> None:
    """A {deeper-start} with its title already in Markdown: the cells that follow are inside."""
    if chapter.deeper is not None:
        raise chapter.fail("a {deeper-start} inside another Going-deeper block")
    chapter.deeper, chapter.deeper_cells = title, 0


def close_block(chapter: Chapter) -> None:
    """A {deeper-end}: the block closes after the cell that holds it."""
    if chapter.deeper is None:
        raise chapter.fail("a {deeper-end} without a {deeper-start}")
    chapter.deeper_ends = True


def prose(chapter: Chapter, source: str, converted: str, was_open: bool) -> str:
    """A converted Markdown cell, in a closed <details> when it belongs to a Going-deeper block."""
    if chapter.deeper is not None and not was_open and not source.lstrip().startswith(
            f"```{{{DEEPER_START}}}"):
        raise chapter.fail("a {deeper-start} must open its Markdown cell")
    if chapter.deeper is not None and converted.strip():
        more = ", continued" if chapter.deeper_cells else ""
        chapter.deeper_cells += 1
        summary = f"<summary><b>{DEEPER}{chapter.deeper}{more}</b></summary>"
        body = converted.strip("\n")
        converted = f"<details>\n{summary}\n\n{body}\n\n</details>"
    elif chapter.deeper is not None and not was_open:
        raise chapter.fail("a {deeper-start} is followed by the block's first paragraph")
    if chapter.deeper_ends:
        chapter.deeper, chapter.deeper_ends = None, False
    return converted


def collapse_code(chapter: Chapter, cell: nbformat.NotebookNode) -> None:
    """A code cell inside the open block: source and outputs collapsed, a Colab form's title."""
    hide_source(cell, f"#@title {DEEPER}{plain_title(chapter.deeper)} (code)")
    cell.metadata["jupyter"]["outputs_hidden"] = True


def plain_title(markdown: str) -> str:
    """A title without Markdown emphasis, code ticks or maths dollars, for a #@title line."""
    return re.sub(r"[*_`$]", "", markdown)
