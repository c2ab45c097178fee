"""Grading a class (scripts/grade.py): right answers pass, wrong ones do not, cheats are caught.

A folder of submissions is made from the student edition of a chapter: the official solutions
(every checked exercise: "correct"), the wrong answers of tests/wrong_answers/chN.py (each "not
yet"), its right alternatives ("correct"), and cheating notebooks, each built on a wrong answer to
the chapter's first checked exercise: one redefines `check`, one rebinds `as_number`, one patches
torch, one the built-in `print`, one edits the check cell, one prints "correct", one exits, one
never ends, one fills the memory, and more (CHEATS). None may be graded "correct"; each gets the
verdict it earns. The `full` tests (`make test-full`, CI) grade a handful of them for chapter 2,
every exercise of every chapter (its first wrong and right answers; the rest meet the same checks
in tests/test_course.py), and every cheat on a synthetic chapter and on chapter 2. `make test`
keeps the checks of the judge and the worker that need no class to grade.
"""

import ast
import copy
import csv
import pathlib

import grade  # scripts/ (pytest.ini's pythonpath)
import grade_worker
import nbformat
import pytest
import torch
from bookkit import checking_cells, shared_cells
from conftest import ROOT, toc_notebooks
from IPython.core.inputtransformer2 import TransformerManager
from test_course import right_answers, solutions, wrong_answers

NOTEBOOKS = toc_notebooks()
FAST = ROOT / "notebooks" / "02_rotation_invariance.ipynb"

# Cheats, each on top of a wrong answer (WRONG) to an exercise whose check reads its answers
# through the shared as_number; NAME0 is the first answer name. "check cell" marks a cheat that
# edits the check cell instead. Each comes with the verdict it must get and a word of its message.
CHEATS = {
    "redefines-check": ("WRONG\ndef check(*args):\n    print('correct')", "tampered", "redefines check"),
    "rebinds-as-number": (
        "WRONG\nimport torch\nas_number = lambda name, value, shape=(): torch.zeros(shape)",
        "tampered", "redefines as_number"),
    "patches-assert-close": (
        "WRONG\nimport torch.testing\ntorch.testing.assert_close = lambda *a, **k: None",
        "tampered", "sets torch.testing.assert_close"),
    "patches-torch-equal": ("WRONG\nimport torch\ntorch.equal = lambda *a: True", "tampered",
                            "sets torch.equal"),
    "patches-tensor-le": ("WRONG\nimport torch\ntorch.Tensor.__le__ = lambda a, b: True",
                          "tampered", "Tensor.__le__"),
    "patches-print": (
        "WRONG\nimport builtins, sys\nbuiltins.print = lambda *a, **k: sys.__stdout__.write('correct')",
        "tampered", "sets builtins.print"),
    "shadows-a-builtin": ("WRONG\nisinstance = list = lambda *a: True", "tampered", "redefines"),
    "reaches-check-globals": (
        "WRONG\ncheck.__globals__['as_number'] = lambda *a, **k: 0", "tampered",
        "redefines as_number"),
    "tensor-that-lies": (
        "WRONG\nimport torch\nclass Liar(torch.Tensor):\n    def __le__(self, other):\n"
        "        return True\nNAME0 = torch.zeros(1).as_subclass(Liar)", "tampered", "Liar"),
    "traces-the-check": ("WRONG\nimport sys\nsys.settrace(lambda *a: None)", "tampered", "trace function"),
    "edits-the-check-cell": ("check cell", "tampered", "the check cell was changed"),
    "prints-correct": ("WRONG\nprint('correct')", "not yet", ""),
    "exits": ("WRONG\nimport sys\nsys.exit(0)", "error", "SystemExit"),
    "ends-the-process": ("WRONG\nimport os\nos._exit(0)", "error", "ended the process"),
    "crashes": ("WRONG\nimport ctypes\nctypes.string_at(0)", "error", "signal"),
    "fills-the-memory": ("WRONG\nimport torch\nhog = torch.ones(2**30)", "error", "1 GiB an answer may use"),
    "uses-the-network": (
        "WRONG\nimport urllib.request\nurllib.request.urlopen('http://127.0.0.1:9', timeout=1)",
        "error", "grading is offline"),
    "starts-a-process": ("WRONG\nimport subprocess\nsubprocess.run(['true'])", "error", "process"),
    "starts-a-thread": ("WRONG\nimport threading\nthreading.Thread(target=print).start()",
                        "error", "thread"),
    "forges-a-verdict": (  # writes a verdict on every descriptor, then ends the process
        "WRONG\nimport os\nfor fd in range(3, 1024):\n    try:\n"
        "        os.write(fd, b'[\"correct\", \"\"]')\n    except OSError:\n        pass\n"
        "os._exit(0)", "tampered", "channel"),
    "never-ends": ("WRONG\nwhile True:\n    pass", "timeout", ""),
}
FAST_CHEATS = ["redefines-check", "patches-assert-close", "edits-the-check-cell"]
TIMEOUT, MEMORY = 90, 1  # seconds and GiB per answer in these tests

