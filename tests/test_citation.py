"""The licences and the citation: each fact written once, or its copies agreeing.

CITATION.cff is the source of the book's title, version, year, web address and repository;
the references page's BibTeX, `_config.yml` (title, copyright year, repository), the site's
footer and each edition's first cell repeat some of them, and must agree with it.
"""

import re

import nbformat
import notebook_edition
import yaml
from conftest import ROOT, toc_notebooks

CITATION = yaml.safe_load((ROOT / "CITATION.cff").read_text())
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
BIBTEX = re.search(r"```bibtex\n(?P<entry>@book\{.*?\n\})\n```",
                   (ROOT / "book" / "references.md").read_text(), re.DOTALL)["entry"]


def bibtex_fields(entry: str) -> dict[str, str]:
    """The fields of one BibTeX entry, without their outer braces."""
    fields = re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$", entry, re.MULTILINE)
    return {key: value.strip("{}") for key, value in fields}


def citation_facts() -> dict[str, str]:
    """Title, version, year, web address and repository, as CITATION.cff states them."""
    return {"title": CITATION["title"], "version": CITATION["version"],
            "year": str(CITATION["date-released"])[:4], "url": CITATION["url"],
            "repository": CITATION["repository-code"]}


def test_the_preferred_citation_repeats_the_book_facts():
    preferred = CITATION["preferred-citation"]
    facts = citation_facts()
    assert (preferred["title"], str(preferred["year"]), preferred["url"]) == (
        facts["title"], facts["year"], facts["url"])
    assert preferred["authors"] == CITATION["authors"]


def test_the_references_page_bibtex_agrees_with_citation_cff():
    fields, facts = bibtex_fields(BIBTEX), citation_facts()
    assert fields["title"] == facts["title"]
    assert fields["year"] == facts["year"]
    assert fields["url"] == facts["url"]
    assert fields["note"] == f"Version {facts['version']}"
    assert fields["author"] == CITATION["authors"][0]["name"]


def test_the_site_configuration_agrees_with_citation_cff():
    facts = citation_facts()
    assert CONFIG["title"] == facts["title"]
    assert str(CONFIG["copyright"]) == facts["year"]
    assert CONFIG["repository"]["url"] == facts["repository"]
    assert CONFIG["author"] == CITATION["authors"][0]["name"]


def test_the_licences_are_stated_where_readers_look():
    assert CITATION["license"] == ["MIT", "CC-BY-4.0"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "Attribution 4.0 International" in (ROOT / "LICENSE-CONTENT").read_text()
    footer = CONFIG["html"]["extra_footer"]
    readme = (ROOT / "README.md").read_text()
    for where, text in (("the site's footer", footer), ("README.md", readme),
                        ("the editions' first cell", notebook_edition.licence_note())):
        assert "CC BY 4.0" in text and "MIT" in text, f"{where} does not state both licences"


def test_each_edition_opens_with_the_licence_and_the_book_address():
    note = notebook_edition.licence_note()
    assert CITATION["url"] in note and CITATION["title"] in note
    chapter = toc_notebooks()[0]
    for student in (False, True):
        first = notebook_edition.edition(chapter, student=student).cells[0]
        assert first.cell_type == "markdown" and first.source.endswith(note)
        assert nbformat.read(chapter, as_version=4).cells[0].source.startswith(
            first.source.removesuffix(note).rstrip()[:40])


def test_pages_link_the_repository_that_config_names():
    """A link into the book's repository from a page uses `repository.url` (a fork changes it)."""
    owner = CONFIG["repository"]["url"].split("/")[3]
    for page in sorted((ROOT / "book").glob("*.md")):
        for url in re.findall(rf"https://github\.com/{owner}/[\w.-]+", page.read_text()):
            assert url == CONFIG["repository"]["url"], f"{page.name} links {url}"
    guide = "CONTRIBUTING.md"
    assert f"{CONFIG['repository']['url']}/blob/main/{guide}" in (
        ROOT / "book" / "how-to-use.md").read_text()
    assert (ROOT / guide).exists()
