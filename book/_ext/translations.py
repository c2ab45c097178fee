"""The language switch, and a translated site that ships only what differs from the English one.

A page is translated when locale/<language>/LC_MESSAGES/<page>.po exists (`make translations`
keeps those files current). The English page and its translation then carry a switch
(book/_templates/layout.html) linking each to the other. The translated site is built by
scripts/translation.py into a folder of the English site (_build/html/zh/). In it, a page with
no translation file becomes a short page that sends the reader to the English one, and the theme
files that are byte for byte the English site's are loaded from there instead of shipped twice.
"""

import pathlib
import posixpath
import re
import shutil

from docutils import nodes
from sphinx import addnodes
from sphinx.locale import init as init_locale
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain

# Per translated language: its site's folder, its name in the switch, and MyST-NB's labels of a
# hidden cell ("Show code cell source").
SITES = {"zh_CN": {"folder": "zh", "lang": "zh-CN", "name": "中文",
                   "cell_prompts": ("显示代码单元格", "隐藏代码单元格")}}
ENGLISH = {"lang": "en", "name": "English"}
WORD = re.compile("[A-Za-z]{3,}")
SHARED = ["_static", "_images"]  # folders whose identical files the translated site takes from
LINK = re.compile(r"""(?:(?<=href=")|(?<=src="))(?![a-z][a-z0-9+.-]*:|#|/)[^"]+""")
SHARED_REF = re.compile(r"""(?<=["'])((?:\.\./)*)((?:_static|_images)/[^"'?#\s]+)""")


class KeepUntranslatable(SphinxTransform):
    """Display maths, and text with no word in it (a number, a size), are not messages to
    translate: they are neither extracted nor looked up, so a changed number in a table does not
    make a translation stale. Runs before Sphinx's own translation transform (priority 20)."""

    default_priority = 10

    def apply(self, **kwargs) -> None:
        for node in self.document.findall(nodes.TextElement):
            if isinstance(node, nodes.math_block) or not WORD.search(node.astext()):
                node["translatable"] = False


class TranslateExerciseTitles(SphinxTransform):
    """An exercise's title (the {exercise} directive's argument) carries no source line and no raw
    text, so Sphinx would neither extract nor translate it: give it its exercise's, and its text."""

    default_priority = 10

    def apply(self, **kwargs) -> None:
        for node in self.document.findall(nodes.subtitle):
            anchor = node.parent
            while anchor is not None and not anchor.source:
                anchor = anchor.parent
            if not node.source and anchor is not None:
                node.source, node.line = anchor.source, anchor.line
                node.rawsource = node.rawsource or node.astext()
                if self.app.builder.name == "gettext":  # extracted now: a later step rebuilds
                    node.uid = ""  # the title without it (sphinx_exercise's title resolution)
                    domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
                    self.app.builder.catalogs[domain].add(node.rawsource, node)


class TranslateTocCaptions(SphinxTransform):
    """The sidebar's part captions (_toc.yml) are extracted with the root page's messages, but
    sphinx_external_toc inserts them (priority 100) after Sphinx has translated the page (20).
    Also brings sphinx_exercise's copies of the exercises up to date with their translation."""

    default_priority = 101

    def apply(self, **kwargs) -> None:
        if self.config.language not in SITES:
            return
        domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
        dirs = [str(pathlib.Path(self.env.srcdir, d)) for d in self.config.locale_dirs]
        catalog, found = init_locale(dirs, self.config.language, domain)
        if found:
            for toctree in self.document.findall(addnodes.toctree):
                if toctree.get("caption"):
                    toctree["caption"] = catalog.gettext(toctree["caption"])
        # sphinx_exercise keeps a copy of each exercise, made before translation, for the titles
        # of its solutions: copy the translated exercise instead.
        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for node in self.document.findall(nodes.Element):
            entry = registry.get(node.get("label"))
            if entry and entry.get("docname") == self.env.docname and "node" in entry \
                    and type(node) is type(entry["node"]):
                entry["node"] = node.deepcopy()


def translated_pages(app, language: str) -> set[str]:
    """The pages with a translation file for `language`."""
    found = set()
    for locale_dir in app.config.locale_dirs:
        messages = pathlib.Path(app.srcdir, locale_dir, language, "LC_MESSAGES")
        found |= {po.relative_to(messages).with_suffix("").as_posix() for po in messages.rglob("*.po")}
    return found


def pages_changing_language(app, env, added, changed, removed) -> list[str]:
    """Pages that gained or lost a translation file since the last build: their switch changes."""
    now = {(language, page) for language in SITES for page in translated_pages(app, language)}
    before = getattr(env, "translation_files_seen", set())
    env.translation_files_seen = now
    return sorted({page for _, page in now ^ before} & env.found_docs)


