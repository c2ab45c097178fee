"""Grade a class: run every student's answers against the chapters' own checks.

Usage:
    python scripts/grade.py SUBMISSIONS [--out grades.csv] [--editions DIR]
                            [--timeout SECONDS] [--memory GIB] [--jobs N]

SUBMISSIONS is a folder of submitted notebooks (searched recursively): the student edition of
any chapter, answers filled in, under any file name. For each submission and each exercise the
grader takes the student's answer (the exercise's answer cell and any code cell the student
added between the exercise's statement and its check cell) and runs it against the grader's
own, pristine copy of the chapter's student edition, never against the code in the submission:

- scripts/grade_worker.py executes the pristine chapter once per chapter, in one fresh Python
  process (offline, one thread, no GPU), and at each exercise forks a copy of itself for each
  student's answer: the answer runs there, then the pristine check cell, under a time and a
  memory limit, so that one broken answer sinks no other;
- the verdict comes from the value the check's test returns, not from what is printed;
- what an answer changes outside its own names (a helper the check uses, torch, the built-ins,
  the check cell itself) is found and reported as "tampered", never as "correct".

The result is one CSV table with a row per submission and exercise: student (the submission's
path under SUBMISSIONS), chapter, exercise (its label), verdict, message. The verdicts:
correct, not yet, not answered, error, timeout, tampered, and "by hand" for an exercise without
a check (a derivation, or a part of a mini-project) that the student answered.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import csv
import dataclasses
import difflib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading

import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import notebook_edition as editions  # noqa: E402 (beside this file)
from bookkit import ANSWER, EXERCISE_CHECK  # noqa: E402
from edition.exercises import CHECK_TITLE, answer_names  # noqa: E402

WORKER = ROOT / "scripts" / "grade_worker.py"
CORRECT, NOT_YET, NOT_ANSWERED = "correct", "not yet", "not answered"
ERROR, TIMEOUT, TAMPERED, BY_HAND = "error", "timeout", "tampered", "by hand"
VERDICTS = (CORRECT, NOT_YET, NOT_ANSWERED, ERROR, TIMEOUT, TAMPERED, BY_HAND)
COLUMNS = ("student", "chapter", "exercise", "verdict", "message")
SAME_CHAPTER = 0.5  # the share of a chapter's cells a submission must hold unchanged
LOG_LOCK = threading.Lock()  # chapters graded at once append to one log


@dataclasses.dataclass
class Exercise:
    """An exercise of a pristine student edition, by cell index."""

    label: str
    statement: int  # the Markdown cell that states it
    answer: int  # the answer cell
    check: int | None  # its check cell, if it has one
    names: list[str]  # the answer names the check reads


@dataclasses.dataclass
class Chapter:
    """A pristine student edition and its exercises."""

    name: str
    nb: nbformat.NotebookNode
    exercises: list[Exercise]

    def keys(self) -> list[str]:
        return [cell_key(c) for c in self.nb.cells]


@dataclasses.dataclass
class Answer:
    """What a submission answers to one exercise, before it is run."""

    student: str
    label: str
    code: str | None = None  # to run; None when there is nothing to run
    verdict: str = ""  # decided without running (not answered, by hand)
    message: str = ""
    check_edited: bool = False


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def cell_key(cell) -> str:
    """A cell's kind and source, lines stripped of trailing blanks: what alignment compares."""
    lines = [line.rstrip() for line in cell.get("source", "").strip().splitlines()]
    return cell.get("cell_type", "") + "\n" + "\n".join(lines)


def find_exercises(nb: nbformat.NotebookNode) -> list[Exercise]:
    """The exercises of a student edition: its answer cells and the check cells that follow."""
    found = []
    for i, cell in enumerate(nb.cells):
        if ANSWER not in tags(cell):
            continue
        label = cell.metadata["exercise"]
        following = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
        check = i + 1 if following is not None and EXERCISE_CHECK in tags(following) else None
        names = answer_names(following) if check is not None else []
        anchor = f'id="{label}"'
        statement = next((j for j in range(i - 1, -1, -1)
                          if nb.cells[j].cell_type == "markdown" and anchor in nb.cells[j].source),
                         i - 1)
        found.append(Exercise(label, statement, i, check, names))
    return found


def pristine_chapters(paths: list[pathlib.Path]) -> list[Chapter]:
    """The student editions to grade against: made from chapters, or read as they were handed out."""
    chapters = []
    for path in paths:
        nb = (editions.edition(path, student=True) if not is_student_edition(path)
              else nbformat.read(path, as_version=4))
        chapters.append(Chapter(path.stem, nb, find_exercises(nb)))
    return chapters


def is_student_edition(path: pathlib.Path) -> bool:
    """Whether a notebook is a student edition already (it has answer cells)."""
    nb = nbformat.read(path, as_version=4)
    return any(ANSWER in tags(c) for c in nb.cells)


