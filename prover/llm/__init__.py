"""LLM interface and backends. ``make_llm(config)`` builds the configured one (None for type "none")."""

from __future__ import annotations

from ..config import ProverConfig
from .base import (
    BackendUnavailable,
    ChatMessage,
    ChatModel,
    ChatResponse,
    ToolCall,
    ToolSpec,
    Usage,
)
from .scripted import ScriptedLLM


def make_llm(config: ProverConfig) -> ChatModel | None:
    """The backend named by ``config.model.type``; imports it late. Raises BackendUnavailable."""
    t = config.model.type
    if t == "none":
        return None
    if t == "openai":
        from .openai_client import OpenAIChat

        return OpenAIChat(config.model, config.sampling)
    if t == "transformers":
        from .local import TransformersChat

        return TransformersChat(config.model, config.sampling)
    if t == "vllm":
        from .local import VLLMChat

        return VLLMChat(config.model, config.sampling)
    raise BackendUnavailable(f"unknown model backend {t!r}")


__all__ = [
    "BackendUnavailable",
    "ChatMessage",
    "ChatModel",
    "ChatResponse",
    "ScriptedLLM",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "make_llm",
]
