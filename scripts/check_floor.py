"""After `make test-floor`: every figure the stored chapter shows was drawn.

Execution alone would not notice a figure that an older library silently
drops (matplotlib before 3.9 loses a notebook's first figure under IPython 9),
so this compares, cell by cell, which cells produced an image.
"""

import json
import pathlib
import sys


def image_cells(path: pathlib.Path) -> list[int]:
    """Indices of the code cells that output at least one PNG image."""
    cells = json.loads(path.read_text())["cells"]
    return [i for i, cell in enumerate(cells) if cell["cell_type"] == "code"
            and any("image/png" in out.get("data", {}) for out in cell["outputs"])]


if __name__ == "__main__":
    ran, stored = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    failures = []
    for path in sorted(ran.glob("*.ipynb")):
        expected, got = image_cells(stored / path.name), image_cells(path)
        if expected != got:
            failures.append(f"{path.name}: figures in cells {got}, stored in {expected}")
    print("\n".join(failures) or "test-floor: every stored figure was drawn")
    sys.exit(1 if failures else 0)
