"""Grade answers to one chapter in isolation: the worker process that scripts/grade.py starts.

Usage (grade.py runs it in a fresh process):
    python scripts/grade_worker.py JOB.json RESULTS.jsonl

JOB.json names the pristine student edition, the time and memory limits, and the answers (the
student, the exercise label, the code). The worker executes the pristine edition top to bottom in
an IPython shell (no Jupyter kernel: nothing but this process). At each exercise that has answers
it forks, once per answer, a copy of the process as the chapter stands just before the answer
cell, and in that copy:

1. runs the student's code in the chapter's namespace, as the notebook did;
2. looks for what the answer changed that the check relies on: a function, class or module the
   check uses bound to other code (it is put back for the check, and reported), an attribute of
   a module or of a class set, or a function's code (live where Python lets it be seen, and by
   comparing with a snapshot taken before the fork), a trace function installed, an answer
   holding an object of a class of its own made to compare as it likes;
3. runs the pristine check cell's definitions and calls its test on the answers, as the shared
   `check()` does: the verdict comes from what the test returns, never from printed text; then
   looks again (2) for anything changed while the test ran the student's functions.

The copy runs offline (network, processes, threads and signals refused by an audit hook), with
its output discarded, a memory limit (RLIMIT_AS) and a time limit (the parent kills it). One line
of JSON per answer goes to RESULTS.jsonl: student, label, verdict, message.

This is not a sandbox: code that runs in a process can, with enough effort, reach anything in it.
It catches the ways a student would try to fool a check (see tests/test_grade.py), and reports
every answer it cannot trust as "tampered", "error" or "timeout", never as "correct".
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import dis
import fcntl
import functools
import json
import os
import pathlib
import resource
import secrets
import select
import signal
import sys
import tempfile
import time
import types
import warnings

CORRECT, NOT_YET, NOT_ANSWERED = "correct", "not yet", "not answered"
ERROR, TIMEOUT, TAMPERED = "error", "timeout", "tampered"
MISSING = object()

# What a graded answer may not do. The pristine chapter runs under OFFLINE only.
OFFLINE = {"socket.connect": "use the network", "socket.bind": "use the network",
           "socket.getaddrinfo": "use the network", "socket.gethostbyname": "use the network",
           "socket.sendto": "use the network", "socket.sendmsg": "use the network"}
REFUSED = OFFLINE | {
    "subprocess.Popen": "start a process", "os.system": "start a process",
    "os.exec": "start a process", "os.posix_spawn": "start a process", "os.spawn": "start a process",
    "os.fork": "fork the process", "os.forkpty": "fork the process",
    "os.kill": "send a signal", "os.killpg": "send a signal", "signal.pthread_kill": "send a signal"}
# Attributes that change in normal operation: Python's and IPython's own bookkeeping.
ALLOWED = {("sys", name) for name in ("stdout", "stderr", "stdin", "displayhook", "excepthook",
                                      "last_type", "last_value", "last_traceback", "last_exc")}
IMMUTABLE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: a class whose attributes cannot be set
ALLOWED_ON_CLASSES = {"__slotnames__", "__abstractmethods__"}  # caches that copy and abc keep
# Special methods through which an object of the student's own class could answer any comparison.
COMPARING = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__", "__float__",
             "__int__", "__index__", "__array__", "__torch_function__", "__torch_dispatch__",
             "__getattr__", "__getattribute__", "__instancecheck__", "__class__"}


def offline(event: str, args: tuple) -> None:
    """Audit hook for the whole worker: no network."""
    if event in OFFLINE:
        raise PermissionError(f"grading is offline ({event})")


def describe(error: BaseException) -> str:
    """An exception as its name and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def stopped(error: BaseException, memory_gib: float) -> str:
    """What stopped an answer, in words."""
    if isinstance(error, MemoryError) or "can't allocate memory" in str(error):
        return f"{type(error).__name__}: it needs more than the {memory_gib:g} GiB an answer may use"
    return describe(error)


def dunder(name: str) -> bool:
    """Whether a name is a special method's (__eq__)."""
    return name.startswith("__") and name.endswith("__")


# ----------------------------------------------------------------------------- what a check uses


