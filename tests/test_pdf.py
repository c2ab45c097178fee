"""The PDFs that `make pdf` prints: for students, one per chapter, A4, a sensible length, with no
solution and no answer in them; for instructors, one per chapter with only the questions' answers
and the exercises' solutions; the whole book. Each is tagged and has a bookmark per heading;
nothing interactive prints as a dead control or an empty heading; every link within a PDF lands
where it says.

`make pdf` builds them into _build/html/pdf/ and runs this file; `make test` does not build them
(printing takes about 20 s a chapter), so there these checks run only when the PDFs exist. The
how-to page must link every chapter's PDF either way. Needs poppler-utils (`pdfinfo`,
`pdftotext`; `make pdf` installs them).
"""

import functools
import html
import re
import subprocess

import pytest
from bookkit import DEEPER_END, DEEPER_START, HIDE_INPUT, REMOVE_INPUT, SHARED, tags
from conftest import HTML, ROOT, load_notebook, toc_notebooks

PDFS = HTML / "pdf"
MIN_PAGES, MAX_PAGES = 3, 60  # a chapter handout: more than a stub, less than a booklet
A4_POINTS = (595, 842)


def squeeze(text: str) -> str:
    """Text without whitespace (PDF extraction re-flows lines that wrapped on paper), its curly
    quotes straight (the extraction reads some straight ones as curly)."""
    return re.sub(r"\s+", "", text).translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))


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
    # Without the page number at the foot of each page (text that runs on over a page break reads
    # on), nor the lines of one or two characters that typeset maths leaves (a subscript set
    # below its line is extracted as a line of its own, between the words around the formula).
    text = "\f".join(re.sub(r"\n\d+\n*$", "\n", page) for page in text.split("\f"))
    text = "\n".join(line for line in text.split("\n") if len(line.strip()) > 2 or "\f" in line)
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
    # Each rubric in an exercise's statement (closed on the site) is printed open.
    statements = "".join("".join(c["source"]) for c in load_notebook(path)["cells"]
                         if c["cell_type"] == "markdown" and "{exercise}" in "".join(c["source"]))
    rubrics = len(re.findall(r"\*\*Rubric[ .(]", statements))
    assert rubrics and len(re.findall(r"Rubric[ .(]", text)) >= rubrics, f"{pdf.name}: rubrics"


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.stem)
def test_solutions_pdf_has_the_answers_and_solutions_and_nothing_else(path):
    pdf = PDFS / f"{path.stem}-solutions.pdf"
    pages, text = pdf_text(pdf)
    assert 1 <= pages <= MAX_PAGES, f"{pdf.name}: {pages} pages"
    printed = squeeze(text)
    solution, _ = code_lines(path)
    found = sum(squeeze(line) in printed for line in solution)
    assert found >= 0.8 * len(solution), f"{pdf.name}: {found} of {len(solution)} solution lines"
    told = [a for a in answers(path) if squeeze(a) in printed]
    assert len(told) >= 0.8 * len(answers(path)), f"{pdf.name}: answers missing"
    setup = [line for cell in load_notebook(path)["cells"] if SHARED in tags(cell)
             for line in "".join(cell["source"]).splitlines()
             if "def figure_png" in line or "def site_slider" in line]  # the Setup's code
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
    # Bookmarks: the title page, each chapter by its number and title (those of its handout),
    # with a bookmark for each of its sections, and the references.
    marks = bookmarks(BOOK_PDF)
    tops = [(title, page) for level, title, page in marks if level == 0]
    chapters = [bookmarks(part)[0][1] for part in parts]
    assert [title for title, _ in tops] == ["Embeddings Are Linear Maps", *chapters, "References"], tops
    for number, title in enumerate(chapters, 1):
        assert title.startswith(f"{number}. "), f"chapter {number}'s title has no number: {title!r}"
    starts = [page for _, page in tops[1:]]
    assert starts[1:] == [starts[0] + sum(lengths[:i]) for i in range(1, len(lengths) + 1)], (
        f"chapters start on pages {starts}, their handouts are {lengths} pages long")
    sections = [title for level, title, _ in marks if level == 1 and re.match(r"\d+\.\d+\. ", title)]
    assert len(sections) >= 8 * len(parts), f"only {len(sections)} section bookmarks"
    for number, title in enumerate(chapters, 1):
        assert squeeze(title)[:30] in squeeze(pdf_page(BOOK_PDF, starts[number - 1])), f"chapter {number}"
    assert "References" in pdf_page(BOOK_PDF, tops[-1][1])