def add_switch(app, pagename, templatename, context, doctree):
    """Give a translated page (in either language) its switch; stub an untranslated one."""
    language = app.config.language
    if language in SITES:  # the translated site, one folder below the English one
        english = "../" * (pagename.count("/") + 1) + pagename + ".html"
        if pagename not in translated_pages(app, language):
            if doctree is None:  # the search page and the index: built in this language
                return None
            context["english_page"] = english
            return "translation-missing.html"
        site = SITES[language]
        context["language_switch"] = [dict(ENGLISH, href=english),
                                      {k: site[k] for k in ("lang", "name")} | {"href": None}]
        # The download button serves the English site's notebook (this site copies no sources).
        context["sourcename"] = pagename + context.get("page_source_suffix", "")
        return None
    for other, site in SITES.items():
        if pagename in translated_pages(app, other):
            href = "../" * pagename.count("/") + f"{site['folder']}/{pagename}.html"
            context["language_switch"] = [dict(ENGLISH, href=None),
                                          {k: site[k] for k in ("lang", "name")} | {"href": href}]
    return None


def empty_untranslated(app, doctree, docname) -> None:
    """In a translated site, a page without a translation becomes a stub sending the reader to the
    English page: its content is neither rendered nor indexed for search."""
    if app.config.language in SITES and docname not in translated_pages(app, app.config.language):
        doctree.children.clear()


def share_english_files(app, exception) -> None:
    """In a translated site: load the theme files and images that are byte for byte the English
    site's from there, and drop the images no translated page shows."""
    if exception is not None or app.builder.format != "html" or app.config.language not in SITES:
        return
    out, english_site = pathlib.Path(app.outdir), pathlib.Path(app.config.translation_english_site)
    shared = set()
    for folder in SHARED:
        for path in (out / folder).rglob("*"):
            english = english_site / path.relative_to(out)
            if path.is_file() and english.is_file() and english.read_bytes() == path.read_bytes():
                shared.add(path.relative_to(out).as_posix())
    shutil.rmtree(out / "_sources", ignore_errors=True)  # the download buttons serve the English
    ours = {path.name for path in out.iterdir() if path.is_file() or any(path.rglob("*.*"))}
    used = set()
    for page in out.rglob("*.html"):
        text = SHARED_REF.sub(lambda m: "../" + m[0] if m[2] in shared else m[0], page.read_text())
        where = page.relative_to(out)
        text = LINK.sub(lambda m, where=where: to_english_site(m[0], where, ours), text)
        page.write_text(text)
        depth = len(page.relative_to(out).parts) - 1
        used |= {m[2] for m in SHARED_REF.finditer(text) if m[1].count("../") <= depth}  # ours
    for name in shared:
        (out / name).unlink()
    for image in (out / "_images").glob("*"):
        if image.relative_to(out).as_posix() not in used:
            image.unlink()
    for folder in sorted(out.rglob("*"), key=lambda p: -len(p.parts)):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    root = app.builder.get_target_uri(app.config.root_doc)
    (out / "index.html").write_text(f'<meta http-equiv="Refresh" content="0; url={root}" />\n')


def to_english_site(url: str, page: pathlib.Path, ours: set[str]) -> str:
    """A link from a translated page to a folder the translated site lacks (the sources, student
    notebooks, PDFs) goes to the English site's."""
    target = posixpath.normpath(posixpath.join(page.parent.as_posix(), url.split("#")[0].split("?")[0]))
    first = target.split("/")[0]
    return url if first in ours or first in {"..", "."} else "../" + url


def adapt_config(app, config) -> None:
    """Every page loads the CSS of the site's CJK font (made by `make book` in assets/fonts/). A
    translated site, one folder below the English one, reaches the English site's assets (MathJax,
    the widget manager, the fonts) one folder further up."""
    climb = "../" if config.language in SITES else ""
    if climb:
        config.nb_code_prompt_show, config.nb_code_prompt_hide = SITES[config.language]["cell_prompts"]
        config.mathjax_path = climb + config.mathjax_path
        config.nb_ipywidgets_js = {climb + path: attributes
                                   for path, attributes in config.nb_ipywidgets_js.items()}
    app.add_css_file(climb + "../assets/fonts/noto-sans-sc.css")


def setup(app):
    app.add_config_value("translation_english_site", "", "html")  # set by scripts/translation.py
    app.add_transform(KeepUntranslatable)
    app.add_transform(TranslateExerciseTitles)
    app.add_transform(TranslateTocCaptions)
    app.connect("config-inited", adapt_config)
    app.connect("env-get-outdated", pages_changing_language)
    app.connect("html-page-context", add_switch, priority=100)  # before the theme's buttons
    app.connect("doctree-resolved", empty_untranslated)
    app.connect("build-finished", share_english_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
