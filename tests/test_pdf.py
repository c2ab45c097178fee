"""The chapter PDFs that `make pdf` prints: for students, one per chapter, A4, a sensible length,
with no solution and no answer in them; for instructors, one per chapter with only the questions'
answers and the exercises' solutions.

`make pdf` builds them into _build/html/pdf/ and runs this file; `make test` does not build them
(printing takes about 20 s a chapter), so there these checks run only when the PDFs exist. The
how-to page must link every chapter's PDF either way. Needs poppler-utils (`pdfinfo`,
`pdftotext`; `make pdf` installs them).
"""

import functools
import re
import subprocess

import pytest
from bookkit import DEEPER_END, DEEPER_START, HIDE_INPUT, REMOVE_INPUT, tags
from conftest import HTML, ROOT, load_notebook, toc_notebooks

PDFS = HTML / "pdf"
MIN_PAGES, MAX_PAGES = 3, 60  # a chapter handout: more than a stub, less than a booklet
A4_POINTS = (595, 842)


def squeeze(text: str) -> str:
    """Text without whitespace: PDF extraction re-flows lines that wrapped on paper."""
    return re.sub(r"\s+", "", text)


def code_lines(path, elsewhere: list[str] = ()) -> tuple[list[str], list[str]]:
    """Code lines of at least 25 characters: (in solutions, and not in other code; printed).

    The printed lines are those outside solutions and outside the Going-deeper asides, which
    print closed. A solution line that also stands in other code of the chapter, or in the code
    lines `elsewhere` (other chapters'), is no leak."""
    inside = deeper = False
    solution, rest, printed = [], [], []
    for cell in load_notebook(path)["cells"]:
        source = "".join(cell["source"])
        if "{solution-start}" in source or "{solution-end}" in source:
            inside = "{solution-start}" in source
            continue
        if cell["cell_type"] == "markdown":
            deeper = (f"{{{DEEPER_START}}}" in source or deeper) and f"{{{DEEPER_END}}}" not in source
        if cell["cell_type"] == "code":
            lines = [line for line in source.splitlines() if len(line.strip()) >= 25]
            (solution if inside else rest).extend(lines)
            hidden = {HIDE_INPUT, REMOVE_INPUT, "remove-cell"} & set(tags(cell))
            printed.extend([] if inside or deeper or hidden else lines)
    # Squeezed lines hold no whitespace, so a match never spans the newline between two.
    other = "\n".join(squeeze(line) for line in [*rest, *elsewhere])
    return [line for line in solution if squeeze(line) not in other], printed


def answers(path) -> list[str]:
    """The first words of each answer to a check-your-understanding question (prose only)."""
    found = []
    for cell in load_notebook(path)["cells"]:
        source = "".join(cell["source"])
        for body in re.findall(r":class: dropdown answer\n\n(.+?)\n`{3,}", source, re.DOTALL):
            prose = re.sub(r"\$[^$]*\$|`[^`]*`", "|", body)  # maths and code print otherwise
            runs = [run.split() for run in re.split(r"[|*]", prose)]
            words = max(runs, key=len)
            if len(words) >= 6:  # shorter runs recur in the chapter's own prose
                found.append(" ".join(words[:8]))
    return found


@functools.cache
def pdf_text(pdf) -> tuple[int, str]:
    """(pages, text) of a PDF that `make pdf` printed, checked to be A4 (skip if none was built)."""
    if not PDFS.exists():
        pytest.skip("no PDFs built: `make pdf` prints and checks them")
    assert pdf.exists(), f"{pdf.name} is missing: run `make pdf`"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))
    size = tuple(round(float(x)) for x in re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info).groups())
    assert size == A4_POINTS, f"{pdf.name}: pages of {size} pt, not A4"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return pages, text


