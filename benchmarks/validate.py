"""Validation pass: which statements compile in the installed environment.

- A Rocq problem with load-path ``flags`` is compiled with them (``_check_with_flags``).
- The statement file (ending in ``Admitted.`` / ``sorry``) goes through the proof
  assistant's fresh sandboxed whole-file checker (``ProofAssistant.checker()``: ``coqc``,
  ``lake env lean``); ``ok`` iff it compiles without errors. Where the proof assistant is not
  installed (Lean here) every statement is ``unvalidated`` with that reason.

Results are cached in the results DB per (problem, statement hash, checker environment), so a
changed statement or a different checker re-validates. Only ``ok`` statements are run;
``failed``/``unvalidated`` ones are *excluded* and listed in reports with their reason — never
dropped silently and never counted as prover failures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Literal

from lean_tools.assistant import assistant

from .db import ResultsDB
from .problem import BenchProblem, Validation


@cache
def environment(language: str) -> str:
    """Fingerprint of the checker for ``language`` ('' when none is installed)."""
    return assistant(language).fingerprint()


def check_statement(
    problem: BenchProblem, timeout: float = 120.0
) -> tuple[Literal["ok", "failed", "unvalidated"], str, float]:
    """(status, reason, cpu seconds) for one statement, uncached: the statement file through
    the proof assistant's fresh whole-file checker."""
    from lean_tools.types import ProofAssistantError

    pa = assistant(problem.language)
    if problem.flags and problem.language == "rocq" and environment(pa.name):
        return _check_with_flags(problem, timeout)
    if not environment(pa.name):
        why = pa.missing() or f"no {pa.display_name} checker version could be read (`lake`/`coqc` on PATH?)"
        return "unvalidated", f"not validated: {why}", 0.0
    try:
        fc = pa.checker().check_file(problem.text, timeout=timeout)
    except (ImportError, ProofAssistantError) as e:
        return "unvalidated", f"not validated: {pa.display_name} checker unavailable ({type(e).__name__}: {e})"[:500], 0.0
    # exit 0 without errors is a pass even if ``out_of_memory`` is set: the sandbox's OOM
    # heuristic also fires on coqc's "To avoid stack overflow" warning.
    if fc.ok or (fc.returncode == 0 and not fc.errors and not fc.timed_out):
        return "ok", "", fc.cpu_seconds
    if fc.timed_out:
        return "failed", f"statement check timed out after {timeout:g}s", fc.cpu_seconds
    errs = fc.errors
    first = errs[0].text if errs else (fc.stderr_tail or f"exit {fc.returncode}")
    where = f"line {errs[0].pos.line}: " if errs and errs[0].pos else ""
    return "failed", (where + " ".join(first.split()))[:500], fc.cpu_seconds


def _check_with_flags(problem: BenchProblem, timeout: float) -> tuple[Literal["ok", "failed", "unvalidated"], str, float]:
    """A Rocq statement with its own load-path flags: compiled in a fresh sandboxed ``coqc`` given
    the flags on its command line (not through the process environment, which the validation
    threads share), then loaded by a second ``coqc`` (``reprove_checks.loaded_libraries``)."""
    from lean_tools.soundness.reprove_checks import loaded_libraries

    got = loaded_libraries(problem.text, problem.flags, timeout=timeout)
    if got.libraries is not None:
        return "ok", "", got.cpu_seconds
    return "failed", got.error[:500], got.cpu_seconds


def validate(
    problems: Sequence[BenchProblem],
    db: ResultsDB,
    *,
    workers: int = 1,
    timeout: float = 120.0,
    progress: Callable[[Validation, bool], None] | None = None,
) -> list[Validation]:
    """Validate (or look up) every problem; returns one ``Validation`` per problem, in order.

    ``progress(validation, cached)`` is called as each result is known. Checks run in up to
    ``workers`` threads (each drives a separate ``coqc`` process).
    """
    db.upsert_problems(problems)
    out: dict[str, Validation] = {}
    todo: list[BenchProblem] = []
    for p in problems:
        env = environment(p.language)
        cached = db.cached_validation(p, env or "none")
        if cached is not None and cached.status != "unvalidated":
            out[p.id] = cached
            if progress:
                progress(cached, True)
        else:
            todo.append(p)

    def _one(p: BenchProblem) -> Validation:
        status, reason, cpu = check_statement(p, timeout)
        return Validation(problem_id=p.id, statement_hash=p.statement_hash, environment=environment(p.language) or "none",
                          status=status, reason=reason, cpu_s=cpu)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for v in pool.map(_one, todo):
            db.record_validation(v)
            out[v.problem_id] = v
            if progress:
                progress(v, False)
    return [out[p.id] for p in problems]
