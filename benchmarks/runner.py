"""Run attempts over worker processes and record each one in the results DB as it finishes.

Contract:
- The attempt function is injectable: ``attempt_fn(problem, request) -> AttemptResult``,
  given as a callable or as ``"module:function"``. The default is
  ``benchmarks.prover_attempt:prover_attempt`` (the real prover). Exceptions it raises become
  ``outcome='error'`` results; they never stop the run.
- Local backend: ``workers`` long-lived processes (forked; each its own process group, killed
  if the driver dies), so a prover's warm proof-assistant sessions are reused between
  attempts. An attempt that exceeds its hard limit (``timeout_s`` plus grace) has its worker's
  whole process group killed and is recorded as ``timeout``; a worker that dies is recorded
  as ``error`` and replaced.
- Warm-up: if the attempt function has a ``warmup`` attribute (a callable taking no arguments,
  or one argument, the run's config; e.g. loading a model), each local worker calls it once
  when it starts, before its first attempt, so a one-off load is not charged to an attempt's budget or hard limit. It has
  ``WARMUP_LIMIT_S`` wall seconds; a warm-up that raises or overruns stops the run with a
  ``RunError`` naming the cause (attempts already recorded stay recorded). A worker replaced
  after a kill warms up again. The Ray backend does not call it (a task's first call pays).
- Ray backend (``pip install agentic-prover[ray]``): the same attempts as Ray tasks
  (``RAY_ADDRESS`` picks the cluster); the driver still does all DB writes.
- Resume: see ``benchmarks.db``. Attempts are claimed one at a time just before dispatch,
  so a crash leaves at most ``workers`` rows to redo.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .attempt_contract import AttemptFn, RunError, resolve_attempt_fn, safe_attempt
from .db import ResultsDB, current_owner
from .problem import AttemptRequest, AttemptResult, BenchProblem

DEFAULT_ATTEMPT = "benchmarks.prover_attempt:prover_attempt"
WARMUP_LIMIT_S = 900.0


def hard_limit(timeout_s: float, grace_s: float | None = None) -> float:
    """Wall-clock limit after which a worker is killed: the budget plus grace for final checks
    (default grace: max(30 s, half the budget))."""
    return timeout_s + (max(30.0, 0.5 * timeout_s) if grace_s is None else grace_s)


def code_version(repo: str | os.PathLike | None = None) -> str:
    """``git describe --always --dirty`` of the checkout this package runs from, or
    ``"unknown"`` outside a git checkout (an installed wheel). ``-dirty`` means the working
    tree had uncommitted changes when the run started."""
    import subprocess

    root = repo or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root, capture_output=True, text=True,
                           timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "unknown"


@dataclass(frozen=True)
class RunSpec:
    """Identity of a run: suite version x prover config x per-attempt budget x code version.
    ``config_hash`` is ``attempt_fn.keyed_config_hash``: it covers a non-default attempt
    function and its declared settings too.

    ``excluded`` (statements left out by validation, with the reason) and ``shuffle_seed`` are
    recorded with the run but are not part of its key (they follow from the suite version and
    the command line)."""

    suite: str
    suite_version: str
    config: dict
    config_hash: str
    timeout_s: float
    label: str
    command: str = ""
    code_version: str = ""
    excluded: tuple[dict, ...] = ()
    shuffle_seed: int | None = None

    @property
    def run_key(self) -> str:
        key = f"{self.suite}@{self.suite_version}|{self.config_hash}|{self.timeout_s:g}s"
        return f"{key}|{self.code_version}" if self.code_version else key

    def request(self, seed: int) -> AttemptRequest:
        """What one attempt of this run is told: its seed, budget and the prover config."""
        return AttemptRequest(seed=seed, timeout_s=self.timeout_s, config=self.config, config_hash=self.config_hash)


@dataclass
class RunStats:
    planned: int = 0
    skipped: int = 0
    reclaimed: int = 0
    retried_errors: int = 0
    done: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


# --- local worker processes -----------------------------------------------------------------


def _warm(warmup: Callable, config: dict) -> None:
    """Call ``warmup`` with the run's config when it takes an argument, else with none."""
    import inspect

    if inspect.signature(warmup).parameters:
        warmup(config)
    else:
        warmup()


def _worker_main(conn: Connection, fn_ref, config: dict) -> None:
    os.setsid()  # the worker (forked by multiprocessing, no exec) leads its own group: killed as one
    try:  # die with the driver (PR_SET_PDEATHSIG = 1)
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    fn = resolve_attempt_fn(fn_ref)
    warmup = getattr(fn, "warmup", None)
    failure = ""
    if callable(warmup):
        try:
            _warm(warmup, config)
        except Exception as e:  # noqa: BLE001 - reported to the driver, which stops the run
            failure = f"{type(e).__name__}: {e}"[:2000]
    conn.send(("ready", failure))  # the first message: the driver dispatches only after it
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        problem = BenchProblem.model_validate_json(msg[0])
        request = AttemptRequest.model_validate_json(msg[1])
        conn.send(safe_attempt(fn, problem, request).model_dump_json())


class _Worker:
    def __init__(self, ctx: Any, fn_ref: str | AttemptFn, config: dict) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, fn_ref, config), daemon=True)
        self.proc.start()
        child.close()
        self.task: tuple[int, BenchProblem, int] | None = None
        self.ready = False  # until the worker's warm-up message arrives
        self.deadline = time.monotonic() + WARMUP_LIMIT_S

    def take_ready(self) -> None:
        """Read the worker's first message (sent after its warm-up); a failed warm-up is a RunError."""
        try:
            tag, failure = self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(timeout=5)
            raise RunError(f"a benchmark worker died while warming up (exit code {self.proc.exitcode})") from None
        if tag != "ready":
            raise RunError(f"a benchmark worker sent {tag!r} before its ready message")
        if failure:
            raise RunError(f"the attempt function's warm-up failed: {failure}")
        self.ready = True

    def kill(self) -> None:
        for sig_target in (lambda: os.killpg(self.proc.pid, signal.SIGKILL), self.proc.kill):
            try:
                sig_target()
            except (ProcessLookupError, PermissionError, OSError):
                pass
        self.proc.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.proc.join(timeout=2)
        if self.proc.is_alive():
            self.kill()


