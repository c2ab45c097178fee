"""Write the Jupyter/Colab edition (or the student edition) of the chapters.

Usage:
    python scripts/notebook_edition.py [--student] OUTPUT_DIR NOTEBOOK...

Jupyter and Colab do not render MyST, so every MyST construct of a chapter is
rewritten as plain Markdown; code cells, their outputs and the saved widget
state are kept exactly:

- ``{exercise}`` blocks become numbered headings ("Exercise 2.3 (Title)") with
  an anchor named after the exercise label;
- a ``{solution-start}`` ... ``{solution-end}`` run of cells becomes one
  Markdown cell holding a ``<details>`` block (collapsed until clicked) with the
  solution's prose, its code and the output that code printed when the chapter
  was executed;
- ``{cite}`` roles become author-year links to a reference list that replaces
  the ``{bibliography}`` directive, formatted by pybtex from book/references.bib;
- admonitions become block quotes, ``(label)=`` targets become HTML anchors,
  ``{ref}``/``{numref}``/``{doc}``/``{glue}``/``{math}`` roles become text.

Exercises are self-checking in both editions. Where a solution stood, the
reader gets an answer cell: for an exercise followed by a check cell (tagged
``exercise-check``, ending in ``check(test, name, ...)``) a code cell setting
each answer name to None, which the check then reports as "not answered yet";
for a pen-and-paper exercise a Markdown cell for the derivation; otherwise an
empty code cell. The check cells keep no stored output (it reported on the
official solution).

A cell tagged ``no-js-fallback`` (the website's static stand-in for an explorable when JavaScript
is off) is left out: in Jupyter and Colab the explorable itself runs.

The student edition (``--student``) is the same conversion without the
solutions, without the answers to the "Check your understanding" questions
(admonitions of class ``answer``) and the cell that checks them (tagged
``answer-check``), with outputs and widget state cleared. Any MyST directive,
role or option the converter does not know raises an error naming the notebook
and cell: nothing reaches a reader raw.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import html
import pathlib
import re
import sys

import nbformat
import yaml
from pybtex.database import parse_file
from pybtex.plugin import find_plugin

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIBFILE = ROOT / "book" / "references.bib"

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
ROLE = re.compile(r"(?<!`)\{(?P<name>[A-Za-z][\w:+-]*)\}`(?P<content>[^`]+)`")
CODE_OR_ROLE = re.compile(r"(?P<role>\{[A-Za-z][\w:+-]*\}`[^`]+`)|(?P<ticks>`+)[^`]*?(?P=ticks)")
TARGET = re.compile(r"^\((?P<label>[^()\s]+)\)=\s*$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?$")
DOLLAR_LABEL = re.compile(r"^(?P<maths>.*\$\$)\s*\((?P<label>[^()\s]+)\)\s*$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.+?)\s*#*\s*$")
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
EXERCISE_LABEL = re.compile(
    r"^\*\*(?P<stars>★{1,3}☆{0,2}) · (?P<minutes>\d+) min · (?P<kind>code|pen and paper|mini-project)\*\*$")
ANSWER_TAG, CHECK_TAG, ANSWER_CHECK_TAG = "answer", "exercise-check", "answer-check"
FALLBACK_TAG = "no-js-fallback"  # what the website shows for an explorable without JavaScript
ADMONITIONS = {"note", "tip", "hint", "important", "warning", "caution", "attention",
               "danger", "error", "seealso"}


class MystError(ValueError):
    """MyST syntax the converter does not know how to write as plain Markdown."""


@dataclasses.dataclass
class Chapter:
    """What the conversion of one notebook needs to know beyond a single cell."""

    path: pathlib.Path
    number: str
    exercises: dict[str, str]  # label -> "N.M"
    exercise_titles: dict[str, str]  # label -> title (MyST source)
    targets: dict[str, str]  # label of a (label)= target -> text of the heading it marks
    glue: dict[str, dict]  # glued name -> output data (mime -> value)
    keyprefix: str
    kinds: dict[str, str] = dataclasses.field(default_factory=dict)  # label -> exercise kind
    student: bool = False
    cited: list[str] = dataclasses.field(default_factory=list)  # bib keys, first-cited order
    heading_level: int = 1
    cell: int = 0
    deeper: str | None = None  # the title of the open Going-deeper block, if any
    deeper_cells: int = 0  # how many Markdown cells of that block were written
    deeper_ends: bool = False  # the current cell closes it

    def fail(self, message: str) -> MystError:
        return MystError(f"{self.path.name}, cell {self.cell}: {message}")


def anchor(label: str) -> str:
    """An empty link target; `name` as well as `id`, which some front ends' sanitizers drop."""
    return f'<a id="{label}" name="{label}"></a>'


