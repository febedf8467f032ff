"""Whole-file Lean checking in a fresh, sandboxed ``lake env lean --json`` process.

``LeanChecker.check_file(text)`` writes ``text`` to a private temporary directory and runs
``lake env lean --json <file>`` with ``lean_project/`` as working directory (so the
project's Mathlib is on ``LEAN_PATH``), under ``lean_tools.sandbox`` limits. stdout holds
one JSON object per message per line (``severity``: information|warning|error); any other
line (panics, ``Stack overflow detected``) is kept in ``stderr_tail`` and, when nothing
else explains a failing exit code, turned into an error message.

A ``sorry`` is only a warning to Lean (exit 0): ``FileCheck.ok`` can be true for a file
with a sorry. Use ``has_sorry(check)`` or ``lean_tools.soundness`` for a verdict.

``print_axioms(text, theorem)`` asks a SEPARATE process which axioms ``theorem`` uses:
- ``mode="append"``: one process over ``text`` + ``#print axioms theorem`` on a fresh last
  line; only an info message positioned on that line is believed, so text the proof
  printed elsewhere cannot pass for the answer;
- ``mode="module"``: compile ``text`` to ``Candidate.olean`` (``lean --root=<tmp> -o``), then a second
  process elaborates ``import Candidate`` + ``#print axioms`` with the temp dir on
  ``LEAN_PATH``; the candidate's own messages cannot reach that second output.

``query_module(text, query)`` is the general form of ``mode="module"``: compile ``text`` to
``Candidate.olean``, then elaborate ``query`` (which should ``import Candidate``) in a second
process; ``lean_tools.soundness.lean_verify`` uses it for the elaborated-statement check, and
with ``replay`` runs a third process, ``lean --run`` of a kernel-replay program on the compiled
``Candidate.olean`` (``lean_tools.soundness.kernel_replay``).

What is possible without Lean (and tested): message and axiom-list parsing, argument
building, NotInstalled. What needs Lean (tests marked ``lean``): the actual runs, the
exact ``lean --json`` field set of a given version. Read from the sources, not run:
``lean -o`` needs the module name from ``--root`` (Lean's shell), and ``lake env`` keeps an
outer ``LEAN_PATH`` after the workspace's (Lake's ``Workspace.augmentedLeanPath``), which
``mode="module"`` relies on to find ``Candidate.olean``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .. import sandbox
from ..types import FileCheck, Message, NotInstalled, Pos, Record, Severity
from . import protocol as P
from .repl import default_project_dir
from .versions import SETUP_HINT

_GIB = 1024**3
_AXIOMS = re.compile(r"['`](?P<name>.+?)['`] depends on axioms: \[(?P<list>[^\]]*)\]", re.DOTALL)
_NO_AXIOMS = re.compile(r"['`](?P<name>.+?)['`] does not depend on any axioms")
SAFE_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})


class LeanCheckerConfig(BaseModel):
    """How to run whole-file checks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    project_dir: str | None = None
    """Lake project; None -> ``$PROVER_LEAN_PROJECT`` or ``lean_project/``."""
    lake: str = "lake"
    """Lake executable (found on PATH, plus ``$ELAN_HOME/bin``)."""
    memory_bytes: int | None = 16 * _GIB
    """RLIMIT_AS; it counts mmapped .olean files, so keep it well above Mathlib's size."""
    cpu_seconds: int | None = None
    """RLIMIT_CPU; None -> the wall-clock timeout, rounded up."""
    isolate_network: bool = True


class AxiomReport(Record):
    """What ``#print axioms`` said about one theorem."""

    theorem: str
    axioms: tuple[str, ...] | None = None
    """Axioms used; None when no trustworthy answer was found (see ``check``)."""
    check: FileCheck
    """The run that produced the answer."""

    @property
    def unsafe(self) -> tuple[str, ...]:
        """Axioms outside propext / Classical.choice / Quot.sound (``sorryAx``, native_decide ones...)."""
        return tuple(a for a in self.axioms or () if a not in SAFE_AXIOMS)


class ModuleQuery(Record):
    """The two runs of ``query_module``: the candidate's compilation, then the query."""

    build: FileCheck
    query: FileCheck | None = None
    """None when the build failed (the query was not run)."""
    replay: FileCheck | None = None
    """The kernel replay run (``lean --run`` of the ``replay`` program on ``Candidate.olean``);
    None when none was asked for or the build failed."""