def _plan(problems: Sequence[BenchProblem], k: int, existing: set[tuple[str, int]]) -> list[tuple[BenchProblem, int]]:
    """Seed-major order: every problem's seed 0 first, so a partial run covers all problems."""
    return [(p, s) for s in range(k) for p in problems if (p.id, s) not in existing]


def run_attempts(
    problems: Sequence[BenchProblem],
    db: ResultsDB,
    spec: RunSpec,
    *,
    k: int = 1,
    workers: int = 1,
    attempt_fn: str | AttemptFn = DEFAULT_ATTEMPT,
    backend: str = "local",
    retry_errors: bool = False,
    grace_s: float | None = None,
    on_result: Callable[[BenchProblem, int, AttemptResult], None] | None = None,
) -> RunStats:
    """Make ``k`` attempts (seeds ``0..k-1``) per problem not yet attempted; see module docstring."""
    if k < 1 or workers < 1:
        raise RunError("--k and --workers must be at least 1")
    if backend not in ("local", "ray"):
        raise RunError(f"unknown backend {backend!r} (local or ray)")
    if isinstance(attempt_fn, str):
        resolve_attempt_fn(attempt_fn)  # fail early in the driver
    db.upsert_problems(problems)
    db.ensure_run(spec.run_key, label=spec.label, suite=spec.suite, suite_version=spec.suite_version,
                  config_hash=spec.config_hash, config=spec.config, timeout_s=spec.timeout_s, command=spec.command,
                  code_version=spec.code_version, excluded=list(spec.excluded), shuffle_seed=spec.shuffle_seed)
    stats = RunStats()
    stats.reclaimed = db.reclaim_stale(spec.run_key)
    if retry_errors:
        stats.retried_errors = db.delete_outcomes(spec.run_key, ("error",))
    existing = db.existing(spec.run_key)
    todo = _plan(problems, k, existing)
    stats.planned = len(problems) * k
    stats.skipped = stats.planned - len(todo)

    def _record(attempt_id: int, problem: BenchProblem, seed: int, res: AttemptResult) -> None:
        db.finish(attempt_id, res)
        stats.done += 1
        stats.outcomes[res.outcome] = stats.outcomes.get(res.outcome, 0) + 1
        if on_result:
            on_result(problem, seed, res)

    if backend == "ray":
        from .ray_backend import run_on_ray

        run_on_ray(todo, db, spec, workers=workers, attempt_fn=attempt_fn, record=_record,
                   limit=hard_limit(spec.timeout_s, grace_s))
    else:
        _run_local(todo, db, spec, workers=workers, attempt_fn=attempt_fn, record=_record,
                   limit=hard_limit(spec.timeout_s, grace_s))
    return stats


def _run_local(todo, db: ResultsDB, spec: RunSpec, *, workers: int, attempt_fn, record, limit: float) -> None:
    ctx = mp.get_context("fork")
    owner = current_owner()
    queue = deque(todo)
    pool = [_Worker(ctx, attempt_fn, spec.config) for _ in range(min(workers, len(queue)))]
    try:
        while True:
            for w in pool:
                while w.ready and w.task is None and queue:
                    problem, seed = queue.popleft()
                    aid = db.claim(spec.run_key, problem.id, seed, suite_version=spec.suite_version,
                                   config_hash=spec.config_hash, timeout_s=spec.timeout_s, owner=owner)
                    if aid is None:  # claimed meanwhile by a concurrent run
                        continue
                    w.conn.send((problem.model_dump_json(), spec.request(seed).model_dump_json()))
                    w.task, w.deadline = (aid, problem, seed), time.monotonic() + limit
            busy = [w for w in pool if w.task is not None or (not w.ready and queue)]
            if not busy:
                break
            now = time.monotonic()
            ready = wait([w.conn for w in busy], timeout=max(0.0, min(w.deadline for w in busy) - now))
            for i, w in enumerate(pool):
                if not w.ready:
                    if w.conn in ready:
                        w.take_ready()
                    elif time.monotonic() >= w.deadline:
                        raise RunError(f"a benchmark worker's warm-up took more than {WARMUP_LIMIT_S:g} s")
                    continue
                if w.task is None:
                    continue
                aid, problem, seed = w.task
                if w.conn in ready:
                    try:
                        res = AttemptResult.model_validate_json(w.conn.recv())
                    except (EOFError, OSError):
                        w.proc.join(timeout=5)
                        code = w.proc.exitcode
                        w.kill()
                        pool[i] = _Worker(ctx, attempt_fn, spec.config)
                        res = AttemptResult(outcome="error", reason=f"worker process died (exit code {code})",
                                            wall_s=limit - (w.deadline - time.monotonic()))
                    w.task = None
                    record(aid, problem, seed, res)
                elif time.monotonic() >= w.deadline:
                    w.kill()
                    pool[i] = _Worker(ctx, attempt_fn, spec.config)
                    record(aid, problem, seed, AttemptResult(
                        outcome="timeout", reason=f"killed after the hard limit of {limit:g}s "
                        f"(budget {spec.timeout_s:g}s + grace)", wall_s=limit))
    finally:
        for w in pool:
            if w.task is None:
                w.stop()
            else:
                w.kill()