# ----------------------------------------------------------------------------- submissions


def which_chapter(nb: nbformat.NotebookNode, chapters: list[Chapter]) -> Chapter | None:
    """The chapter whose cells the submission holds most of, unchanged (None if none is close)."""
    keys = {cell_key(c) for c in nb.cells}
    score = {ch.name: sum(k in keys for k in ch.keys()) / len(ch.nb.cells) for ch in chapters}
    best = max(chapters, key=lambda ch: score[ch.name])
    return best if score[best.name] >= SAME_CHAPTER else None


def align(chapter: Chapter, nb: nbformat.NotebookNode) -> list[int | None]:
    """For each cell of a submission, the pristine cell it is (unchanged, or edited under the
    same cell id), or None for a cell the student added."""
    pristine, cells = chapter.keys(), [cell_key(c) for c in nb.cells]
    where: list[int | None] = [None] * len(cells)
    matcher = difflib.SequenceMatcher(None, pristine, cells, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            where[block.b + k] = block.a + k
    by_id = {c.get("id"): i for i, c in enumerate(chapter.nb.cells) if c.get("id")}
    taken = set(where)
    for j, cell in enumerate(nb.cells):
        i = by_id.get(cell.get("id"))
        if where[j] is None and i is not None and i not in taken:
            where[j] = i
            taken.add(i)
    return where


def read_answers(student: str, nb: nbformat.NotebookNode, chapter: Chapter) -> list[Answer]:
    """The answer of a submission to each exercise of its chapter."""
    where = align(chapter, nb)
    position = {i: j for j, i in enumerate(where) if i is not None}
    answers = []
    for ex in chapter.exercises:
        before = [position[i] for i in range(ex.statement, ex.answer) if i in position]
        after = [position[i] for i in range(ex.answer + 1, len(chapter.nb.cells)) if i in position]
        start = max(before, default=-1)
        end = min(after, default=len(nb.cells))
        region = range(start + 1, end)
        mine = [j for j in region if where[j] in (None, ex.answer)]
        answers.append(answer_of(student, ex, chapter, nb, mine, position))
    return answers


def answer_of(student: str, ex: Exercise, chapter: Chapter, nb: nbformat.NotebookNode,
              mine: list[int], position: dict[int, int]) -> Answer:
    """One exercise's answer: code to run, or a verdict reached without running anything."""
    stub = chapter.nb.cells[ex.answer]
    pristine_check = chapter.nb.cells[ex.check] if ex.check is not None else None
    answer = Answer(student, ex.label)
    if pristine_check is not None:
        edited = [j for j in mine if looks_like_check(nb.cells[j], pristine_check)]
        mine = [j for j in mine if j not in edited]
        kept = ex.check in position and cell_key(nb.cells[position[ex.check]]) == cell_key(pristine_check)
        answer.check_edited = bool(edited) or (ex.check in position and not kept)
    code = [nb.cells[j] for j in mine if nb.cells[j].cell_type == "code"]
    text = [nb.cells[j] for j in mine if nb.cells[j].cell_type == "markdown"]
    if pristine_check is not None:
        source = "\n\n".join(c.source for c in code)
        if not source.strip() or cell_key(nbformat.v4.new_code_cell(source)) == cell_key(stub):
            answer.verdict, answer.message = NOT_ANSWERED, "the answer cell is as handed out, or empty"
        else:
            answer.code = source
        return answer
    written = [c for c in code + text if c.source.strip() and cell_key(c) != cell_key(stub)]
    if not written:
        answer.verdict, answer.message = NOT_ANSWERED, "nothing written"
    else:
        words = sum(len(c.source.split()) for c in written)
        answer.verdict = BY_HAND
        answer.message = f"no check: {words} words to mark against its solution"
    return answer


def looks_like_check(cell, pristine_check) -> bool:
    """Whether a cell the student changed is the exercise's check cell, edited."""
    if cell.cell_type != "code":
        return False
    if cell.source.lstrip().startswith(CHECK_TITLE.split("(")[0]):
        return True
    ratio = difflib.SequenceMatcher(None, cell.source, pristine_check.source, autojunk=False).ratio()
    return ratio >= 0.6


# ----------------------------------------------------------------------------- grading


def grade_chapter(chapter: Chapter, answers: list[Answer], timeout: float, memory: float,
                  log: pathlib.Path) -> dict[tuple[str, str], tuple[str, str]]:
    """Run the answers that need running in a worker process for the chapter; their verdicts."""
    to_run = [a for a in answers if a.code is not None]
    if not to_run:
        return {}
    with tempfile.TemporaryDirectory(prefix="grade-") as tmp:
        job = pathlib.Path(tmp) / "job.json"
        edition = pathlib.Path(tmp) / f"{chapter.name}.ipynb"
        nbformat.write(chapter.nb, edition)
        job.write_text(json.dumps({
            "edition": str(edition), "timeout": timeout, "memory": memory,
            "answers": [{"student": a.student, "label": a.label, "code": a.code} for a in to_run]}))
        results = pathlib.Path(tmp) / "results.jsonl"
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="",
                   MPLBACKEND="Agg", PIP_NO_INDEX="1", HF_HUB_OFFLINE="1", PYTHONHASHSEED="0",
                   IPYTHONDIR=str(pathlib.Path(tmp) / "ipython"), PYTHONDONTWRITEBYTECODE="1")
        own_log = pathlib.Path(tmp) / "worker.log"  # appended to the log when the worker ends
        with own_log.open("w") as out:
            run = subprocess.run([sys.executable, str(WORKER), str(job), str(results)], cwd=tmp,
                                 env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out, check=False)
        with LOG_LOCK, log.open("a") as out:
            out.write(f"== {chapter.name}\n{own_log.read_text()}")
        verdicts = {}
        if results.exists():
            for line in results.read_text().splitlines():
                row = json.loads(line)
                verdicts[row["student"], row["label"]] = (row["verdict"], row["message"])
    for a in to_run:  # a worker that died leaves its answers ungraded: say so
        verdicts.setdefault((a.student, a.label), (
            ERROR, f"the grader's worker for this chapter stopped (status {run.returncode}); see {log}"))
    return verdicts