def test_the_whole_book_contents_give_the_pages_their_links_lead_to():
    """Each line of the contents is a link, and the page number it prints is the page it leads to,
    and where the bookmark of the same heading leads."""
    pdf_text(BOOK_PDF)
    marks = {squeeze(title): page for _, title, page in bookmarks(BOOK_PDF)}
    first_chapter = [page for level, _, page in bookmarks(BOOK_PDF) if level == 0][1]
    lines = 0
    for link in links(BOOK_PDF):
        if link["page"] >= first_chapter or link["text"] == "":
            continue
        lines += 1
        numbers = list(re.finditer(r"(?<![\d.])\d+(?![\d.])", link["text"]))  # not 2.1.
        assert numbers, f"a contents line without its page: {link['text']!r}"
        printed = numbers[-1]  # a title that wraps goes on after its page number
        assert int(printed.group()) == link["to_page"], f"{link['text']!r} leads to p. {link['to_page']}"
        title = squeeze(link["text"][:printed.start()] + link["text"][printed.end():])
        assert marks.get(title) == link["to_page"], f"{title!r}: bookmark p. {marks.get(title)}"
    assert lines >= 5 * len(toc_notebooks()), f"only {lines} lines in the contents"


# Links within a PDF. Chromium writes each as a named destination (an element's id: the book
# prefixes each part's ids with its name, c1-, c2-, ..., refs-) with the position of its target,
# whose top it gives without the page's top margin (book.css's @page: 14 mm).
TOP_MARGIN_PT = 14 / 25.4 * 72
COMMON = {"with", "from", "that", "this", "into", "they", "their", "what", "also", "than", "then", "and",
          "the", "for", "not", "are", "its", "one", "two", "all", "can", "see", "but", "how", "why"}


def words(pdf, page: int) -> list[tuple[float, float, float, float, str]]:
    """The words of a PDF page with their boxes (x0, y0, x1, y1 in points from the top left)."""
    out = _bbox(str(pdf), page)
    return [(float(a), float(b), float(c), float(d), html.unescape(w)) for a, b, c, d, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out)]


@functools.cache
def _bbox(pdf: str, page: int) -> str:
    return subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), pdf, "-"],
                          capture_output=True, text=True, check=True).stdout


