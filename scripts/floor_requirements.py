"""Print requirements.txt with every lower bound pinned: the readers' floor.

Usage:
    python scripts/floor_requirements.py requirements.txt requirements-lock.txt

torch stays at the lock's pin (the Makefile installs its CPU build first: any other version
is a multi-GB CUDA download), and ipywidgets at 7.7.1, the version Colab shipped for
years.
"""

import re
import sys

COLAB_IPYWIDGETS = "ipywidgets==7.7.1"


def floor(line: str, overrides: dict[str, str]) -> str:
    """The requirement pinned at its lower bound (or its override)."""
    name = re.split(r"[<>=!~\[ ]", line, maxsplit=1)[0]
    if name in overrides:
        return overrides[name]
    low = re.search(r">=\s*([^,\s]+)", line)
    if not low:
        raise ValueError(f"no lower bound in requirements.txt line: {line!r}")
    return f"{name}=={low.group(1)}"


def requirements(path: str) -> list[str]:
    """The requirement lines of a file, without comments and pip options."""
    lines = (raw.split("#")[0].strip() for raw in open(path).read().splitlines())
    return [line for line in lines if line and not line.startswith("-")]


if __name__ == "__main__":
    torch = next(line for line in requirements(sys.argv[2]) if line.startswith("torch=="))
    overrides = {"torch": torch, "ipywidgets": COLAB_IPYWIDGETS}
    for line in requirements(sys.argv[1]):
        print(floor(line, overrides))
