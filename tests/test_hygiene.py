"""Static checks on every notebook: what nbval cannot see by re-executing."""

import base64
import io
import re

import pytest
from bookkit import EXACT_SIGNED_ZERO, IGNORE_OUTPUT, RAISES, tags, toc_files
from conftest import ROOT, WIDGET_VIEW, load_notebook, site_widgets, toc_notebooks, widget_state

NOTEBOOKS = toc_notebooks()
MAX_BYTES = 1_000_000
MAX_CELL_LINES = 15
MAX_OUTPUT_CHARS = 79  # what a code block shows without scrolling, and prints
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def code_cells(nb: dict) -> list[dict]:
    return [cell for cell in nb["cells"] if cell["cell_type"] == "code"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def test_every_notebook_is_in_the_toc_and_every_toc_entry_exists():
    on_disk = {p.relative_to(ROOT).with_suffix("").as_posix() for p in ROOT.glob("notebooks/*.ipynb")}
    listed = set(toc_files())
    assert on_disk <= listed, f"notebooks missing from _toc.yml: {sorted(on_disk - listed)}"
    missing = [f for f in listed if not any((ROOT / f).with_suffix(s).exists() for s in (".md", ".ipynb"))]
    assert not missing, f"_toc.yml names files that do not exist: {missing}"
    assert NOTEBOOKS, "the book needs at least one chapter notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_top_to_bottom(path):
    counts = [cell["execution_count"] for cell in code_cells(load_notebook(path))]
    assert None not in counts, f"{path.name}: {counts.count(None)} code cells never executed"
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..{len(counts)}; "
        "run `make execute NB=...` to re-execute it in a fresh kernel"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_errors_only_where_tagged_and_real(path):
    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        errors = [out for out in cell["outputs"] if out["output_type"] == "error"]
        if RAISES in tags(cell):
            # nbval compares the stored error with re-execution, so a stored error means the
            # cell must really raise again (tests/test_negative.py proves nbval enforces this).
            assert errors, f"{path.name} cell {i}: tagged raises-exception but stores no error"
        else:
            assert not errors, f"{path.name} cell {i}: stores an error ({errors[0]['ename']})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_widget_state_saved_for_every_displayed_widget(path):
    nb = load_notebook(path)
    state = widget_state(nb)
    shown = [
        out["data"][WIDGET_VIEW]["model_id"]
        for cell in code_cells(nb)
        for out in cell["outputs"]
        if WIDGET_VIEW in out.get("data", {})
    ]
    missing = [model for model in shown if model not in state]
    assert not missing, f"{path.name}: widget views without saved state: {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_has_a_site_interactive_widget(path):
    assert site_widgets(load_notebook(path)), f"{path.name}: no site-interactive widget (see how-to-use.md)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_size_and_cell_length(path):
    size = path.stat().st_size
    assert size < MAX_BYTES, f"{path.name} is {size / 1e6:.2f} MB; keep notebooks under 1 MB"
    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        lines = [line for line in source(cell).splitlines() if line.strip()]
        assert len(lines) <= MAX_CELL_LINES, f"{path.name} cell {i}: {len(lines)} lines (max 15)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_ignored_outputs_say_why_and_no_machine_paths(path):
    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        if IGNORE_OUTPUT in tags(cell):
            first = source(cell).lstrip().splitlines()[0]
            assert first.startswith("#"), f"{path.name} cell {i}: say why its output is ignored"
        for out in cell["outputs"]:
            text = str(out.get("text", "")) + str(out.get("data", {}).get("text/plain", ""))
            assert not re.search(r"/(root|home|tmp|work)/", text), f"{path.name} cell {i}: machine path"


def test_sizes_on_the_how_to_page_are_current():
    rows = re.findall(r"^\| (\d+) \| (\d+) \| (\d+) KB \| (\d+) KB \|$",
                      (ROOT / "book" / "how-to-use.md").read_text(), flags=re.MULTILINE)
    stated = {int(chapter): (int(n), int(frame_kb), int(nb_kb)) for chapter, n, frame_kb, nb_kb in rows}
    assert sorted(stated) == list(range(1, len(NOTEBOOKS) + 1)), "one row per chapter"
    for chapter, path in enumerate(NOTEBOOKS, 1):
        frames = [base64.b64decode(f) for _, fs, _ in site_widgets(load_notebook(path)) for f in fs]
        n, frame_kb, nb_kb = stated[chapter]
        mean_kb, size_kb = sum(map(len, frames)) / len(frames) / 1e3, path.stat().st_size / 1e3
        assert n == len(frames), f"chapter {chapter}: {len(frames)} frames, the page says {n}"
        assert abs(mean_kb - frame_kb) <= 0.15 * mean_kb, f"chapter {chapter}: frames are {mean_kb:.0f} KB"
        assert abs(size_kb - nb_kb) <= 0.15 * size_kb, f"chapter {chapter}: notebook is {size_kb:.0f} KB"


def printed_lines(out: dict) -> list[str]:
    """The lines a reader sees in a plain-text output (widgets and Markdown wrap)."""
    if out["output_type"] == "stream":
        return "".join(out["text"]).splitlines()
    if out["output_type"] == "error":
        return ANSI.sub("", "\n".join(out["traceback"])).splitlines()
    data = out.get("data", {})
    if WIDGET_VIEW in data or "text/markdown" in data or "text/html" in data:
        return []
    return "".join(data.get("text/plain", "")).splitlines()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_printed_lines_fit_the_page(path):
    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        for out in cell["outputs"]:
            long = [line for line in printed_lines(out) if len(line) > MAX_OUTPUT_CHARS]
            assert not long, (f"{path.name} cell {i}: a printed line has {len(long[0])} "
                              f"characters (max {MAX_OUTPUT_CHARS}): {long[0][:60]}...")


# A printed zero with a sign ("-0.00", "+0.00", "-0." in a tensor): the sign of a value that is
# zero to its printed precision is rounding noise, and another CPU prints the other sign. The book
# prints signed values through `signed()`, which leaves such a zero unsigned. A cell that shows an
# exact -0.0 on purpose carries the tag `exact-signed-zero` and a first comment saying so.
SIGNED_ZERO = re.compile(r"(?<![\w.])[+\-\u2212]0(?:\.0*)?(?:e[+-]?\d+)?(?![\d.])")


def test_signed_zero_pattern_finds_signed_zeros_only():
    for text in ["-0.00", "x +0.00 y", "tensor([-0., 1.])", "\u22120.0", "-0.0e+00", "[-0.0, 3.0]"]:
        assert SIGNED_ZERO.search(text), text
    for text in ["1.2e-07 (rounding)", "0.0e+00 (rounding)", "-0.05", "+0.01", "0.00", "-0.5",
                 "ids 10-0", "x-0.0", "+1.00", "-00:01"]:
        assert not SIGNED_ZERO.search(text), text


def output_texts(out: dict) -> list[str]:
    """The text a reader sees in one stored output (stream, plain text, Markdown)."""
    texts = ["".join(out.get("text", ""))]
    return texts + ["".join(v) for k, v in out.get("data", {}).items()
                    if k in ("text/plain", "text/markdown")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_printed_zero_carries_a_sign(path):
    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        if EXACT_SIGNED_ZERO in tags(cell):
            assert source(cell).lstrip().startswith("#"), f"{path.name} cell {i}: say why"
            continue
        for out in cell["outputs"]:
            for text in output_texts(out):
                found = SIGNED_ZERO.search(text)
                around = text[max(0, found.start() - 30):found.end() + 10] if found else ""
                assert not found, (f"{path.name} cell {i}: a zero printed with a sign in {around!r}; "
                                   "print signed values with signed()")


# Alt text: what a figure shows, for a reader who cannot see it (not its title, not a file name).
def alt_problem(alt: object) -> str | None:
    """Why an alt text is not one, or None."""
    if not isinstance(alt, str) or len(alt.split()) < 6:
        return f"alt text of at least 6 words, got {alt!r}"
    if re.fullmatch(r"[\w./-]+\.(png|jpe?g|svg)", alt.strip()):
        return f"alt text is a file name: {alt!r}"
    return None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_and_frame_has_alt_text(path):
    nb = load_notebook(path)
    for i, cell in enumerate(code_cells(nb), 1):
        for out in cell["outputs"]:
            if "image/png" in out.get("data", {}):
                problem = alt_problem(out.get("metadata", {}).get("image/png", {}).get("alt"))
                assert not problem, f"{path.name} cell {i}: {problem}; display figures with show(fig, alt)"
    for _, _, alts in site_widgets(nb):
        for alt in alts:
            assert not alt_problem(alt), f"{path.name}: slider frame: {alt_problem(alt)}"
        assert len(set(alts)) == len(alts), f"{path.name}: each frame's alt text says what it shows"


# Figures for the column they sit in: show() stores each at twice its CSS width (sharp on a 2x
# screen) with that width and its smallest text (points) in the output's metadata. The text must
# be at least 11 CSS px where the figure is shown whole (a desktop column) and 9 px in a 358-px
# phone column, where a wider figure is scaled down. The browser test measures the same on the
# rendered pages.
CSS_PPI, PHONE_COLUMN_PX, MIN_PHONE_PX, MIN_DESKTOP_PX = 100, 358, 9, 11


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_is_sharp_and_readable_on_a_phone(path):
    from PIL import Image

    for i, cell in enumerate(code_cells(load_notebook(path)), 1):
        for out in cell["outputs"]:
            if "image/png" not in out.get("data", {}):
                continue
            meta = out.get("metadata", {}).get("image/png", {})
            assert {"width", "text_pt"} <= meta.keys(), f"{path.name} cell {i}: display with show()"
            png = Image.open(io.BytesIO(base64.b64decode(out["data"]["image/png"])))
            assert abs(png.width - 2 * meta["width"]) <= 1, f"{path.name} cell {i}: not stored at 2x"
            px = meta["text_pt"] * CSS_PPI / 72
            assert px >= MIN_DESKTOP_PX, f"{path.name} cell {i}: smallest text {px:.1f} px"
            on_phone = px * min(1, PHONE_COLUMN_PX / meta["width"])
            assert on_phone >= MIN_PHONE_PX, f"{path.name} cell {i}: {on_phone:.1f} px on a phone"
