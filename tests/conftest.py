"""Shared paths and helpers for the checks that are not nbval."""

import json
import pathlib

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
SCREENSHOTS = ROOT / "_build" / "screenshots"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def toc_files() -> list[str]:
    """Every file named in _toc.yml, without suffix, in reading order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [chapter["file"] for chapter in part.get("chapters", [])]
    return files


def toc_notebooks() -> list[pathlib.Path]:
    """The chapter notebooks listed in _toc.yml."""
    return [ROOT / f"{name}.ipynb" for name in toc_files() if (ROOT / f"{name}.ipynb").exists()]


def load_notebook(path: pathlib.Path) -> dict:
    return json.loads(path.read_text())


def widget_state(nb: dict) -> dict:
    """The saved widget models of a notebook, by model id ({} if none)."""
    return nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


@pytest.fixture(scope="session")
def notebooks() -> list[pathlib.Path]:
    return toc_notebooks()