# ---------------------------------------------------------------- bibliography


def bibliography():
    """The parsed book/references.bib (pybtex BibliographyData)."""
    return parse_file(str(BIBFILE))


def plain(text: str) -> str:
    """BibTeX text without its protective braces."""
    return text.replace("{", "").replace("}", "")


def author_year(key: str, textual: bool = False) -> str:
    """'Press and Wolf, 2017' (or 'Press and Wolf (2017)' when textual) for a bib key."""
    entry = BIB.entries[key]
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [plain(" ".join(p.prelast_names + p.last_names)) for p in people]
    if len(names) >= 3 or (len(names) == 2 and names[1] == "others"):
        who = f"{names[0]} et al."
    else:
        who = " and ".join(names) or plain(entry.fields.get("title", key))
    year = entry.fields.get("year", "n.d.")
    return f"{who} ({year})" if textual else f"{who}, {year}"


def reference_list(keys: list[str]) -> str:
    """The cited entries as a Markdown list, each with an anchor the citations link to."""
    style = find_plugin("pybtex.style.formatting", "plain")()
    entries = style.format_entries(BIB.entries[key] for key in keys)
    items = []
    for entry in entries:
        text = " ".join(entry.text.render_as("markdown").split())
        items.append(f"- {anchor('ref-' + entry.key)}{text}")
    return "\n".join(items)


BIB = bibliography()

# ------------------------------------------------------------------ inline MyST


def resolve_key(chapter: Chapter, key: str) -> str:
    """The bib key behind a cited key (the chapter's key prefix removed)."""
    if not key.startswith(chapter.keyprefix):
        raise chapter.fail(f"citation {key!r} lacks the chapter's key prefix {chapter.keyprefix!r}")
    bare = key.removeprefix(chapter.keyprefix)
    if bare not in BIB.entries:
        raise chapter.fail(f"citation {key!r}: no entry {bare!r} in {BIBFILE.name}")
    if bare not in chapter.cited:
        chapter.cited.append(bare)
    return bare


def cite(chapter: Chapter, content: str, textual: bool) -> str:
    keys = [resolve_key(chapter, k.strip()) for k in content.split(",") if k.strip()]
    links = [f"[{author_year(key, textual)}](#ref-{key})" for key in keys]
    return "; ".join(links) if textual else "(" + "; ".join(links) + ")"


def reference(chapter: Chapter, content: str, numbered: bool) -> str:
    """A {ref} or {numref} role as a Markdown link to the anchor it names."""
    match = EXPLICIT.match(content)
    text, label = (match["text"], match["target"]) if match else (None, content.strip())
    if label in chapter.exercises:
        number = chapter.exercises[label]
        default = f"Exercise {number}"
        if text and numbered:
            text = text.replace("%s", number).replace("{number}", number)
    elif label in chapter.targets:
        default = chapter.targets[label]
    else:
        raise chapter.fail(f"reference to unknown label {label!r}")
    return f"[{inline(chapter, text or default)}](#{label})"


def glued(chapter: Chapter, content: str, kind: str) -> str:
    """A {glue} role: the glued value as the notebook displayed it."""
    name, _, spec = content.partition(":")
    if name not in chapter.glue:
        raise chapter.fail(f"no glued value named {name!r}")
    data = chapter.glue[name]
    if kind == "glue:md":
        return "".join(data["text/markdown"])
    if kind == "glue:text" and spec:
        return format(float("".join(data["text/plain"])), spec)
    return "".join(data["text/plain"]).strip("'\"")


def document(chapter: Chapter, content: str) -> str:
    """A {doc} role as a link: a sibling notebook of this edition, or a page on GitHub."""
    match = EXPLICIT.match(content)
    text, target = (match["text"], match["target"]) if match else (None, content.strip())
    source = (chapter.path.parent / target).resolve()
    for suffix in (".ipynb", ".md"):
        file = source.with_suffix(suffix)
        if file.exists():
            break
    else:
        raise chapter.fail(f"{{doc}} names a page that does not exist: {target!r}")
    if not text:
        text = document_title(file)
    if file.suffix == ".ipynb" and file.parent == chapter.path.parent:
        return f"[{text}]({file.name})"
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    return f"[{text}]({repo['url']}/blob/{repo.get('branch', 'main')}/{file.relative_to(ROOT)})"


