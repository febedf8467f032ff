"""``prover-bench``: benchmark suites, runs, sweeps and reports (thin entrypoint).

    prover-bench list [--data-dir D]
    prover-bench fetch [--data-dir D]
    prover-bench validate SUITE --db PATH [--split S] [--limit N] [--shuffle SEED] [--workers N]
    prover-bench run SUITE --db PATH [--k K] [--workers N] [--timeout S] [--config TOML] [--split S]
                     [--limit N] [--shuffle SEED] [--label L] [--backend local|ray] [--retry-errors]
                     [--preset default|baseline]
    prover-bench sweep SUITE --db PATH --budgets 5,10,20 [--k K] ... (one run per budget)
    prover-bench report --db PATH [--db PATH2 ...] --out DIR [--json] [--compare A B]
    prover-bench table [MANIFEST] [--out FILE]   (the README's results table, ``benchmarks.table``)
    prover-bench reprove build [--out DIR] [--workers 2] [--timeout S] [--cache PATH | --no-cache]
                     (the reprove-dev/-test splits from the installed Rocq sources, ``benchmarks.reprove``)

Every run records the code version (``git describe --always --dirty``, part of the run key),
the config and its hash, the seeds (per attempt), the shuffle seed and the excluded statements
(``benchmarks.db``). ``--preset`` picks a named attempt function + config
(``benchmarks.presets``: ``default`` = the built-in search, ``baseline`` = the 16-tactic portfolio).

Bad input (unknown suite, unreadable config, corrupted or foreign DB) prints one line
``prover-bench: error: ...`` and exits 2. Heavy modules are imported after parsing.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .problem import BenchProblem, Validation


class UsageError(Exception):
    """Bad user input; printed as one line, exit code 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="prover-bench", description="Benchmark runner: suites, runs, sweeps, reports.")
    sub = p.add_subparsers(dest="cmd", required=True)

    def data(sp):
        sp.add_argument("--data-dir", help="benchmark data directory (default: $PROVER_BENCH_DATA or bundled data)")

    def selection(sp):
        sp.add_argument("suite", help="putnam-coq, putnam-lean, minif2f-rocq, minif2f-lean4, imo-lean, imo-rocq, "
                                      "minif2f-rocq-test (etc.), or a directory of .lean/.v files")
        sp.add_argument("--db", required=True, help="results database (SQLite; created if missing)")
        sp.add_argument("--split", choices=("valid", "test", "all"), help="miniF2F split (default test)")
        sp.add_argument("--shuffle", type=int, metavar="SEED", help="shuffle problems with this seed (before --limit)")
        sp.add_argument("--limit", type=int, metavar="N", help="first N (validated) problems only")
        sp.add_argument("--workers", type=int, default=1, help="parallel workers (default 1)")
        data(sp)

    sp = sub.add_parser("list", help="list suites and their sizes")
    data(sp)
    sp = sub.add_parser("fetch", help="download upstream datasets (needs network)")
    sp.add_argument("--data-dir", default=None, help="destination (default: $PROVER_BENCH_DATA or ./bench-data)")
    sp = sub.add_parser("validate", help="check which statements compile here (cached in the DB)")
    selection(sp)
    sp.add_argument("--check-timeout", type=float, default=120.0, help="seconds per statement check")
    for name in ("run", "sweep"):
        sp = sub.add_parser(name, help="run the prover on a suite" if name == "run" else "run once per budget")
        selection(sp)
        sp.add_argument("--k", type=int, default=1, help="attempts (seeds) per problem")
        if name == "run":
            sp.add_argument("--timeout", type=float, default=None,
                            help="per-attempt budget in seconds (default 60; with --preset: the preset's own budget)")
        else:
            sp.add_argument("--budgets", required=True, help="comma-separated per-attempt budgets in seconds")
        sp.add_argument("--config", help="prover config TOML (default: built-in defaults)")
        sp.add_argument("--preset", help="named attempt function + config from benchmarks.presets "
                                         "(default: the built-in search; baseline: the 16-tactic portfolio); "
                                         "not with --config or --attempt-fn")
        sp.add_argument("--label", help="run label in reports (default: CONFIG-STEM@BUDGETs)")
        sp.add_argument("--backend", choices=("local", "ray"), default="local")
        sp.add_argument("--attempt-fn", default=None, metavar="MODULE:FUNC",
                        help="attempt function (default: the real prover, benchmarks.prover_attempt:prover_attempt)")
        sp.add_argument("--retry-errors", action="store_true", help="redo attempts recorded with outcome 'error'")
        sp.add_argument("--check-timeout", type=float, default=120.0, help="seconds per statement check")
        sp.add_argument("--quiet", action="store_true")
    sp = sub.add_parser("report", help="write Markdown/CSV/PNG report from results DBs")
    sp.add_argument("--db", required=True, action="append", help="results database (repeatable)")
    sp.add_argument("--out", required=True, help="output directory")
    sp.add_argument("--json", action="store_true", help="print the summary as JSON")
    sp.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"), help="two run labels (or run keys) side by side")
    sp.add_argument("--token-rate", type=float, default=1.0,
                    help="CPU-seconds one thousand tokens count as on the combined cost axis (default 1.0)")
    sp.add_argument("--no-plots", action="store_true")
    sp = sub.add_parser("table", help="the README's results table from the runs a manifest names")
    sp.add_argument("manifest", nargs="?", help="manifest TOML (default: results/table.toml)")
    sp.add_argument("--out", help="also write the table to this file")
    sp = sub.add_parser("reprove", help="the reprove suites: library lemmas re-proved in their own file")
    sp.add_argument("action", choices=("build",), help="build: sample and validate the splits, write the data files")
    sp.add_argument("--out", help="output directory (default: the bundled benchmarks/data/reprove)")
    sp.add_argument("--workers", type=int, default=2, help="parallel coqc checks (default 2, run under nice)")
    sp.add_argument("--timeout", type=float, default=300.0, help="seconds per cut-file check (default 300)")
    sp.add_argument("--cache", help="validation cache JSONL (default: ~/.cache/agentic-prover/reprove-validation.jsonl)")
    sp.add_argument("--no-cache", action="store_true", help="validate every sampled lemma again")
    return p