# A chapter of three cells for the mechanisms: its check reads x through list() (so an answer's
# own __iter__ runs inside the check) and the shared as_number.
SYNTHETIC_CHECK = (
    "def is_ones(x: object) -> str | None:\n"
    "    got = as_number('x', list(x), (2,))\n"
    "    return None if torch.equal(got, target.double()) else 'not the ones'\n\n\n"
    "check(is_ones, x)")
SYNTHETIC = {  # answers to it, with the verdict each must get
    "right-list": ("x = [1.0, 1.0]", "correct", ""),
    "right-tensor": ("import torch\nx = torch.ones(2, dtype=torch.float64)", "correct", ""),
    "wrong": ("x = [1.0, 2.0]", "not yet", "not the ones"),
    "wrong-type": ("x = 'ones'", "not yet", "should be finite numbers"),
    "restores-its-patch": (  # patches torch.equal inside the check; the patch undoes itself
        "import torch\nreal_equal = torch.equal\n\n\ndef fake_equal(*args):\n"
        "    torch.equal = real_equal\n    return True\n\n\n"
        "class Sneaky(list):\n    def __iter__(self):\n        torch.equal = fake_equal\n"
        "        return list.__iter__(self)\n\n\nx = Sneaky([1.0, 2.0])",
        "tampered", "the answer sets torch.equal"),
    "syntax-error": ("x = [1.0, 1.0", "error", "does not run"),
    "another-name": ("y = [1.0, 1.0]", "not answered", "x not defined"),
}
def student_edition(path: pathlib.Path) -> nbformat.NotebookNode:
    return grade.editions.edition(path, student=True)


def checked(nb: nbformat.NotebookNode) -> list[grade.Exercise]:
    return [e for e in grade.find_exercises(nb) if e.check is not None]


