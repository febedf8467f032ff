"""Run the built-in default prover (no LLM) over the miniF2F Rocq statements.

    python3 -m benchmarks.minif2f_default --split test --out runs/minif2f_default_test.jsonl

Each ``.v`` file of ``<dir>/<split>/`` is prepared the way the benchmark README says
(``From Stdlib`` -> ``From Coq``; ``Admitted.`` appended where the file stops at ``Proof.``),
split into header + statement, and handed to ``prover.search.prove_goal`` in a fresh
``coqtop`` session. One JSONL row per problem is appended as soon as it is done; rerunning
with the same ``--out`` skips the problems already there (resume). Problems whose header or
statement does not compile here are recorded with ``compiled: false`` and left out of the total.

Printed at the end: solved/total, checker CPU seconds (CPU of every coqtop/coqc child,
from ``getrusage``), the search's own count of proof-assistant seconds, and wall seconds.
``--mode baseline`` runs the fixed 16-tactic portfolio instead (for comparison).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

DEFAULT_DIR = "/work/shared/benchmarks/minif2f/rocq"


def prepare(text: str) -> str:
    """The README's two fixes: ``From Stdlib`` -> ``From Coq``; close a file that ends at ``Proof.``."""
    import re

    text = text.replace("From Stdlib", "From Coq")
    if not re.search(r"\b(Admitted|Qed|Defined)\.\s*$", text):
        text = text.rstrip() + "\nAdmitted.\n"
    return text


def split_problem(text: str) -> tuple[str, str, str]:
    """(session header, statement sentence, theorem name) of a prepared problem file."""
    from lean_tools.source import parse_source

    src = parse_source(text, "rocq")
    header = src.header + src.preamble
    stmt = text[src.decl_start : src.statement_end].rstrip()
    if not stmt.endswith("."):
        stmt += "."
    return header, stmt, src.theorem_name


def _solve_one(job: tuple[str, str, dict]) -> dict:
    """Worker: prove one problem; measure the CPU of the proof-assistant children it ran."""
    import os
    import tempfile

    path, mode, budget_kw = job
    # psatz writes a `.csdp.cache` into coqtop's working directory: keep it out of the repo.
    with tempfile.TemporaryDirectory(prefix="minif2f-default-") as tmp:
        os.chdir(tmp)
        try:
            return _solve_in_cwd(path, mode, budget_kw)
        finally:
            os.chdir("/")


HARD_LIMIT_S: int | None = None
"""Wall seconds after which one problem is abandoned (default: 10x its budget, at least 60 s). The
search budget cannot stop Python code that never returns (a candidate generator once looped on
``ln 0``); an alarm can, and the problem is recorded instead of hanging the whole run."""


class _HardLimit(Exception):
    pass


