"""``python3 -m prover.commands.demo [DIR]``: the built-in prover (no model) on the bundled examples.

Two parts:
1. every competition-style ``.v`` file under ``DIR/rocq`` (default ``examples/``), and the
   ``.lean`` ones when Lean is installed: each is proved, its proof printed with the path the
   search took (the families of the tactics in the proof);
2. the small project under ``DIR/project``: copied to a temporary folder, built with its own
   ``_CoqProject``, and the holes of ``theories/Holes.v`` filled in file order; prints each
   hole's outcome and the diff of the file (only the proof bodies change).
Exit 0 when every example was proved and every hole filled, 1 otherwise.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="prover.commands.demo", description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(ROOT / "examples"))
    ap.add_argument("--search-timeout", type=float, default=60.0)
    ap.add_argument("--no-project", action="store_true", help="skip the project part")
    args = ap.parse_args(argv)

    from ..config import load_config

    root = Path(args.dir)
    cfg = load_config(env={}, model__type="none", search__timeout_s=args.search_timeout, prover__cache_path=None)
    t_all = time.monotonic()
    rows = _competition(root, cfg)
    holes_ok = True
    if not args.no_project and (root / "project" / "_CoqProject").is_file():
        holes_ok = _project(root / "project", cfg)
    n_ok = sum(1 for r in rows if r[1] == "proved")
    filled = "all filled" if holes_ok else "NOT all filled"
    print(f"\n{n_ok}/{len(rows)} examples proved; project holes {filled}; {time.monotonic() - t_all:.1f}s")
    return 0 if rows and n_ok == len(rows) and holes_ok else 1


def _files(root: Path) -> list[Path]:
    files = sorted(p for p in root.rglob("*.v") if "project" not in p.relative_to(root).parts)
    lean_files = sorted(root.rglob("*.lean"))
    if shutil.which("lake") is not None or shutil.which("lean") is not None:
        return files + lean_files
    if lean_files:
        print(f"(skipping {len(lean_files)} Lean example(s): Lean is not installed; `prover-setup lean`)", file=sys.stderr)
    return files


def _competition(root: Path, cfg: Any) -> list[tuple[str, str, float, str]]:
    """Part 1: each competition-style example, two at a time; (file, status, seconds, reason) rows."""
    from concurrent.futures import ThreadPoolExecutor

    from lean_tools.pool import SessionPool

    print("== Competition problems (built-in search, no model)\n")
    files = _files(root)
    with SessionPool(max_sessions=2) as pool, ThreadPoolExecutor(max_workers=2) as ex:
        outcomes = list(ex.map(lambda f: _prove_one(f, cfg, pool), files))
    rows = []
    for f, (row, lines) in zip(files, outcomes):
        rows.append(row)
        print(f"--- {f.relative_to(root)}: " + "\n".join(lines) + "\n")
    return rows


def _prove_one(f: Path, cfg: Any, pool: Any) -> tuple[tuple[str, str, float, str], list[str]]:
    """One example: its summary row and the lines to print."""
    from ..api import prove
    from ..errors import BadProblem
    from ..problem import load_problem
    from ..trace import Trace

    try:
        problem = load_problem(f)
    except BadProblem as e:
        return (f.name, "bad input", 0.0, str(e)), [f"BAD INPUT: {e}"]
    trace = Trace(None)
    r = prove(problem, cfg, pool=pool, trace=trace)
    trace.close()
    tags = [t for ev in trace.events if ev.kind == "search" and ev.data.get("proved") for t in ev.data.get("tags", ())]
    lines = [f"{'PROVED' if r.proved else 'NOT PROVED'} in {r.spent.wall_s:.1f}s", "    " + " ".join(problem.declaration.split())]
    if r.proved:
        lines.append(f"    path: {' -> '.join(dict.fromkeys(tags)) or r.reason}")
        lines.append("    " + _proof_body(r.proof_text or "", problem.declaration).replace("\n", "\n    "))
    else:
        lines.append(f"    {r.reason}")
    return (f.name, "proved" if r.proved else "not proved", r.spent.wall_s, r.reason), lines


def _proof_body(text: str, declaration: str) -> str:
    """The proof between the theorem's declaration and its ``Qed.``."""
    after = text.split(declaration.rstrip(), 1)[-1]
    return after.strip().removeprefix("Proof.").strip()


def _project(src: Path, cfg: Any) -> bool:
    """Part 2: fill the holes of the project's ``theories/Holes.v``; True when all were proved."""
    from lean_tools.rocq.project import build, find_project

    from ..fill import FillRequest, fill_file

    print("== A project file with holes (`prove theories/Holes.v` inside its _CoqProject)\n")
    with tempfile.TemporaryDirectory(prefix="prover-demo-") as tmp:
        proj_dir = Path(tmp) / "project"
        shutil.copytree(src, proj_dir)
        target = proj_dir / "theories" / "Holes.v"
        project = find_project(target)
        print(f"project: {project.describe()}")
        ok, out = build(project)
        if not ok:
            print(f"the project does not build: {out}")
            return False
        text = target.read_text(encoding="utf-8")
        hole_cfg = cfg.model_copy(update={"budget": cfg.budget.model_copy(update={"wall_s": 240.0})})
        req = FillRequest(path=str(target), text=text, project=project, config=hole_cfg, hole_timeout_s=60.0)
        report = fill_file(req, on_hole=lambda h: print(f"  {h.name:24s} {h.status:16s} {h.seconds:5.1f}s  {h.closed_by or h.reason[:60]}"))
        print(f"verdict in context: {report.verdict}\n")
        diff = difflib.unified_diff(text.splitlines(), report.text.splitlines(), "Holes.v", "Holes.v (filled)", lineterm="", n=1)
        print("\n".join(diff))
        return report.all_proved


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
