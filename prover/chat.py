"""One metered model call: budget check before, token charge and a trace event after."""

from __future__ import annotations

from collections.abc import Sequence

from .budget import Budget
from .llm.base import ChatMessage, ChatModel, ChatResponse, ToolSpec
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
) -> ChatResponse:
    budget.check()
    resp = llm.chat(list(messages), tools=list(tools))
    budget.charge_llm(resp.usage.prompt_tokens, resp.usage.completion_tokens)
    trace.emit(
        "llm",
        problem=problem,
        lemma=lemma,
        stage=stage,
        tokens_in=resp.usage.prompt_tokens,
        tokens_out=resp.usage.completion_tokens,
        latency_s=round(resp.latency_s, 3),
        finish=resp.finish_reason,
        error=resp.error,
        tool_calls=[c.name for c in resp.tool_calls],
        text=resp.text[:2000],
    )
    return resp
