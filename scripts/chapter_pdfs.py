"""Print the chapter pages of the built site to PDF handouts, and the whole book to one PDF, with
Chromium through Playwright (no LaTeX).

    python scripts/chapter_pdfs.py [SITE]      (default: _build/html)

Writes two PDFs per page under SITE/notebooks/ into SITE/pdf/. <chapter>.pdf is the chapter as a
student receives it: the site's print stylesheet (book/_static/book.css) leaves out the solutions,
the answers to the questions and the check cells, wraps long code lines, and prints what moves on
screen as a picture (each slider at its last frame, each explorable as its static stand-in).
<chapter>-solutions.pdf is the instructors' handout: the page opened with ?handout=solutions
(book/_static/handout.js) prints only the questions with their answers and the exercises with
their solutions.

Then the whole book in one file, SITE/pdf/embeddings-are-linear-maps.pdf, printed as one document:
a title page with the contents (each chapter and section with its page), the five chapters as
the students' handouts print them, each from a new page, and the references. Each part's ids are
prefixed with its own name (c1-, c2-, ..., refs-), so that every link within the book lands in
the part it names: the contents, cross-references, a citation (on its chapter's references).

Every PDF is tagged (its structure read by screen readers), has a bookmark for each heading,
titled with the heading's text, and page numbers; qpdf, where installed (`make pdf` installs it),
stores its objects compressed. A link to a page of the site that is not in the PDF, or to a
place that is not printed (a closed aside), leads to the published website
(https://<owner>.github.io/<repository>/, from `repository.url` in _config.yml). Chromium is
Debian's `chromium` (`make chromium` installs it); each page gets the time to typeset its maths
and draw its widgets.
"""

import logging
import pathlib
import re
import shutil
import subprocess
import sys

import yaml
from bookkit import CHROMIUM_FLAGS
from bs4 import BeautifulSoup
from playwright.sync_api import sync_playwright
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject

logging.getLogger("pypdf").setLevel(logging.ERROR)  # not its notes on Chromium's object counts
BOOK = "embeddings-are-linear-maps.pdf"
TITLE = "Embeddings Are Linear Maps"
ROOT = pathlib.Path(__file__).resolve().parent.parent
FOOTER = ('<div style="width: 100%; font-size: 8pt; text-align: center; color: #555;">'
          '<span class="pageNumber"></span></div>')
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# The page is ready to print: its maths typeset, every saved widget drawn (each explorable too).
MATHS = """async () => { if (!document.querySelector(".math")) return;
  while (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  await MathJax.startup.promise; }"""
