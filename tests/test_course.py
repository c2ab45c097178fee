"""The course kit: questions, labelled exercises, and self-checking student notebooks.

Every chapter ends with "Check your understanding" (8-10 questions, each with a hidden answer,
and one cell that checks the answers' claims), then exercises that each open with a label
(difficulty, expected time, kind), at least one pen-and-paper derivation and one mini-project
with a rubric. Each coding exercise is followed by a check cell, `check(test, name, ...)`.

The checks are tested here as a student meets them: the student edition of each chapter runs
top to bottom with the empty answers (every check says "not answered yet", nothing raises);
then, in the same kernel, each official solution is pasted in and its check must say "correct";
then each right alternative of tests/wrong_answers/chN.py (RIGHT: float32 or float64, another
order, numpy or Python numbers) must say "correct", and each wrong answer (WRONG: at least three
of different kinds per check, such as a hard-coded value, the merely sufficient answer, a library
call where the exercise asks for the method, the input unchanged, a transpose, a lucky draw, or an
answer of the wrong type) must say "not yet".

The chapters in KIT_CHAPTERS follow the course kit's stricter rules, and the generic tests below
prove them on every check of those chapters: a check reads nothing the answer cell can rebind (it
captures what it compares, in a cell before the answer cell, and reads only those copies, its
answers, the shared cells' names, private `_` names and modules), so an official solution followed
by a rebinding of every other name the chapter bound to data is still `correct`; answers filled with
NaN are `not yet`; a "not yet" never brackets the answer ("too small", "larger than"); and every
derivation's hidden solution carries a rubric whose items' points add up to its total, as does every
mini-project's rubric.
"""

import ast
import builtins
import re

import nbformat
import notebook_edition as editions
import pytest
from bookkit import EXERCISE_LABEL, chapter_number, tags
from conftest import ROOT, toc_notebooks
from edition.exercises import answer_names, split_at_solution_markers
from edition.markdown import FENCE, Directive, split_directive
from nbclient import NotebookClient

NOTEBOOKS = toc_notebooks()

# The chapters whose checks follow the kit's stricter rules (see the module docstring): the generic
# exploit tests run on these. A chapter joins the list once its checks capture their data.
KIT_CHAPTERS = (1, 2, 3, 4, 5)
QUESTION = re.compile(r"^\*\*(\d+)\.\*\*\s", re.MULTILINE)
HEADING2 = re.compile(r"^## (.+)$", re.MULTILINE)
RUBRIC = "**Rubric.**"


def answers_file(path) -> dict[str, dict[str, str]]:
    """WRONG and RIGHT of tests/wrong_answers/chN.py for the chapter at path: "label/kind" -> code."""
    file = ROOT / "tests" / "wrong_answers" / f"ch{chapter_number(path)}.py"
    assert file.exists(), f"{file.relative_to(ROOT)} is missing"
    namespace: dict = {}
    exec(file.read_text(), namespace)  # a data file: two dicts, WRONG and RIGHT
    for name in ("WRONG", "RIGHT"):
        assert all(key.count("/") == 1 for key in namespace[name]), f"{name} keys are label/kind"
    return {"WRONG": namespace["WRONG"], "RIGHT": namespace["RIGHT"]}


def wrong_answers(path) -> dict[str, str]:
    return answers_file(path)["WRONG"]


def right_answers(path) -> dict[str, str]:
    return answers_file(path)["RIGHT"]


