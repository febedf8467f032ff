"""Run attempts as Ray tasks (optional ``ray`` extra; imported only when this backend is chosen).

Same contract as the local backend (``benchmarks.runner``): the driver claims each attempt in
the DB just before submitting it, records each result as it arrives, and cancels (force-kills)
a task past its hard limit, recording it as ``timeout``. At most ``workers`` tasks are in
flight. The cluster is ``RAY_ADDRESS`` if set, else a local Ray instance.

Limit: never run against a real Ray cluster here (Ray is not installed); the tests cover the
import guard and this driver loop over a synchronous stand-in for the ``ray`` module.
"""

from __future__ import annotations

import os
import time
from collections import deque

from .attempt_contract import RunError, resolve_attempt_fn, safe_attempt
from .db import ResultsDB, current_owner
from .problem import AttemptRequest, AttemptResult, BenchProblem


def import_ray():
    """Import ray or raise ``RunError`` with the install hint."""
    try:
        import ray
    except ImportError:
        raise RunError("the ray backend needs Ray: pip install 'agentic-prover[ray]'") from None
    return ray


def _remote_attempt(fn_ref, problem_json: str, request_json: str) -> str:
    fn = resolve_attempt_fn(fn_ref)
    res = safe_attempt(fn, BenchProblem.model_validate_json(problem_json), AttemptRequest.model_validate_json(request_json))
    return res.model_dump_json()


def run_on_ray(todo, db: ResultsDB, spec, *, workers: int, attempt_fn, record, limit: float) -> None:
    """``spec`` is the run's ``benchmarks.runner.RunSpec``."""
    ray = import_ray()
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS") or None, ignore_reinit_error=True)
    remote = ray.remote(num_cpus=1, max_retries=0)(_remote_attempt)
    owner = current_owner()
    queue = deque(todo)
    inflight: dict = {}
    while queue or inflight:
        while queue and len(inflight) < workers:
            problem, seed = queue.popleft()
            aid = db.claim(spec.run_key, problem.id, seed, suite_version=spec.suite_version,
                           config_hash=spec.config_hash, timeout_s=spec.timeout_s, owner=owner)
            if aid is None:
                continue
            ref = remote.remote(attempt_fn, problem.model_dump_json(), spec.request(seed).model_dump_json())
            inflight[ref] = (aid, problem, seed, time.monotonic() + limit)
        if not inflight:
            break
        timeout = max(0.0, min(v[3] for v in inflight.values()) - time.monotonic())
        ready, _ = ray.wait(list(inflight), num_returns=1, timeout=timeout)
        for ref in ready:
            aid, problem, seed, _dl = inflight.pop(ref)
            try:
                res = AttemptResult.model_validate_json(ray.get(ref))
            except Exception as e:  # noqa: BLE001 - task or worker failure is recorded, not raised
                res = AttemptResult(outcome="error", reason=f"ray task failed: {type(e).__name__}: {e}"[:2000])
            record(aid, problem, seed, res)
        now = time.monotonic()
        for ref, (aid, problem, seed, dl) in list(inflight.items()):
            if now >= dl:
                ray.cancel(ref, force=True)
                inflight.pop(ref)
                record(aid, problem, seed, AttemptResult(outcome="timeout", wall_s=limit,
                                                         reason=f"ray task cancelled after the hard limit of {limit:g}s"))
