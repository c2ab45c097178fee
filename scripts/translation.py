"""Build the book in another language from locale/, or extract the English messages to translate.

    python scripts/translation.py gettext _build/gettext     # the .pot files sphinx-intl reads
    python scripts/translation.py html _build/html/zh zh_CN  # the Chinese site beside the English
    python scripts/translation.py font FONT.tgz _build/html  # its font, cut to the characters used

Both run Jupyter Book's own Sphinx build (the configuration of _config.yml and _toc.yml), with
warnings as errors and nitpicky references like `make book`. The translated site lives one folder
below the English one and shares its assets (MathJax, the widget manager, the fonts).
"""

import hashlib
import io
import logging
import pathlib
import re
import shutil
import sys
import tarfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# What a translated site is made from: the book's sources and translations, the packages that
# build it, this script, and the English site's files it shares (book/_ext/translations.py). When
# none has changed since the last build, the site is not built again. The two heavy imports wait
# until a build or a font is really made.
SOURCES = ["_config.yml", "_toc.yml", "requirements-lock.txt", "scripts/translation.py", "book",
           "notebooks", "locale"]
SHARED = ["_static", "_images"]


def translated_overrides(language: str, site: pathlib.Path) -> dict:
    """Sphinx settings of a translated site that will live in `site`, a folder of the English one
    (book/_ext/translations.py moves its asset paths and shares the English site's files)."""
    return {
        "language": language,
        "html_extra_path": [],  # the assets are the English site's
        "html_copy_source": False,  # the download buttons serve the English site's sources
        "translation_english_site": str(site.parent),
    }


def build(builder: str, outdir: pathlib.Path, language: str | None = None) -> int:
    """Run one Sphinx build of the book into `outdir`; return its exit status."""
    overrides = {"external_toc_path": "_toc.yml", "nitpicky": True,
                 "latex_individualpages": False}
    target, doctrees = outdir, ROOT / "_build" / f".doctrees-{language or builder}"
    if language == "zh_CN":  # Sphinx indexes Chinese words for search with jieba: quietly
        import jieba

        jieba.setLogLevel(logging.WARNING)
    if language:
        # Built in a folder of its own (MyST-NB keeps its executed copies beside it, outside the
        # site), written afresh (book/_ext/translations.py rewrites the pages once), then copied.
        stamp, key = ROOT / "_build" / f"site-{language}" / "sources.sha256", fingerprint(target.parent)
        if (target / "index.html").exists() and stamp.exists() and stamp.read_text() == key:
            print(f"{target.relative_to(ROOT)}: up to date (no source changed since it was built)")
            return 0
        overrides.update(translated_overrides(language, target))
        outdir = stamp.parent / "html"
        shutil.rmtree(outdir, ignore_errors=True)
    if builder == "gettext":  # every message extracted afresh, whatever changed
        doctrees = outdir / ".doctrees"
        overrides["html_extra_path"] = []  # not needed to extract, and absent before `make book`
        # Figures carry only image/png, which the gettext builder has no use for.
        overrides["suppress_warnings"] = ["mystnb.unknown_mime_type", "mystnb.mime_priority"]
        shutil.rmtree(outdir, ignore_errors=True)
    from jupyter_book.sphinx import build_sphinx

    status = build_sphinx(ROOT, outdir, noconfig=True, path_config=ROOT / "_config.yml",
                          confoverrides=overrides, doctreedir=doctrees, builder=builder,
                          warningiserror=True, keep_going=True, quiet=True,
                          force_all=bool(language))  # every page written into the fresh folder
    if language and status == 0:
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(outdir, target, ignore=shutil.ignore_patterns(".buildinfo"))
        stamp.write_text(key)
    return status


def fingerprint(english_site: pathlib.Path) -> str:
    """A digest of every file a translated site is made from (SOURCES, and the English site's
    SHARED folders), by path and content."""
    digest = hashlib.sha256()
    roots = [(ROOT, name) for name in SOURCES] + [(english_site, name) for name in SHARED]
    for base, name in roots:
        path = base / name
        files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
        for file in files:
            # Compiled catalogues (.mo) are the build's own output, made from the .po files.
            if "__pycache__" not in file.parts and file.suffix != ".mo" and file.exists():
                digest.update(f"{file.relative_to(base)}\0".encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()


# CJK ideographs and punctuation, full-width forms: what the site's own font draws. Latin letters,
# digits and maths keep the theme's fonts.
CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
FONT_MEMBER = "package/400Regular/NotoSansSC_400Regular.ttf"
FAMILY = "Book Noto Sans SC"


def characters(files) -> set[str]:
    """The CJK characters in some text files."""
    return {c for path in files for c in CJK.findall(path.read_text(errors="ignore"))}


def unicode_range(chars: set[str]) -> str:
    return ", ".join(f"U+{ord(c):X}" for c in sorted(chars))


def font(archive: pathlib.Path, site: pathlib.Path) -> int:
    """Cut Noto Sans SC down to the CJK characters of the built site, as woff2 beside its CSS.

    The characters of the English pages (the switch's name of the other language) get a file of
    their own, so an English page downloads a few kilobytes, not the Chinese text's font."""
    pages = [p for p in site.rglob("*.html") if p.relative_to(site).parts[0] != "assets"]
    english = characters(p for p in pages if p.relative_to(site).parts[0] != "zh")
    # The Chinese pages, and the interface text the scripts (theirs and the English site's) show.
    chinese = characters([*(site / "zh").rglob("*.html"), *(site / "zh").rglob("*.js"),
                          *(site / "_static").rglob("*.js")])
    parts = {"switch": english, "text": chinese - english}
    out = site / "assets" / "fonts"
    stamp = out / "characters.txt"
    key = f"{archive.name}\n" + "\n".join("".join(sorted(c)) for c in parts.values())
    if stamp.exists() and stamp.read_text() == key:
        return 0
    from fontTools import subset

    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tar:
        ttf = tar.extractfile(FONT_MEMBER).read()
        (out / "OFL.txt").write_bytes(tar.extractfile("package/LICENSE_FONT").read())
    css = [f"/* {FAMILY}: Noto Sans SC (SIL Open Font License 1.1, OFL.txt), cut to the "
           "characters the site uses by scripts/translation.py. */"]
    for name, chars in parts.items():
        if not chars:
            continue
        options = subset.Options(flavor="woff2", layout_features=["*"], name_IDs=["*"],
                                 name_languages=["*"], notdef_outline=True)
        subsetter = subset.Subsetter(options)
        face = subset.load_font(io.BytesIO(ttf), options)
        subsetter.populate(text="".join(chars))
        subsetter.subset(face)
        subset.save_font(face, out / f"noto-sans-sc-{name}.woff2", options)
        css.append(f"@font-face {{\n  font-family: \"{FAMILY}\";\n"
                   f"  font-display: swap;\n  src: url(\"noto-sans-sc-{name}.woff2\") format(\"woff2\");"
                   f"\n  unicode-range: {unicode_range(chars)};\n}}")
    (out / "noto-sans-sc.css").write_text("\n".join(css) + "\n")
    stamp.write_text(key)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in {"gettext", "html", "font"}:
        sys.exit(__doc__)
    if sys.argv[1] == "font":
        sys.exit(font(pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])))
    sys.exit(build(sys.argv[1], pathlib.Path(sys.argv[2]).resolve(), *sys.argv[3:4]))
