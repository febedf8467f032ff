"""How ``OpenAIChat`` reads an HTTP error from an OpenAI-compatible server.

``RETRY_STATUS`` are the statuses retried with backoff (``RetryPolicy``). Any other status is
final, except the refusals of ``REFUSALS``: records (status, patterns, outcome) that the client
answers by asking again in another form (text tools, no ``response_format``, one sample per
request), by learning the context length or the prompt's token count, or by stopping at once
(a model the server does not serve). They are tried in table order; the first whose outcome
applies to the request is taken (``refusals``). Matching is on the error's message only, so a
server that words a refusal differently gets the plain HTTP error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})

CTX_PATTERNS = (
    re.compile(r"maximum context length is (\d+)"),
    re.compile(r"max_model_len\s*=\s*(\d+)"),
    re.compile(r"max_total_tokens\s*=\s*(\d+)"),
)
"""Ways servers name the model's context length in a 400 (the first that matches counts)."""
_TOOLS_REFUSED = re.compile(
    r"tool.choice|tool-call-parser|enable-auto-tool-choice|does not support tools|tools? (?:are|is) not supported", re.IGNORECASE
)
_PROMPT_TOKENS = re.compile(r"prompt contains (?:at least )?(\d+) input tokens")
_FORMAT_REFUSED = re.compile(r"response_format|json_schema|structured output|guided", re.IGNORECASE)
_N_REFUSED = re.compile(r"\bn\b\s*(?:must|should|>|=|is not|only)|only n\s*=\s*1|`n`|'n'", re.IGNORECASE)
_NOT_FOUND = re.compile(r"model\b.*(?:does not exist|not found)", re.IGNORECASE)

Outcome = Literal["text_tools", "no_format", "one_sample", "not_served", "context_length", "prompt_tokens"]


@dataclass(frozen=True)
class Refusal:
    """An HTTP error the client answers instead of failing: its status, the patterns of its
    message (the first that matches counts) and what the client does about it."""

    status: int
    patterns: tuple[re.Pattern[str], ...]
    outcome: Outcome
    """``text_tools``: tools refused, switch to text tools for good and ask again (when tools
    were sent natively); ``no_format``: ``response_format`` refused, ask again without it, for
    good (when one was sent); ``one_sample``: ``n`` refused, ask for one sample (when ``n`` > 1);
    ``not_served``: the model is not served, stop; ``context_length``: the message names the
    context length, trim again with it (once, when it changed); ``prompt_tokens``: the message
    counts the prompt's tokens, recalibrate the estimate and trim again (once)."""

    def match(self, status: int, detail: str) -> re.Match[str] | None:
        if status != self.status:
            return None
        for pattern in self.patterns:
            if (m := pattern.search(detail)) is not None:
                return m
        return None


REFUSALS: tuple[Refusal, ...] = (
    Refusal(400, (_TOOLS_REFUSED,), "text_tools"),
    Refusal(400, (_FORMAT_REFUSED,), "no_format"),
    Refusal(400, (_N_REFUSED,), "one_sample"),
    Refusal(404, (_NOT_FOUND,), "not_served"),
    Refusal(400, CTX_PATTERNS, "context_length"),
    Refusal(400, (_PROMPT_TOKENS,), "prompt_tokens"),
)
"""The refusals, in the order they are tried."""


def refusals(status: int, detail: str) -> Iterator[tuple[Refusal, re.Match[str]]]:
    """The refusals matching an HTTP error's status and message, in table order."""
    for refusal in REFUSALS:
        if (m := refusal.match(status, detail)) is not None:
            yield refusal, m


@dataclass(frozen=True)
class RetryPolicy:
    """Waits between attempts after a retryable failure: the server's ``Retry-After`` when it
    sends one, else ``backoff_s * 2**k`` with jitter (x0.5-1.5) before retry ``k + 1``; at most
    ``max_retries`` retries, and none that would start past the deadline."""

    max_retries: int
    backoff_s: float

    def wait(self, retries: int, retry_after: float | None, jitter: Callable[[], float]) -> float | None:
        """Seconds to wait before retry number ``retries + 1``; None when no retry is left."""
        if retries >= self.max_retries:
            return None
        return retry_after if retry_after is not None else self.backoff_s * (2**retries) * (0.5 + jitter())


def detail(e: Any) -> str:
    """The message of an SDK status error (the body's ``error.message``, else the raw text)."""
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(body.get("message"), str):
            return body["message"]
    try:
        return e.response.text[:500]
    except Exception:  # noqa: BLE001
        return str(e)[:500]


def retry_after(e: Any) -> float | None:
    """The ``Retry-After`` seconds of an SDK status error; None when absent or an HTTP date."""
    try:
        value = e.response.headers.get("retry-after")
    except Exception:  # noqa: BLE001
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: use the backoff


def cause(e: BaseException) -> str:
    """What a connection error says: its underlying exception, else itself."""
    inner = e.__cause__ or e.__context__
    return f"{inner}" if inner is not None else str(e)
