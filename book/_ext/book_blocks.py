"""Two things the book needs from MyST-NB that it does not do by itself.

**Going deeper.** An aside that spans several cells (prose, code, outputs) and that the reader
opens only if they want it. In a chapter it is a run of cells between two markers, each in a
Markdown cell of its own::

    ```{deeper-start} What the tests forgive, and why
    ```
    ... Markdown and code cells ...
    ```{deeper-end}
    ```

On the website the run becomes one ``<details class="going-deeper">`` element, closed until
clicked, with "Going deeper: <title>" as its summary: native HTML, so it opens by keyboard and
without JavaScript. Printed, a closed aside is one line saying where to read it ("Going deeper,
in the notebook and on the website: <title>"). Its cells are still executed and checked like any
other. The Jupyter edition (scripts/notebook_edition.py) writes the prose in ``<details>`` and
collapses the code cells.

**Alt text from the output.** A figure's alt text travels with the figure, in the output's
metadata (``{"image/png": {"alt": ...}}``, what the book's ``show()`` writes, as nbconvert and the
Jupyter proposal JEP 120 read it). MyST-NB reads width and height from there but not ``alt``; this
extension passes ``alt`` on to the image too.
"""

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.transforms import SphinxTransform

PREFIX = "Going deeper: "
WHERE = ", in the notebook and on the website"


class deeper_marker(nodes.Element):
    """Where a Going-deeper block starts (with its title) or ends; replaced by going_deeper."""


class going_deeper(nodes.General, nodes.Element):
    """A collapsed aside: rendered as <details> with a <summary>."""


class deeper_title(nodes.TextElement):
    """The summary line of a going_deeper block."""


class DeeperStart(Directive):
    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        marker = deeper_marker(kind="start")
        title = deeper_title(self.arguments[0], "", *self.state.inline_text(
            self.arguments[0], self.lineno)[0])
        title.source, title.line = self.state_machine.get_source_and_line(self.lineno)
        marker += title
        return [marker]


class DeeperEnd(Directive):
    def run(self):
        return [deeper_marker(kind="end")]


class WrapDeeperBlocks(SphinxTransform):
    """Move the nodes between a start and an end marker (siblings) into one going_deeper."""

    default_priority = 200

    def apply(self, **kwargs) -> None:
        for start in list(self.document.findall(deeper_marker)):
            if start["kind"] != "start" or start.parent is None:
                continue
            parent = start.parent
            index = parent.index(start)
            end = next((i for i in range(index + 1, len(parent.children))
                        if isinstance(parent[i], deeper_marker)), None)
            if end is None or parent[end]["kind"] != "end":
                raise self.document.reporter.severe(
                    "a {deeper-start} needs a {deeper-end} in the same section, with no heading "
                    "or other {deeper-start} between them", line=start.children[0].line)
            block = going_deeper(classes=["going-deeper"])
            block += start.children[0]
            block += parent.children[index + 1:end]
            parent.children[index:end + 1] = [block]
            block.parent = parent
            for child in block.children:
                child.parent = block
        for stray in list(self.document.findall(deeper_marker)):
            raise self.document.reporter.severe("a {deeper-end} without a {deeper-start}",
                                                line=stray.line)


def visit_going_deeper(self, node) -> None:
    self.body.append(self.starttag(node, "details", CLASS="going-deeper"))


def depart_going_deeper(self, node) -> None:
    self.body.append("</details>\n")


def visit_deeper_title(self, node) -> None:
    # Printed closed, the aside says where it is to be read (book.css shows WHERE on paper only).
    self.body.append(f'<summary><span class="going-deeper-label">{PREFIX.rstrip(": ")}'
                     f'<span class="going-deeper-where">{WHERE}</span>: </span>')


def depart_deeper_title(self, node) -> None:
    self.body.append("</summary>\n")


def skip(self, node) -> None:
    raise nodes.SkipNode


def alt_from_output_metadata() -> None:
    """Let MyST-NB take an image's alt text from its output's metadata."""
    from myst_nb.core.render import NbElementRenderer

    render_image = NbElementRenderer.render_image
    if getattr(render_image, "reads_alt", False):
        return

    def with_alt(self, data):
        found = render_image(self, data)
        alt = data.output_metadata.get(data.mime_type, {}).get("alt")
        for node in found:
            if alt and isinstance(node, nodes.image) and "alt" not in node:
                node["alt"] = str(alt)
        return found

    with_alt.reads_alt = True
    NbElementRenderer.render_image = with_alt


def setup(app):
    alt_from_output_metadata()
    app.add_node(deeper_marker, html=(skip, None), latex=(skip, None), text=(skip, None))
    app.add_node(going_deeper, html=(visit_going_deeper, depart_going_deeper))
    app.add_node(deeper_title, html=(visit_deeper_title, depart_deeper_title))
    app.add_directive("deeper-start", DeeperStart)
    app.add_directive("deeper-end", DeeperEnd)
    app.add_transform(WrapDeeperBlocks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