def document_title(file: pathlib.Path) -> str:
    """The first heading of a Markdown page or notebook."""
    if file.suffix == ".ipynb":
        text = "\n".join(c.source for c in nbformat.read(file, as_version=4).cells
                         if c.cell_type == "markdown")
    else:
        text = file.read_text()
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            return heading["text"]
    return file.stem


def role(chapter: Chapter, match: re.Match) -> str:
    name, content = match["name"], match["content"]
    if name in ("cite", "cite:p"):
        return cite(chapter, content, textual=False)
    if name == "cite:t":
        return cite(chapter, content, textual=True)
    if name in ("ref", "numref"):
        return reference(chapter, content, numbered=name == "numref")
    if name in ("glue", "glue:", "glue:any", "glue:text", "glue:md"):
        return glued(chapter, content, name)
    if name == "math":
        return f"${content}$"
    if name in ("sub", "sup"):
        return f"<{name}>{content}</{name}>"
    if name == "doc":
        return document(chapter, content)
    if name == "abbr":
        return EXPLICIT.sub(r"\g<text> (\g<target>)", content)
    raise chapter.fail(f"unknown MyST role {{{name}}}")


def inline(chapter: Chapter, text: str) -> str:
    """Text with every MyST role replaced by plain Markdown."""
    return ROLE.sub(lambda m: role(chapter, m), text)


# ------------------------------------------------------------------ block MyST


@dataclasses.dataclass
class Directive:
    name: str
    argument: str
    options: dict[str, str]
    body: str


def split_directive(lines: list[str], start: int, chapter: Chapter) -> tuple[Directive, int]:
    """Parse the directive fenced at lines[start]; return it and the index after its closing fence."""
    opening = FENCE.match(lines[start])
    char, width = opening["fence"][0], len(opening["fence"])
    head = re.match(r"^\{(?P<name>[^}]+)\}\s*(?P<arg>.*)$", opening["info"].strip())
    closing = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{width},}}\s*$")
    end = next((i for i in range(start + 1, len(lines)) if closing.match(lines[i])), None)
    if end is None:
        raise chapter.fail(f"directive {{{head['name']}}} is never closed")
    body = lines[start + 1:end]
    options: dict[str, str] = {}
    if body and body[0].strip() == "---":
        close = body.index("---", 1)
        options = {k: str(v) for k, v in (yaml.safe_load("\n".join(body[1:close])) or {}).items()}
        body = body[close + 1:]
    while body and OPTION.match(body[0]):
        option = OPTION.match(body[0])
        options[option["key"]] = (option["value"] or "").strip()
        body = body[1:]
    return Directive(head["name"], head["arg"].strip(), options, "\n".join(body).strip("\n")), end + 1


def check_options(chapter: Chapter, directive: Directive, allowed: set[str]) -> None:
    unknown = set(directive.options) - allowed
    if unknown:
        raise chapter.fail(f"{{{directive.name}}}: options the converter does not know: {sorted(unknown)}")


def quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.splitlines())