def used_names(ns: dict, code: types.CodeType) -> set[str]:
    """Every global name the check cell's code reads, following the chapter's functions and
    classes that it calls (transitively)."""
    names, todo, seen = set(), [code], set()
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, types.CodeType):
            for step in dis.get_instructions(item):
                if step.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    names.add(step.argval)
                    todo.append(ns.get(step.argval))
            todo += [c for c in item.co_consts if isinstance(c, types.CodeType)]
        elif isinstance(item, types.FunctionType) and item.__globals__ is ns:
            todo.append(item.__code__)
            todo += [cell.cell_contents for cell in item.__closure__ or () if cell_is_set(cell)]
        elif isinstance(item, (classmethod, staticmethod, property)):
            todo += [getattr(item, a, None) for a in ("__func__", "fget", "fset")]
        elif isinstance(item, type) and vars(item).get("__module__") == "__main__":
            todo += list(vars(item).values())
    return names


def cell_is_set(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty closure cell raises)
    except ValueError:
        return False
    return True


CODE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type,
        types.WrapperDescriptorType, types.MethodDescriptorType, types.ClassMethodDescriptorType,
        types.GetSetDescriptorType, types.MemberDescriptorType, property, classmethod, staticmethod,
        functools.partial)
PLAIN = (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset)


def is_code(value: object) -> bool:
    """Whether a value is code (a function, method, class or module) rather than data."""
    return isinstance(value, CODE)


# ----------------------------------------------------------------------------- snapshot


class Snapshot:
    """The process as it stands before an answer: the attributes of every module and of every
    class they hold, the functions they hold (their code is watched live, see Watch), the
    chapter's namespace, and the code of the chapter's own functions and of the check."""

    def __init__(self, ns: dict, check: dict) -> None:
        self.ns, self.used = dict(ns), used_names(ns, check["code"])
        self.builtin_names = set(vars(builtins))
        self.answer_type_error = ns.get("AnswerTypeError")
        own = ns.get("_SETUP")  # the names check() and its helpers read (the shared cells')
        self.own = (own, dict(own)) if isinstance(own, dict) else ({}, {})
        self.modules = {name: (m, dict(vars(m))) for name, m in list(sys.modules.items())
                        if isinstance(m, types.ModuleType) and vars(m) is not ns}  # not the chapter
        self.ids = {name: tuple(map(id, attrs.values())) for name, (_, attrs) in self.modules.items()}
        self.classes: dict[int, tuple[type, dict, tuple]] = {}  # the attributes of each class
        self.functions: set[int] = set()
        with warnings.catch_warnings():  # looking at a deprecated name warns
            warnings.simplefilter("ignore")
            for _, attrs in self.modules.values():
                self.note(attrs.values())
            self.note(self.ns.values())
        self.watched = {id(m) for m, _ in self.modules.values()} | set(self.classes) | self.functions
        chapter = [v.__code__ for v in ns.values()
                   if isinstance(v, types.FunctionType) and v.__globals__ is ns]
        self.chapter_code = {id(c) for c in nested(chapter + [check["definitions"]])}

    def note(self, values) -> None:
        for value in values:
            if isinstance(value, type) and id(value) not in self.classes:
                attrs = dict(vars(value))
                self.classes[id(value)] = (value, attrs, tuple(map(id, attrs.values())))
                self.note(v for v in attrs.values() if isinstance(v, types.FunctionType | type))
            elif isinstance(value, types.FunctionType):
                self.functions.add(id(value))

    def changes(self, id=id, len=len, map=map, tuple=tuple, type=type) -> list[str]:
        """What differs now in the names check() reads (the shared cells' _SETUP) and in the
        attributes of the modules and of their classes (a class's plain data, such as a counter,
        aside). The built-ins it uses are bound here, where no answer can replace them."""
        live, kept = self.own
        found = [f"redefines {k}, which the check uses" for k in live.keys() | kept.keys()
                 if live.get(k, MISSING) is not kept.get(k, MISSING)]
        for name, (module, attrs) in self.modules.items():
            if sys.modules.get(name) is not module:
                found.append(f"replaces the module {name}")
                continue
            now = vars(module)
            if len(now) == len(attrs) and tuple(map(id, now.values())) == self.ids[name] \
                    and tuple(now) == tuple(attrs):
                continue  # unchanged (the common case, checked fast)
            found += [f"sets {name}.{k}" for k, v in attrs.items()
                      if now.get(k, MISSING) is not v and (name, k) not in ALLOWED and public(k)]
            found += [f"adds {name}.{k}, hiding the built-in {k}" for k in now.keys() - attrs.keys()
                      if k in self.builtin_names]
        for cls, attrs, ids in self.classes.values():
            if cls.__flags__ & IMMUTABLE:
                continue  # int, dict, ...: no attribute of theirs can be set
            now = vars(cls)
            if len(now) == len(attrs) and tuple(map(id, now.values())) == ids and tuple(now) == tuple(attrs):
                continue
            found += [f"sets {cls.__module__}.{cls.__qualname__}.{k}" for k in attrs.keys() | now.keys()
                      if now.get(k, MISSING) is not attrs.get(k, MISSING) and public(k)
                      and k not in ALLOWED_ON_CLASSES
                      and not (type(now.get(k)) in PLAIN and type(attrs.get(k)) in PLAIN)]
        return found

    def rebound(self, ns: dict, before: dict) -> list[str]:
        """The names the check uses that are bound to other code than before: a function, class
        or module of the chapter redefined, or a built-in hidden."""
        return [name for name in sorted(self.used) if ns.get(name, MISSING) is not before.get(name, MISSING)
                and (is_code(before[name]) if name in before else name in self.builtin_names)]


