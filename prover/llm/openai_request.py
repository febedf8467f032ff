"""The records of one ``OpenAIChat`` request across its attempts (``openai_client.py``): the
exchange's state, one attempt as built for the SDK, and how an attempt failed."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from .base import ChatResponse, error_response

Then = Literal["reshape", "again", "retry", "stop"]
"""After a failed attempt: ask again in another form (not counted as an attempt), ask again
having learnt something (counted), retry under the ``RetryPolicy``, or stop with the error."""


@dataclass
class Exchange:
    """One ``_request`` across its attempts: what it asks for now (``n`` and
    ``response_format`` may be given up on the server's refusal) and what happened so far."""

    n: int
    response_format: dict[str, Any] | None
    t0: float = field(default_factory=time.monotonic)
    format_dropped: bool = False
    fallback: str | None = None
    """The fallback this request saw (traced once by the caller)."""
    learned_ctx: bool = False
    recalibrated: bool = False
    attempts: int = 0
    retries: int = 0
    last_error: str = "no attempt made"

    def out_of_time(self) -> str:
        """The error when no attempt can start before the deadline."""
        if not self.attempts:
            return "no time left in the budget"
        if self.last_error.startswith("no time left"):
            return self.last_error
        return f"no time left in the budget ({self.last_error})"

    def failed(self, error: str) -> tuple[ChatResponse, ...]:
        return (error_response(error, latency_s=time.monotonic() - self.t0, attempts=self.attempts),)


@dataclass(frozen=True)
class Attempt:
    """One attempt's request, as built for the SDK."""

    kwargs: dict[str, Any]
    native: bool
    """Tools were rendered for native tool calls (not as text)."""
    tools: bool
    """Tools were sent natively (the request has ``tools``)."""
    max_tokens: int
    prompt_chars: int
    deadline_set: bool
    """A deadline was in force (its timeout may be the time left rather than ``timeout_s``)."""


@dataclass(frozen=True)
class Failure:
    """A failed attempt: its error and what comes next."""

    error: str
    then: Then
    retry_after: float | None = None