def _load_config(path: str | None) -> tuple[dict, str]:
    """(config as a JSON-able dict, stem for labels)."""
    from prover.config import ConfigError, load_config

    try:
        cfg = load_config(path)
    except ConfigError as e:
        raise UsageError(str(e)) from None
    return cfg.model_dump(mode="json"), Path(path).stem if path else "default"


def _select(args):
    from .suites import get_suite

    suite = get_suite(args.suite, args.data_dir, args.split)
    version = suite.version()
    ts = suite.shuffle(args.shuffle) if args.shuffle is not None else suite
    return suite, version, list(ts.load())


def _validated(args, db, problems, quiet: bool = False):
    """(ok problems, [(excluded problem, validation)]). With ``--limit N`` statements are
    validated in order, in chunks, only until N compile (the rest are not looked at)."""
    from .validate import validate

    total = len(problems)
    seen = [0]

    def progress(v, cached):
        seen[0] += 1
        if not quiet and not cached:
            print(f"[validate {seen[0]}/{total}] {v.problem_id}: {v.status}" + (f" ({v.reason[:100]})" if v.reason else ""),
                  flush=True)

    db.upsert_problems(problems)  # the whole suite, so reports can say how much was examined
    ok: list[BenchProblem] = []
    bad: list[tuple[BenchProblem, Validation]] = []
    chunk = len(problems) if args.limit is None else max(4, 2 * args.workers)
    i = 0
    while i < len(problems) and (args.limit is None or len(ok) < args.limit):
        part = problems[i : i + chunk]
        i += len(part)
        checked = validate(part, db, workers=args.workers, timeout=args.check_timeout, progress=progress)
        for p, v in zip(part, checked, strict=True):
            if v.status == "ok":
                ok.append(p)
            else:
                bad.append((p, v))
    if args.limit is not None:
        ok = ok[: args.limit]
    return ok, bad