def public(name: str) -> bool:
    """Whether an attribute is part of what others use (not _private; special methods are)."""
    return not name.startswith("_") or dunder(name)


def nested(codes: list[types.CodeType]) -> list[types.CodeType]:
    """These code objects and every one defined inside them."""
    found = []
    while codes:
        code = codes.pop()
        found.append(code)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return found


class Watch:
    """Live, as it happens (so that a change undone before the end is still seen): every
    attribute set on a module the snapshot holds, every function's code or defaults and every
    class's special attributes set (Python's audit events; a class's other attributes are
    compared at the end, Snapshot.changes), a trace function installed, and what is refused."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap, self.found, self.refused, self.on = snap, [], [], True
        modules = {id(m): name for name, (m, _) in snap.modules.items()}
        watch = self

        class Guarded(types.ModuleType):
            # type(sys)(name) makes modules of this class too: only the snapshot's are watched,
            # and what the chapter's own code sets (it may switch a library function off) is not
            def __setattr__(self, name, value):
                if id(self) in modules and id(sys._getframe(1).f_code) not in snap.chapter_code:
                    watch.module_set(modules[id(self)], self, name, value)
                super().__setattr__(name, value)

            def __delattr__(self, name):
                if id(self) in modules and id(sys._getframe(1).f_code) not in snap.chapter_code:
                    watch.module_set(modules[id(self)], self, name, MISSING)
                super().__delattr__(name)

        self.refuse_threads()
        for module, _ in snap.modules.values():
            if type(module) is types.ModuleType:
                module.__class__ = Guarded
        sys.addaudithook(self.event)

    def refuse_threads(self) -> None:
        """Python raises no audit event for a new thread: its starters are replaced instead."""

        def refused(*args, **kwargs):
            self.refused.append("start a thread")
            raise PermissionError("an answer may not start a thread while it is graded")

        for name, attr in (("_thread", "start_new_thread"), ("_thread", "start_new"),
                           ("_thread", "start_joinable_thread"), ("threading", "_start_new_thread"),
                           ("threading", "_start_joinable_thread")):
            module = sys.modules.get(name)
            if module is not None and hasattr(module, attr) and name in self.snap.modules:
                setattr(module, attr, refused)
                self.snap.modules[name][1][attr] = refused  # this copy's own snapshot

    def module_set(self, name: str, module, attr: str, value) -> None:
        if not self.on or (name, attr) in ALLOWED:
            return
        if attr in vars(module) and vars(module)[attr] is not value:
            self.found.append(f"sets {name}.{attr}")
        elif attr not in vars(module) and attr in self.snap.builtin_names:
            self.found.append(f"adds {name}.{attr}, hiding the built-in {attr}")

    def event(self, event: str, args: tuple) -> None:
        if not self.on:
            return
        if event in REFUSED or event.startswith(("os.exec", "os.spawn")):
            what = REFUSED.get(event) or REFUSED.get(event[:7], "start a process")
            self.refused.append(what)
            raise PermissionError(f"an answer may not {what} while it is graded")
        if event in ("object.__setattr__", "object.__delattr__") and id(args[0]) in self.snap.watched:
            target, attr = args[0], args[1]
            if isinstance(target, types.ModuleType) and attr == "__class__":
                return
            if attr in ALLOWED_ON_CLASSES or (event.endswith("setattr") and len(args) > 2
                                              and getattr(target, "__dict__", {}).get(attr) is args[2]):
                return
            self.found.append(f"sets {getattr(target, '__qualname__', type(target).__name__)}.{attr}")
        elif event in ("sys.settrace", "sys.setprofile"):
            self.found.append(f"installs a {event[7:]} function, which sees inside the check")


def odd_answers(values: list, snap: Snapshot) -> list[str]:
    """Answers holding an object of a class the submission made, a tensor subclass or one with
    its own comparisons or conversions (the checks take numbers, tensors and functions)."""
    found, todo, depth = [], [(v, 0) for v in values], 3
    while todo:
        value, level = todo.pop()
        cls = type(value)
        made_here = [c for c in cls.__mro__ if id(c) not in snap.classes]  # since the snapshot
        torch = sys.modules.get("torch")
        if made_here and torch is not None and issubclass(cls, torch.Tensor):
            found.append(f"an answer is a tensor subclass made in the submission ({cls.__name__})")
        odd = sorted({name for c in made_here for name in vars(c) if name in COMPARING})
        if odd:
            found.append(f"an answer is a {cls.__name__}, a class made in the submission with its own"
                         f" {', '.join(odd)}")
        if level < depth and isinstance(value, (list, tuple, set, frozenset)):
            todo += [(v, level + 1) for v in value]
        elif level < depth and isinstance(value, dict):
            todo += [(v, level + 1) for v in list(value.keys()) + list(value.values())]
    return found


# ----------------------------------------------------------------------------- one answer


def judge(test, answers: list, answer_type_error) -> tuple[str, str]:
    """What the shared check() would print for these answers, as a verdict and a message."""
    if any(answer is None for answer in answers):
        return NOT_ANSWERED, "replace each None with your answer"
    try:
        problem = test(*answers)
    except Exception as error:  # as check(): an answer of the wrong kind, or one that breaks the test
        is_type = isinstance(answer_type_error, type) and isinstance(error, answer_type_error)
        problem = str(error) if is_type else f"{type(error).__name__}: {error}"
    return (CORRECT, "") if problem is None else (NOT_YET, str(problem))


def confine(memory_gib: float) -> None:
    """This copy's output discarded, its files written in a fresh folder, its memory capped."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the process ends soon)
    os.chdir(tempfile.mkdtemp(prefix="answer-"))
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = int(pages * os.sysconf("SC_PAGE_SIZE") + memory_gib * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (2**28, 2**28))


