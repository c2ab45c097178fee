"""The converter's parts (scripts/edition/), each on small hand-made cells.

tests/test_editions.py converts the real chapters; these pin what each part writes, so that a
broken part fails here under its own name.
"""

import pathlib

import nbformat
import notebook_edition
import pytest
from bookkit import ANSWER, ANSWER_CHECK, EXERCISE_CHECK
from edition import deeper, student
from edition.chapter import Chapter, MystError, hide_source
from edition.citations import author_year, reference_list
from edition.exercises import (
    ANSWERS_TITLE,
    CHECK_TITLE,
    answer_cell,
    collapse_checks,
    solution_cell,
    split_at_solution_markers,
)
from edition.markdown import Directive, convert_text, inline, raw_myst, split_directive
from edition.outputs import output_markdown

PRESS = "[Press and Wolf, 2017](#ref-press2017tying)"
VASWANI = "[Vaswani et al., 2017](#ref-vaswani2017attention)"


def chapter(**known) -> Chapter:
    """Chapter 9 of a made-up book, its bib keys prefixed ch9-."""
    return Chapter(pathlib.Path("09_made_up.ipynb"), 9, keyprefix="ch9-", **known)


def code(source: str, outputs=(), tags=()) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(source, outputs=list(outputs), metadata={"tags": list(tags)})


# --------------------------------------------------------------- MyST to Markdown


def test_a_cite_role_becomes_author_year_links_in_first_cited_order():
    ch = chapter()
    text = inline(ch, "Tied {cite}`ch9-press2017tying, ch9-vaswani2017attention`; "
                      "again {cite}`ch9-press2017tying`.")
    assert text == f"Tied ({PRESS}; {VASWANI}); again ({PRESS})."
    assert ch.cited == ["press2017tying", "vaswani2017attention"]


@pytest.mark.parametrize("text, message", [
    ("{ref}`sec-a`", "unknown MyST role {ref}"), ("{cite:t}`ch9-press2017tying`", "unknown MyST role"),
    ("{cite}`press2017tying`", "lacks the chapter's key prefix"),
    ("{cite}`ch9-nobody2020`", "no entry 'nobody2020'")])
def test_a_role_the_chapters_do_not_use_or_a_bad_key_stops_the_conversion(text, message):
    with pytest.raises(MystError, match=message):
        inline(chapter(), text)


def test_author_year_names_one_or_two_authors_and_shortens_three_or_more():
    assert author_year("mezzadri2007generate") == "Mezzadri, 2007"
    assert author_year("press2017tying") == "Press and Wolf, 2017"
    assert author_year("halko2011finding") == "Halko et al., 2011"  # three authors
    assert author_year("vaswani2017attention") == "Vaswani et al., 2017"  # three named "and others"


def test_the_bibliography_directive_becomes_the_list_of_cited_works():
    ch = chapter(cited=["vaswani2017attention"])
    text = convert_text(ch, "## References\n\n```{bibliography}\n:filter: docname in docnames\n"
                            ":keyprefix: ch9-\n```")
    assert text.startswith("## References\n\n- " + '<a id="ref-vaswani2017attention" '
                           'name="ref-vaswani2017attention"></a>Ashish Vaswani')
    assert text.count("\n- ") == 1 and "press2017tying" not in text
    assert reference_list(["press2017tying"]).count("<a id=") == 1


def test_an_exercise_becomes_a_numbered_heading_one_level_below_its_section():
    ch = chapter(exercises={"ch9-ex1": "9.1"})
    text = convert_text(ch, "### Exercises\n\n```{exercise} Tie {cite}`ch9-press2017tying`\n"
                            ":label: ch9-ex1\n\n**★☆☆ · 10 min · code**\n\nDo it.\n```")
    assert text == ("### Exercises\n\n"
                    '<a id="ch9-ex1" name="ch9-ex1"></a>\n\n'
                    f"#### Exercise 9.1 (Tie ({PRESS}))\n\n**★☆☆ · 10 min · code**\n\nDo it.")


