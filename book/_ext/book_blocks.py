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

**One toggle for a run of quiet hidden cells.** A code cell tagged ``hide-input`` that prints
nothing shows only its "Show code cell source" line; several in a row (a chapter's helper
definitions) would stack one such line each. On the website such a run becomes one toggle, "Show
code cell source (N cells)", that opens on all N inputs, one block each, in order. Only the
written page changes: the cells, their order and their code are those of the notebook.

**Rubrics one click away.** A mini-project's exercise ends with its rubric (the points, item by
item), which a student reads when they start the work and an instructor when grading. On the
website the rubric, from its "Rubric." paragraph to the end of the exercise, becomes a closed
``<details class="rubric">`` under the statement; the printed chapters open it
(scripts/chapter_pdfs.py), and the notebooks keep it as written.

**Alt text from the output.** A figure's alt text travels with the figure, in the output's
metadata (``{"image/png": {"alt": ...}}``, what the book's ``show()`` writes, as nbconvert and the
Jupyter proposal JEP 120 read it). MyST-NB reads width and height from there but not ``alt``; this
extension passes ``alt`` on to the image too.
"""

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

PREFIX = "Going deeper: "
WHERE = ", in the notebook and on the website"
# The same two in each other language the site is built in.
DEEPER = {"zh_CN": ("深入一步", "，见 notebook 和网站")}


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
    label, where = DEEPER.get(self.builder.config.language, (PREFIX.rstrip(": "), WHERE))
    self.body.append(f'<summary><span class="going-deeper-label">{label}'
                     f'<span class="going-deeper-where">{where}</span>: </span>')


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



# A merged toggle's count, in each language the site is built in (English by default).
CELLS = {"zh_CN": "（{n} 个单元格）"}


def quiet_hidden(node: nodes.Node) -> bool:
    """A code cell whose input is hidden (tag hide-input) and that shows no output."""
    return (isinstance(node, nodes.container) and node.get("nb_element") == "cell_code"
            and node.get("hide_mode") == "input" and len(node.children) == 1
            and node.children[0].get("nb_element") == "cell_code_source")


class MergeQuietHiddenCells(SphinxPostTransform):
    """Each run of two or more adjacent quiet hidden cells becomes one cell, whose hidden input
    holds every input of the run. Runs before MyST-NB's HideInputCells (priority 199), which
    then wraps that input in one toggle."""

    default_priority = 198
    formats = ("html",)

    def run(self, **kwargs) -> None:
        count = CELLS.get(self.config.language or "en", " ({n} cells)")
        for parent in list(self.document.findall(nodes.Element)):
            run: list[nodes.container] = []
            for child in [*parent.children, None]:
                if (child is not None and quiet_hidden(child)
                        and (not run or child["classes"] == run[0]["classes"])):
                    run.append(child)  # the same tags: one toggle can stand for both
                    continue
                if len(run) > 1:
                    merge_cells(parent, run, count.format(n=len(run)))
                run = [child] if child is not None and quiet_hidden(child) else []


def merge_cells(parent: nodes.Element, run: list, suffix: str) -> None:
    """Move the inputs of run[1:] into run[0], as one input, and drop the emptied cells."""
    inputs = nodes.container(classes=["cell_inputs"], nb_element="cell_code_source")
    for cell in run:
        inputs += cell.children[0].deepcopy()
    first = run[0]
    first.children = []
    first += inputs
    for key in ("prompt_show", "prompt_hide"):
        first[key] = first[key] + suffix
    for cell in run[1:]:
        parent.remove(cell)


# The summary of a collapsed rubric, and the words that open a rubric's first paragraph, in each
# language the site is built in.
RUBRIC = {"en": ("Rubric: how the points are given", "Rubric"),
          "zh_CN": ("评分标准：各项如何给分", "评分标准")}


class collapsed_rubric(nodes.General, nodes.Element):
    """An exercise's rubric, collapsed on the website: <details class="rubric">."""


def visit_rubric(self, node) -> None:
    self.body.append('<details class="rubric">\n<summary>'
                     f"{self.encode(node['summary'])}</summary>\n")


def depart_rubric(self, node) -> None:
    self.body.append("</details>\n")


def in_exercise(node: nodes.Node) -> bool:
    """Whether the node sits in an exercise's statement (not in a solution)."""
    while node is not None:
        if type(node).__name__.startswith("exercise_"):
            return True
        node = node.parent
    return False


class CollapseRubrics(SphinxPostTransform):
    """Each exercise's rubric (its "Rubric." paragraph and what follows it) into a collapsed_rubric."""

    default_priority = 200
    formats = ("html",)

    def run(self, **kwargs) -> None:
        summary, word = RUBRIC.get(self.config.language or "en", RUBRIC["en"])
        for para in list(self.document.findall(nodes.paragraph)):
            first = next((c for c in para.children if c.astext().strip()), None)
            if not (isinstance(first, nodes.strong) and first.astext().startswith(word)
                    and in_exercise(para)):
                continue
            parent = para.parent
            start = parent.index(para)
            block = collapsed_rubric(summary=summary)
            for sibling in parent.children[start:]:
                block += sibling.deepcopy()
            parent.children = parent.children[:start]
            parent += block

def setup(app):
    alt_from_output_metadata()
    app.add_node(deeper_marker, html=(skip, None), latex=(skip, None), text=(skip, None))
    app.add_node(going_deeper, html=(visit_going_deeper, depart_going_deeper))
    app.add_node(deeper_title, html=(visit_deeper_title, depart_deeper_title))
    app.add_directive("deeper-start", DeeperStart)
    app.add_directive("deeper-end", DeeperEnd)
    app.add_transform(WrapDeeperBlocks)
    app.add_post_transform(MergeQuietHiddenCells)
    app.add_node(collapsed_rubric, html=(visit_rubric, depart_rubric))
    app.add_post_transform(CollapseRubrics)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