def run_answer(shell, snap: Snapshot, check: dict, code: str, memory_gib: float) -> tuple[str, str]:
    """In the forked copy: the answer, then the pristine check; the verdict and its message."""
    confine(memory_gib)
    ns = shell.user_ns  # the chapter's namespace: the answer runs there, as in the notebook
    watch = Watch(snap)
    result = shell.run_cell(code, store_history=False)
    if result.error_before_exec is not None:
        return ERROR, f"the answer does not run: {describe(result.error_before_exec)}"
    values = [ns.get(name, MISSING) for name in check["names"]]
    found = watch.found + odd_answers([v for v in values if v is not MISSING], snap)
    if found:  # (what an answer changed without an attribute set is looked for once, at the end)
        return TAMPERED, "the answer " + "; ".join(dict.fromkeys(found))
    if watch.refused:
        return ERROR, f"the answer tried to {watch.refused[0]}, which grading refuses"
    if result.error_in_exec is not None:
        return ERROR, f"the answer cell stopped with {stopped(result.error_in_exec, memory_gib)}"
    missing = [name for name, v in zip(check["names"], values, strict=True) if v is MISSING]
    if missing:
        return NOT_ANSWERED, f"{', '.join(missing)} not defined"
    redefined = [name for name in snap.rebound(ns, snap.ns) if name not in check["names"]]
    for name in redefined:  # the chapter's own, for the check (data the answer rebinds, it sees)
        ns.pop(name, None) if name not in snap.ns else ns.__setitem__(name, snap.ns[name])
    exec(check["definitions"], ns)
    before = dict(ns)
    verdict, message = judge(eval(check["test"], ns), values, snap.answer_type_error)
    watch.on = False
    found = watch.found + snap.changes() + [f"redefines {name} while the check runs"
                                            for name in snap.rebound(ns, before)]
    if found:
        return TAMPERED, "the answer " + "; ".join(dict.fromkeys(found))
    if watch.refused:
        return ERROR, f"the answer tried to {watch.refused[0]}, which grading refuses"
    if redefined:
        said = f"{verdict}: {message}" if message else verdict
        return TAMPERED, (f"the answer redefines {', '.join(redefined)}, which the check uses; the"
                          f" chapter's own check says {said}")
    return verdict, message