def test_a_dropdown_admonition_becomes_a_closed_details_block():
    source = ("Why?\n\n```{admonition} Answer\n:class: dropdown answer\n"
              "Because {cite}`ch9-press2017tying`.\n```")
    assert convert_text(chapter(), source) == (
        f"Why?\n\n<details>\n<summary>Answer</summary>\n\nBecause ({PRESS}).\n\n</details>")


@pytest.mark.parametrize("source, message", [
    ("```{note}\nN\n```", "unknown MyST directive {note}"),
    ("```{admonition} Answer\nOpen.\n```", "has :class: dropdown"),
    ("```{exercise} T\n:label: ch9-ex1\n:class: hard\nx\n```", "options the converter does not know"),
    ("```{solution-start} ch9-ex1\n```", "must stand alone"),
    ("```{admonition} A\n:class: dropdown\nnever closed", "is never closed")])
def test_a_directive_the_chapters_do_not_use_stops_the_conversion(source, message):
    with pytest.raises(MystError, match=message):
        convert_text(chapter(exercises={"ch9-ex1": "9.1"}), source)


def test_raw_myst_finds_what_jupyter_would_show_and_skips_code():
    assert raw_myst("(sec-a)=\n{cite}`x`\n```{note}\nN\n```\n% c\n+++\n$$ x $$ (eq-1)") == [
        "(sec-a)=", "```{note}", "% c", "+++", "$$ x $$ (eq-1)", "{cite}`x`"]
    assert raw_myst("`{cite}` and\n```text\n{cite}`x`\n```") == []


def test_split_directive_reads_the_argument_options_and_body():
    lines = ["```{exercise} A title", ":label: ch9-ex1", "", "Body.", "```", "after"]
    assert split_directive(lines, 0, chapter()) == (
        Directive("exercise", "A title", {"label": "ch9-ex1"}, "Body."), 5)


# ------------------------------------------------------------ Going-deeper blocks


def test_a_going_deeper_block_puts_each_prose_cell_in_details_and_collapses_code():
    ch = chapter()
    opening = "```{deeper-start} Why *this*\n```\n\nFirst."
    first = deeper.prose(ch, opening, convert_text(ch, opening), was_open=False)
    assert first == "<details>\n<summary><b>Going deeper: Why *this*</b></summary>\n\nFirst.\n\n</details>"
    cell = code("%%capture\nx = 1")
    deeper.collapse_code(ch, cell)
    assert cell.source == "%%capture\n#@title Going deeper: Why this (code)\nx = 1"
    assert cell.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    closing = "Second.\n\n```{deeper-end}\n```"
    second = deeper.prose(ch, closing, convert_text(ch, closing), was_open=True)
    assert "<summary><b>Going deeper: Why *this*, continued</b></summary>\n\nSecond." in second
    assert ch.deeper is None
    assert deeper.prose(ch, "After.", "After.", was_open=False) == "After."


def test_the_main_text_after_a_going_deeper_end_in_the_same_cell_stays_outside_the_block():
    ch = chapter()
    cells = [nbformat.v4.new_markdown_cell(source) for source in (
        "```{deeper-start} A\n```\n\nInside.", "```{deeper-end}\n```\n\n## Next section\n\nMain.",
        "```{deeper-start} B\n```\n\nIn B.", "Last of B.\n\n```{deeper-end}\n```\n\nMain again.")]
    out = [notebook_edition.convert_cell(ch, cell).source for cell in cells]
    assert out[1] == "## Next section\n\nMain."
    assert out[3].startswith("<details>\n<summary><b>Going deeper: B, continued</b></summary>\n\n"
                             "Last of B.\n\n</details>")
    assert out[3].endswith("</details>\n\nMain again.") and ch.deeper is None
    assert deeper.split_at_end("No block here.") == ("No block here.", "")


@pytest.mark.parametrize("cells, message", [
    (["```{deeper-start} A\n```"], "followed by the block's first paragraph"),
    (["Text.\n\n```{deeper-start} A\n```\n\nMore."], "must open its Markdown cell"),
    (["```{deeper-start} A\n```\n\nText.", "```{deeper-start} B\n```\n\nText."], "inside another"),
    (["```{deeper-end}\n```"], "without a {deeper-start}")])
def test_a_misplaced_going_deeper_marker_stops_the_conversion(cells, message):
    ch = chapter()
    with pytest.raises(MystError, match=message):
        for source in cells:
            was_open = ch.deeper is not None
            deeper.prose(ch, source, convert_text(ch, source), was_open)