DRAWN = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')).every(script => {
  const view = script.parentElement.querySelector(".jupyter-widgets");
  return view && view.getBoundingClientRect().height > 0;
}) && Array.from(document.querySelectorAll(".explorable")).every(e => e.childElementCount > 0)"""

# Links to another page of the site lead to the published website (a PDF has no site beside it).
PUBLISHED_LINKS = """([site, published]) => {
  for (const a of document.querySelectorAll("a[href]")) {
    const url = new URL(a.getAttribute("href"), location.href);
    if (url.protocol === "file:" && url.href.startsWith(site)
        && url.pathname !== location.pathname) {
      a.setAttribute("href", published + url.href.slice(site.length));
    }
  }
}"""


# A link within the document to what is not printed (a citation in a closed aside, an answer left
# out) would lead nowhere: it leads to the place on the website (the book keeps that address in
# data-site; a handout's is its own page's).
OFF_PAPER_LINKS = """([site, published]) => {
  for (const a of document.querySelectorAll('a[href^="#"]')) {
    const id = decodeURIComponent(a.getAttribute("href").slice(1));
    const target = id && document.getElementById(id);
    if (!id || (target && target.checkVisibility())) continue;
    const page = location.href.split(/[?#]/)[0].slice(site.length);
    a.setAttribute("href", a.dataset.site || `${published}${page}#${id}`);
  }
}"""

# The headings printed, in order, as the PDF's bookmarks list them, each with its text and the id
# of its section: Chromium takes a bookmark's title from the printed lines, and loses or repeats
# the words where a long heading wraps.
PRINTED_HEADINGS = """() => Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"))
  .filter(h => h.checkVisibility())
  .map(h => ({text: h.textContent.replace(/#$/, "").replace(/\\s+/g, " ").trim(),
              id: h.id || (h.closest("section") || {}).id || ""}))"""


def published_site() -> str:
    """The address of the published website, from the repository named in _config.yml."""
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    owner, repository = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)/?", url).groups()
    return f"https://{owner.lower()}.github.io/{repository}/"


def print_page(browser, url: str, pdf: pathlib.Path, site: pathlib.Path) -> dict[str, int]:
    """Print one page of the site (a file:// URL) to `pdf`, once it is drawn; return the page of
    each heading, by the id of its section."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(300_000)
        page.goto(url, wait_until="load")
        page.evaluate(MATHS)
        page.wait_for_function(DRAWN, polling=200)
        page.evaluate("() => document.fonts.ready")
        for handle in page.locator(".site-interactive .noUi-handle").all():
            handle.focus()  # print a slider at its last frame: its first is often a blank start
            page.keyboard.press("End")
        page.evaluate("() => document.querySelectorAll('details.rubric')"
                      ".forEach(d => { d.open = true; })")  # printed open
        page.evaluate(PUBLISHED_LINKS, [site.as_uri() + "/", published_site()])
        page.wait_for_timeout(300)
        page.emulate_media(media="print")
        page.evaluate(OFF_PAPER_LINKS, [site.as_uri() + "/", published_site()])
        headings = page.evaluate(PRINTED_HEADINGS)
        # Chromium places each link's destination as far off as the window is scrolled.
        page.evaluate("() => window.scrollTo(0, 0)")
        page.pdf(path=pdf, format="A4", prefer_css_page_size=True, tagged=True, outline=True,
                 display_header_footer=True, header_template="<span></span>",
                 footer_template=FOOTER)
    finally:
        context.close()
    if not pdf.exists() or pdf.stat().st_size == 0:
        raise RuntimeError(f"Chromium printed no PDF for {url}")
    pages = title_bookmarks(pdf, [heading["text"] for heading in headings])
    if shutil.which("qpdf"):  # its objects in compressed streams: a tagged PDF a third as large
        compact = pdf.with_suffix(".qpdf")
        subprocess.run(["qpdf", "--object-streams=generate", "--compression-level=9",
                        "--recompress-flate", pdf, compact], check=True)
        compact.replace(pdf)
    found: dict[str, int] = {}
    for heading, page in zip(headings, pages, strict=True):
        found.setdefault(heading["id"], page)
    return found


def title_bookmarks(pdf: pathlib.Path, headings: list[str]) -> list[int]:
    """Give the PDF's bookmarks, one per printed heading, the headings' own text; return the page
    (from 1) of each."""
    reader = PdfReader(pdf)
    pages = []

    def walk_pages(items) -> None:
        for entry in items:
            if isinstance(entry, list):
                walk_pages(entry)
            else:
                pages.append(reader.get_destination_page_number(entry) + 1)

    walk_pages(reader.outline)
    writer = PdfWriter(clone_from=pdf)
    writer.pdf_header = PdfReader(pdf).pdf_header  # as Chromium wrote it (1.4: a tagged PDF)
    items = []

    def walk(item) -> None:
        while item is not None:
            item = item.get_object()
            items.append(item)
            walk(item.get("/First"))
            item = item.get("/Next")

    walk(writer.root_object["/Outlines"].get_object().get("/First"))
    if len(items) != len(headings):
        raise RuntimeError(f"{pdf.name}: {len(items)} bookmarks for {len(headings)} headings")
    for item, heading in zip(items, headings, strict=True):
        item[NameObject("/Title")] = TextStringObject(heading)
    with open(pdf, "wb") as out:
        writer.write(out)
    return pages


def main(site: pathlib.Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("chapter_pdfs.py needs Debian's chromium (`make chromium` installs it)")
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())  # the chapters in reading order
    pages = [site / f"{chapter['file']}.html" for part in toc.get("parts", [])
             for chapter in part.get("chapters", []) if chapter["file"].startswith("notebooks/")]
    missing = [page for page in pages if not page.exists()]
    if not pages or missing:
        sys.exit(f"chapter pages missing under {site}/notebooks: run `make book` first ({missing})")
    out = site / "pdf"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            handouts = {}  # the page of each heading in each chapter's handout
            for page in pages:
                handouts[page] = print_page(browser, page.as_uri(), out / f"{page.stem}.pdf", site)
                print_page(browser, page.as_uri() + "?handout=solutions",
                           out / f"{page.stem}-solutions.pdf", site)
            whole_book(browser, site, handouts)
        finally:
            browser.close()
    for pdf in sorted(out.glob("*.pdf")):
        print(f"{pdf}: {pdf.stat().st_size / 1e6:.1f} MB, {len(PdfReader(pdf).pages)} pages")


# The whole book. Its parts: each chapter page's article and the references page's, by the name
# that prefixes their ids.
ID_ATTRIBUTES = ["id", "for", "aria-labelledby", "aria-describedby", "aria-controls", "headers"]
BOOK_CSS = """
.book-part { break-before: page; }
.book-cover h1 { font-size: 2.4rem; margin: 30mm 0 4mm; }
.book-cover .subtitle { font-size: 1.1rem; margin-bottom: 20mm; }
.book-contents, .book-contents ol { list-style: none; padding-left: 0; }
.book-contents ol { padding-left: 1.5rem; font-size: 0.95rem; }
.book-contents > li { margin-top: 0.6rem; font-weight: 600; }
.book-contents ol li { font-weight: normal; }
.book-contents a { display: flex; color: inherit; text-decoration: none; }
.book-contents .title { flex: 1; }
.book-contents .page { min-width: 10mm; text-align: right; }
.book-cover .note { margin-top: 10mm; font-size: 0.9rem; }
"""


def book_part(page: pathlib.Path, prefix: str, site: pathlib.Path, parts: dict[str, str],
              published: str):
    """A page's article, its ids prefixed and its links within the book made internal."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article.bd-article")
    for tag in article.find_all(True):
        for name in ID_ATTRIBUTES:
            if tag.has_attr(name):
                tag[name] = " ".join(f"{prefix}-{value}" for value in str(tag[name]).split())
    here = page.relative_to(site).parent
    for link in article.select("a[href]"):
        href = link["href"]
        if href.startswith("#"):
            link["data-site"] = published + page.relative_to(site).as_posix() + href
            link["href"] = f"#{prefix}-{href[1:]}" if len(href) > 1 else f"#{prefix}"
        elif not re.match(r"^[a-z][a-z0-9+.-]*:", href):
            target, _, fragment = href.partition("#")
            path = (here / target).as_posix()
            while "/../" in f"/{path}" or path.startswith("../"):  # the site-relative path
                path = re.sub(r"(^|/)[^/]+/\.\./", r"\1", path, count=1).removeprefix("../")
            if path in parts:
                link["data-site"] = published + path + (f"#{fragment}" if fragment else "")
                link["href"] = f"#{parts[path]}-{fragment}" if fragment else f"#{parts[path]}"
            else:
                link["href"] = published + path + (f"#{fragment}" if fragment else "")
    states = soup.select(f'script[type="{WIDGET_STATE}"]')
    return article, states


def whole_book(browser, site: pathlib.Path, handouts: dict[pathlib.Path, dict[str, int]]) -> None:
    """Print the title page and contents, the chapters and the references as one tagged PDF;
    `handouts`: the page of each heading (by section id) in each chapter's handout."""
    published = published_site()
    chapters = list(handouts)
    references = site / "book" / "references.html"
    names = {page: f"c{n}" for n, page in enumerate(chapters, 1)} | {references: "refs"}
    parts = {page.relative_to(site).as_posix(): name for page, name in names.items()}
    shell = BeautifulSoup(chapters[0].read_text(encoding="utf-8"), "html.parser")
    for tag in shell.select(f'script[type="{WIDGET_STATE}"], .language-switch'):
        tag.decompose()
    shell.title.string = TITLE
    style = shell.new_tag("style")
    style.string = BOOK_CSS
    shell.head.append(style)
    article = shell.select_one("article.bd-article")
    article.clear()
    contents = []  # (section id, heading's HTML, is a chapter) of each chapter and its sections
    for page, name in names.items():
        part, states = book_part(page, name, site, parts, published)
        for state in states:
            shell.head.append(state)
        headings = [part.find("h1")] + (part.select("section > h2") if name != "refs" else [])
        for level, heading in enumerate(headings):
            for link in heading.select("a.headerlink"):
                link.decompose()
            contents.append((heading.parent["id"], heading.decode_contents(), level == 0))
        box = shell.new_tag("div", attrs={"class": "book-part", "id": name})
        box.extend(list(part.contents))
        article.append(box)
    book = chapters[0].parent / ".whole-book.html"  # beside the chapters: the same relative paths
    pdf = site / "pdf" / BOOK
    ids = {sid for sid, _, _ in contents}
    try:
        # The page numbers the contents will give: the title page's length (printed alone), then
        # each chapter as long as its handout, which the book prints alike.
        parts_html = list(article.contents)
        article.clear()
        article.append(BeautifulSoup(cover_html(contents, {}), "html.parser"))
        book.write_text(str(shell), encoding="utf-8")
        print_page(browser, book.as_uri(), pdf, site)
        start, numbers = len(PdfReader(pdf).pages) + 1, {}
        for page, marks in handouts.items():
            numbers |= {f"{names[page]}-{sid}": start + number - 1 for sid, number in marks.items()}
            start += len(PdfReader(site / "pdf" / f"{page.stem}.pdf").pages)
        numbers = {sid: number for sid, number in numbers.items() if sid in ids}
        numbers[contents[-1][0]] = start  # the references
        article.clear()
        article.extend(parts_html)
        for _ in range(3):  # again if the contents' page numbers are not those printed
            cover = BeautifulSoup(cover_html(contents, numbers), "html.parser")
            old = article.select_one(".book-cover")
            if old:
                old.replace_with(cover)
            else:
                article.insert(0, cover)
            book.write_text(str(shell), encoding="utf-8")
            printed = print_page(browser, book.as_uri(), pdf, site)
            printed = {sid: number for sid, number in printed.items() if sid in ids}
            if printed == numbers:
                break
            numbers = printed
        else:
            raise RuntimeError("the contents' page numbers did not settle")
    finally:
        book.unlink(missing_ok=True)


def cover_html(contents, numbers: dict[str, int]) -> str:
    """The title page and the contents; `numbers`: the page of each heading, by its section id."""
    def item(sid: str, heading: str) -> str:
        return (f'<a href="#{sid}"><span class="title">{heading}</span>'
                f'<span class="page">{numbers.get(sid, "")}</span></a>')

    items, inside = [], False  # each chapter an item, its sections a list inside it
    for sid, heading, chapter in contents:
        if chapter:
            items.append("</ol></li>" if inside else "")
            items.append(f"<li>{item(sid, heading)}<ol>")
            inside = True
        else:
            items.append(f"<li>{item(sid, heading)}</li>")
    listing = ("".join(items) + "</ol></li>").replace("<ol></ol>", "")
    return (f'<div class="book-cover"><h1>{TITLE}</h1><p class="subtitle">An executable book: the '
            "five chapters as printed for students (without the solutions), and the references."
            '</p><h2>Contents</h2><ol class="book-contents">' + listing + "</ol>"
            '<p class="note">The chapters run, and their exercises check themselves, in Jupyter '
            "or on Colab; the website's sliders and explorables work only on the website.</p></div>")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html").resolve())
