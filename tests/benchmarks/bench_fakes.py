"""Fake attempt functions for runner tests (importable as ``bench_fakes:NAME`` with this dir on PYTHONPATH).

They stand in for the prover so the runner's bookkeeping can be tested without it; they never
claim to prove anything real and their "proofs" are never checked.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from benchmarks.problem import AttemptRequest, AttemptResult, BenchProblem


def _u(problem: BenchProblem, seed: int, salt: str = "") -> float:
    h = hashlib.sha256(f"{problem.name}:{seed}:{salt}".encode()).digest()
    return int.from_bytes(h[:4], "big") / 2**32


def coin_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """Succeeds with probability 0.4 x min(1, budget/10 s), deterministic per (problem, seed, config
    hash); costs scale with the budget."""
    time.sleep(float(os.environ.get("FAKE_ATTEMPT_SLEEP", "0")))
    u = _u(problem, request.seed, request.config_hash)
    ok = u < 0.4 * min(1.0, request.timeout_s / 10)
    return AttemptResult(outcome="proved" if ok else "failed", proof="(fake)" if ok else None,
                         reason="" if ok else "fake failure", tokens=int(100 * request.timeout_s),
                         checker_cpu_s=0.1 * request.timeout_s * (0.5 + u), wall_s=0.01)


def raising_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    raise RuntimeError(f"boom on {problem.name}")


def hanging_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    time.sleep(3600)
    raise AssertionError("unreachable")


def dying_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    os._exit(7)


def _slow_warmup() -> None:
    time.sleep(1.5)  # longer than the hard limit the warm-up test runs under (1 s)


def _failing_warmup() -> None:
    raise RuntimeError("model folder missing")


def warm_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """Proves at once, reporting this worker's pid: a one-off warm-up (``warmup``) runs first."""
    return AttemptResult(outcome="proved", proof="trivial.", reason=f"pid {os.getpid()}")


warm_attempt.warmup = _slow_warmup  # type: ignore[attr-defined]


def broken_warm_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    return AttemptResult(outcome="proved", proof="trivial.")


broken_warm_attempt.warmup = _failing_warmup  # type: ignore[attr-defined]


def setting_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """Fails, naming the setting it read from ``FAKE_SETTING``; its ``identity`` declares that
    setting (empty: the identity raises, as a policy attempt does without its checkpoint)."""
    return AttemptResult(outcome="failed", reason=f"setting {os.environ.get('FAKE_SETTING')}")


def _setting_identity() -> dict:
    value = os.environ.get("FAKE_SETTING", "")
    if not value:
        raise LookupError("FAKE_SETTING is not set")
    return {"setting": value}


setting_attempt.identity = _setting_identity  # type: ignore[attr-defined]


_WARMED_WITH: list = []


def _config_warmup(config: dict) -> None:
    _WARMED_WITH.append(config)


def config_warm_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """Fails, naming the config its worker's warm-up received (the run's config)."""
    return AttemptResult(outcome="failed", reason=json.dumps(_WARMED_WITH, sort_keys=True))


config_warm_attempt.warmup = _config_warmup  # type: ignore[attr-defined]
