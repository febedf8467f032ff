"""An attempt function and how the backends call it (``benchmarks.runner`` and
``benchmarks.ray_backend`` share this; neither imports the other's module-level code).

- ``AttemptFn``: ``(BenchProblem, AttemptRequest) -> AttemptResult``, given as a callable or as
  ``"module:function"`` (``resolve_attempt_fn``; a bad reference is a ``RunError``).
- ``safe_attempt``: exceptions the function raises become ``outcome='error'`` results.
- ``attempt_identity``: the part of a run's key that names the attempt function (and whatever
  it declares it reads from outside the config).
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


def attempt_identity(ref: str | AttemptFn, default: str) -> dict:
    """What, besides the run's config, decides what the attempt function does, for the run's key
    (so that two runs that differ only here are never taken for one another on resume): empty for
    ``default`` (its runs keep the key of their config alone); else its reference and, when it has
    an ``identity`` attribute (a callable taking no arguments that returns a JSON-able dict, e.g.
    the checkpoint and sampling settings it reads from the environment), that dict. An identity
    that raises is a ``RunError`` naming the cause (the run cannot say what it would run)."""
    name = ref if isinstance(ref, str) else f"{getattr(ref, '__module__', '?')}:{getattr(ref, '__qualname__', repr(ref))}"
    if name == default:
        return {}
    out: dict = {"attempt_fn": name}
    ident = getattr(resolve_attempt_fn(ref), "identity", None)
    if callable(ident):
        try:
            out["settings"] = ident()
        except Exception as e:  # noqa: BLE001 - reported as the reason the run cannot start
            raise RunError(f"attempt function {name}: {type(e).__name__}: {e}") from None
    return out


def keyed_config_hash(config: dict, identity: dict) -> str:
    """The config hash a run is keyed by: of ``config`` alone when ``identity`` (see
    ``attempt_identity``) is empty, else of both."""
    from .problem import config_hash

    return config_hash({"config": config, "attempt": identity} if identity else config)


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