@functools.cache
def links(pdf) -> list[dict]:
    """Every link of a PDF to a place in it: its page, text and destination's name, page and the
    text at the top of that destination (a few lines)."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    names = reader.named_destinations
    found = []
    for number, page in enumerate(reader.pages, 1):
        height = float(page.mediabox.height)
        for annotation in page.get("/Annots", []) or []:
            annotation = annotation.get_object()
            action = annotation.get("/A", {})
            dest = annotation.get("/Dest", action.get("/D") if action.get("/S") == "/GoTo" else None)
            if annotation.get("/Subtype") != "/Link" or dest is None:
                continue
            x0, y0, x1, y1 = (float(v) for v in annotation["/Rect"])
            text = " ".join(w for a, b, c, d, w in words(pdf, number)
                            if x0 <= (a + c) / 2 <= x1 and height - y1 <= (b + d) / 2 <= height - y0)
            name = str(dest)
            if found and found[-1]["page"] == number and found[-1]["name"] == name.lstrip("/"):
                found[-1]["text"] += " " + text  # the same link, its next line
                continue
            target = names.get(name)
            link = {"page": number, "text": text, "name": name.lstrip("/"), "to_page": None, "there": ""}
            if target is not None:
                link["to_page"] = reader.get_destination_page_number(target) + 1
                top = height - float(target.top) + TOP_MARGIN_PT
                link["there"] = " ".join(w for _, b, _, _, w in words(pdf, link["to_page"])
                                         if top - 6 <= b <= top + 45)
            found.append(link)
    return found


def tokens(text: str) -> set[str]:
    """What a link's text and its destination can share: words of three letters or more (a name:
    Liu, Ba), section numbers (2.3.) and years."""
    text = re.sub(r"\[[A-Za-z]+\+?\d\d\]", " ", text)  # a bibliography label: it leads back to a citation
    found = re.findall(r"[^\W\d_]{3,}|\d+(?:\.\d+)+|\b\d{4}\b", text)
    return {t.lower().rstrip(".") for t in found} - COMMON


def link_problems(pdf, parts: dict[str, range] | None = None) -> tuple[int, list[str]]:
    """(links followed, problems): a link whose destination is missing, lands outside the part its
    name gives (`parts`: page range by name prefix), or lands where nothing it says is written."""
    problems, followed = [], 0
    for link in links(pdf):
        followed += 1
        where = f"p. {link['page']} {link['text'][:40]!r} -> {link['name']}"
        if link["to_page"] is None:
            problems.append(f"{where}: no such destination")
            continue
        if parts is not None:
            prefix = link["name"].split("-", 1)[0]
            if prefix not in parts or link["to_page"] not in parts[prefix]:
                problems.append(f"{where}: lands on p. {link['to_page']}, outside {prefix}")
                continue
        said = tokens(link["text"])
        if said and not said & tokens(link["there"]):
            problems.append(f"{where}: p. {link['to_page']} reads {link['there'][:60]!r}")
    return followed, problems


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.stem)
def test_every_link_of_a_handout_lands_where_it_says(path):
    pdf = PDFS / f"{path.stem}.pdf"
    pdf_text(pdf)
    followed, problems = link_problems(pdf)
    assert followed >= 10, f"only {followed} links in {pdf.name}"
    assert problems == [], f"{len(problems)} of {followed} links: {problems[:5]}"


def test_every_link_of_the_whole_book_lands_where_it_says():
    pages, _ = pdf_text(BOOK_PDF)
    tops = [(title, page) for level, title, page in bookmarks(BOOK_PDF) if level == 0]
    ends = [page for _, page in tops[1:]] + [pages + 1]
    names = [f"c{n}" for n in range(1, len(tops) - 1)] + ["refs"]
    parts = {name: range(start, end) for name, (_, start), end in zip(names, tops[1:], ends[1:], strict=True)}
    followed, problems = link_problems(BOOK_PDF, parts)
    assert followed >= 200, f"only {followed} links followed"
    assert problems == [], f"{len(problems)} of {followed} links: {problems[:5]}"


def bookmarks(pdf) -> list[tuple[int, str, int]]:
    """The bookmarks of a PDF in order: (depth from 0, title, page from 1)."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    found = []

    def walk(items, depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return found


@pytest.mark.parametrize("name", [*(f"{p.stem}.pdf" for p in toc_notebooks()),
                                  *(f"{p.stem}-solutions.pdf" for p in toc_notebooks()), BOOK_PDF.name])
def test_pdf_is_tagged_with_bookmarks_and_prints_nothing_dead(name):
    """Tagged (a structure tree, for screen readers), a bookmark per heading; no control printed
    as a dead button: no details marker (▶), no "Show code cell" toggle, and (where asides print
    closed: not in the solutions, which open them) each aside one line saying where to read it."""
    from pypdf import PdfReader

    pdf = PDFS / name
    _, text = pdf_text(pdf)
    root = PdfReader(pdf).trailer["/Root"]
    assert "/StructTreeRoot" in root and root.get("/MarkInfo", {}).get("/Marked"), f"{name} is not tagged"
    assert bookmarks(pdf), f"{name} has no bookmarks"
    assert "▶" not in text and "Show code cell" not in text, f"{name} prints a toggle"
    if not name.endswith("-solutions.pdf"):
        bare = [line for line in text.splitlines() if line.startswith("Going deeper")
                and not line.startswith("Going deeper, in the notebook and on the website: ")]
        assert bare == [], f"{name}: asides printed as bare headings: {bare[:3]}"


def pdf_page(pdf, page: int) -> str:
    """The text of one page of a PDF."""
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


def test_the_link_check_fails_a_book_merged_from_its_handouts(tmp_path):
    """The check above on the book as it was once made, the handouts joined one after the other:
    their destinations share names (setup, exercises, id47), the join keeps one of each, and the
    links of every chapter but one land in another chapter, where the text is not what they say."""
    from pypdf import PdfWriter

    handouts = [PDFS / f"{path.stem}.pdf" for path in toc_notebooks()]
    if not all(pdf.exists() for pdf in handouts):
        pytest.skip("no PDFs built: `make pdf` prints and checks them")
    merged = tmp_path / "merged.pdf"
    writer = PdfWriter()
    for pdf in handouts:
        writer.append(str(pdf))
    with open(merged, "wb") as out:
        writer.write(out)
    followed, problems = link_problems(merged)
    # A citation that lands on another chapter's references reads another work (many links, the
    # references' links back to a citation, say nothing the check can compare).
    assert followed >= 100 and len(problems) >= 20, (followed, len(problems), problems[:3])
