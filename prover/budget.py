"""Budget accounting for one problem: wall time, LLM tokens, proof-assistant CPU-seconds,
attempts, LLM calls. Thread-safe counters; ``check()`` raises ``BudgetExceeded`` (or
``Interrupted`` after ``cancel()``) so workers stop at their next step; the orchestrator
turns that into ``ProofResult.stopped_by``.
"""

from __future__ import annotations

import threading
import time

from .config import BudgetConfig
from .errors import BudgetExceeded, Interrupted
from .records import Spent


class Budget:
    def __init__(self, limits: BudgetConfig, *, cancel: threading.Event | None = None, started: float | None = None):
        """``started``: the ``time.monotonic()`` at which the wall budget began (default: now)."""
        self.limits = limits
        self.t0 = time.monotonic() if started is None else min(started, time.monotonic())
        self.external_cancel = cancel
        """The caller's event (never set here: it may be shared by many runs)."""
        self.cancel_event = threading.Event()
        self._lock = threading.Lock()
        self.tokens_in = 0
        self.tokens_out = 0
        self.checker_cpu_s = 0.0
        self.attempts = 0
        self.llm_calls = 0
        self.tactic_model_calls = 0
        self.tactic_model_tokens = 0
        self.tactic_model_s = 0.0
        self.knn_s = 0.0
        self.llm_errors_in_row = 0
        """Model calls that failed since the last one that answered (any thread)."""
        self.last_llm_error: str | None = None
        self.stopped_by: str | None = None

    # --- charging ------------------------------------------------------------------------
    def charge_llm(self, tokens_in: int, tokens_out: int, *, error: str | None = None, streak: bool = True) -> None:
        """Count one model call; with ``streak``, its ``error`` (the response's) also feeds
        ``llm_errors_in_row`` (see ``note_llm_outcome``)."""
        with self._lock:
            self.llm_calls += 1
            self.tokens_in += tokens_in
            self.tokens_out += tokens_out
        if streak:
            self.note_llm_outcome(error)

    def note_llm_outcome(self, error: str | None) -> None:
        """One request's outcome for the endpoint's health: None resets the streak of failed
        calls, an error extends it. A call that was never sent because no time was left
        ("no time left ...") says nothing about the endpoint and leaves the streak alone."""
        if error is not None and error.startswith("no time left"):
            return
        with self._lock:
            if error is None:
                self.llm_errors_in_row = 0
            else:
                self.llm_errors_in_row += 1
                self.last_llm_error = error

    def charge_search_sources(self, *, model_calls: int, model_tokens: int, model_s: float, knn_s: float) -> None:
        """Record what the built-in search's data-driven tactic sources used (``model_s``: the
        model's wall seconds). Reported in ``spent`` only: what the search charged for them is
        already inside its checker seconds (``charge_check``), and the tactic model's tokens do
        not count against the ``tokens`` budget of the LLM backend."""
        with self._lock:
            self.tactic_model_calls += model_calls
            self.tactic_model_tokens += model_tokens
            self.tactic_model_s += max(0.0, model_s)
            self.knn_s += max(0.0, knn_s)

    def charge_check(self, cpu_s: float, *, attempt: bool = True) -> None:
        with self._lock:
            self.checker_cpu_s += max(0.0, cpu_s)
            if attempt:
                self.attempts += 1

    # --- limits --------------------------------------------------------------------------
    @property
    def wall_s(self) -> float:
        return time.monotonic() - self.t0

    def remaining_wall(self) -> float:
        return max(0.0, self.limits.wall_s - self.wall_s)

    def exceeded(self) -> str | None:
        if self.cancel_event.is_set() or (self.external_cancel is not None and self.external_cancel.is_set()):
            return "interrupt"
        if self.wall_s >= self.limits.wall_s:
            return "wall_s"
        if self.tokens_in + self.tokens_out >= self.limits.tokens:
            return "tokens"
        if self.checker_cpu_s >= self.limits.checker_cpu_s:
            return "checker_cpu_s"
        if self.attempts >= self.limits.attempts:
            return "attempts"
        return None

    def check(self) -> None:
        which = self.exceeded()
        if which is None:
            return
        with self._lock:
            self.stopped_by = self.stopped_by or which
        if which == "interrupt":
            raise Interrupted()
        raise BudgetExceeded(which)

    def cancel(self) -> None:
        """Stop this run's workers at their next step (the caller's event is left alone)."""
        self.cancel_event.set()

    def spent(self) -> Spent:
        with self._lock:
            return Spent(
                wall_s=round(self.wall_s, 3),
                tokens_in=self.tokens_in,
                tokens_out=self.tokens_out,
                checker_cpu_s=round(self.checker_cpu_s, 3),
                attempts=self.attempts,
                llm_calls=self.llm_calls,
                tactic_model_calls=self.tactic_model_calls,
                tactic_model_tokens=self.tactic_model_tokens,
                tactic_model_s=round(self.tactic_model_s, 3),
                knn_s=round(self.knn_s, 3),
            )