def cmd_list(args) -> int:
    from .suites import SUITES, SuiteError, get_suite

    for name in SUITES:
        try:
            ps = list(get_suite(name, args.data_dir, "all" if name.startswith("minif2f") else None).load())
            langs = sorted({p.language for p in ps})
            print(f"{name:16s} {len(ps):5d} problems  {','.join(langs)}")
        except SuiteError as e:
            print(f"{name:16s} unavailable: {e}")
    return 0


def cmd_fetch(args) -> int:
    import os

    from .fetch import FetchError, fetch_all

    dest = Path(args.data_dir or os.environ.get("PROVER_BENCH_DATA") or "bench-data")
    try:
        fetch_all(dest)
    except FetchError as e:
        print(f"prover-bench: error: fetch failed: {e}. The bundled data (benchmarks/data) works offline; "
              "informal PutnamBench statements need this download.", file=sys.stderr)
        return 2
    print(f"data in {dest}; use --data-dir {dest} or PROVER_BENCH_DATA={dest}")
    return 0


def cmd_validate(args) -> int:
    from .db import ResultsDB

    _suite, version, problems = _select(args)
    with ResultsDB(args.db) as db:
        ok, bad = _validated(args, db, problems)
    print(f"{args.suite} (version {version}): {len(ok) + len(bad)} statements, {len(ok)} compile, "
          f"{len(bad)} excluded")
    for p, v in bad:
        print(f"  excluded {p.name} ({v.status}): {v.reason[:160]}")
    return 0


def _run_one(args, db, suite, version, problems, timeout: float, config: dict, stem: str, attempt_fn: str,
             excluded: list[dict], code: str, ident: dict) -> None:
    from .attempt_contract import keyed_config_hash
    from .runner import RunSpec, run_attempts

    label = args.label or f"{stem}@{timeout:g}s"
    if args.cmd == "sweep" and args.label:
        label = f"{args.label}@{timeout:g}s"
    spec = RunSpec(suite=suite.name, suite_version=version, config=config, config_hash=keyed_config_hash(config, ident),
                   timeout_s=timeout, label=label, command="prover-bench " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
                   code_version=code, excluded=tuple(excluded), shuffle_seed=args.shuffle)
    total = len(problems) * args.k
    n = [0]

    def on_result(problem, seed, res):
        n[0] += 1
        if not args.quiet:
            print(f"[{n[0]}] {problem.id} seed {seed}: {res.outcome} ({res.wall_s:.1f}s wall, "
                  f"{res.checker_cpu_s:.1f}s cpu, {res.tokens} tok)" + (f" {res.reason[:80]}" if res.outcome != "proved"
                                                                        and res.reason else ""), flush=True)

    stats = run_attempts(problems, db, spec, k=args.k, workers=args.workers,
                         attempt_fn=attempt_fn, backend=args.backend,
                         retry_errors=args.retry_errors, on_result=on_result)
    oc = ", ".join(f"{k} {v}" for k, v in sorted(stats.outcomes.items())) or "nothing new"
    retried = f", {stats.retried_errors} error attempts retried" if args.retry_errors else ""
    print(
        f"run {label} (code {code}, config {spec.config_hash}): {total} attempts planned, "
        f"{stats.skipped} already recorded, {stats.reclaimed} interrupted attempts redone{retried}, {stats.done} made now ({oc})",
        flush=True,
    )