# ----------------------------------------------------- exercises and solutions


def test_solution_markers_beside_prose_split_a_cell_into_pieces():
    cell = nbformat.v4.new_markdown_cell("Before.\n\n```{solution-start} ch9-ex1\n:class: dropdown\n```\n\n"
                                         "Because.\n\n```{solution-end}\n```")
    pieces = split_at_solution_markers(chapter(), cell)
    assert [p.name if isinstance(p, Directive) else p.source for p in pieces] == [
        "Before.", "solution-start", "Because.", "solution-end"]
    assert pieces[2].id == f"{cell.id}-2"


def test_a_solution_becomes_one_closed_details_cell_with_its_code_and_output():
    ch = chapter(exercises={"ch9-ex1": "9.1"}, exercise_titles={"ch9-ex1": "Tie"})
    start = Directive("solution-start", "ch9-ex1", {"class": "dropdown"}, "")
    printed = nbformat.v4.new_output("stream", name="stdout", text="42\n")
    cells = [nbformat.v4.new_markdown_cell("Because."), code("print(42)\n", [printed])]
    assert solution_cell(ch, start, cells, "solution-3").source == (
        "<details>\n<summary><b>Solution to Exercise 9.1 (Tie)</b></summary>\n\nBecause.\n\n"
        "```python\nprint(42)\n```\n\n```text\n42\n```\n\n</details>")
    with pytest.raises(MystError, match="unknown exercise 'ch9-ex2'"):
        solution_cell(ch, Directive("solution-start", "ch9-ex2", {}, ""), cells, "solution-4")


def test_the_answer_cell_fits_the_exercise():
    ch = chapter(kinds={"ch9-ex1": "code", "ch9-ex2": "pen and paper"})
    check_cell = code("def test(q, r):\n    return q == r\n\ncheck(test, q, r)", tags=[EXERCISE_CHECK])
    stub = answer_cell(ch, "ch9-ex1", check_cell, "answer-1")
    assert stub.source == "# Your answer: replace each None, then run the check below.\nq = None\nr = None"
    assert stub.metadata == {"tags": [ANSWER], "exercise": "ch9-ex1"}
    derivation = answer_cell(ch, "ch9-ex2", None, "answer-2")
    assert (derivation.cell_type, derivation.source) == ("markdown", "*Your derivation:*")
    assert answer_cell(ch, "ch9-ex1", code("x = 1"), "answer-3").source == "# Your answer."


def test_check_cells_are_collapsed_and_an_exercise_check_loses_its_output():
    printed = nbformat.v4.new_output("stream", name="stdout", text="correct\n")
    exercise = code("check(test, q)", [printed], tags=[EXERCISE_CHECK])
    answers = code("%%capture\nassert True", [printed], tags=[ANSWER_CHECK])
    plain = code("x = 1", [printed])
    collapse_checks([exercise, answers, plain])
    assert exercise.source == f"{CHECK_TITLE}\ncheck(test, q)" and exercise.outputs == []
    assert answers.source == f"%%capture\n{ANSWERS_TITLE}\nassert True" and answers.outputs == [printed]
    assert plain.source == "x = 1" and "cellView" not in plain.metadata
    assert exercise.metadata["cellView"] == "form" and exercise.metadata["jupyter"]["source_hidden"]


def test_hide_source_keeps_a_cell_magic_first():
    cell = code("%%time\nx = 1")
    hide_source(cell, "#@title T")
    assert cell.source == "%%time\n#@title T\nx = 1"


# ------------------------------------------------------------ figures and outputs


def figure(meta: dict) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=\n"},
                                  metadata={"image/png": meta})


def test_a_figure_keeps_its_own_alt_text_and_width():
    html = output_markdown(figure({"alt": 'Error "falls" <fast>', "width": 320.0}))
    assert html == ('<img src="data:image/png;base64,iVBORw0KGgo="'
                    ' alt="Error &quot;falls&quot; &lt;fast&gt;" width="320">')
    assert 'width=' not in output_markdown(figure({"alt": "A curve"}))
    with pytest.raises(MystError, match="no alt text"):
        output_markdown(figure({"width": 320}))


