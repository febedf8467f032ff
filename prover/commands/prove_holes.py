"""``prove FILE.v`` on a project file: fill every chosen hole in file order, write the result.

Reached from ``prove`` (``prover.commands.prove``) for a Rocq file with more than one hole, a
hole inside a ``Section``/``Module``, an ``admit.``, a partial script, ``--in-place``, several
``--theorem``s, or ``--allow-require`` (a proof may need a library the file does not load: its
``Require`` line is added, printed, and listed as ``requires_added``). Output: ``--out PATH``,
``--in-place`` (the original kept as ``FILE.v.orig``), or the filled file on stdout; ``--json``
prints one object with a ``holes`` array instead. Exit 0 when every chosen hole is ``proved``,
1 otherwise (the file is still written with the holes that were proved), 2 for bad input."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from lean_tools.rocq.project import RocqProject


def needs_fill_path(text: str, args: Any) -> bool:
    """Whether ``text`` is a project file rather than one competition problem."""
    from lean_tools.rocq.holes import find_holes

    holes = find_holes(text)
    if args.in_place or args.allow_require or len(args.theorem or []) > 1:
        return True
    if len(holes) != 1:
        return len(holes) > 1
    h = holes[0]
    return bool(h.scopes) or h.kind != "admitted" or bool(text[h.script_start : h.end_start].strip())


def check_compiles(path: str, text: str, project: RocqProject) -> str | None:
    """None when ``text`` compiles as it is with the project's flags; else the coqc message
    (a missing or stale import names the module)."""
    from lean_tools.rocq.checker import RocqChecker
    from lean_tools.rocq.project import activate

    with activate(project):
        fc = RocqChecker().check_file(text, timeout=600)
    if fc.ok:
        return None
    first = next((m for m in fc.messages if m.severity.name == "ERROR"), None)
    where = f" at line {first.pos.line}" if first is not None and first.pos is not None else ""
    message = first.text if first is not None else fc.stderr_tail.strip()[-400:]
    return f"{path} does not compile as it is (holes admitted){where}: {message}"


def run_fill(path: str, text: str, project: RocqProject, cfg: Any, args: Any) -> int:
    """Fill, write, report; the exit code."""
    from ..errors import BadProblem
    from ..fill import FillRequest, fill_file

    hole_timeout = args.hole_timeout or cfg.project.hole_timeout_s
    req = FillRequest(
        path=path,
        text=text,
        project=project,
        config=cfg,
        theorems=tuple(args.theorem or ()),
        hole_timeout_s=hole_timeout,
        allow_require=bool(args.allow_require),
    )

    def progress(h) -> None:
        if not args.json and not args.quiet:
            print(f"{h.name}: {h.status} ({h.reason[:120]}) in {h.seconds:.1f}s", file=sys.stderr)

    try:
        report = fill_file(req, on_hole=progress)
    except BadProblem as e:
        print(f"prove: error: {e}", file=sys.stderr)
        return 2
    out = _write(path, report.text, args)
    if args.json:
        print(json.dumps(_summary(report, out, args), indent=2))
    else:
        proved = sum(h.status == "proved" for h in report.holes)
        print(f"{proved}/{len(report.holes)} holes proved in {path}; {report.verdict}", file=sys.stderr)
        for line in report.requires_added:
            print(f"added to {path}: {line}", file=sys.stderr)
        if out is None:
            print(report.text, end="" if report.text.endswith("\n") else "\n")
    return 0 if report.all_proved else 1


def _write(path: str, text: str, args: Any) -> str | None:
    """Where the filled file went (None: stdout)."""
    if args.in_place:
        orig = Path(path + ".orig")
        if not orig.exists():
            shutil.copyfile(path, orig)
        Path(path).write_text(text, encoding="utf-8")
        return path
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        return args.out
    return None


def _summary(report, out: str | None, args: Any) -> dict:
    return {
        "file": report.file,
        "language": "rocq",
        "project": report.project.model_dump(),
        "proved": report.all_proved,
        "verdict": report.verdict,
        "allowed_axioms": list(report.allowed_axioms),
        "requires_added": list(report.requires_added),
        "holes": [h.model_dump() for h in report.holes],
        "out": out,
        "text": report.text if out is None else None,
    }
