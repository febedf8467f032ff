"""A test double that replays canned responses, so the pipeline runs without a model.

``ScriptedLLM(script)``: ``script`` is either a sequence (each ``chat`` call takes the next
item) or a function ``f(messages, tools) -> item``. An item is a ``ChatResponse``, a plain
string (assistant text), or a dict ``{"tool": name, "args": {...}}`` / ``{"tool": name,
"raw": "<json text>"}`` (one tool call; ``raw`` lets a test send malformed JSON), or a list
of such dicts (several calls in one turn). When a sequence runs out, calls get an error
response ("script exhausted"). Every request is kept in ``requests`` for assertions.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ..config import SamplingConfig
from .base import (
    ChatMessage,
    ChatResponse,
    ToolSpec,
    Usage,
    error_response,
    estimate_tokens,
    parse_arguments,
)

Item = ChatResponse | str | dict | list


def to_response(item: Item) -> ChatResponse:
    if isinstance(item, ChatResponse):
        return item
    if isinstance(item, str):
        return ChatResponse(text=item, usage=Usage(prompt_tokens=10, completion_tokens=estimate_tokens(item)), finish_reason="stop")
    calls_in = item if isinstance(item, list) else [item]
    calls = []
    for c in calls_in:
        raw: Any = c["raw"] if "raw" in c else c.get("args", {})
        calls.append(parse_arguments(c["tool"], raw, f"call_{uuid.uuid4().hex[:8]}"))
    text = next((c.get("text", "") for c in calls_in if c.get("text")), "")
    return ChatResponse(text=text, tool_calls=tuple(calls), usage=Usage(prompt_tokens=10, completion_tokens=20), finish_reason="tool_calls")


class ScriptedLLM:
    name = "scripted"

    def __init__(self, script: Sequence[Item] | Callable[[Sequence[ChatMessage], Sequence[ToolSpec]], Item]):
        self._fn = script if callable(script) else None
        self._items = list(script) if not callable(script) else []
        self._lock = threading.Lock()
        self.requests: list[tuple[tuple[ChatMessage, ...], tuple[str, ...]]] = []

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        with self._lock:
            self.requests.append((tuple(messages), tuple(t.name for t in tools)))
            if self._fn is None:
                if not self._items:
                    return error_response("script exhausted")
                item = self._items.pop(0)
        if self._fn is not None:
            item = self._fn(messages, tools)
        return to_response(item)

    @property
    def remaining(self) -> int:
        return len(self._items)
