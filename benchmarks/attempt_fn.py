"""An attempt function and how the backends call it (``benchmarks.runner`` and
``benchmarks.ray_backend`` share this; neither imports the other's module-level code).

- ``AttemptFn``: ``(BenchProblem, AttemptRequest) -> AttemptResult``, given as a callable or as
  ``"module:function"`` (``resolve_attempt_fn``; a bad reference is a ``RunError``).
- ``safe_attempt``: exceptions the function raises become ``outcome='error'`` results.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from .problem import AttemptRequest, AttemptResult, BenchProblem

AttemptFn = Callable[[BenchProblem, AttemptRequest], AttemptResult]


class RunError(Exception):
    """The run cannot start (bad attempt function reference, missing ray, ...)."""


def resolve_attempt_fn(ref: str | AttemptFn) -> AttemptFn:
    if callable(ref):
        return ref
    mod, _, fn = ref.partition(":")
    if not mod or not fn:
        raise RunError(f"attempt function {ref!r} must look like 'module:function'")
    try:
        obj = getattr(importlib.import_module(mod), fn)
    except (ImportError, AttributeError) as e:
        raise RunError(f"cannot load attempt function {ref!r}: {e}") from None
    if not callable(obj):
        raise RunError(f"{ref!r} is not callable")
    return obj


def safe_attempt(fn: AttemptFn, problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """Call ``fn``; exceptions become ``error`` results; wall time filled in if missing."""
    t0 = time.monotonic()
    try:
        res = fn(problem, request)
        if not isinstance(res, AttemptResult):
            raise TypeError(f"attempt function returned {type(res).__name__}, not AttemptResult")
    except Exception as e:  # noqa: BLE001 - a bad attempt is data, not a crash
        res = AttemptResult(outcome="error", reason=f"{type(e).__name__}: {e}"[:2000])
    if res.wall_s <= 0:
        res = res.model_copy(update={"wall_s": time.monotonic() - t0})
    return res
