"""The parts of the notebook converter that scripts/notebook_edition.py assembles.

chapter    what one chapter's conversion knows beyond a cell (and the error it raises)
markdown   MyST to plain Markdown in one Markdown cell: the {cite} role, the directives
citations  {cite} roles as author-year links, and the reference list
deeper     Going-deeper blocks: prose in a closed <details>, code collapsed
exercises  solutions as closed <details>, answer cells, collapsed check cells
outputs    a solution's stored outputs and figures as Markdown
student    what the student edition leaves out
"""
