"""Library entry points.

``load_problem(path, theorem=None) -> Problem`` reads a ``.v``/``.lean`` file (raises
``prover.errors.BadProblem`` for bad input).

``prove(problem, config, *, trace=None, pool=None, llm=None, cancel=None) -> ProofResult``
runs the pipeline: with no model configured (``config.model.type == "none"``) the built-in
search (``prover.search``); otherwise informal proof (``prover.informal``: candidates judged,
revised and selected; ``ProofResult.informal`` holds the one the sketch used, with its score and
flags) -> sketch -> parallel lemma agents -> assembly. ``proved`` is true only when ``lean_tools.soundness.verify`` accepted the file.
Raises ``BadProblem`` when the statement does not compile, ``NotInstalled`` when the proof
assistant is missing; everything else (budget stops, model failures, failed lemmas) is in
the result. ``trace`` is a ``prover.trace.Trace`` or a path (JSONL); ``pool`` a
``lean_tools.pool.SessionPool`` shared across problems (one is made and closed otherwise);
``llm`` overrides the configured model (tests pass a ``ScriptedLLM``); ``cancel`` is a
``threading.Event`` that stops the run as if by Ctrl-C (``BackendUnavailable`` when the model
backend cannot load); ``cache`` a ``prover.cache.LemmaCache`` shared across problems (default:
the one at ``config.prover.cache_path``); ``started`` the ``time.monotonic()`` from which the
wall budget counts (default: now; the ``prove`` command passes its own start, so that its imports and setup count against ``--timeout``).

``prove_report(problem, config, ...) -> prover.tools.ProveReport``: the same, as the MCP
``prove`` tool answers it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import ProverConfig
from .problem import load_problem
from .records import Problem, ProofResult

if TYPE_CHECKING:
    from .tools import ProveReport


def prove(
    problem: Problem,
    config: ProverConfig,
    *,
    trace: Any = None,
    pool: Any = None,
    llm: Any = None,
    cancel: threading.Event | None = None,
    cache: Any = None,
    started: float | None = None,
) -> ProofResult:
    from .orchestrator import Orchestrator
    from .trace import Trace

    own_trace = not isinstance(trace, Trace)
    tr = trace if isinstance(trace, Trace) else Trace(Path(trace) if trace is not None else None)
    try:
        return Orchestrator(problem, config, trace=tr, pool=pool, llm=llm, cancel=cancel, cache=cache, started=started).run()
    finally:
        if own_trace:
            tr.close()


def prove_report(
    problem: Problem,
    config: ProverConfig,
    *,
    pool: Any = None,
    trace: Any = None,
    cancel: threading.Event | None = None,
    on_event: Callable[[Any], None] | None = None,
) -> ProveReport:
    """The ``prove`` tool (MCP): ``prove`` on ``problem`` as a ``prover.tools.ProveReport``;
    ``on_event`` sees every trace event as it happens."""
    from .tools import ProveReport
    from .trace import Trace

    tr = trace if trace is not None else Trace(None)
    if on_event is not None:
        tr.listen(on_event)
    t0 = time.monotonic()
    r = prove(problem, config, trace=tr, pool=pool, cancel=cancel)
    return ProveReport(proved=r.proved, proof=r.proof_text, reason=r.reason, mode=r.mode, seconds=round(time.monotonic() - t0, 3))


__all__ = ["Problem", "ProofResult", "ProverConfig", "load_problem", "prove", "prove_report"]