def directive_markdown(chapter: Chapter, d: Directive) -> str:
    """A block directive written as plain Markdown."""
    if d.name == "exercise":
        check_options(chapter, d, {"label", "class", "nonumber"})
        level = "#" * min(chapter.heading_level + 1, 6)
        label = d.options.get("label")
        number = "" if "nonumber" in d.options or not label else " " + chapter.exercises[label]
        title = f" ({inline(chapter, d.argument)})" if d.argument else ""
        target = f"{anchor(label)}\n\n" if label else ""
        return f"{target}{level} Exercise{number}{title}\n\n{convert_text(chapter, d.body)}"
    if d.name == "bibliography":
        check_options(chapter, d, {"filter", "keyprefix", "style"})
        if d.options.get("filter", "docname in docnames") not in ("docname in docnames", "cited"):
            raise chapter.fail(f"{{bibliography}} filter {d.options['filter']!r} is not supported")
        return "\n\n".join(filter(None, [reference_list(chapter.cited), convert_text(chapter, d.body)]))
    if d.name == "admonition" or d.name in ADMONITIONS:
        check_options(chapter, d, {"class", "name"})
        if chapter.student and ANSWER_TAG in d.options.get("class", "").split():
            return ""  # an answer to a "Check your understanding" question
        title = d.argument if d.name == "admonition" else d.name.capitalize()
        body = convert_text(chapter, d.body)
        if "dropdown" in d.options.get("class", "").split():
            return f"<details>\n<summary>{inline(chapter, title)}</summary>\n\n{body}\n\n</details>"
        return quote(f"**{inline(chapter, title)}**\n\n{body}")
    if d.name == "math":
        check_options(chapter, d, {"label", "name"})
        label = d.options.get("label") or d.options.get("name")
        target = f"{anchor(label)}\n\n" if label else ""
        return f"{target}$$\n{d.body}\n$$"
    if d.name == "deeper-start":
        check_options(chapter, d, set())
        if chapter.deeper is not None:
            raise chapter.fail("a {deeper-start} inside another Going-deeper block")
        chapter.deeper, chapter.deeper_cells = inline(chapter, d.argument), 0
        return ""
    if d.name == "deeper-end":
        if chapter.deeper is None:
            raise chapter.fail("a {deeper-end} without a {deeper-start}")
        chapter.deeper_ends = True
        return ""
    if d.name in ("solution", "solution-start", "solution-end"):
        raise chapter.fail(f"{{{d.name}}} must stand alone in its Markdown cell")
    raise chapter.fail(f"unknown MyST directive {{{d.name}}}")


def convert_text(chapter: Chapter, text: str) -> str:
    """A Markdown cell's MyST source written as plain Markdown."""
    lines, out, i, paragraph = text.splitlines(), [], 0, []

    def flush() -> None:
        if paragraph:
            out.append(inline(chapter, "\n".join(paragraph)))
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        heading = HEADING.match(line)
        if heading:
            chapter.heading_level = len(heading["hashes"])
        if fence and fence["info"].strip().startswith("{"):
            flush()
            directive, i = split_directive(lines, i, chapter)
            out.append(directive_markdown(chapter, directive))
            continue
        if fence:  # an ordinary code block: copied untouched
            flush()
            closing = re.compile(rf"^ {{0,3}}{re.escape(fence['fence'][0])}{{{len(fence['fence'])},}}\s*$")
            end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), len(lines) - 1)
            out.append("\n".join(lines[i:end + 1]))
            i = end + 1
            continue
        target = TARGET.match(line)
        if target:
            flush()
            out.append(anchor(target["label"]))
        elif line.startswith("%") or line.strip() == "+++":
            pass  # a MyST comment or block break: nothing for the reader
        else:
            labelled = DOLLAR_LABEL.match(line)
            if labelled:
                out_line = labelled["maths"]
                paragraph.append(out_line)
                flush()
                out.append(anchor(labelled["label"]))
            else:
                paragraph.append(line)
        i += 1
    flush()
    return "\n".join(out)


# ------------------------------------------------------------------- solutions


SOLUTION_MARKERS = ("solution-start", "solution-end")