def grade(folder: pathlib.Path, chapters: list[Chapter], timeout: float, memory: float,
          log: pathlib.Path, jobs: int = 1) -> list[dict[str, str]]:
    """The table's rows for every submission in folder, in file order, exercises in book order."""
    rows, by_chapter = [], collections.defaultdict(list)
    files = sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    for path in files:
        student = path.relative_to(folder).as_posix()
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception as error:  # any unreadable file is reported, never fatal
            rows.append(row(student, "", "", ERROR, f"not a notebook: {type(error).__name__}: {error}"))
            continue
        chapter = which_chapter(nb, chapters)
        if chapter is None:
            rows.append(row(student, "", "", ERROR, "not the student edition of any chapter"))
            continue
        answers = read_answers(student, nb, chapter)
        by_chapter[chapter.name] += answers
        rows += [row(student, chapter.name, a.label, a.verdict, a.message, answer=a) for a in answers]
    # Chapters are graded `jobs` at a time, each by a worker process of its own.
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = pool.map(lambda c: grade_chapter(c, by_chapter[c.name], timeout, memory, log),
                          [c for c in chapters if by_chapter[c.name]])
        verdicts = {key: verdict for chapter in graded for key, verdict in chapter.items()}
    for r in rows:
        if r["chapter"] and (r["student"], r["exercise"]) in verdicts:
            r["verdict"], r["message"] = verdicts[r["student"], r["exercise"]]
    for r in rows:
        answer = r.pop("answer", None)
        if answer is not None and answer.check_edited:
            said = f"{r['verdict']}: {r['message']}" if r["message"] else r["verdict"]
            r["verdict"] = TAMPERED
            r["message"] = f"the check cell was changed; the chapter's own check says {said}"
    return rows


def row(student, chapter, label, verdict, message, answer=None) -> dict:
    found = {"student": student, "chapter": chapter, "exercise": label, "verdict": verdict,
             "message": " ".join(str(message).split())[:400]}
    if answer is not None:
        found["answer"] = answer
    return found


def write_csv(rows: list[dict], out: pathlib.Path) -> None:
    with out.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=pathlib.Path, help="a folder of submitted notebooks")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("grades.csv"))
    parser.add_argument("--editions", type=pathlib.Path, nargs="+",
                        default=sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")),
                        help="the chapters, or the student editions as handed out (default: notebooks/)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per answer (default 120)")
    parser.add_argument("--memory", type=float, default=4, help="GiB per answer (default 4)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="chapters graded at once, a worker process each (default 1)")
    args = parser.parse_args(argv)
    if not args.submissions.is_dir():
        parser.error(f"{args.submissions} is not a folder of notebooks")
    if not (args.timeout > 0 and args.memory > 0):
        parser.error("--timeout and --memory must be positive")
    if args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: at least 1")
    editions_given = [p for p in args.editions if p.is_dir()]
    paths = [q for p in editions_given for q in sorted(p.glob("*.ipynb"))]
    paths += [p for p in args.editions if not p.is_dir()]
    log = args.out.with_suffix(".log")
    log.write_text("")
    rows = grade(args.submissions, pristine_chapters(paths), args.timeout, args.memory, log, args.jobs)
    write_csv(rows, args.out)
    counts = collections.Counter(r["verdict"] for r in rows)
    print(f"{len({r['student'] for r in rows})} submissions, {len(rows)} rows: "
          + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]) + f". Written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