def cmd_run(args) -> int:
    from .db import ResultsDB

    if args.k < 1 or args.workers < 1:
        raise UsageError("--k and --workers must be at least 1")
    budgets = [args.timeout] if args.cmd == "run" else _budgets(args.budgets)
    if any(b is not None and b <= 0 for b in budgets):
        raise UsageError("budgets must be positive")
    from .attempt_contract import attempt_identity
    from .runner import DEFAULT_ATTEMPT, code_version, resolve_attempt_fn

    preset = None
    if args.preset:
        from .presets import get_preset

        if args.config or args.attempt_fn:
            raise UsageError("--preset fixes the config and the attempt function; drop --config / --attempt-fn")
        try:
            preset = get_preset(args.preset)
        except KeyError as e:
            raise UsageError(str(e.args[0])) from None
        from .presets import identify_sources

        config, stem, attempt_fn = identify_sources(preset.config), preset.name, preset.attempt_fn
        budgets = [b if b is not None else float(config.get("budget", {}).get("seconds", 60.0)) for b in budgets]
    else:
        config, stem = _load_config(args.config)
        attempt_fn = args.attempt_fn or DEFAULT_ATTEMPT
    resolve_attempt_fn(attempt_fn)  # a bad reference fails before any validation work
    ident = attempt_identity(attempt_fn, DEFAULT_ATTEMPT)  # so does one that cannot say what it would run
    code = code_version()
    if args.backend == "ray":
        from .ray_backend import import_ray

        import_ray()
    suite, version, problems = _select(args)
    with ResultsDB(args.db) as db:
        ok, bad = _validated(args, db, problems, quiet=args.quiet)
        print(f"{suite.name} (version {version}): {len(ok)} problems to run, {len(bad)} excluded by validation "
              f"(not run, not counted)", flush=True)
        excluded = [{"problem": p.id, "status": v.status, "reason": v.reason[:500]} for p, v in bad]
        for budget in budgets:
            b = 60.0 if budget is None else budget
            _run_one(args, db, suite, version, ok, b, _budgeted(preset, config, b), stem, attempt_fn, excluded, code, ident)
    return 0


def _budgeted(preset, config: dict, seconds: float) -> dict:
    """A preset's config (``config``: as ``cmd_run`` resolved it, its sources identified) with its
    budget set to ``seconds`` when that differs from its own."""
    if preset is None or seconds == preset.config.get("budget", {}).get("seconds"):
        return config
    from .presets import set_budget

    return set_budget(config, seconds)


def _budgets(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--budgets must be comma-separated numbers, got {text!r}") from None


def cmd_report(args) -> int:
    from . import analysis
    from .report import write_report

    for p in args.db:
        if not Path(p).is_file():
            raise UsageError(f"no such results database: {p}")
    ds = analysis.load(args.db)
    try:
        summ = write_report(ds, Path(args.out), compare_runs=tuple(args.compare) if args.compare else None,
                            token_cpu_s_per_1k=args.token_rate, plots=not args.no_plots)
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None
    if args.json:
        print(json.dumps(summ, indent=1))
    else:
        print(f"report written to {args.out}/report.md: {summ['problems']} problems, {summ['attempts']} attempts, "
              f"{summ['solved']} solved")
    return 0


def cmd_table(args) -> int:
    from .table import DEFAULT_MANIFEST, TableError, table

    try:
        text = table(args.manifest or DEFAULT_MANIFEST)
    except TableError as e:
        raise UsageError(str(e)) from None
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.out}: {e.strerror or e}") from None
    print(text, end="")
    return 0


def cmd_reprove(args) -> int:
    from .reprove import ReproveError, build_command

    if args.workers < 1 or args.timeout <= 0:
        raise UsageError("--workers must be at least 1 and --timeout positive")
    try:
        return build_command(out=args.out, workers=args.workers, timeout=args.timeout, cache=args.cache,
                             use_cache=not args.no_cache)
    except ReproveError as e:
        raise UsageError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from .db import DBError
    from .fetch import FetchError
    from .runner import RunError
    from .suites import SuiteError

    handlers = {"list": cmd_list, "fetch": cmd_fetch, "validate": cmd_validate, "run": cmd_run, "sweep": cmd_run,
                "report": cmd_report, "table": cmd_table, "reprove": cmd_reprove}
    try:
        return handlers[args.cmd](args)
    except (UsageError, DBError, SuiteError, RunError, FetchError) as e:
        print(f"prover-bench: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("prover-bench: interrupted; rerun the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