def submission(nb: nbformat.NotebookNode, answers: dict[str, str],
               check_cells: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """The student edition with these answers in their cells (and these check cells edited)."""
    nb = copy.deepcopy(nb)
    for ex in grade.find_exercises(nb):
        if ex.label in answers:
            nb.cells[ex.answer].source = answers[ex.label]
        if ex.label in (check_cells or {}):
            nb.cells[ex.check].source = check_cells[ex.label]
    return nb


def cheat(nb: nbformat.NotebookNode, official: dict[str, str], wrong: dict[str, str],
          name: str) -> tuple[str, nbformat.NotebookNode]:
    """The submission of one cheat, on the chapter's first check that uses as_number; its label."""
    ex = next((e for e in checked(nb) if "as_number(" in nb.cells[e.check].source), checked(nb)[0])
    code = next(code for key, code in wrong.items() if key.startswith(ex.label + "/"))
    return ex.label, cheated(nb, ex, after_official(code, official[ex.label], ex.names), name)


def cheated(nb: nbformat.NotebookNode, ex: grade.Exercise, wrong: str, name: str) -> nbformat.NotebookNode:
    code = CHEATS[name][0]
    if code == "check cell":
        return submission(nb, {ex.label: wrong}, {ex.label: "print('correct')"})
    return submission(nb, {ex.label: code.replace("WRONG", wrong).replace("NAME0", ex.names[0])})


def graded(folder: pathlib.Path, paths: list[pathlib.Path], timeout: float = TIMEOUT,
           jobs: int = 1) -> dict[tuple[str, str], tuple[str, str]]:
    """Grade the folder with scripts/grade.py; (student, exercise) -> (verdict, message)."""
    out = folder.parent / "grades.csv"
    args = [str(folder), "--out", str(out), "--timeout", str(timeout), "--memory", str(MEMORY),
            "--jobs", str(jobs), "--editions", *map(str, paths)]
    assert grade.main(args) == 0
    with out.open() as file:
        rows = list(csv.DictReader(file))
    assert rows and list(rows[0]) == list(grade.COLUMNS)
    return {(r["student"], r["exercise"]): (r["verdict"], r["message"]) for r in rows}


def write(folder: pathlib.Path, name: str, nb: nbformat.NotebookNode) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{name}.ipynb")
    return f"{name}.ipynb"


def names(code: str, context: type) -> set[str]:
    """The names a piece of code reads (context ast.Load) or binds (ast.Store); the body of a
    cell magic (chapter 4's %%minilm) is read as the Python it is."""
    if code.startswith("%%"):
        code = code.split("\n", 1)[1]
    nodes = list(ast.walk(ast.parse(TransformerManager().transform_cell(code))))
    found = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, context)}
    if context is ast.Store:  # def, class and import bind names too
        found |= {n.name for n in nodes if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        found |= {(a.asname or a.name).split(".")[0] for n in nodes
                  if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names}
    return found


def after_official(code: str, official: str, answer_names: list[str]) -> str:
    """An answer as tests/test_course.py runs it, after the official solution, when it reads a name
    the official solution binds or leaves an answer name to it (the grader runs answers alone)."""
    borrows = names(code, ast.Load) & names(official, ast.Store)
    return f"{official}\n\n{code}" if borrows or set(answer_names) - names(code, ast.Store) else code


def firsts(answers: dict[str, str]) -> list[str]:
    """The key of the first answer to each exercise (keys are label/name)."""
    found = {}
    for key in answers:
        found.setdefault(key.split("/")[0], key)
    return list(found.values())


def expect(path: pathlib.Path, folder: pathlib.Path, cheats: list[str],
           wrong_keys: list[str] | None = None, right: bool = True,
           right_keys: list[str] | None = None) -> dict:
    """Write the submissions for one chapter, and its student edition beside the folder (to
    grade against); what each (student, exercise) must be graded."""
    nb = student_edition(path)
    write(folder.parent / "editions", path.stem, nb)
    official = {label: "\n\n".join(code) for label, code in solutions(path).items()}
    labels = [e.label for e in checked(nb)]
    expected = {}
    name = write(folder, f"{path.stem}-official", submission(nb, {k: official[k] for k in labels}))
    expected |= {(name, label): ("correct", "") for label in labels}
    wrong = wrong_answers(path)
    answers = [(key, wrong[key], "wrong", "not yet") for key in wrong_keys or wrong]
    rights = right_answers(path)
    answers += [(key, rights[key], "right", "correct") for key in right_keys or rights if right]
    answer_names = {e.label: e.names for e in checked(nb)}
    for key, code, kind, verdict in answers:
        label = key.split("/")[0]
        name = write(folder, f"{path.stem}-{kind}-{key.replace('/', '-')}", submission(
            nb, {label: after_official(code, official[label], answer_names[label])}))
        expected[name, label] = (verdict, "")
    for cheat_name in cheats:
        label, cheating = cheat(nb, official, wrong, cheat_name)
        name = write(folder, f"{path.stem}-cheat-{cheat_name}", cheating)
        expected[name, label] = CHEATS[cheat_name][1:]
    return expected


def assert_graded(got: dict, expected: dict) -> None:
    wrong = {key: (got.get(key), want) for key, want in expected.items()
             if got.get(key, ("", ""))[0] != want[0] or want[1] not in got[key][1]}
    assert wrong == {}, f"graded otherwise than expected (got, wanted): {wrong}"
    assert not any(verdict == "correct" for key, (verdict, _) in got.items()
                   if "cheat" in key[0] or "wrong" in key[0])


@pytest.mark.full
def test_a_handful_of_submissions_to_one_chapter(tmp_path):
    """The official solutions, a wrong answer and three cheats, for chapter 2, and every exercise
    left as handed out graded 'not answered'."""
    expected = expect(FAST, tmp_path / "class", FAST_CHEATS, firsts(wrong_answers(FAST))[:1],
                      right=False)
    got = graded(tmp_path / "class", [tmp_path / "editions"])
    assert_graded(got, expected)
    unanswered = [key for key in got if key not in expected and got[key][0] not in (
        "not answered", "by hand")]
    assert unanswered == [], "an exercise left as handed out is 'not answered'"


@pytest.mark.full
def test_every_exercise_and_the_cheats_of_every_chapter(tmp_path):
    """Every chapter: the official solutions, the first wrong answer and the first right
    alternative to each exercise, three cheats (on chapter 2 every cheat but the endless loop,
    which waits out the time limit). Every other wrong and right answer meets the same check in
    tests/test_course.py; every cheat meets the grader on the synthetic chapter below."""
    expected = {}
    for path in NOTEBOOKS:
        cheats = [name for name in CHEATS if name != "never-ends"] if path == FAST else FAST_CHEATS
        expected |= expect(path, tmp_path / "class", cheats, firsts(wrong_answers(path)),
                           right_keys=firsts(right_answers(path)))
    got = graded(tmp_path / "class", [tmp_path / "editions"], jobs=2)
    assert_graded(got, expected)


def test_the_judge_agrees_with_the_shared_check(capsys):
    """The worker's verdict is what the chapters' shared check() prints, for every kind of test."""
    shared = {"torch": torch}  # the shared cells that define check() and what it reads
    exec(checking_cells(), shared)
    error = shared["AnswerTypeError"]

    def wrong_kind(x):
        raise error("x should be a number")

    cases = [(lambda x: None, [1]), (lambda x: "off by 2", [1]), (lambda x: None, [None]),
             (wrong_kind, [1]), (lambda x: 1 / 0, [1]), (lambda x, y: None, [1, None])]
    for test, answers in cases:
        shared["check"](test, *answers)
        printed = capsys.readouterr().out.strip()
        verdict, message = grade_worker.judge(test, answers, error)
        said = verdict if verdict != "not answered" else "not answered yet"
        assert printed == (f"{said}: {message}" if verdict == "not yet" else said) or (
            verdict == "not answered" and printed.startswith(said)), (printed, verdict, message)


def test_a_submission_is_read_by_its_cells_not_its_name(tmp_path):
    """Answers found by alignment with the pristine edition: under any file name, with cells
    added, with cell ids lost (as Colab saves), with the check cell deleted or edited."""
    nb = student_edition(FAST)
    chapter = grade.Chapter(FAST.stem, nb, grade.find_exercises(nb))
    first = checked(nb)[0]
    answered = submission(nb, {first.label: "x = 1"})
    answered.cells.insert(first.answer, nbformat.v4.new_code_cell("helper = 2"))
    for cell in answered.cells:
        cell.pop("id", None)
    answered.cells.insert(5, nbformat.v4.new_code_cell("scratch = 3"))  # not in the exercise
    assert grade.which_chapter(answered, [chapter]) is chapter
    answer = {a.label: a for a in grade.read_answers("s", answered, chapter)}[first.label]
    assert answer.code == "helper = 2\n\nx = 1" and not answer.check_edited
    edited = submission(nb, {first.label: "x = 1"}, {first.label: "print('correct')"})
    assert {a.label: a for a in grade.read_answers("s", edited, chapter)}[first.label].check_edited
    del edited.cells[first.check]
    answer = {a.label: a for a in grade.read_answers("s", edited, chapter)}[first.label]
    assert answer.code == "x = 1" and not answer.check_edited, "a deleted check is not an edit"
    others = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Notes")])
    assert grade.which_chapter(others, [chapter]) is None


def synthetic_chapter(folder: pathlib.Path) -> pathlib.Path:
    """A student edition of a few cells: the shared ones, a checked exercise and a derivation."""
    cells = [nbformat.v4.new_code_cell(source, metadata={"tags": ["shared"]})
             for source in shared_cells(1)]
    cells += [
        nbformat.v4.new_code_cell("target = torch.ones(2)"),
        nbformat.v4.new_markdown_cell('<a id="syn-ex1" name="syn-ex1"></a>\n\n### Exercise 0.1\n\n'
                                      "Store two ones in `x`."),
        nbformat.v4.new_code_cell("# Your answer: replace each None, then run the check below.\nx = None",
                                  metadata={"tags": ["answer"], "exercise": "syn-ex1"}),
        nbformat.v4.new_code_cell(f"{grade.CHECK_TITLE}\n{SYNTHETIC_CHECK}",
                                  metadata={"tags": ["exercise-check", "hide-input"]}),
        nbformat.v4.new_markdown_cell('<a id="syn-ex2" name="syn-ex2"></a>\n\n### Exercise 0.2\n\n'
                                      "Derive it."),
        nbformat.v4.new_markdown_cell("*Your derivation:*",
                                      metadata={"tags": ["answer"], "exercise": "syn-ex2"})]
    path = folder / "00_synthetic.ipynb"
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


@pytest.mark.full
def test_each_cheat_on_a_small_chapter_gets_its_verdict(tmp_path):
    """Every cheat, and right, wrong and odd answers, on a chapter of a few cells."""
    path = synthetic_chapter(tmp_path / "edition")
    nb = nbformat.read(path, as_version=4)
    ex = checked(nb)[0]
    folder, expected = tmp_path / "class", {}
    for name, (code, verdict, message) in SYNTHETIC.items():
        expected[write(folder, name, submission(nb, {ex.label: code})), ex.label] = (verdict, message)
    for name in CHEATS:
        cheating = cheated(nb, ex, SYNTHETIC["wrong"][0], name)
        expected[write(folder, f"cheat-{name}", cheating), ex.label] = CHEATS[name][1:]
    derived = copy.deepcopy(nb)
    derived.cells[-1].source = "By the chain rule, the gradient is the sum of the rows."
    expected[write(folder, "derived", derived), "syn-ex2"] = ("by hand", "12 words")
    expected["right-list.ipynb", "syn-ex2"] = ("not answered", "")
    got = graded(folder, [path], timeout=10)
    assert_graded(got, expected)
