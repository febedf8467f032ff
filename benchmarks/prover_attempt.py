"""The real attempt function: one call of ``prover.api.prove`` on one benchmark problem.

Contract (``benchmarks.runner.AttemptFn``): ``prover_attempt(problem, request) -> AttemptResult``.

- The prover config is ``request.config`` (a parsed TOML) validated as ``ProverConfig``, with
  the per-attempt budget (``budget.wall_s``, capped ``search.timeout_s``) and the seed
  (``sampling.seed``) overridden, and the persistent lemma cache switched off so attempts
  (and runs) stay independent.
- A claimed proof counts only if the soundness verdict accepts it *again* here
  (``lean_tools.soundness.verify`` on the benchmark's own statement text); a rejected claim is
  recorded as ``failed`` with the verdict's reason.
- A problem that restates an existing constant (``problem.reference``: the ``reprove`` suites)
  must also pass ``lean_tools.soundness.reprove_checks.check_reprove``: the proof loads no
  library the problem file does not, and does not name the original.
- A result that failed because the proof-assistant session broke (``INFRA_WORDS`` in its
  reason) is ``error``, not ``failed``.
- Costs: tokens = prompt + completion tokens; ``checker_cpu_s`` = the prover's reported
  proof-assistant CPU, or, when it reports none, the CPU of the sandboxed processes that
  finished during the attempt, each measured on its own (``lean_tools.sandbox.finished_cpu_seconds``).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Literal

from lean_tools.sandbox import finished_cpu_seconds

from .problem import AttemptRequest, AttemptResult, BenchProblem

SUFFIX = {"rocq": ".v", "lean": ".lean"}
RECHECK_REJECTED = "prover's proof rejected by the benchmark re-check"
"""Reason prefix of an attempt the prover reported as proved but the independent re-check
refused; reports count these separately ("claimed, not verified")."""
INFRA_WORDS = ("SessionCrashed", "SessionTimeout", "SessionOutOfMemory", "NotInstalled")
"""A failed result whose reason names one of these is an infrastructure failure (the proof
assistant session broke), recorded as ``error`` so ``--retry-errors`` redoes it, not as a
prover failure."""


def build_config(request: AttemptRequest):
    """``ProverConfig`` for one attempt (see module docstring)."""
    from prover.config import ProverConfig

    cfg = ProverConfig.model_validate(request.config)
    return cfg.with_overrides(
        budget__wall_s=request.timeout_s,
        search__timeout_s=min(cfg.search.timeout_s, request.timeout_s),
        sampling__seed=request.seed,
    ).model_copy(update={"prover": cfg.prover.model_copy(update={"cache_path": None})})


def prover_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """One attempt; a problem's load-path ``flags`` are active (``lean_tools.rocq.project.activate``)
    for every Rocq process it starts, the prover's and the re-check's."""
    import contextlib

    from lean_tools.rocq.project import activate

    with activate(problem.flags) if problem.flags else contextlib.nullcontext():
        return _attempt(problem, request)


def _attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    from prover import api

    cfg = build_config(request)
    t0, cpu0 = time.monotonic(), finished_cpu_seconds()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        path = Path(tmp) / (problem.name.replace("/", "_") + SUFFIX[problem.language])
        path.write_text(problem.text, encoding="utf-8")
        prob = api.load_problem(path, theorem=problem.theorem)
        res = api.prove(prob, cfg)
    wall = time.monotonic() - t0
    spent = res.spent
    cpu = spent.checker_cpu_s or (finished_cpu_seconds() - cpu0)
    tokens = spent.tokens_in + spent.tokens_out
    if not res.proved:
        reason = res.reason or (f"stopped by {res.stopped_by}" if res.stopped_by else "no proof found")
        outcome: Literal["error", "failed"] = "error" if any(w in reason for w in INFRA_WORDS) else "failed"
        return AttemptResult(outcome=outcome, reason=reason, tokens=tokens, checker_cpu_s=cpu, wall_s=wall)
    ok, why = recheck(problem, res.proof_text or "", timeout=max(60.0, request.timeout_s))
    if not ok:
        return AttemptResult(outcome="failed", reason=f"{RECHECK_REJECTED}: {why}",
                             tokens=tokens, checker_cpu_s=cpu, wall_s=wall)
    return AttemptResult(outcome="proved", proof=res.proof_text, reason=why, tokens=tokens, checker_cpu_s=cpu, wall_s=wall)


def recheck(problem: BenchProblem, proof_text: str, timeout: float) -> tuple[bool, str]:
    """Independent soundness verdict on the benchmark's statement: (accepted, reason).

    Same rules as ``prover-check``, plus, for a problem with a ``reference`` (module docstring),
    ``check_reprove`` (run inside the problem's active ``flags``). Rocq helpers may ``Require`` the standard-library tactic
    modules (``STDLIB_REQUIRES``); this is sound because the reference statement is elaborated
    before any helper and compared with ``constr_eq`` (see ``lean_tools.soundness.verify``).
    """
    from lean_tools.soundness import STDLIB_REQUIRES, verify

    # ``allowed_requires`` is about Rocq helpers' ``Require``; the Lean verdict ignores it
    v = verify(problem.text, proof_text, problem.language, theorem=problem.theorem, timeout=timeout, allowed_requires=STDLIB_REQUIRES)
    if not v.accepted or problem.reference is None or problem.language != "rocq":
        return bool(v.accepted), v.reason
    from lean_tools.soundness.reprove_checks import check_reprove

    rv = check_reprove(problem.text, proof_text, problem.reference, problem.flags, timeout=max(300.0, timeout))
    return rv.accepted, (v.reason if rv.accepted else f"reprove check: {rv.reason}")