def test_printed_text_errors_and_plain_values_become_text_blocks():
    error = nbformat.v4.new_output("error", ename="ValueError", evalue="bad", traceback=[])
    value = nbformat.v4.new_output("execute_result", data={"text/plain": "3\n"}, execution_count=1)
    assert output_markdown(error) == "```text\nValueError: bad\n```"
    assert output_markdown(value) == "```text\n3\n```"
    with pytest.raises(MystError, match="no type"):
        output_markdown(nbformat.v4.new_output("display_data", data={"application/pdf": ""}))


# ------------------------------------------------------- the student edition


def test_the_student_edition_leaves_out_quiz_answers_their_check_and_outputs():
    ch = chapter(student=True)
    quiz = "Why?\n\n```{admonition} Answer\n:class: dropdown answer\nBecause.\n```"
    assert convert_text(ch, quiz) == "Why?\n\n"
    assert student.is_quiz_answer("dropdown answer") and not student.is_quiz_answer("dropdown")
    printed = nbformat.v4.new_output("stream", name="stdout", text="1\n")
    cells = [code("x = 1", [printed]), code("assert x", tags=[ANSWER_CHECK])]
    nb = nbformat.v4.new_notebook(cells=student.without_answer_checks(cells),
                                  metadata={"widgets": {"state": {}}})
    nb.cells[0].execution_count = 1
    student.clear_outputs(nb)
    assert [(c.source, c.outputs, c.execution_count) for c in nb.cells] == [("x = 1", [], None)]
    assert "widgets" not in nb.metadata


# ------------------------------------------------------------------ assembly


CHAPTER_9 = [
    "# 9. Made up\n\nTied {cite}`ch9-press2017tying`.",
    "## Exercises\n\n```{exercise} Tie\n:label: ch9-ex1\n\n**★☆☆ · 5 min · code**\n\nSet q.\n```",
    "```{solution-start} ch9-ex1\n:class: dropdown\n```",
    ("code", "q = 2"),
    "```{solution-end}\n```",
    ("check", "def test(q):\n    return q == 2\n\ncheck(test, q)"),
    "## References\n\n```{bibliography}\n:filter: docname in docnames\n:keyprefix: ch9-\n```",
]


def made_up_chapter(tmp_path) -> pathlib.Path:
    cells = []
    for cell in CHAPTER_9:
        if isinstance(cell, str):
            cells.append(nbformat.v4.new_markdown_cell(cell))
        else:
            cells.append(code(cell[1], tags=[EXERCISE_CHECK] if cell[0] == "check" else []))
    path = tmp_path / "09_made_up.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def test_survey_numbers_the_exercises_and_finds_the_key_prefix(tmp_path):
    path = made_up_chapter(tmp_path)
    ch = notebook_edition.survey(path, nbformat.read(path, as_version=4))
    assert (ch.exercises, ch.exercise_titles, ch.kinds) == (
        {"ch9-ex1": "9.1"}, {"ch9-ex1": "Tie"}, {"ch9-ex1": "code"})
    assert (ch.keyprefix, ch.cited) == ("ch9-", ["press2017tying"])


def test_the_editions_put_solution_answer_and_check_in_order(tmp_path):
    path = made_up_chapter(tmp_path)
    jupyter = notebook_edition.edition(path).cells
    assert [c.source.split("\n")[0] for c in jupyter[2:]] == [
        "<details>", "# Your answer: replace each None, then run the check below.", CHECK_TITLE,
        "## References"]
    assert "Solution to Exercise 9.1 (Tie)" in jupyter[2].source
    pupil = notebook_edition.edition(path, student=True).cells
    assert [c.source.split("\n")[0] for c in pupil[2:]] == [
        "# Your answer: replace each None, then run the check below.", CHECK_TITLE, "## References"]
    assert jupyter[0].source.endswith(notebook_edition.licence_note())


def test_an_exercise_without_a_label_stops_the_survey(tmp_path):
    path = tmp_path / "09_made_up.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("```{exercise} T\nx\n```")])
    with pytest.raises(MystError, match="needs a :label:"):
        notebook_edition.survey(path, nb)
