"""What the conversion of one chapter knows beyond a single cell, and the error it raises."""

from __future__ import annotations

import dataclasses
import pathlib

import nbformat


class MystError(ValueError):
    """MyST syntax the converter does not know how to write as plain Markdown."""


@dataclasses.dataclass
class Chapter:
    """One chapter's exercises, citations and open Going-deeper block, as the conversion goes."""

    path: pathlib.Path
    number: int
    exercises: dict[str, str] = dataclasses.field(default_factory=dict)  # label -> "N.M"
    exercise_titles: dict[str, str] = dataclasses.field(default_factory=dict)  # label -> title
    kinds: dict[str, str] = dataclasses.field(default_factory=dict)  # label -> exercise kind
    keyprefix: str = ""  # the chapter's prefix of bib keys, as ch1-
    student: bool = False
    cited: list[str] = dataclasses.field(default_factory=list)  # bib keys, first-cited order
    heading_level: int = 1  # of the last heading read: an exercise is one level below it
    cell: int = 0  # the cell being converted, counted from 1, for error messages
    deeper: str | None = None  # the title of the open Going-deeper block, if any
    deeper_cells: int = 0  # how many Markdown cells of that block were written
    deeper_ends: bool = False  # the current cell closes it

    def fail(self, message: str) -> MystError:
        """An error naming the notebook and the cell being converted."""
        return MystError(f"{self.path.name}, cell {self.cell}: {message}")


def anchor(label: str) -> str:
    """An empty link target; `name` as well as `id`, which some front ends' sanitizers drop."""
    return f'<a id="{label}" name="{label}"></a>'


def hide_source(cell: nbformat.NotebookNode, title: str) -> None:
    """Collapse a code cell's source in Jupyter and JupyterLab, and make it a Colab form."""
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    cell.metadata["cellView"] = "form"  # Colab shows the #@title line instead of the code
    if cell.source.startswith("%%"):  # a cell magic must stay the first line
        magic, _, rest = cell.source.partition("\n")
        cell.source = f"{magic}\n{title}\n{rest}"
    else:
        cell.source = f"{title}\n{cell.source}"