def sections(nb) -> dict[str, list]:
    """The cells under each second-level heading, by heading text."""
    found, current = {}, None
    for cell in nb.cells:
        heading = HEADING2.search(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            current = heading.group(1).strip()
            found[current] = []
        elif current is not None:
            found[current].append(cell)
    return found


def exercises(path) -> list[Directive]:
    """The {exercise} directives of a chapter, in order."""
    nb = nbformat.read(path, as_version=4)
    chapter = editions.survey(path, nb)
    found = []
    for cell in nb.cells:
        lines = cell.source.splitlines() if cell.cell_type == "markdown" else []
        for i, line in enumerate(lines):
            fence = FENCE.match(line)
            if fence and fence["info"].strip().startswith("{exercise}"):
                found.append(split_directive(lines, i, chapter)[0])
    return found


def solutions(path) -> dict[str, list[str]]:
    """The code of each official solution, by exercise label."""
    nb = nbformat.read(path, as_version=4)
    chapter = editions.survey(path, nb)
    found, label = {}, None
    for cell in nb.cells:
        for piece in split_at_solution_markers(chapter, cell):
            if isinstance(piece, Directive):
                label = piece.argument if piece.name == "solution-start" else None
                if label:
                    found[label] = []
            elif label and piece.cell_type == "code":
                found[label].append(piece.source)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_check_your_understanding_comes_before_the_exercises(path):
    nb = nbformat.read(path, as_version=4)
    parts = sections(nb)
    names = list(parts)
    assert "Check your understanding" in names, f"{path.name}: no Check your understanding"
    assert names.index("Exercises") == names.index("Check your understanding") + 1
    cells = parts["Check your understanding"]
    questions = [c for c in cells if c.cell_type == "markdown" and QUESTION.search(c.source)]
    numbers = [int(QUESTION.search(c.source).group(1)) for c in questions]
    assert 8 <= len(questions) <= 10 and numbers == list(range(1, len(questions) + 1)), numbers
    for cell in questions:
        assert cell.source.count(":class: dropdown answer") == 1, cell.source[:80]
    checks = [c for c in cells if "answer-check" in tags(c)]
    assert len(checks) == 1 and checks[0] is cells[-1], "one answer-check cell after the questions"
    assert "hide-input" in tags(checks[0])
    assert checks[0].source.startswith("# Checks the answers above.")
    assert "assert" in checks[0].source and checks[0].outputs, "it asserts and reports"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_exercise_is_labelled_and_the_kinds_are_all_there(path):
    kinds = []
    for exercise in exercises(path):
        first = exercise.body.strip().split("\n\n")[0].strip()
        label = EXERCISE_LABEL.match(first)
        assert label, f"{exercise.options.get('label')}: no **★☆☆ · N min · kind** line: {first!r}"
        assert len(label["stars"]) == 3 and 0 < int(label["minutes"]) <= 120, first
        kinds.append(label["kind"])
        if label["kind"] == "mini-project":
            assert RUBRIC in exercise.body, f"{exercise.options['label']}: no rubric"
            after = exercise.body.split(RUBRIC, 1)[1].splitlines()
            items = [line for line in after if re.match(r"^[-*] ", line)]
            assert 3 <= len(items) <= 5, f"{exercise.options['label']}: {len(items)} rubric items"
    assert "pen and paper" in kinds and "mini-project" in kinds, kinds


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_runtime_line_states_the_exercises_total_time(path):
    """The opening's "exercises ≈ N min" is the sum of the exercises' labelled minutes."""
    minutes = sum(int(EXERCISE_LABEL.match(e.body.strip().split("\n\n")[0].strip())
                      ["minutes"]) for e in exercises(path))
    opening = nbformat.read(path, as_version=4).cells[0].source
    stated = re.search(r"exercises\s+≈\s+(\d+)\s+min", opening)
    assert stated, f"{path.name}: the runtime line gives the exercises' time"
    assert int(stated[1]) == minutes, f"{path.name}: says {stated[1]} min, labels sum to {minutes}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_coding_exercise_is_checked_and_has_a_wrong_answer(path):
    student = editions.edition(path, student=True)
    checked = {}
    for i, cell in enumerate(student.cells):
        if "answer" in tags(cell) and i + 1 < len(student.cells):
            if "exercise-check" in tags(student.cells[i + 1]):
                checked[cell.metadata["exercise"]] = student.cells[i + 1]
    code = [e.options["label"] for e in exercises(path)
            if "· code**" in e.body.strip().split("\n\n")[0]]
    assert set(code) <= set(checked), f"coding exercises without a check: {set(code) - set(checked)}"
    wrong, right = wrong_answers(path), right_answers(path)
    for label in checked:
        kinds = {key.split("/")[1] for key in wrong if key.split("/")[0] == label}
        assert len(kinds) >= 3, f"{label}: wrong answers of at least 3 kinds, got {sorted(kinds)}"
        assert any(key.split("/")[0] == label for key in right), f"{label}: no right alternative"
    assert {key.split("/")[0] for key in wrong} | {key.split("/")[0] for key in right} <= set(checked)
    assert any(key.endswith("/type") for key in wrong), "one answer of the wrong type"


def kit_notebooks() -> list:
    return [p for p in NOTEBOOKS if chapter_number(p) in KIT_CHAPTERS]


def bound_names(tree: ast.AST) -> set[str]:
    """Every name a piece of code binds anywhere: assignments, defs, arguments, imports, loops."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def read_names(source: str) -> set[str]:
    """The names a cell reads that it does not bind itself."""
    tree = ast.parse(source)
    loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return loads - bound_names(tree)


def shared_names(path) -> set[str]:
    """The names the shared Setup cells bind: the book's own check helpers, torch, plt, ..."""
    nb = nbformat.read(path, as_version=4)
    return set().union(*(bound_names(ast.parse(c.source)) for c in nb.cells
                         if c.cell_type == "code" and "shared" in tags(c)))


def checks_with_answers(nb) -> list[tuple[int, nbformat.NotebookNode, nbformat.NotebookNode]]:
    """(index of the answer cell, the answer cell, its check cell) in a student edition."""
    return [(i, cell, nb.cells[i + 1]) for i, cell in enumerate(nb.cells[:-1])
            if "answer" in tags(cell) and "exercise-check" in tags(nb.cells[i + 1])]


IPYTHON_NAMES = {"In", "Out", "get_ipython", "exit", "quit"}


@pytest.mark.parametrize("path", kit_notebooks(), ids=lambda p: p.stem)
def test_kit_checks_read_only_what_they_captured_before_the_answer(path):
    """A check cell reads its answers, the shared cells' names, modules and private `_` names, each
    `_` name bound by a cell before the answer cell: nothing an answer may rebind for its own use."""
    nb = editions.edition(path, student=True)
    allowed = shared_names(path) | set(dir(builtins)) | IPYTHON_NAMES
    for i, answer, check in checks_with_answers(nb):
        label, source = answer.metadata["exercise"], check.source
        answers = set(answer_names(check))
        chapter_names = {n for n in read_names(source) - allowed - answers if not n.startswith("_")}
        assert not chapter_names, f"{label}: the check reads the chapter's {sorted(chapter_names)}"
        before = set().union(*(bound_names(ast.parse(c.source)) for c in nb.cells[:i]
                               if c.cell_type == "code" and not c.source.startswith("%")))
        private = {n for n in read_names(source) if n.startswith("_")}
        assert private <= before, f"{label}: {sorted(private - before)} not bound before the answer"
        assert private, f"{label}: the check reads no data captured before the answer cell"


def solution_text(path, label: str) -> str:
    """The source of every cell of an official solution, Markdown and code, in order."""
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    start = re.search(r"\{solution-start\}\s+" + re.escape(label) + r"\b", text)
    assert start, f"{label}: no solution"
    return text[start.end():text.index("{solution-end}", start.end())]


# An item: "- *Part 1, 4 points:*" or "- **Part 1 (4 points).**".
RUBRIC_ITEM = re.compile(r"^[-*] (?:\*[^*\n]*?(\d+) points?:\*|\*\*[^*\n]*?\((\d+) points?\)\.?\*\*)",
                         re.MULTILINE)


def rubric_adds_up(text: str, label: str) -> None:
    total = re.search(r"\*\*Rubric \((\d+) points\)\*\*|(\d+) points in all", text)
    assert total, f"{label}: a rubric with its total in points"
    items = [int(a or b) for a, b in RUBRIC_ITEM.findall(text[total.end():])]
    assert len(items) >= 3 and sum(items) == int(total[1] or total[2]), f"{label}: {items}"


@pytest.mark.parametrize("path", kit_notebooks(), ids=lambda p: p.stem)
def test_kit_derivations_and_projects_have_rubrics_with_points(path):
    """A derivation's rubric, in its hidden solution (for the solutions handout) or its statement
    (where students see how it is graded), comes before the model answer; a mini-project's
    statement carries one. Their items' points add up to the total."""
    for exercise in exercises(path):
        label, kind = exercise.options["label"], EXERCISE_LABEL.match(
            exercise.body.strip().split("\n\n")[0].strip())["kind"]
        if kind == "pen and paper":
            rubric_adds_up(exercise.body if RUBRIC in exercise.body
                           else solution_text(path, label), label)
        elif kind == "mini-project":
            rubric_adds_up(exercise.body, label)


# What an answer cell runs around an official solution to rebind, once the solution has run, every
# name of data the chapter had bound before it, except the shared cells' names, modules, functions,
# classes, private `_` names and the answers, and to name its own as_number, as_flag,
# AnswerTypeError, types and copy, as a student may: the check must still say `correct`.
# The names come back after the check, as after every answer.
REBIND = """
import types as _types


class _Rebound:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise NameError(f"the check read the chapter's {{self._name}}")


# The chapter's data, not its functions and classes nor the globals they read: an answer may call
# the chapter's functions, which read their own globals when called (the static test above proves
# that no check reads a chapter name, functions included).
def _names_read(code):
    return set(code.co_names).union(*(_names_read(c) for c in code.co_consts
                                      if isinstance(c, _types.CodeType)))


_used = set().union(*(_names_read(f.__code__) for f in _entry.values()
                      if isinstance(f, _types.FunctionType)))
for _name, _value in _entry.items():  # the names bound before the answer cell
    if not (_name.startswith("_") or _name in {keep!r} or globals().get(_name) is not _value
            or _name in _used
            or isinstance(_value, (_types.ModuleType, _types.FunctionType, type))):
        globals()[_name] = _Rebound(_name)


def as_number(*args):
    raise NameError("the check called the answer's as_number")


def as_flag(*args):
    raise NameError("the check called the answer's as_flag")


class AnswerTypeError(Exception):
    pass


# ...and names types and copy anew, unless the answer's functions and classes read them (or the
# functions they call): that would break the answer itself, as in any notebook. (A built-in named
# anew: tests/test_shared.py proves check() on one test.)
def _reach(functions):
    seen, names = set(), set()
    while functions:
        f = functions.pop()
        if isinstance(f, list | tuple | dict):  # functions in a container
            functions += list(f.values() if isinstance(f, dict) else f)
        if getattr(type(f), "__module__", "") == "__main__" and not isinstance(f, type):
            functions.append(type(f))  # an object of the answer's own class: its methods
        if isinstance(f, type) and f.__module__ == "__main__" and id(f) not in seen:
            seen.add(id(f))
            functions += list(vars(f).values())
        if isinstance(f, _types.FunctionType) and id(f) not in seen:
            seen.add(id(f))
            names |= _names_read(f.__code__)
            functions += [globals().get(n) for n in _names_read(f.__code__)]
    return names


_reads = _reach([globals()[_name] for _name in {answers!r}])
for _name in ["types", "copy"]:
    if _name not in _reads:
        globals()[_name] = None
"""

# The answers, once the official solution has run, filled with NaN: numbers, tensors, lists and
# dicts of numbers keep their shape; flags, functions and optimizers stay, unless nothing else
# could be filled (an exercise whose answer is a function then gets a NaN in its place).
NAN_FILL = """
_filled = []
for _name in {names!r}:
    _value = globals()[_name]
    if isinstance(_value, dict):
        globals()[_name] = {{_k: float("nan") for _k in _value}}
        _filled.append(_name)
    elif not (callable(_value) or isinstance(_value, bool)):
        try:
            _nan = torch.full_like(torch.as_tensor(_value, dtype=torch.float64), float("nan"))
        except (TypeError, ValueError, RuntimeError):
            continue
        globals()[_name] = _nan
        _filled.append(_name)
for _name in [] if _filled else {names!r}:
    globals()[_name] = float("nan")
"""
BRACKETS = re.compile(r"\btoo (small|large|big|high|low|few|many|short|long)\b"
                      r"|\b(larger|smaller|bigger|higher|lower|fewer|more|less) than\b", re.I)


def exercise_setup(nb, answer: int) -> str:
    """The code cells that set an exercise up, from its section's heading or the previous check
    to its answer cell: run again, they give a solution the fresh start a student gets by
    re-running them (a model the previous answers trained in place, built anew)."""
    start = max((j for j, c in enumerate(nb.cells[:answer]) if "exercise-check" in tags(c)
                 or c.cell_type == "markdown" and HEADING2.search(c.source)), default=-1)
    return "\n\n".join(c.source for c in nb.cells[start + 1:answer] if c.cell_type == "code"
                       and not c.source.startswith("%"))


def run_student_edition(path, tmp_path) -> nbformat.NotebookNode:
    """The student edition, run with empty answers, then the official solutions, then wrong ones."""
    nb = editions.edition(path, student=True)
    official, wrong, right = solutions(path), wrong_answers(path), right_answers(path)
    checks, setups = {}, {}
    for i, cell in enumerate(nb.cells):
        if "answer" in tags(cell) and "exercise-check" in tags(nb.cells[i + 1]):
            checks[cell.metadata["exercise"]] = nb.cells[i + 1]
            nb.cells[i + 1].metadata["expect"] = "not answered yet"
            setups[cell.metadata["exercise"]] = exercise_setup(nb, i)

    def then(code: str, label: str, expect: str, key: str = "", setup: str = "") -> list:
        """The answer, its check, then the chapter's names as they were before the answer."""
        check = nbformat.v4.new_code_cell(checks[label].source,
                                          metadata={"expect": expect, "key": key or label})
        # The answer in a cell of its own: it may begin with a cell magic (%%minilm).
        return [nbformat.v4.new_code_cell(f"{setup}\n_entry = dict(globals())"),
                nbformat.v4.new_code_cell(code), check,
                nbformat.v4.new_code_cell("globals().update(_entry)")]

    for label in checks:
        nb.cells += then("\n\n".join(official[label]), label, "correct")
    for key, code in right.items():
        nb.cells += then(code, key.split("/")[0], "correct", key)
    for key, code in wrong.items():
        nb.cells += then(code, key.split("/")[0], "not yet", key)
    if chapter_number(path) in KIT_CHAPTERS:
        keep = sorted(shared_names(path) | IPYTHON_NAMES)
        for label, check in checks.items():
            names = answer_names(check)
            code = "\n\n".join(official[label])
            rebind = REBIND.format(keep=keep + names, answers=names)
            nb.cells += then(f"{code}\n{rebind}", label, "correct",
                             f"{label}/rebinds-every-chapter-name", setups[label])
            nb.cells += then(f"{code}\n{NAN_FILL.format(names=names)}", label, "not yet",
                             f"{label}/nan")
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_official_solutions_are_checked_correct_by_strict_nbval(path):
    """Each check cell stores `correct` for the official solution, and nbval compares it."""
    nb = nbformat.read(path, as_version=4)
    checks = [c for c in nb.cells if "exercise-check" in tags(c)]
    assert checks, f"{path.name}: no exercise checks"
    for cell in checks:
        printed = "".join(o.get("text", "") for o in cell.outputs)
        assert printed == "correct\n", f"{path.name}: a check printed {printed!r} on the solution"
        assert "nbval-ignore-output" not in tags(cell), "nbval must compare a check's verdict"


# Strict nbval already re-runs every chapter with its official solutions, whose check cells must
# print the stored "correct"; running each student edition with empty, right and wrong answers
# costs a chapter's run time again, so it is part of `make test-full` (CI).
@pytest.mark.full
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_edition_checks_say_not_answered_then_correct_then_not_yet(path, tmp_path):
    nb = run_student_edition(path, tmp_path)
    verdicts = [(c.metadata.get("key", ""), c.metadata["expect"],
                 "".join(o.get("text", "") for o in c.outputs))
                for c in nb.cells if "expect" in c.metadata]
    assert verdicts, "no checks ran"
    wrong = [(key, expect, said) for key, expect, said in verdicts
             if not said.startswith(expect) or (expect == "correct" and said != "correct\n")]
    assert wrong == [], f"{path.name}: checks that said the wrong thing: {wrong}"
    if chapter_number(path) in KIT_CHAPTERS:
        bracketing = [(key, said) for key, _, said in verdicts if BRACKETS.search(said)]
        assert bracketing == [], f"{path.name}: messages that bracket the answer: {bracketing}"
        exploits = {key.split("/")[1] for key, _, _ in verdicts if "/" in key}
        assert {"rebinds-every-chapter-name", "nan"} <= exploits, "the generic exploits ran"