def _solve_in_cwd(path: str, mode: str, budget_kw: dict) -> dict:
    import signal

    limit = HARD_LIMIT_S or int(max(60, 10 * budget_kw.get("seconds", 5.0)))

    def on_alarm(signum, frame):
        raise _HardLimit

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(limit)
    try:
        return _solve_bounded(path, mode, budget_kw)
    except _HardLimit:
        return {"name": Path(path).stem, "compiled": True, "proved": False, "reason": f"hard limit: abandoned after {limit} s"}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _solve_bounded(path: str, mode: str, budget_kw: dict) -> dict:
    import resource

    from lean_tools.rocq.session import RocqSession
    from prover.search import SearchBudget, prove_goal
    from prover.search.portfolio import baseline_table

    name = Path(path).stem
    row: dict = {"name": name}
    try:
        header, stmt, _ = split_problem(prepare(Path(path).read_text(encoding="utf-8")))
    except ValueError as e:
        return row | {"compiled": False, "proved": False, "reason": f"parse error: {e}"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    tag_stats: dict[str, list[float]] = {}

    def on_attempt(att) -> None:
        s = tag_stats.setdefault(att.tag, [0, 0, 0.0])
        s[0] += 1
        s[1] += int(att.ok)
        s[2] += att.seconds

    budget = SearchBudget(**budget_kw)
    # `-w -all`: the session counts header warnings (Coquelicot coercion notices) as errors.
    factory = lambda h: RocqSession(h, default_timeout=30.0, extra_args=("-w", "-all"))
    if mode == "baseline":
        budget = SearchBudget(seconds=100.0, max_expansions=1, inner_timeout=5.0)
        res = prove_goal(factory, header, stmt, "rocq", budget, table=baseline_table(), on_attempt=on_attempt)
    else:
        res = prove_goal(factory, header, stmt, "rocq", budget, on_attempt=on_attempt)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    compiled = not (res.reason.startswith("statement error") or res.reason.startswith("SessionCrashed: Rocq header failed"))
    return row | {
        "compiled": compiled,
        "cpu_seconds": round(cpu, 3),
        "tag_stats": {k: [v[0], v[1], round(v[2], 3)] for k, v in tag_stats.items()},
        **json.loads(res.model_dump_json()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="test", choices=["test", "valid"])
    ap.add_argument("--dir", default=DEFAULT_DIR, help="miniF2F Rocq root holding test/ and valid/")
    ap.add_argument("--out", required=True, help="JSONL results file (appended; resumed)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=5.0, help="search seconds per problem (see --clock)")
    ap.add_argument("--max-expansions", type=int, default=40)
    ap.add_argument("--max-attempts", type=int, default=300)
    ap.add_argument("--max-depth", type=int, default=5)
    ap.add_argument("--clock", default="cpu", choices=["cpu", "wall"], help="what --seconds measures (cpu: coqtop CPU time)")
    ap.add_argument("--root-timeout-scale", type=float, default=1.0, help="factor on root closers' timeouts")
    ap.add_argument("--mode", default="default", choices=["default", "baseline"])
    ap.add_argument("--only", default="", help="comma-separated problem names to run")
    ap.add_argument("--limit", type=int, default=0, help="run at most this many problems")
    args = ap.parse_args(argv)

    src = Path(args.dir) / args.split
    if not src.is_dir():
        print(f"error: no such benchmark directory: {src}", file=sys.stderr)
        return 2
    if args.workers < 1 or args.seconds <= 0:
        print("error: --workers must be >= 1 and --seconds > 0", file=sys.stderr)
        return 2
    files = sorted(src.glob("*.v"))
    if args.only:
        wanted = set(args.only.split(","))
        files = [f for f in files if f.stem in wanted]
    if args.limit:
        files = files[: args.limit]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done: dict[str, dict] = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when a run was killed: that problem is redone
            if isinstance(row, dict) and "name" in row:
                done[row["name"]] = row
    todo = [f for f in files if f.stem not in done]
    budget_kw = {
        "seconds": args.seconds,
        "max_expansions": args.max_expansions,
        "max_attempts": args.max_attempts,
        "max_depth": args.max_depth,
        "clock": args.clock,
        "root_timeout_scale": args.root_timeout_scale,
    }
    jobs = [(str(f), args.mode, budget_kw) for f in todo]

    import multiprocessing as mp

    import lean_tools.rocq.session  # noqa: F401  (loaded before forking: workers keep this code
    import prover.search  # noqa: F401  even if the files change during a run)

    t0 = time.monotonic()
    with out.open("a", encoding="utf-8") as fh, mp.get_context("fork").Pool(args.workers, maxtasksperchild=20) as pool:
        for row in pool.imap_unordered(_solve_one, jobs):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[row["name"]] = row
            mark = "OK " if row.get("proved") else "-- "
            print(f"{mark}{row['name']}: {row.get('reason', '')} ({row.get('cpu_seconds', 0):.1f}s)", flush=True)
    wall = time.monotonic() - t0
    rows = [done[f.stem] for f in files if f.stem in done]
    compiled = [r for r in rows if r.get("compiled")]
    solved = [r for r in compiled if r.get("proved")]
    cpu = sum(r.get("cpu_seconds", 0.0) for r in compiled)
    pa = sum(r.get("checker_seconds", 0.0) for r in compiled)
    print(
        f"solved {len(solved)}/{len(compiled)} ({len(rows) - len(compiled)} not compiling, left out); "
        f"checker CPU {cpu:.1f} s; proof-assistant seconds {pa:.1f}; this run wall {wall:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
