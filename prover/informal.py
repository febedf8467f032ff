"""The natural-language prover: an informal proof from the model (prompt ``informal.md``),
or the user's own (``Problem.informal``), or none when neither is available."""

from __future__ import annotations

from . import prompts
from .budget import Budget
from .chat import call_model
from .llm.base import ChatMessage, ChatModel
from .records import InformalProof, Problem
from .trace import Trace


def informal_proof(problem: Problem, llm: ChatModel | None, *, enabled: bool, budget: Budget, trace: Trace) -> InformalProof:
    if problem.informal:
        return InformalProof(problem=problem.name, text=problem.informal, source="user")
    if llm is None or not enabled:
        return InformalProof(problem=problem.name, text="", source="none")
    values = prompts.language_values(problem.language)
    user = prompts.render("informal", statement_block=(problem.preamble.strip() + "\n\n" + problem.declaration).strip(), **values)
    resp = call_model(llm, [ChatMessage(role="user", content=user)], budget=budget, trace=trace, problem=problem.name, stage="informal")
    if not resp.ok or not resp.text.strip():
        return InformalProof(problem=problem.name, text="", source="none")
    return InformalProof(
        problem=problem.name,
        text=resp.text.strip(),
        source="llm",
        tokens_in=resp.usage.prompt_tokens,
        tokens_out=resp.usage.completion_tokens,
    )