def test_the_how_to_page_links_every_chapter_pdf():
    how_to = (ROOT / "book" / "how-to-use.md").read_text()
    for path in toc_notebooks():
        assert f"../pdf/{path.stem}.pdf" in how_to, f"the how-to page does not link {path.stem}.pdf"


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.stem)
def test_chapter_pdf_is_a_handout_without_solutions(path):
    pdf = PDFS / f"{path.stem}.pdf"
    pages, text = pdf_text(pdf)
    assert MIN_PAGES <= pages <= MAX_PAGES, f"{pdf.name}: {pages} pages, not {MIN_PAGES}-{MAX_PAGES}"
    printed = squeeze(text)
    solution, rest = code_lines(path)
    assert solution, "this chapter has no solution code to look for"
    leaked = [line.strip() for line in solution if squeeze(line) in printed]
    assert leaked == [], f"{pdf.name} prints solution code: {leaked[:3]}"
    assert "Solutionto" not in printed, f"{pdf.name} prints a solution heading"
    # The search is real: the chapter's other code is found in the same text.
    found = sum(squeeze(line) in printed for line in rest)
    assert found >= 0.8 * len(rest), f"{pdf.name}: only {found} of {len(rest)} code lines found in its text"
    exercises = sum("{exercise}" in "".join(c["source"]) for c in load_notebook(path)["cells"])
    assert text.count("Exercise") >= exercises, f"{pdf.name}: exercises missing"
    told = [a for a in answers(path) if squeeze(a) in printed]
    assert answers(path) and told == [], f"{pdf.name} prints answers: {told[:3]}"
    assert "Checkyourunderstanding" in printed, f"{pdf.name}: the questions are missing"


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.stem)
def test_solutions_pdf_has_the_answers_and_solutions_and_nothing_else(path):
    pdf = PDFS / f"{path.stem}-solutions.pdf"
    pages, text = pdf_text(pdf)
    assert 1 <= pages <= MAX_PAGES, f"{pdf.name}: {pages} pages"
    printed = squeeze(text)
    solution, rest = code_lines(path)
    found = sum(squeeze(line) in printed for line in solution)
    assert found >= 0.8 * len(solution), f"{pdf.name}: {found} of {len(solution)} solution lines"
    told = [a for a in answers(path) if squeeze(a) in printed]
    assert len(told) >= 0.8 * len(answers(path)), f"{pdf.name}: answers missing"
    setup = [line for line in rest if "def figure_png" in line or "def site_slider" in line]
    assert setup and not any(squeeze(line) in printed for line in setup), f"{pdf.name}: not only exercises"


BOOK_PDF = PDFS / "embeddings-are-linear-maps.pdf"


def test_the_how_to_page_links_the_whole_book_pdf():
    assert f"../pdf/{BOOK_PDF.name}" in (ROOT / "book" / "how-to-use.md").read_text()


def test_whole_book_pdf_has_every_chapter_without_solutions_and_a_true_contents():
    pages, text = pdf_text(BOOK_PDF)
    parts = [PDFS / f"{path.stem}.pdf" for path in toc_notebooks()]
    lengths = [pdf_text(part)[0] for part in parts]
    assert sum(lengths) + 2 <= pages <= sum(lengths) + 8, f"{pages} pages for chapters of {lengths}"
    printed = squeeze(text)
    for path in toc_notebooks():
        others = [line for other in toc_notebooks() if other != path
                  for line in code_lines(other)[1]]  # the other chapters' printed code
        solution, _ = code_lines(path, others)
        leaked = [line.strip() for line in solution if squeeze(line) in printed]
        assert leaked == [], f"{BOOK_PDF.name} prints solution code of {path.stem}: {leaked[:3]}"
        # An answer's phrase that another chapter's own handout prints is that chapter's text.
        elsewhere = "".join(squeeze(pdf_text(PDFS / f"{other.stem}.pdf")[1])
                            for other in toc_notebooks() if other != path)
        told = [a for a in answers(path) if squeeze(a) in printed and squeeze(a) not in elsewhere]
        assert told == [], f"{BOOK_PDF.name} prints answers of {path.stem}: {told[:3]}"
    contents = re.findall(r"^(\d)\. (.+?)\s+(\d+)$|^(References)\s+(\d+)$",
                          pdf_page(BOOK_PDF, 1), flags=re.MULTILINE)
    assert len(contents) == len(parts) + 1, f"contents: {contents}"
    starts = [int(c[2] or c[4]) for c in contents]
    assert starts[1:] == [starts[0] + sum(lengths[:i]) for i in range(1, len(lengths) + 1)]
    for (number, title, _, _, _), start in zip(contents, starts, strict=False):
        if number:
            assert squeeze(title)[:30] in squeeze(pdf_page(BOOK_PDF, start)), f"chapter {number}"
    assert "References" in pdf_page(BOOK_PDF, starts[-1])


def pdf_page(pdf, page: int) -> str:
    """The text of one page of a PDF."""
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
