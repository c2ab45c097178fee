"""The book's vocabulary, named once: its chapters, cell tags, exercise labels, block markers,
shared cells and the browser's flags.

The scripts and the tests import it (pytest.ini puts scripts/ on the import path; a script run
as `python scripts/NAME.py` finds it beside itself), so that a tag or a file name is spelt in
one place.
"""

from __future__ import annotations

import pathlib
import re

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOC = ROOT / "_toc.yml"
SHARED_CELLS = ROOT / "scripts" / "shared_cells.py"

# ------------------------------------------------------------------ chapters


def toc_files() -> list[str]:
    """Every file named in _toc.yml, without suffix, in reading order."""
    toc = yaml.safe_load(TOC.read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [chapter["file"] for chapter in part.get("chapters", [])]
    return files


def chapters() -> list[pathlib.Path]:
    """The chapter notebooks of _toc.yml (notebooks/NN_*.ipynb), in reading order."""
    return [ROOT / f"{name}.ipynb" for name in toc_files()
            if name.startswith("notebooks/") and (ROOT / f"{name}.ipynb").exists()]


CHAPTER_FILE = re.compile(r"^(?P<number>\d+)_")


def chapter_number(path: pathlib.Path | str) -> int:
    """The chapter a file is, from its name: notebooks/03_pca_expansion.ipynb is 3."""
    match = CHAPTER_FILE.match(pathlib.Path(path).name)
    if not match:
        raise ValueError(f"{path}: a chapter's file name starts with its number, as 03_name")
    return int(match["number"])


# ------------------------------------------------------------------ cell tags

SHARED = "shared"  # a cell of scripts/shared_cells.py, carried verbatim
EXERCISE_CHECK = "exercise-check"  # checks a reader's answer: ends in check(test, name, ...)
ANSWER_CHECK = "answer-check"  # checks the claims of the "Check your understanding" answers
ANSWER = "answer"  # an edition's cell where the reader writes an answer
IGNORE_OUTPUT = "nbval-ignore-output"  # a machine-dependent output (first line says why)
RAISES = "raises-exception"  # a cell whose error is the point
HIDE_INPUT = "hide-input"  # code collapsed on the website
REMOVE_INPUT = "remove-input"  # code left out of the website
NO_JS_FALLBACK = "no-js-fallback"  # the website's stand-in for an explorable without JavaScript
EXACT_SIGNED_ZERO = "exact-signed-zero"  # prints a sign of zero on purpose (the hygiene test)

# The class of an {admonition} that answers a "Check your understanding" question (the student
# edition leaves it out).
QUIZ_ANSWER = "answer"


def tags(cell: dict) -> list[str]:
    """A cell's tags (a notebook read as JSON or by nbformat)."""
    return cell.get("metadata", {}).get("tags", [])


# ------------------------------------------------------------ exercises, markers

# The first line of every exercise: "**★★☆ · 20 min · code**".
EXERCISE_LABEL = re.compile(r"^\*\*(?P<stars>★{1,3}☆{0,2}) · (?P<minutes>\d+) min · "
                            r"(?P<kind>code|pen and paper|mini-project)\*\*$")

# MyST directives that mark a run of cells (book/_ext/book_blocks.py renders them).
DEEPER_START, DEEPER_END = "deeper-start", "deeper-end"  # a collapsed "Going deeper" aside
SOLUTION_START, SOLUTION_END = "solution-start", "solution-end"  # an exercise's solution

# ---------------------------------------------------------------- shared cells

# `# %%` opens a shared cell; `# %% chapters 3 4` one that only those chapters carry.
SHARED_CELL = re.compile(r"^# %%(?: chapters((?: \d+)+))?\n", re.MULTILINE)


def shared_cells(chapter: int | None = None) -> list[str]:
    """The shared cells a chapter carries, in order (all of them when chapter is None)."""
    parts = SHARED_CELL.split(SHARED_CELLS.read_text())[1:]  # [chapters or None, source, ...]
    return [source.strip("\n") for chapters_, source in zip(parts[::2], parts[1::2], strict=True)
            if chapter is None or chapters_ is None or str(chapter) in chapters_.split()]


def shared_cell_defining(name: str) -> str:
    """The one shared cell that defines the function `name` (as `def name(`)."""
    found = [cell for cell in shared_cells() if re.search(rf"^def {name}\(", cell, re.MULTILINE)]
    if len(found) != 1:
        raise LookupError(f"{len(found)} shared cells define {name}(), not one")
    return found[0]


def checking_cells() -> str:
    """The shared cells that define check() and all it reads, as one source (torch aside)."""
    return "\n\n".join(shared_cell_defining(name)
                       for name in ("as_flag", "as_number", "_own", "_with_helpers", "check"))


# -------------------------------------------------------------------- Chromium

# Debian's Chromium, headless, reaching nothing beyond the pages it is given.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-quic"]
