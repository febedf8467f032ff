"""Checks per second: pooled warm Rocq sessions versus one fresh ``coqc`` per check.

The same N short checks (``Lemma ... Proof. intros; lia. Qed.``) sharing one import header are
run four ways in one process: a fresh sandboxed ``coqc`` per check (the header is re-imported
each time); one pooled session with its start-up (header import) counted; one warm pooled
session; two warm sessions driven by two threads. Prints the
rates and the ratios. Every check's verdict is compared across the three ways.

    python benchmarks/pool_throughput.py [--n 200] [--header "Require Import Arith Lia."]
        [--transport pipes|pexpect]

``--transport`` picks how the pooled coqtop sessions are read (``RocqSession(transport=...)``):
the project's own ``select``/``os.read`` loop (default) or ``pexpect.popen_spawn.PopenSpawn``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lean_tools.pool import SessionPool
from lean_tools.rocq.checker import RocqChecker


def make_checks(n: int) -> list[str]:
    """Short lemmas; every 10th is false so both verdicts occur."""
    checks = []
    for i in range(n):
        if i % 10 == 9:
            checks.append(f"Lemma chk_{i} : forall n : nat, n + {i} < n.\nProof. intros; lia. Qed.")
        else:
            checks.append(f"Lemma chk_{i} : forall n m : nat, n + {i} * m >= n.\nProof. intros; lia. Qed.")
    return checks


def run_fresh(header: str, checks: list[str]) -> tuple[list[bool], float]:
    checker = RocqChecker()
    t0 = time.perf_counter()
    verdicts = [checker.check_file(header + "\n" + c + "\n", timeout=60).ok for c in checks]
    return verdicts, time.perf_counter() - t0


def run_pooled(header: str, checks: list[str], workers: int, *, warm: bool,
               transport: str = "pipes") -> tuple[list[bool], float]:
    """Run the checks on a pool of ``workers`` sessions.

    ``warm=True``: the sessions are started (header imported) before the clock starts, which is
    the steady state of a long-running prover; ``warm=False`` counts the start-up too.
    """
    from lean_tools.rocq.session import RocqSession

    with SessionPool(lambda lang, h: RocqSession(h, transport=transport), max_sessions=workers) as pool:
        if warm:
            with ExitStack() as stack:
                for _ in range(workers):
                    stack.enter_context(pool.session("rocq", header)).run_command("Check 0.")
        t0 = time.perf_counter()

        def one(c: str) -> bool:
            with pool.session("rocq", header) as s:
                return s.run_command(c, timeout=30).complete

        if workers == 1:
            verdicts = [one(c) for c in checks]
        else:
            with ThreadPoolExecutor(workers) as ex:
                verdicts = list(ex.map(one, checks))
        return verdicts, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--header", default="Require Import Arith Lia.")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--transport", choices=("pipes", "pexpect"), default="pipes")
    ap.add_argument("--pooled-only", action="store_true", help="skip the fresh coqc runs (slow); ratios then omitted")
    args = ap.parse_args(argv)
    checks = make_checks(args.n)
    tr = args.transport
    cold_v, cold_t = run_pooled(args.header, checks, 1, warm=False, transport=tr)
    one_v, one_t = run_pooled(args.header, checks, 1, warm=True, transport=tr)
    two_v, two_t = run_pooled(args.header, checks, 2, warm=True, transport=tr)
    if args.pooled_only:
        fresh_v, fresh_t = one_v, float("nan")
    else:
        fresh_v, fresh_t = run_fresh(args.header, checks)
    if not (fresh_v == cold_v == one_v == two_v):
        print("MISMATCH between fresh and pooled verdicts", file=sys.stderr)
        return 1
    res = {
        "checks": args.n,
        "proved": sum(fresh_v),
        "fresh_coqc_per_s": args.n / fresh_t,
        "pooled_1_worker_incl_startup_per_s": args.n / cold_t,
        "pooled_1_worker_warm_per_s": args.n / one_t,
        "pooled_2_workers_warm_per_s": args.n / two_t,
        "speedup_1_worker_incl_startup_vs_fresh": fresh_t / cold_t,
        "speedup_1_worker_warm_vs_fresh": fresh_t / one_t,
        "speedup_2_workers_vs_1_warm": one_t / two_t,
        "cpus": os.cpu_count(),
        "transport": tr,
    }
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:40s} {v:.2f}" if isinstance(v, float) else f"{k:40s} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