def split_at_solution_markers(chapter: Chapter, cell: nbformat.NotebookNode) -> list:
    """The cell, or for a Markdown cell holding solution markers, its pieces in order:

    plain Markdown cells (the text around the markers) and the marker Directives themselves.
    """
    if cell.cell_type != "markdown" or not any("{" + m + "}" in cell.source for m in SOLUTION_MARKERS):
        return [cell]
    lines, pieces, text, i = cell.source.splitlines(), [], [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        info = fence["info"].strip() if fence else ""
        if fence and any(info.startswith("{" + m + "}") for m in SOLUTION_MARKERS):
            pieces.append("\n".join(text))
            directive, i = split_directive(lines, i, chapter)
            pieces.append(directive)
            text = []
        else:
            text.append(lines[i])
            i += 1
    pieces.append("\n".join(text))
    cells = []
    for n, piece in enumerate(p for p in pieces if not (isinstance(p, str) and not p.strip())):
        if isinstance(piece, Directive):
            cells.append(piece)
        else:
            part = nbformat.from_dict(cell)
            part.source = piece.strip("\n")
            if n and "id" in part:
                part.id = f"{cell.id}-{n}"
            cells.append(part)
    return cells


def output_markdown(output: nbformat.NotebookNode) -> str:
    """One stored output as Markdown: text in a plain code block, images inline."""
    if output.output_type == "stream":
        return "```text\n" + output.text.rstrip("\n") + "\n```"
    if output.output_type == "error":
        return f"```text\n{output.ename}: {output.evalue}\n```"
    data = output.get("data", {})
    if "image/png" in data:  # a figure shown by show(fig, alt): its own alt text and CSS width
        figure = output.get("metadata", {}).get("image/png", {})
        if not figure.get("alt"):
            raise MystError("a figure in a solution has no alt text: draw it with show(fig, alt)")
        width = f' width="{int(figure["width"])}"' if "width" in figure else ""
        return (f'<img src="data:image/png;base64,{data["image/png"].strip()}"'
                f' alt="{html.escape(figure["alt"])}"{width}>')
    if "text/markdown" in data:
        return data["text/markdown"]
    if "text/html" in data:
        return data["text/html"]
    if "text/plain" in data:
        return "```text\n" + data["text/plain"].rstrip("\n") + "\n```"
    raise MystError(f"a solution output has no type the converter can show: {sorted(data)}")


def solution_cell(chapter: Chapter, start: Directive, cells: list, cell_id: str) -> nbformat.NotebookNode:
    """The solution cells as one Markdown cell with a collapsed <details> block."""
    check_options(chapter, start, {"class", "label", "hidden"})
    label = start.argument
    if label not in chapter.exercises:
        raise chapter.fail(f"solution to unknown exercise {label!r}")
    title = chapter.exercise_titles.get(label)
    name = f"Exercise {chapter.exercises[label]}" + (f" ({inline(chapter, title)})" if title else "")
    parts = []
    for cell in cells:
        if cell.cell_type == "markdown":
            parts.append(convert_text(chapter, cell.source))
        elif cell.cell_type == "code":
            parts.append("```python\n" + cell.source.rstrip("\n") + "\n```")
            parts += [output_markdown(o) for o in cell.outputs]
    body = "\n\n".join(p for p in parts if p.strip())
    summary = f"<summary><b>Solution to {name}</b></summary>"
    return nbformat.v4.new_markdown_cell(f"<details>\n{summary}\n\n{body}\n\n</details>", id=cell_id)


# --------------------------------------------------------------------- editions


def survey(path: pathlib.Path, nb: nbformat.NotebookNode) -> Chapter:
    """Exercise numbers, targets, glued values and the citation key prefix of a chapter."""
    number = re.match(r"^(\d+)", path.name)
    chapter = Chapter(path, str(int(number.group(1))) if number else "", {}, {}, {}, {}, "")
    exercises, keyprefixes, raw_keys = 0, [], []
    for index, cell in enumerate(nb.cells, 1):
        chapter.cell = index
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                scrap = output.get("metadata", {}).get("scrapbook")
                if scrap:
                    chapter.glue[scrap["name"]] = output["data"]
            continue
        if cell.cell_type != "markdown":
            continue
        for role_match in ROLE.finditer(strip_code(cell.source)):
            if role_match["name"] in ("cite", "cite:p", "cite:t"):
                raw_keys += [(index, k.strip()) for k in role_match["content"].split(",") if k.strip()]
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            fence = FENCE.match(line)
            if fence and fence["info"].strip().startswith("{exercise}"):
                directive, _ = split_directive(lines, i, chapter)
                if "nonumber" not in directive.options:
                    exercises += 1
                label = directive.options.get("label")
                if label:
                    chapter.exercises[label] = f"{chapter.number}.{exercises}".lstrip(".")
                    chapter.exercise_titles[label] = directive.argument
                    first_line = directive.body.strip().split("\n\n")[0].strip()
                    kind = EXERCISE_LABEL.match(first_line)
                    chapter.kinds[label] = kind["kind"] if kind else "code"
            elif fence and fence["info"].strip().startswith("{bibliography}"):
                directive, _ = split_directive(lines, i, chapter)
                keyprefixes.append(directive.options.get("keyprefix", ""))
            target = TARGET.match(line)
            if target:
                following = next((HEADING.match(x) for x in lines[i + 1:] if x.strip()), None)
                chapter.targets[target["label"]] = following["text"] if following else target["label"]
    if len(set(keyprefixes)) > 1:
        raise MystError(f"{path.name}: bibliographies with different key prefixes {keyprefixes}")
    chapter.keyprefix = keyprefixes[0] if keyprefixes else ""
    if raw_keys and not keyprefixes:
        raise MystError(f"{path.name}: citations but no {{bibliography}} to list them")
    for chapter.cell, key in raw_keys:  # the reference list holds every entry the chapter cites
        resolve_key(chapter, key)
    return chapter


def answer_names(cell: nbformat.NotebookNode) -> list[str]:
    """The answer names of a check cell: the plain names after the test in its final check(...)."""
    last = ast.parse(cell.source).body[-1]
    call = last.value if isinstance(last, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "check"
            and len(call.args) >= 2 and all(isinstance(a, ast.Name) for a in call.args[1:])):
        raise MystError(f"a cell tagged {CHECK_TAG!r} must end with check(test, name, ...): {cell.source!r}")
    return [a.id for a in call.args[1:]]


def answer_cell(chapter: Chapter, label: str, following, cell_id: str) -> nbformat.NotebookNode:
    """The cell where a reader writes the answer to exercise `label`."""
    metadata = {"tags": [ANSWER_TAG], "exercise": label}
    if following is not None and following.cell_type == "code" and CHECK_TAG in tags(following):
        names = answer_names(following)
        stub = "\n".join(f"{name} = None" for name in names)
        text = f"# Your answer: replace each None, then run the check below.\n{stub}"
        return nbformat.v4.new_code_cell(text, id=cell_id, metadata=metadata)
    if chapter.kinds.get(label) == "pen and paper":
        return nbformat.v4.new_markdown_cell("*Your derivation:*", id=cell_id, metadata=metadata)
    return nbformat.v4.new_code_cell("# Your answer.", id=cell_id, metadata=metadata)


def tags(cell: nbformat.NotebookNode) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def edition(path: pathlib.Path, student: bool = False) -> nbformat.NotebookNode:
    """The chapter at path as plain-Markdown notebook: Jupyter/Colab edition, or student edition."""
    nb = nbformat.read(path, as_version=4)
    chapter = survey(path, nb)
    chapter.student = student
    nb.cells = [c for c in nb.cells if FALLBACK_TAG not in tags(c)]  # a website-only stand-in
    if student:
        nb.cells = [c for c in nb.cells if ANSWER_CHECK_TAG not in tags(c)]
    cells, pending, start, start_index = [], [], None, 0
    for index, original in enumerate(nb.cells, 1):
        chapter.cell = index
        for cell in split_at_solution_markers(chapter, original):
            if isinstance(cell, Directive) and cell.name == "solution-start":
                if start is not None:
                    raise chapter.fail("a {solution-start} inside another solution")
                start, start_index, pending = cell, index, []
            elif isinstance(cell, Directive):
                if start is None:
                    raise chapter.fail("{solution-end} without a {solution-start}")
                if not student:
                    cells.append(solution_cell(chapter, start, pending, f"solution-{start_index}"))
                cells.append((start.argument, f"answer-{start_index}"))  # filled in below
                start = None
            elif start is not None:
                pending.append(cell)
            else:
                cells.append(convert_cell(chapter, cell))
    if start is not None:
        raise MystError(f"{path.name}: a {{solution-start}} block is never closed by {{solution-end}}")
    for i, cell in enumerate(cells):
        if isinstance(cell, tuple):
            label, cell_id = cell
            following = next((c for c in cells[i + 1:] if not isinstance(c, tuple)), None)
            cells[i] = answer_cell(chapter, label, following, cell_id)
    if chapter.deeper is not None:
        raise MystError(f"{path.name}: a {{deeper-start}} block is never closed by {{deeper-end}}")
    for cell in cells:
        if CHECK_TAG in tags(cell):
            cell.outputs, cell.execution_count = [], None  # it reported on the official solution
            hide_source(cell, CHECK_TITLE)
        elif ANSWER_CHECK_TAG in tags(cell):
            hide_source(cell, ANSWERS_TITLE)
    cells = [c for c in cells if c.cell_type != "markdown" or c.source.strip()]
    first = next(c for c in cells if c.cell_type == "markdown")
    first.source = f"{first.source.rstrip()}\n\n{licence_note()}"
    result = nbformat.from_dict(nb)
    result.cells = cells
    if student:
        for cell in result.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        result.metadata.pop("widgets", None)
    return result


def licence_note() -> str:
    """The line under each edition's title: the book, its licences, the source (CITATION.cff)."""
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    repo = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]
    licence = f"{repo['url']}/blob/{repo.get('branch', 'main')}/LICENSE"
    return (f"*From [{citation['title']}]({citation['url']}).\nText and figures under "
            "[CC BY 4.0](https://creativecommons.org/licenses/by/4.0/),\ncode under the "
            f"[MIT licence]({licence}).*")


