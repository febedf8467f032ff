"""``prover-data``: build the step dataset, build the k-NN index, measure it.

    prover-data build [--libraries stdlib stdpp] [--limit-files N] [--out data/steps] [--jobs N]
    prover-data index [--data data/steps]            # k-NN index over train.jsonl -> data/steps/knn/
    prover-data eval  [--data data/steps] [--k 5]    # held-out top-1/top-k of the k-NN and a baseline
    prover-data suggest GOAL_FILE [--data data/steps] [--k 5]
    prover-data from-proofs --db DB --suite SUITE --out FILE.jsonl  # steps of the search's verified proofs

``from-proofs`` refuses evaluation suites (exit 2; ``rl.stepdata.from_proofs.refusal``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="prover-data", description="Step data from library proofs and a k-NN tactic source.")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="replay library files and write train/valid JSONL + stats.json (resumable)")
    b.add_argument("--libraries", nargs="+", default=["stdlib", "stdpp"], choices=["stdlib", "stdpp"])
    b.add_argument("--limit-files", type=int, default=None, help="at most N files per library (stable hash order)")
    b.add_argument("--out", type=Path, default=Path("data/steps"))
    b.add_argument("--step-timeout", type=float, default=60.0, help="seconds per sentence")
    b.add_argument("--file-timeout", type=float, default=600.0, help="seconds per file")
    b.add_argument("--jobs", type=int, default=1, help="files replayed at once, one coqtop each")
    for name, text in (("index", "build the k-NN index over train.jsonl"),
                       ("eval", "held-out accuracy of the k-NN on valid.jsonl, with a frequency baseline")):
        s = sub.add_parser(name, help=text)
        s.add_argument("--data", type=Path, default=Path("data/steps"))
        s.add_argument("--k", type=int, default=5)
    g = sub.add_parser("suggest", help="tactics for a goal printed by Rocq (a file, or - for stdin)")
    g.add_argument("goal", help="file holding the goal text, or -")
    g.add_argument("--data", type=Path, default=Path("data/steps"))
    g.add_argument("--k", type=int, default=5)
    f = sub.add_parser("from-proofs", help="steps (source=search) of the proved attempts of a suite in a results database")
    f.add_argument("--db", type=Path, required=True, help="results database of `prover-bench run`")
    f.add_argument("--suite", required=True, help="suite whose proved attempts are read (evaluation suites are refused)")
    f.add_argument("--out", type=Path, required=True, help="JSONL of Step records to write")
    f.add_argument("--step-timeout", type=float, default=60.0, help="seconds per sentence")
    f.add_argument("--file-timeout", type=float, default=600.0, help="seconds per replayed file")
    return p


def _progress(result) -> None:
    print(f"{result.status:7} {result.library}/{result.file}: {result.steps} steps in {result.seconds:.1f}s"
          + (f" ({result.reason})" if result.reason else ""), file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if getattr(args, "k", 1) < 1:
        print("prover-data: --k must be at least 1", file=sys.stderr)
        return 2
    try:
        return _run(args)
    except (RuntimeError, ValueError, FileNotFoundError) as e:
        print(f"prover-data: {e}", file=sys.stderr)
        return 1


def _from_proofs(args: argparse.Namespace) -> int:
    from benchmarks.db import DBError

    from .from_proofs import RefusedSuite, from_proofs, summary_json
    from .replay import ReplayConfig

    def progress(r) -> None:
        print(f"{r.status:7} {r.problem_id} (attempt {r.attempt_id}): {r.steps} steps"
              + (f" ({r.reason})" if r.reason else ""), file=sys.stderr, flush=True)

    try:
        summary = from_proofs(args.db, args.suite, args.out,
                              ReplayConfig(step_timeout=args.step_timeout, file_timeout=args.file_timeout), progress)
    except (RefusedSuite, DBError) as e:
        print(f"prover-data: {e}", file=sys.stderr)
        return 2
    print(summary_json(summary))
    return 0


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "from-proofs":
        return _from_proofs(args)
    if args.cmd == "build":
        from .build import BuildConfig, build

        cfg = BuildConfig(libraries=tuple(args.libraries), limit_files=args.limit_files, out=args.out,
                          step_timeout=args.step_timeout, file_timeout=args.file_timeout, jobs=args.jobs)
        figures = build(cfg, _progress)
        print(json.dumps({k: v for k, v in figures.items() if k != "not_ok"}, indent=1))
        return 0
    from .knn import KnnIndex, evaluate

    index_dir = args.data / "knn"
    if args.cmd == "index":
        index = KnnIndex.from_jsonl(args.data / "train.jsonl")
        index.save(index_dir)
        print(f"indexed {len(index)} train steps -> {index_dir}")
        return 0
    index = KnnIndex.load(index_dir)
    if args.cmd == "eval":
        print(json.dumps(evaluate(index, args.data / "valid.jsonl", k=args.k), indent=1))
        return 0
    text = sys.stdin.read() if args.goal == "-" else Path(args.goal).read_text(encoding="utf-8")
    for s in index.suggest(text, args.k):
        print(f"{s.score:.3f}  {s.tactic}    [{s.source_lemma}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
