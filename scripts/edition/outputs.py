"""A solution's stored outputs as Markdown: printed text in code blocks, figures as <img>."""

from __future__ import annotations

import html

import nbformat

from edition.chapter import MystError


def output_markdown(output: nbformat.NotebookNode) -> str:
    """One stored output as Markdown: text in a plain code block, images inline."""
    if output.output_type == "stream":
        return "```text\n" + output.text.rstrip("\n") + "\n```"
    if output.output_type == "error":
        return f"```text\n{output.ename}: {output.evalue}\n```"
    data = output.get("data", {})
    if "image/png" in data:  # a figure shown by show(fig, alt): its own alt text and CSS width
        return figure_markdown(data["image/png"], output.get("metadata", {}).get("image/png", {}))
    if "text/markdown" in data:
        return data["text/markdown"]
    if "text/html" in data:
        return data["text/html"]
    if "text/plain" in data:
        return "```text\n" + data["text/plain"].rstrip("\n") + "\n```"
    raise MystError(f"a solution output has no type the converter can show: {sorted(data)}")


def figure_markdown(png: str, figure: dict) -> str:
    """A stored PNG as an <img> with the alt text and CSS width that show(fig, alt) recorded."""
    if not figure.get("alt"):
        raise MystError("a figure in a solution has no alt text: draw it with show(fig, alt)")
    width = f' width="{int(figure["width"])}"' if "width" in figure else ""
    return (f'<img src="data:image/png;base64,{png.strip()}"'
            f' alt="{html.escape(figure["alt"])}"{width}>')