def isolated(shell, snap: Snapshot, check: dict, code: str, timeout: float,
             memory_gib: float) -> tuple[str, str]:
    """Run one answer in a forked copy of this process, within the limits; its verdict."""
    token = secrets.token_hex(16)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: report one line, then end without running any cleanup
        channel = fcntl.fcntl(write_end, fcntl.F_DUPFD, 200 + secrets.randbelow(700))  # a free one
        os.close(read_end)
        os.close(write_end)
        try:
            verdict = run_answer(shell, snap, check, code, memory_gib)
        except BaseException as error:  # noqa: BLE001 (whatever stops it is the answer's doing)
            verdict = (ERROR, f"the answer stopped the check with {describe(error)}")
        with contextlib.suppress(BaseException):
            os.write(channel, (token + json.dumps(verdict)).encode())
        os._exit(0)
    os.close(write_end)
    data, deadline = b"", time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([read_end], [], [], left)
        chunk = os.read(read_end, 65536) if ready else b""
        if ready and not chunk:
            break
        data += chunk
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read_end)
        return TIMEOUT, f"no verdict within {timeout:g} s"
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    text = data.decode(errors="replace")
    if text.startswith(token):
        with contextlib.suppress(ValueError):
            verdict, message = json.loads(text[len(token):])
            return verdict, message
    if os.WIFSIGNALED(status):
        return ERROR, f"the answer crashed the process (signal {os.WTERMSIG(status)})"
    if data:
        return TAMPERED, "the answer wrote to the grader's own channel"
    return ERROR, f"the answer ended the process (exit status {os.waitstatus_to_exitcode(status)})"


# ----------------------------------------------------------------------------- the chapter


def split_check(shell, source: str) -> dict:
    """A check cell as its definitions, the test it calls check() with, and the answer names."""
    tree = ast.parse(shell.transform_cell(source))
    call = tree.body[-1].value
    definitions = ast.Module(body=tree.body[:-1], type_ignores=[])
    return {"definitions": compile(definitions, "<check>", "exec"),
            "test": compile(ast.Expression(call.args[0]), "<check>", "eval"),
            "names": [arg.id for arg in call.args[1:]],
            "code": compile(tree, "<check>", "exec")}


def make_shell():
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    return InteractiveShell.instance(config=config, user_module=types.ModuleType("__main__"))


def main(job_file: str, results_file: str) -> int:
    import nbformat

    sys.addaudithook(offline)
    tempfile.gettempdir()  # caches the folder in the tempfile module now, not in an answer's copy
    import torch  # every chapter's; on the CPU (CUDA is hidden), so every machine grades alike

    torch.backends.mps.is_available = lambda: False
    job = json.loads(pathlib.Path(job_file).read_text())
    nb = nbformat.read(job["edition"], as_version=4)
    pending: dict[str, list[dict]] = {}
    for answer in job["answers"]:
        pending.setdefault(answer["label"], []).append(answer)
    shell = make_shell()

    def report(answer: dict, verdict: str, message: str) -> None:
        """One verdict, appended (the file is never open while an answer runs)."""
        with open(results_file, "a") as results:
            results.write(json.dumps({"student": answer["student"], "label": answer["label"],
                                      "verdict": verdict, "message": message}) + "\n")

    for index, cell in enumerate(nb.cells):
        if not pending:
            break  # every answer graded: the rest of the chapter is not needed
        if cell.cell_type != "code":
            continue
        label = cell.metadata.get("exercise") if "answer" in cell.metadata.get("tags", []) else None
        if label in pending and index + 1 < len(nb.cells):
            check = split_check(shell, nb.cells[index + 1].source)
            snap = Snapshot(shell.user_ns, check)
            for answer in pending.pop(label):
                started = time.monotonic()
                verdict = isolated(shell, snap, check, answer["code"], job["timeout"], job["memory"])
                report(answer, *verdict)
                print(f"{label} {answer['student']}: {verdict[0]} ({time.monotonic() - started:.1f} s)",
                      flush=True)
        started = time.monotonic()
        with contextlib.redirect_stdout(sys.stderr):
            result = shell.run_cell(cell.source, store_history=False)
        print(f"cell {index}: {time.monotonic() - started:.1f} s", flush=True)
        if not result.success and "raises-exception" not in cell.metadata.get("tags", []):
            error = result.error_before_exec or result.error_in_exec
            for answer in (a for answers in pending.values() for a in answers):
                report(answer, ERROR, f"the chapter itself stopped at cell {index} with"
                                      f" {describe(error)}: grade again once it runs")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