def parse_axioms(text: str) -> dict[str, tuple[str, ...]]:
    """``'x' depends on axioms: [a, b]`` (possibly wrapped) and ``'x' does not depend on any axioms``."""
    out: dict[str, tuple[str, ...]] = {}
    for m in _AXIOMS.finditer(text):
        out[m.group("name")] = tuple(a.strip() for a in m.group("list").split(",") if a.strip())
    for m in _NO_AXIOMS.finditer(text):
        out[m.group("name")] = ()
    return out


def _pos(d: object) -> Pos | None:
    if isinstance(d, dict) and isinstance(d.get("line"), int) and isinstance(d.get("column"), int):
        return Pos(line=d["line"], column=d["column"])
    return None


def parse_json_lines(stdout: str) -> tuple[tuple[Message, ...], tuple[str, ...]]:
    """(messages, other lines) from ``lean --json`` stdout, one JSON object per line."""
    messages: list[Message] = []
    other: list[str] = []
    for line in stdout.splitlines():
        s = line.strip()
        if not s:
            continue
        try:
            d = json.loads(s)
        except json.JSONDecodeError:
            other.append(line)
            continue
        if not isinstance(d, dict) or "severity" not in d or "data" not in d:
            other.append(line)
            continue
        sev = {"information": Severity.INFO, "info": Severity.INFO, "warning": Severity.WARNING}.get(
            d["severity"], Severity.ERROR
        )
        text = d["data"] if isinstance(d["data"], str) else json.dumps(d["data"])
        if d.get("caption"):
            text = f"{d['caption']}:\n{text}"
        messages.append(Message(severity=sev, text=text, pos=_pos(d.get("pos")), end_pos=_pos(d.get("endPos"))))
    return tuple(messages), tuple(other)


def has_sorry(check: FileCheck) -> bool:
    """Whether Lean warned ``declaration uses sorry`` (any version's spelling)."""
    return any(P.is_sorry_warning(m) for m in check.messages)


