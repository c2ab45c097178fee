"""Print every chapter page of the built site to PDF handouts with Chromium (no LaTeX).

    python scripts/chapter_pdfs.py [SITE]      (default: _build/html)

Writes two PDFs per page under SITE/notebooks/ into SITE/pdf/. <chapter>.pdf is the chapter as a
student receives it: the site's print stylesheet (book/_static/book.css) leaves out the solutions,
the answers to the questions and the check cells, and wraps long code lines.
<chapter>-solutions.pdf is the instructors' handout: the page opened with ?handout=solutions
(book/_static/handout.js) prints only the questions with their answers and the exercises with
their solutions. Chromium is Debian's `chromium` (`make test` installs it); each
page gets a fresh profile and the time to typeset its maths and draw its widgets.

Then the whole book in one file, SITE/pdf/embeddings-are-linear-maps.pdf: a title page with the
contents (each chapter's first page), the five student handouts in order and the references page,
joined by pypdf with a bookmark for each part.
"""

import html
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from bookkit import CHROMIUM_FLAGS
from pypdf import PdfReader, PdfWriter

BOOK = "embeddings-are-linear-maps.pdf"
TITLE = "Embeddings Are Linear Maps"
COVER = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
@page {{ size: A4; margin: 30mm 25mm; }}
body {{ font-family: sans-serif; color: #222; }}
h1 {{ font-size: 30pt; margin: 60mm 0 6mm; }}
.subtitle {{ font-size: 13pt; color: #555; margin-bottom: 40mm; }}
h2 {{ font-size: 15pt; border-bottom: 1px solid #999; padding-bottom: 2mm; }}
ol {{ list-style: none; padding: 0; font-size: 12pt; line-height: 2; }}
li {{ display: flex; }} .title {{ flex: 1; }} .page {{ min-width: 12mm; text-align: right; }}
.note {{ margin-top: 12mm; font-size: 10pt; color: #555; }}
</style></head><body>
<h1>{title}</h1>
<p class="subtitle">An executable book: the five chapters as printed for students (without the
solutions), and the references.</p>
<h2>Contents</h2>
<ol>{items}</ol>
<p class="note">Page numbers are those of this PDF file. The chapters run, and their exercises
check themselves, in Jupyter or on Colab; the website's sliders work only on the website.</p>
</body></html>
"""

FLAGS = ["--headless", *CHROMIUM_FLAGS, "--no-pdf-header-footer",
         "--run-all-compositor-stages-before-draw", "--virtual-time-budget=20000"]


def print_to_pdf(chromium: str, url: str, pdf: pathlib.Path) -> None:
    """Print one page of the site to `pdf`; raise if Chromium wrote nothing."""
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [chromium, *FLAGS, f"--user-data-dir={profile}", f"--print-to-pdf={pdf}", url],
            capture_output=True, text=True, timeout=300)
    if not pdf.exists() or pdf.stat().st_size == 0:
        raise RuntimeError(f"Chromium printed no PDF for {url}:\n{result.stderr[-2000:]}")


def main(site: pathlib.Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("chapter_pdfs.py needs Debian's chromium (`make chromium` installs it)")
    pages = sorted((site / "notebooks").glob("*.html"))
    if not pages:
        sys.exit(f"no chapter pages under {site}/notebooks: run `make book` first")
    out = site / "pdf"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    jobs = [(page.as_uri(), out / f"{page.stem}.pdf") for page in pages]
    jobs += [(page.as_uri() + "?handout=solutions", out / f"{page.stem}-solutions.pdf")
             for page in pages]
    with ThreadPoolExecutor(max_workers=2) as pool:  # two Chromiums at a time
        list(pool.map(lambda job: print_to_pdf(chromium, *job), jobs))
    whole_book(chromium, site, [(page, out / f"{page.stem}.pdf") for page in pages])
    for pdf in sorted(out.glob("*.pdf")):
        print(f"{pdf}: {pdf.stat().st_size / 1e6:.1f} MB")


def page_title(page: pathlib.Path) -> str:
    """The first heading of a built page, as text."""
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page.read_text(encoding="utf-8"), re.DOTALL)
    text = re.sub(r"<[^>]+>", "", heading.group(1)) if heading else page.stem
    return html.unescape(text).replace("#", "").strip()


def whole_book(chromium: str, site: pathlib.Path, chapters: list[tuple[pathlib.Path, pathlib.Path]]) -> None:
    """The title page and contents, the chapters' student handouts and the references, joined."""
    out = site / "pdf"
    references = out / "references.pdf"
    print_to_pdf(chromium, (site / "book" / "references.html").as_uri(), references)
    parts = [(f"{n}. {page_title(page)}", pdf) for n, (page, pdf) in enumerate(chapters, 1)]
    parts.append(("References", references))
    first = 2  # the title page and contents, if they fit on one page
    with tempfile.TemporaryDirectory() as folder:
        cover_pdf = pathlib.Path(folder) / "cover.pdf"
        for _ in range(2):  # again if the contents took more pages than assumed
            page, items = first, []
            for title, pdf in parts:
                items.append((title, page))
                page += len(PdfReader(pdf).pages)
            cover = pathlib.Path(folder) / "cover.html"
            cover.write_text(COVER.format(title=TITLE, items="".join(
                f'<li><span class="title">{html.escape(t)}</span><span class="page">{p}</span></li>'
                for t, p in items)), encoding="utf-8")
            print_to_pdf(chromium, cover.as_uri(), cover_pdf)
            if len(PdfReader(cover_pdf).pages) + 1 == first:
                break
            first = len(PdfReader(cover_pdf).pages) + 1
        writer = PdfWriter()
        writer.append(str(cover_pdf), outline_item="Title and contents")
        for title, pdf in parts:
            writer.append(str(pdf), outline_item=title)
        writer.add_metadata({"/Title": TITLE})
        with open(out / BOOK, "wb") as book:
            writer.write(book)
    references.unlink()


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html").resolve())
