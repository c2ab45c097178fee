"""The contributor tooling is valid: pre-commit hooks and the jupytext pairing."""

import subprocess

import yaml
from conftest import ROOT

BIN = ROOT / ".venv" / "bin"


def test_pre_commit_config_is_valid_and_its_hooks_exist():
    config = ROOT / ".pre-commit-config.yaml"
    result = subprocess.run([str(BIN / "pre-commit"), "validate-config", str(config)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    hooks = [hook for repo in yaml.safe_load(config.read_text())["repos"] for hook in repo["hooks"]]
    assert {hook["id"] for hook in hooks} >= {"ruff", "jupytext-sync"}
    for hook in hooks:
        tool = ROOT / hook["entry"].split()[0]
        assert tool.exists(), f"hook {hook['id']} runs {tool}, which `make` does not install"


def test_notebooks_are_marked_generated_and_paired():
    assert "notebooks/*.ipynb linguist-generated=true" in (ROOT / ".gitattributes").read_text()
    assert 'formats = "notebooks///ipynb,md///md:myst"' in (ROOT / "jupytext.toml").read_text()