class LeanChecker:
    """``FileChecker`` for Lean: every call is a fresh process; nothing is shared between calls."""

    language: Literal["lean"] = "lean"

    def __init__(self, config: LeanCheckerConfig | None = None):
        self.config = config or LeanCheckerConfig()

    def _project(self) -> Path:
        p = Path(self.config.project_dir) if self.config.project_dir else default_project_dir()
        if not (p / "lean-toolchain").is_file():
            raise NotInstalled(f"Lean project at {p}", SETUP_HINT)
        return p

    def _prefix(self, extra_env: dict[str, str] | None = None) -> list[str]:
        """``env ELAN_HOME=... [LEAN_PATH=...] <lake>``: sandbox.run scrubs the environment and HOME."""
        elan_home = os.environ.get("ELAN_HOME") or str(Path.home() / ".elan")
        path = os.environ.get("PATH", "/usr/bin:/bin")
        if Path(elan_home, "bin").is_dir():
            path = f"{Path(elan_home, 'bin')}{os.pathsep}{path}"
        lake = self.config.lake if "/" in self.config.lake else shutil.which(self.config.lake, path=path)
        if lake is None or not Path(lake).exists():
            raise NotInstalled(self.config.lake, SETUP_HINT)
        assigns = [f"ELAN_HOME={elan_home}", f"PATH={path}"]
        assigns += [f"{k}={v}" for k, v in (extra_env or {}).items()]
        env_bin = shutil.which("env") or "/usr/bin/env"
        return [env_bin, *assigns, lake]

    def _limits(self, timeout: float) -> sandbox.Limits:
        cpu = self.config.cpu_seconds if self.config.cpu_seconds is not None else int(timeout) + 1
        return sandbox.Limits(
            cpu_seconds=cpu,
            memory_bytes=self.config.memory_bytes,
            open_files=None,  # inherit: importing Mathlib opens thousands of .olean files
            isolate_network=self.config.isolate_network,
        )

    def _run(self, args: list[str], timeout: float, extra_env: dict[str, str] | None = None) -> FileCheck:
        project = self._project()
        argv = self._prefix(extra_env) + args
        r = sandbox.run(argv, timeout=timeout, limits=self._limits(timeout), cwd=project)
        messages, other = parse_json_lines(r.stdout)
        if r.returncode != 0 and not any(m.severity is Severity.ERROR for m in messages) and not r.timed_out:
            why = "\n".join(other[-20:]) or r.stderr[-2000:] or f"exit code {r.returncode}"
            messages += (Message(severity=Severity.ERROR, text=f"lean failed without a message: {why}"),)
        tail = "\n".join([*other[-50:], r.stderr[-4000:]]).strip()
        return FileCheck(
            returncode=r.returncode,
            messages=messages,
            timed_out=r.timed_out,
            out_of_memory=r.out_of_memory,
            cpu_seconds=r.cpu_seconds,
            wall_seconds=r.wall_seconds,
            stderr_tail=tail[-6000:],
        )

    def check_file(self, text: str, *, timeout: float = 60.0) -> FileCheck:
        """Compile ``text`` from scratch. Never raises for a bad proof; raises NotInstalled."""
        with tempfile.TemporaryDirectory(prefix="lean-check-") as tmp:
            path = Path(tmp) / "Candidate.lean"
            path.write_text(text, encoding="utf-8")
            return self._run(["env", "lean", "--json", str(path)], timeout)

    def print_axioms(
        self, text: str, theorem: str, *, timeout: float = 120.0, mode: Literal["append", "module"] = "append"
    ) -> AxiomReport:
        """Axioms ``theorem`` (as declared in ``text``) depends on, from a separate process."""
        if not re.fullmatch(r"[^\s'`\[\],]+", theorem):
            raise ValueError(f"not a plain declaration name: {theorem!r}")
        with tempfile.TemporaryDirectory(prefix="lean-axioms-") as tmp:
            if mode == "append":
                body = text if text.endswith("\n") else text + "\n"
                line = body.count("\n") + 1
                path = Path(tmp) / "Candidate.lean"
                path.write_text(f"{body}#print axioms {theorem}\n", encoding="utf-8")
                check = self._run(["env", "lean", "--json", str(path)], timeout)
                found = [
                    m
                    for m in check.messages
                    if m.severity is Severity.INFO and m.pos is not None and m.pos.line == line
                ]
            else:
                mq = self._query_module_in(Path(tmp), text, f"import Candidate\n#print axioms {theorem}\n", timeout)
                if mq.query is None:
                    return AxiomReport(theorem=theorem, axioms=None, check=mq.build)
                check = mq.query
                found = [
                    m for m in check.messages if m.severity is Severity.INFO and m.pos is not None and m.pos.line == 2
                ]
        answers: dict[str, tuple[str, ...]] = {}
        for m in found:
            answers.update(parse_axioms(m.text))
        axioms = answers.get(theorem)
        if axioms is None and len(answers) == 1:
            axioms = next(iter(answers.values()))  # Lean printed the resolved (namespaced) name
        return AxiomReport(theorem=theorem, axioms=axioms, check=check)

    def query_module(self, text: str, query: str, *, timeout: float = 120.0, replay: str | None = None) -> ModuleQuery:
        """Compile ``text`` as module ``Candidate``, then elaborate ``query`` in a SEPARATE process.

        ``query`` should start with ``import Candidate``. The query runs only when the build
        succeeded (``build.ok``: exit 0, no error message); each run gets ``timeout`` seconds.
        Nothing the candidate prints during its build can appear in ``query``'s output, except
        through code that runs at import time (``initialize``), which the static screens ban.
        ``replay``: a program (``lean_tools.soundness.kernel_replay``) run after the query as a
        third process, ``lake env lean --run Replay.lean <tmp>/Candidate.olean``; it does not
        import the candidate, so none of the candidate's code runs there.
        """
        with tempfile.TemporaryDirectory(prefix="lean-query-") as tmp:
            return self._query_module_in(Path(tmp), text, query, timeout, replay)

    def _query_module_in(self, tmp: Path, text: str, query: str, timeout: float, replay: str | None = None) -> ModuleQuery:
        src = tmp / "Candidate.lean"
        src.write_text(text, encoding="utf-8")
        build = self._run(
            # With -o, Lean needs a module name: the path relative to --root (default: cwd).
            ["env", "lean", "--json", f"--root={tmp}", "-o", str(tmp / "Candidate.olean"), str(src)],
            timeout,
        )
        if not build.ok:
            return ModuleQuery(build=build)
        probe = tmp / "Query.lean"
        probe.write_text(query, encoding="utf-8")
        check = self._run(["env", "lean", "--json", str(probe)], timeout, extra_env={"LEAN_PATH": str(tmp)})
        if replay is None:
            return ModuleQuery(build=build, query=check)
        program = tmp / "Replay.lean"
        program.write_text(replay, encoding="utf-8")
        args = ["env", "lean", "--run", str(program), str(tmp / "Candidate.olean")]
        return ModuleQuery(build=build, query=check, replay=self._run(args, timeout, extra_env={"LEAN_PATH": str(tmp)}))
