"""MyST to plain Markdown in one Markdown cell: the {cite} role and the directives the chapters use."""

from __future__ import annotations

import dataclasses
import re

from bookkit import DEEPER_END, DEEPER_START, SOLUTION_END, SOLUTION_START

from edition import deeper
from edition.chapter import Chapter, anchor
from edition.citations import cite, reference_list
from edition.student import is_quiz_answer

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
ROLE = re.compile(r"(?<!`)\{(?P<name>[A-Za-z][\w:+-]*)\}`(?P<content>[^`]+)`")
CODE_OR_ROLE = re.compile(r"(?P<role>\{[A-Za-z][\w:+-]*\}`[^`]+`)|(?P<ticks>`+)[^`]*?(?P=ticks)")
OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.+?)\s*#*\s*$")
# What Jupyter would show raw, though no chapter writes it: a (label)= target, a labelled $$.
TARGET = re.compile(r"^\((?P<label>[^()\s]+)\)=\s*$")
DOLLAR_LABEL = re.compile(r"^(?P<maths>.*\$\$)\s*\((?P<label>[^()\s]+)\)\s*$")
DROPDOWN = "dropdown"  # the class of an admonition or a solution that the site shows closed


@dataclasses.dataclass
class Directive:
    """A fenced MyST directive: {name} argument, its :key: value options, and its body."""

    name: str
    argument: str
    options: dict[str, str]
    body: str


def closing_fence(fence: str) -> re.Pattern:
    """The line that closes a block opened by `fence` (as many characters or more)."""
    return re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")


def split_directive(lines: list[str], start: int, chapter: Chapter) -> tuple[Directive, int]:
    """Parse the directive fenced at lines[start]; return it and the index after its closing fence."""
    opening = FENCE.match(lines[start])
    head = re.match(r"^\{(?P<name>[^}]+)\}\s*(?P<arg>.*)$", opening["info"].strip())
    closing = closing_fence(opening["fence"])
    end = next((i for i in range(start + 1, len(lines)) if closing.match(lines[i])), None)
    if end is None:
        raise chapter.fail(f"directive {{{head['name']}}} is never closed")
    body = lines[start + 1:end]
    options: dict[str, str] = {}
    while body and OPTION.match(body[0]):
        option = OPTION.match(body[0])
        options[option["key"]] = (option["value"] or "").strip()
        body = body[1:]
    return Directive(head["name"], head["arg"].strip(), options, "\n".join(body).strip("\n")), end + 1


def check_options(chapter: Chapter, directive: Directive, allowed: set[str]) -> None:
    """Raise if the directive has an option outside `allowed`."""
    unknown = set(directive.options) - allowed
    if unknown:
        raise chapter.fail(f"{{{directive.name}}}: options the converter does not know: {sorted(unknown)}")


def role(chapter: Chapter, match: re.Match) -> str:
    """A MyST role as Markdown: {cite} is the one the chapters use."""
    if match["name"] == "cite":
        return cite(chapter, match["content"])
    raise chapter.fail(f"unknown MyST role {{{match['name']}}}")


def inline(chapter: Chapter, text: str) -> str:
    """Text with every MyST role replaced by plain Markdown."""
    return ROLE.sub(lambda m: role(chapter, m), text)


def directive_markdown(chapter: Chapter, d: Directive) -> str:
    """A block directive written as plain Markdown ("" for a marker that only opens or closes)."""
    if d.name == "exercise":  # a numbered heading one level below the section's
        check_options(chapter, d, {"label"})
        label = d.options["label"]
        level = "#" * min(chapter.heading_level + 1, 6)
        title = f" ({inline(chapter, d.argument)})" if d.argument else ""
        heading = f"{level} Exercise {chapter.exercises[label]}{title}"
        return f"{anchor(label)}\n\n{heading}\n\n{convert_text(chapter, d.body)}"
    if d.name == "bibliography":  # the entries the chapter cites
        check_options(chapter, d, {"filter", "keyprefix"})
        if d.options.get("filter", "docname in docnames") != "docname in docnames":
            raise chapter.fail(f"{{bibliography}} filter {d.options['filter']!r} is not supported")
        if d.body.strip():
            raise chapter.fail("a {bibliography} holds no text")
        return reference_list(chapter.cited)
    if d.name == "admonition":  # a closed dropdown: a "Check your understanding" answer
        check_options(chapter, d, {"class"})
        classes = d.options.get("class", "")
        if DROPDOWN not in classes.split():
            raise chapter.fail(f"an {{admonition}} the converter writes has :class: {DROPDOWN}")
        if chapter.student and is_quiz_answer(classes):
            return ""
        body = convert_text(chapter, d.body)
        return f"<details>\n<summary>{inline(chapter, d.argument)}</summary>\n\n{body}\n\n</details>"
    if d.name == DEEPER_START:
        check_options(chapter, d, set())
        deeper.open_block(chapter, inline(chapter, d.argument))
        return ""
    if d.name == DEEPER_END:
        deeper.close_block(chapter)
        return ""
    if d.name in (SOLUTION_START, SOLUTION_END):
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
        elif fence:  # an ordinary code block: copied untouched
            flush()
            closing = closing_fence(fence["fence"])
            end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])), len(lines) - 1)
            out.append("\n".join(lines[i:end + 1]))
            i = end + 1
        else:
            paragraph.append(line)
            i += 1
    flush()
    return "\n".join(out)


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
            if closing_fence(fence).match(line):
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
