"""What the student edition leaves out: quiz answers, their check cell, outputs, widget state."""

from __future__ import annotations

import nbformat
from bookkit import ANSWER_CHECK, QUIZ_ANSWER, tags


def is_quiz_answer(classes: str) -> bool:
    """Whether an admonition's classes mark the answer to a "Check your understanding" question."""
    return QUIZ_ANSWER in classes.split()


def without_answer_checks(cells: list) -> list:
    """The cells without the one that checks the quiz answers (tagged answer-check)."""
    return [c for c in cells if ANSWER_CHECK not in tags(c)]


def clear_outputs(nb: nbformat.NotebookNode) -> None:
    """Every code cell without outputs or execution count, the notebook without widget state."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata.pop("widgets", None)
