"""Print requirements.txt with every lower bound pinned: the readers' floor.

torch stays at the tested CPU build (any other version is a multi-GB CUDA
download), and ipywidgets at 7.7.1, the version Colab shipped for years.
"""

import re
import sys

OVERRIDES = {"torch": "torch==2.13.0", "ipywidgets": "ipywidgets==7.7.1"}


def floor(line: str) -> str:
    """The requirement pinned at its lower bound (or its override)."""
    name = re.split(r"[<>=!~\[ ]", line, maxsplit=1)[0]
    if name in OVERRIDES:
        return OVERRIDES[name]
    low = re.search(r">=\s*([^,\s]+)", line)
    if not low:
        raise ValueError(f"no lower bound in requirements.txt line: {line!r}")
    return f"{name}=={low.group(1)}"


if __name__ == "__main__":
    for raw in open(sys.argv[1]).read().splitlines():
        line = raw.split("#")[0].strip()
        if line:
            print(floor(line))
