"""Check that Binder's environment (binder/) would install no CUDA wheels.

Usage: python scripts/check_binder.py   (needs the package registries; about a minute)

Runs `pip install --dry-run --report` for binder/requirements.txt and for the wheel that
binder/postBuild installs, in a throwaway virtual environment, and fails if the resolution
contains an NVIDIA or Triton package or a torch that is not the CPU build.
"""

import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CUDA = re.compile(r"^(nvidia-|triton)", re.IGNORECASE)


def resolve(pip: pathlib.Path, report: pathlib.Path, *args: str) -> list[tuple[str, str, str]]:
    """(name, version, where from) of every package pip would install."""
    subprocess.run([str(pip), "install", "--dry-run", "--ignore-installed", "--quiet",
                    "--retries", "1", "--timeout", "15",  # an unreachable index fails fast
                    "--report", str(report), *args], check=True)
    return [(item["metadata"]["name"], item["metadata"]["version"], item["download_info"]["url"])
            for item in json.loads(report.read_text())["install"]]


def postbuild_requirement() -> str:
    """The requirement binder/postBuild installs with --no-deps."""
    match = re.search(r"pip install .*--no-deps (\S+)", (ROOT / "binder" / "postBuild").read_text())
    return match.group(1)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        venv = pathlib.Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = venv / "bin" / "pip"
        found = resolve(pip, pathlib.Path(tmp) / "env.json", "-r", str(ROOT / "binder" / "requirements.txt"))
        found += resolve(pip, pathlib.Path(tmp) / "wheel.json", "--no-deps", postbuild_requirement())
    for name, version, url in found:
        print(f"{name}=={version}  from {url}")
    cuda = [f"{n}=={v}" for n, v, _ in found if CUDA.match(n)]
    torch = [v for n, v, _ in found if n.lower() == "torch"]
    print(f"{len(found)} packages; CUDA packages: {cuda or 'none'}; torch: {torch}")
    return 0 if not cuda and torch and all(v.endswith("+cpu") for v in torch) else 1


if __name__ == "__main__":
    sys.exit(main())
