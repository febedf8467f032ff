"""Whole-file Rocq checking with a fresh, sandboxed ``coqc``.

``coqc`` reports ``File "x.v", line L, characters A-B:`` then ``Error: ...``/``Warning: ...``
(possibly over several lines). Columns are byte offsets in the line; they are converted to
code points here so positions match the Lean convention of ``lean_tools.types``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Literal

from .. import sandbox
from ..types import FileCheck, Message, NotInstalled, Pos, Severity
from .project import load_path_args

_LOC = re.compile(r'^File "(?P<file>[^"]*)", line (?P<line>\d+), characters (?P<a>\d+)-(?P<b>\d+):\s*$')
_HEAD = re.compile(r"^(?P<sev>Error|Warning|Info)(?: \(in proof [^)]*\))?:\s?(?P<rest>.*)$", re.S)

DEFAULT_LIMITS = sandbox.Limits(cpu_seconds=300, memory_bytes=6 * 1024**3)
INSTALL_HINT = "run `prover-setup rocq` (Debian: apt-get install coq libcoq-mathcomp libcoq-coquelicot ...)"


def require(binary: str) -> str:
    path = shutil.which(binary)
    if path is None:
        raise NotInstalled(binary, INSTALL_HINT)
    return path


def _byte_col_to_codepoints(line_text: str, byte_col: int) -> int:
    return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def parse_coq_messages(output: str, source: str | None = None, line_offset: int = 0) -> tuple[Message, ...]:
    """Parse coqc/coqtop diagnostics. ``line_offset`` is subtracted from reported lines."""
    lines = output.splitlines()
    src_lines = source.splitlines() if source is not None else None
    msgs: list[Message] = []
    i = 0
    while i < len(lines):
        m = _LOC.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        body: list[str] = []
        while j < len(lines) and not _LOC.match(lines[j]):
            body.append(lines[j])
            j += 1
        text = "\n".join(body).strip()
        h = _HEAD.match(text)
        sev = Severity.ERROR
        if h:
            sev = {"Error": Severity.ERROR, "Warning": Severity.WARNING, "Info": Severity.INFO}[h.group("sev")]
            text = h.group("rest").strip()
        line = int(m.group("line"))
        a, b = int(m.group("a")), int(m.group("b"))
        if src_lines is not None and 1 <= line <= len(src_lines):
            a = _byte_col_to_codepoints(src_lines[line - 1], a)
            b = _byte_col_to_codepoints(src_lines[line - 1], b)
        msgs.append(
            Message(
                severity=sev,
                text=text,
                pos=Pos(line=line - line_offset, column=a),
                end_pos=Pos(line=line - line_offset, column=b),
            )
        )
        i = j
    if not msgs and output.strip():
        # Output without locations (e.g. "Error: Can't find file", anomalies).
        for chunk in re.split(r"\n(?=(?:Error|Anomaly)\b)", output.strip()):
            if chunk.startswith(("Error", "Anomaly")) or "Error:" in chunk:
                msgs.append(Message(severity=Severity.ERROR, text=chunk.strip()))
    return tuple(msgs)


class RocqChecker:
    """``FileChecker`` over a fresh ``coqc`` in a private directory with CPU/memory limits."""

    language: Literal["rocq"] = "rocq"

    def __init__(self, limits: sandbox.Limits = DEFAULT_LIMITS, coqc: str = "coqc"):
        self.limits = limits
        self.coqc = coqc

    def check_file(self, text: str, *, timeout: float = 60.0, module_name: str = "Candidate") -> FileCheck:
        require(self.coqc)
        res = sandbox.run(
            [self.coqc, "-q", *load_path_args(), f"{module_name}.v"],
            files={f"{module_name}.v": text},
            timeout=timeout,
            limits=self.limits,
        )
        out = res.stdout + "\n" + res.stderr
        msgs = parse_coq_messages(out, text)
        if res.returncode != 0 and not res.timed_out and not any(m.severity is Severity.ERROR for m in msgs):
            msgs = (*msgs, Message(severity=Severity.ERROR, text=f"coqc exited with {res.returncode}: {out.strip()[-500:]}"))
        return FileCheck(
            returncode=res.returncode,
            messages=msgs,
            timed_out=res.timed_out,
            out_of_memory=res.out_of_memory,
            cpu_seconds=res.cpu_seconds,
            wall_seconds=res.wall_seconds,
            stderr_tail=res.stderr[-2000:],
        )


def compile_and_query(
    files: dict[str, str],
    steps: list[str],
    *,
    timeout: float = 120.0,
    limits: sandbox.Limits = DEFAULT_LIMITS,
) -> list[sandbox.RunResult]:
    """Compile several modules in one private directory, in order, each in a fresh ``coqc``.

    ``files`` maps ``Name.v`` to text; ``steps`` lists the file names to compile in order
    (later ones may ``Require`` earlier ones: ``-Q . ''`` maps the directory). Stops at the
    first failing step. Used by the soundness verdict so that the query step (``Print
    Assumptions``, statement comparison) runs in its own process on the compiled ``.vo``,
    where the candidate's text cannot print into its output.
    """
    coqc = require("coqc")
    import tempfile

    results: list[sandbox.RunResult] = []
    with tempfile.TemporaryDirectory(prefix="prover-vo-") as tmp:
        for name, text in files.items():
            (Path(tmp) / name).write_text(text, encoding="utf-8")
        for step in steps:
            r = sandbox.run([coqc, "-q", *load_path_args(), "-Q", ".", "Top", step], timeout=timeout, limits=limits, cwd=tmp)
            results.append(r)
            if r.returncode != 0 or r.timed_out:
                break
    return results