DEEPER = "Going deeper: "
CHECK_TITLE = "#@title Check your answer (run this cell; its code is hidden)"
ANSWERS_TITLE = "#@title Checks the answers above (its code is hidden)"


def hide_source(cell: nbformat.NotebookNode, title: str) -> None:
    """Collapse a code cell's source in Jupyter and JupyterLab, and make it a Colab form."""
    cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    cell.metadata["cellView"] = "form"  # Colab shows the #@title line instead of the code
    if cell.source.startswith("%%"):  # a cell magic must stay the first line
        magic, _, rest = cell.source.partition("\n")
        cell.source = f"{magic}\n{title}\n{rest}"
    else:
        cell.source = f"{title}\n{cell.source}"


def convert_cell(chapter: Chapter, cell: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A cell in plain Markdown; inside a Going-deeper block, prose in <details>, code collapsed."""
    converted = nbformat.from_dict(cell)
    inside = chapter.deeper is not None
    if cell.cell_type == "markdown":
        starts = cell.source.lstrip().startswith("```{deeper-start}")
        converted.source = convert_text(chapter, cell.source)
        left = raw_myst(converted.source)
        if left:
            raise chapter.fail(f"MyST left after conversion: {left}")
        if chapter.deeper is not None and not inside and not starts:
            raise chapter.fail("a {deeper-start} must open its Markdown cell")
        if chapter.deeper is not None and converted.source.strip():
            more = ", continued" if chapter.deeper_cells else ""
            chapter.deeper_cells += 1
            summary = f"<summary><b>{DEEPER}{chapter.deeper}{more}</b></summary>"
            body = converted.source.strip("\n")
            converted.source = f"<details>\n{summary}\n\n{body}\n\n</details>"
        elif chapter.deeper is not None and not inside:
            raise chapter.fail("a {deeper-start} is followed by the block's first paragraph")
        if chapter.deeper_ends:
            chapter.deeper, chapter.deeper_ends = None, False
    elif cell.cell_type == "code" and inside:
        hide_source(converted, f"#@title {DEEPER}{plain_title(chapter.deeper)} (code)")
        converted.metadata["jupyter"]["outputs_hidden"] = True
    return converted


def plain_title(markdown: str) -> str:
    """A title without Markdown emphasis, code ticks or maths dollars, for a #@title line."""
    return re.sub(r"[*_`$]", "", markdown)


def raw_myst(markdown: str) -> list[str]:
    """MyST constructs that Jupyter would show raw: directives, roles, targets, comments."""
    found = []
    for line, in_code in lines_and_code(markdown):
        opening = FENCE.match(line)
        if in_code:
            if opening and opening["info"].strip().startswith("{"):
                found.append(line.strip())
        elif TARGET.match(line) or DOLLAR_LABEL.match(line) or line.strip() == "+++" or line.startswith("%"):
            found.append(line.strip())
    return found + [m.group(0) for m in ROLE.finditer(strip_code(markdown))]


def lines_and_code(markdown: str) -> list[tuple[str, bool]]:
    """Each line, with whether it belongs to a fenced block (its fences included)."""
    marked, fence = [], None
    for line in markdown.splitlines():
        opening = FENCE.match(line)
        if fence:
            marked.append((line, True))
            if re.match(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$", line):
                fence = None
        elif opening:
            marked.append((line, True))
            fence = opening["fence"]
        else:
            marked.append((line, False))
    return marked


def strip_code(markdown: str) -> str:
    """Markdown without fenced blocks and inline code spans (where MyST is literal text)."""
    kept = "\n".join(line for line, in_code in lines_and_code(markdown) if not in_code)
    return CODE_OR_ROLE.sub(lambda m: m["role"] or "", kept)


def write_edition(out: pathlib.Path, paths: list[pathlib.Path], student: bool) -> list[pathlib.Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        target = out / path.name
        nbformat.write(edition(path, student=student), target)
        written.append(target)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--student", action="store_true", help="drop solutions and outputs")
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("notebooks", type=pathlib.Path, nargs="+")
    args = parser.parse_args()
    try:
        for written in write_edition(args.output, args.notebooks, args.student):
            print(f"{'student' if args.student else 'notebook'} edition: {written}")
    except MystError as error:
        sys.exit(f"notebook_edition.py: {error}")
