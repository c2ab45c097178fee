"""The Chinese edition: its translation files are complete, keep the English markup, and are current.

A page is translated when locale/zh_CN/LC_MESSAGES/<page>.po exists (`make translations` keeps
those files current; book/_ext/translations.py builds the switch from them). A changed English
paragraph makes `test_translations_match_the_english_pages` fail, naming the paragraph, until it
is translated again; `test_a_changed_paragraph_makes_the_translation_stale` proves it can fail.
"""

import collections
import re
import shutil
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from conftest import HTML, ROOT

MESSAGES = ROOT / "locale" / "zh_CN" / "LC_MESSAGES"
REQUIRED = {"book/intro", "book/how-to-use", "notebooks/01_embedding_is_onehot_matmul"}
TRANSLATED = sorted(po.relative_to(MESSAGES).with_suffix("").as_posix() for po in MESSAGES.rglob("*.po"))
# What a translation must carry over unchanged: roles ({cite}`…`), inline code, maths, link targets,
# HTML tags and entities.
MARKUP = re.compile(r"\{[a-z:-]+\}`[^`]*`|``[^`]*``|`[^`]*`|\$\$[^$]*\$\$|\$[^$]*\$|\]\([^)]*\)"
                    r"|<[^>]+>|&[a-z]+;")
CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


def catalog(page: str, folder=MESSAGES):
    with open(folder / f"{page}.po", "rb") as po:
        return read_po(po)


def short(text: str) -> str:
    return " ".join(text.split())[:90]


def extract(root) -> dict[str, set[str]]:
    """The English messages of each translated page, freshly extracted by Sphinx's gettext builder
    (in a separate process, as `make translations` does) from the book at `root`."""
    out = root / "_build" / "gettext-check"
    run = subprocess.run([sys.executable, "scripts/translation.py", "gettext", str(out)],
                         cwd=root, capture_output=True, text=True)
    assert run.returncode == 0, f"extracting the messages failed:\n{run.stdout}\n{run.stderr}"
    messages = {}
    for page in TRANSLATED:
        with open(out / f"{page}.pot", "rb") as pot:
            messages[page] = {m.id for m in read_po(pot) if m.id}
    return messages


def stale(root, fresh: dict[str, set[str]]) -> list[str]:
    """Every difference between the translation files at `root` and the English pages."""
    problems = []
    for page in TRANSLATED:
        po = catalog(page, root / "locale" / "zh_CN" / "LC_MESSAGES")
        known = {m.id for m in po if m.id}
        problems += [f"{page}: new or changed English paragraph, not in the .po: {short(m)!r}"
                     for m in sorted(fresh[page] - known)]
        problems += [f"{page}: translation of a paragraph the page no longer has: {short(m)!r}"
                     for m in sorted(known - fresh[page])]
        problems += [f"{page}: obsolete entry: {short(m)!r}" for m in po.obsolete]
    return problems


@pytest.fixture(scope="module")
def fresh():
    return extract(ROOT)


def test_the_required_pages_are_translated():
    assert REQUIRED <= set(TRANSLATED), f"missing translation files: {REQUIRED - set(TRANSLATED)}"


@pytest.mark.parametrize("page", TRANSLATED)
def test_every_message_is_translated(page):
    messages = [m for m in catalog(page) if m.id]
    assert messages, "an empty translation file"
    untranslated = [short(m.id) for m in messages if not m.string.strip()]
    fuzzy = [short(m.id) for m in messages if m.fuzzy]
    assert untranslated == [], f"{len(untranslated)} untranslated messages: {untranslated}"
    assert fuzzy == [], f"{len(fuzzy)} fuzzy messages (their English changed): {fuzzy}"
    english = [short(m.id) for m in messages if not CJK.search(m.string)]
    allowed = {"FLOPs"}  # a unit, the same in Chinese
    assert [m for m in english if m not in allowed] == [], "messages left in English"


@pytest.mark.parametrize("page", TRANSLATED)
def test_translations_keep_code_maths_and_references(page):
    changed = []
    for m in catalog(page):
        if m.id and m.string:
            lost = collections.Counter(MARKUP.findall(m.id)) - collections.Counter(MARKUP.findall(m.string))
            added = collections.Counter(MARKUP.findall(m.string)) - collections.Counter(MARKUP.findall(m.id))
            if lost or added:
                changed.append(f"{short(m.id)!r}: lost {dict(lost)}, added {dict(added)}")
    assert changed == [], f"translations that changed code, maths or references: {changed}"


def test_translations_match_the_english_pages(fresh):
    problems = stale(ROOT, fresh)
    assert problems == [], ("translations out of date; run `make translations`, then translate "
                            "the new and fuzzy messages:\n" + "\n".join(problems))


@pytest.mark.full
def test_a_changed_paragraph_makes_the_translation_stale(tmp_path):
    """Change one sentence of chapter 1 in a copy of the book: the check names that paragraph.
    (In `make test-full`: it proves the check above can fail, and builds the book once more.)"""
    for name in ["_config.yml", "_toc.yml", "book", "notebooks", "locale", "scripts"]:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("*.mo"))
        else:
            shutil.copy(source, tmp_path / name)
    chapter = tmp_path / "notebooks" / "01_embedding_is_onehot_matmul.ipynb"
    old = "Looking up token $i$ returns row $i$."
    text = chapter.read_text()
    assert text.count(old) == 1, "the sentence this test edits is gone: pick another"
    chapter.write_text(text.replace(old, "Looking up token $i$ returns row number $i$."))
    problems = stale(tmp_path, extract(tmp_path))
    page = "notebooks/01_embedding_is_onehot_matmul"
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{page}: new or changed English paragraph")
    assert "An **embedding table** $E$ is a matrix" in problems[0]
    assert problems[1].startswith(f"{page}: translation of a paragraph the page no longer has")


def test_the_shipped_font_draws_every_chinese_character_of_the_site():
    """make book cuts the font to the characters of the pages: none may be missing from it."""
    from fontTools.ttLib import TTFont

    fonts = HTML / "assets" / "fonts"
    assert (fonts / "noto-sans-sc.css").exists(), "no font: run `make book`"
    drawn = set()
    for woff2 in fonts.glob("*.woff2"):
        drawn |= {chr(code) for code in TTFont(woff2).getBestCmap()}
    pages = [*(HTML / "zh").rglob("*.html"), *(p for p in HTML.glob("*/*.html"))]
    used = {c for page in pages for c in CJK.findall(page.read_text())}
    assert len(used) > 500, f"only {len(used)} Chinese characters on the site"
    assert used - drawn == set(), f"characters the font lacks: {''.join(sorted(used - drawn))}"
