"""The publishing workflow is valid YAML and does what README.md says: the checks of .ci/run, the
chapter PDFs, and _build/html published to GitHub Pages on a push to main. (It cannot run here.)"""

import yaml
from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def load() -> dict:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads a bare `on` as true
    return workflow


def runs(job: dict) -> list[str]:
    return [step["run"].strip() for step in job["steps"] if "run" in step]


def uses(job: dict) -> list[str]:
    return [step["uses"] for step in job["steps"] if "uses" in step]


def test_workflow_runs_the_checks_of_ci_run_then_the_pdfs():
    workflow = load()
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert {"pages": "write", "id-token": "write"}.items() <= workflow["permissions"].items()
    build = workflow["jobs"]["build"]
    assert build["container"].startswith("debian:"), "the browser test needs Debian's chromium"
    commands = runs(build)
    assert ".ci/run" in commands and commands.index(".ci/run") < commands.index("make pdf")
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111, ".ci/run must be executable"
    assert any(u.startswith("actions/checkout@") for u in uses(build))
    upload = [s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert [s["with"]["path"] for s in upload] == ["_build/html"]


def test_workflow_publishes_only_from_main():
    deploy = load()["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert "refs/heads/main" in deploy["if"] and "push" in deploy["if"]
    assert deploy["environment"]["name"] == "github-pages"
    assert any(u.startswith("actions/deploy-pages@") for u in uses(deploy))
