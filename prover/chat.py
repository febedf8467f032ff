"""One metered model call: budget check before, a deadline during, token charge and one
``llm_call`` trace event after (plus one ``llm_fallback`` event when the client switched to
text tools on this call)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .budget import Budget
from .config import SamplingConfig
from .llm.base import (
    ChatMessage,
    ChatModel,
    ChatResponse,
    ToolSpec,
    current_deadline,
    request_deadline,
    sample_many,
)
from .trace import Trace


def call_model(
    llm: ChatModel,
    messages: Sequence[ChatMessage],
    *,
    budget: Budget,
    trace: Trace,
    problem: str,
    stage: str,
    lemma: str | None = None,
    tools: Sequence[ToolSpec] = (),
    max_seconds: float | None = None,
    sampling: SamplingConfig | None = None,
) -> ChatResponse:
    """Raises ``BudgetExceeded`` before the call when a budget is spent; otherwise returns the
    backend's response (errors as values). The call runs under ``request_deadline``: the end
    of the wall budget, or an enclosing ``request_deadline``, or ``max_seconds`` from now,
    whichever is soonest, so a backend that
    honours deadlines (the OpenAI client) cannot outlive the run."""
    budget.check()
    deadline = time.monotonic() + budget.remaining_wall()
    outer = current_deadline()
    if outer is not None:  # a stage's own share of the budget (set by the orchestrator)
        deadline = min(deadline, outer)
    if max_seconds is not None:
        deadline = min(deadline, time.monotonic() + max(1.0, max_seconds))
    with request_deadline(deadline):
        resp = llm.chat(list(messages), tools=list(tools), sampling=sampling)
    _charge(llm, resp, budget=budget, trace=trace, problem=problem, stage=stage, lemma=lemma)
    return resp


def call_model_many(
    llm: ChatModel,
    messages: Sequence[ChatMessage],
    *,
    n: int,
    budget: Budget,
    trace: Trace,
    problem: str,
    stage: str,
    sampling: SamplingConfig | None = None,
    response_format: dict[str, Any] | None = None,
) -> tuple[ChatResponse, ...]:
    """``n`` samples of one conversation through ``sample_many`` (one request with the API's
    ``n`` where the backend has ``chat_many``; ``response_format`` passed on there), metered
    like ``call_model``: one budget check and the same deadline before; each completion charged
    (``llm_calls`` counts completions) and traced as one ``llm_call`` event."""
    budget.check()
    deadline = time.monotonic() + budget.remaining_wall()
    outer = current_deadline()
    if outer is not None:
        deadline = min(deadline, outer)
    with request_deadline(deadline):
        out = sample_many(llm, list(messages), n=n, sampling=sampling, response_format=response_format)
    for resp in out:
        _charge(llm, resp, budget=budget, trace=trace, problem=problem, stage=stage, lemma=None, streak=False)
    # the endpoint's health is judged once per request, not once per sample
    budget.note_llm_outcome(None if any(r.ok for r in out) else next((r.error for r in out if r.error), None))
    return out


def _charge(
    llm: ChatModel, resp: ChatResponse, *, budget: Budget, trace: Trace, problem: str, stage: str, lemma: str | None, streak: bool = True
) -> None:
    budget.charge_llm(resp.usage.prompt_tokens, resp.usage.completion_tokens, error=resp.error, streak=streak)
    backend = getattr(llm, "backend", type(llm).__name__)
    model = getattr(llm, "name", "")
    if resp.fallback is not None:
        trace.emit("llm_fallback", problem=problem, lemma=lemma, stage=stage, backend=backend, model=model, reason=resp.fallback)
    trace.emit(
        "llm_call",
        problem=problem,
        lemma=lemma,
        stage=stage,
        backend=backend,
        model=model,
        prompt_tokens=resp.usage.prompt_tokens,
        completion_tokens=resp.usage.completion_tokens,
        seconds=round(resp.latency_s, 3),
        tool_calls=[c.name for c in resp.tool_calls],
        error=resp.error,
        finish=resp.finish_reason,
        attempts=resp.attempts,
        text=resp.text[:2000],
    )
