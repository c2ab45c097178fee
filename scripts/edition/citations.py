"""{cite} roles as author-year links, and the reference list that replaces {bibliography}."""

from __future__ import annotations

from bookkit import ROOT
from pybtex.database import BibliographyData, parse_file
from pybtex.plugin import find_plugin

from edition.chapter import Chapter, anchor

BIBFILE = ROOT / "book" / "references.bib"


def bibliography() -> BibliographyData:
    """The parsed book/references.bib."""
    return parse_file(str(BIBFILE))


BIB = bibliography()


def plain(text: str) -> str:
    """BibTeX text without its protective braces."""
    return text.replace("{", "").replace("}", "")


def author_year(key: str) -> str:
    """'Press and Wolf, 2017' for a bib key ('Vaswani et al., 2017' for three authors or more)."""
    entry = BIB.entries[key]
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [plain(" ".join(p.prelast_names + p.last_names)) for p in people]
    if len(names) >= 3 or (len(names) == 2 and names[1] == "others"):
        who = f"{names[0]} et al."
    else:
        who = " and ".join(names) or plain(entry.fields.get("title", key))
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


def reference_list(keys: list[str]) -> str:
    """The cited entries as a Markdown list, each with an anchor the citations link to."""
    style = find_plugin("pybtex.style.formatting", "plain")()
    entries = style.format_entries(BIB.entries[key] for key in keys)
    items = []
    for entry in entries:
        text = " ".join(entry.text.render_as("markdown").split())
        items.append(f"- {anchor('ref-' + entry.key)}{text}")
    return "\n".join(items)


def resolve_key(chapter: Chapter, key: str) -> str:
    """The bib key behind a cited key (the chapter's key prefix removed), noted as cited."""
    if not key.startswith(chapter.keyprefix):
        raise chapter.fail(f"citation {key!r} lacks the chapter's key prefix {chapter.keyprefix!r}")
    bare = key.removeprefix(chapter.keyprefix)
    if bare not in BIB.entries:
        raise chapter.fail(f"citation {key!r}: no entry {bare!r} in {BIBFILE.name}")
    if bare not in chapter.cited:
        chapter.cited.append(bare)
    return bare


def cite(chapter: Chapter, content: str) -> str:
    """A {cite} role's keys as '([Press and Wolf, 2017](#ref-press2017); ...)'."""
    keys = [resolve_key(chapter, k.strip()) for k in content.split(",") if k.strip()]
    return "(" + "; ".join(f"[{author_year(key)}](#ref-{key})" for key in keys) + ")"
