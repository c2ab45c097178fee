"""The book's vocabulary (scripts/bookkit.py): what it reads and the copies that must agree."""

import ast
import re

import bookkit
import nbformat
import pytest
from bookkit import (
    EXERCISE_CHECK,
    EXERCISE_LABEL,
    ROOT,
    chapter_number,
    chapters,
    shared_cell_defining,
    shared_cells,
    tags,
)


@pytest.mark.parametrize("name, number", [
    ("01_embedding_is_onehot_matmul.ipynb", 1), ("notebooks/04_x.ipynb", 4), ("12_y.md", 12)])
def test_chapter_number_reads_the_file_name(name, number):
    assert chapter_number(name) == number


@pytest.mark.parametrize("name", ["instructors.ipynb", "1a_x.ipynb", "_01.ipynb"])
def test_chapter_number_refuses_a_name_without_one(name):
    with pytest.raises(ValueError, match="starts with its number"):
        chapter_number(name)


def test_chapters_are_the_toc_notebooks_in_order():
    found = chapters()
    assert found and [chapter_number(p) for p in found] == list(range(1, len(found) + 1))
    assert all(p.parent == ROOT / "notebooks" for p in found)


def test_shared_cells_by_chapter_and_by_name():
    every, first, third = shared_cells(), shared_cells(1), shared_cells(3)
    assert set(first) < set(third) == set(every)  # `# %% chapters 3 4` cells: 3 and 4 only
    rounding = shared_cell_defining("rounding")
    assert rounding in every and re.search(r"^def rounding\(", rounding, re.MULTILINE)
    with pytest.raises(LookupError, match="0 shared cells"):
        shared_cell_defining("no_such_function")


@pytest.mark.parametrize("line, kind", [
    ("**★☆☆ · 10 min · code**", "code"), ("**★★☆ · 25 min · pen and paper**", "pen and paper"),
    ("**★★★ · 90 min · mini-project**", "mini-project"),
    ("**★★★★ · 10 min · code**", None), ("**★☆☆ · ten min · code**", None),
    ("**★☆☆ · 10 min · essay**", None), ("★☆☆ · 10 min · code", None)])
def test_exercise_label(line, kind):
    match = EXERCISE_LABEL.match(line)
    assert (match["kind"] if match else None) == kind


def test_the_converter_takes_its_vocabulary_from_bookkit():
    """No part of the converter spells a tag, a block marker or the exercise label itself."""
    words = {value for name, value in vars(bookkit).items() if name.isupper() and isinstance(value, str)}
    patterns = {value.pattern for value in vars(bookkit).values() if isinstance(value, re.Pattern)}
    parts = [ROOT / "scripts" / "notebook_edition.py", *sorted((ROOT / "scripts" / "edition").glob("*.py"))]
    for part in parts:
        tree = ast.parse(part.read_text())
        spelt = {node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not spelt & (words | patterns), f"{part.name} spells {sorted(spelt & (words | patterns))}"
    importers = {part.name for part in parts for node in ast.walk(ast.parse(part.read_text()))
                 if isinstance(node, ast.ImportFrom) and node.module == "bookkit"}
    assert importers >= {"notebook_edition.py", "markdown.py", "deeper.py", "exercises.py", "student.py"}


def test_tags_reads_json_and_nbformat_cells():
    cell = nbformat.v4.new_code_cell("x = 1", metadata={"tags": [EXERCISE_CHECK]})
    assert tags(cell) == tags(dict(cell)) == [EXERCISE_CHECK]
    assert tags({"cell_type": "markdown", "source": ""}) == []


def test_no_test_loads_a_module_by_its_file_path():
    """The tests import the scripts and the build's extensions as modules (pytest.ini's
    pythonpath), never by a path: no spec_from_file_location, SourceFileLoader or run_path."""
    loaders = {"spec_from_file_location", "SourceFileLoader", "run_path", "run_module"}
    for test in sorted((ROOT / "tests").glob("*.py")):
        called = {node.attr if isinstance(node, ast.Attribute) else node.id
                  for node in ast.walk(ast.parse(test.read_text()))
                  if isinstance(node, ast.Attribute | ast.Name)}
        assert not called & loaders, f"{test.name} loads {sorted(called & loaders)} by path"
