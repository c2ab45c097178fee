"""Print every chapter page of the built site to PDF handouts with Chromium (no LaTeX).

    python scripts/chapter_pdfs.py [SITE]      (default: _build/html)

Writes two PDFs per page under SITE/notebooks/ into SITE/pdf/. <chapter>.pdf is the chapter as a
student receives it: the site's print stylesheet (book/_static/book.css) leaves out the solutions,
the answers to the questions and the check cells, and wraps long code lines.
<chapter>-solutions.pdf is the instructors' handout: the page opened with ?handout=solutions
(book/_static/handout.js) prints only the questions with their answers and the exercises with
their solutions. Chromium is Debian's `chromium` (`make test` installs it); each
page gets a fresh profile and the time to typeset its maths and draw its widgets.
"""

import pathlib
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw",
         "--virtual-time-budget=20000"]


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
    for _, pdf in jobs:
        print(f"{pdf}: {pdf.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html").resolve())
