"""One chat interface for every model backend: messages + OpenAI-style function tools in,
text and/or tool calls + token usage out.

Failures are values: a timeout, an HTTP 500 after the last retry, a response that is not
JSON, or a tool call whose arguments are not valid JSON all come back as a ``ChatResponse``
(``error`` set, or ``ToolCall.error`` set), never as an exception. Only programming errors
and a missing optional dependency (``BackendUnavailable``) raise.

Tool calls from models without native tool parsing are read from
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` blocks (``parse_text_tool_calls``).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, Protocol, runtime_checkable

from lean_tools.types import Record

from ..config import SamplingConfig


class BackendUnavailable(RuntimeError):
    """An optional backend's package (vllm, transformers) is not installed, or weights are missing."""


class ToolSpec(Record):
    """An OpenAI-style function tool: ``parameters`` is a JSON schema object."""

    name: str
    description: str
    parameters: dict[str, Any]

    def openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}


class ToolCall(Record):
    id: str
    name: str
    arguments: dict[str, Any] | None = None
    """Parsed arguments; None when ``error`` is set."""
    raw_arguments: str = ""
    error: str | None = None
    """Why the call could not be parsed (invalid or truncated JSON, not an object, no name)."""


class ChatMessage(Record):
    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def openai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            # Arguments are re-serialised from the parsed object, never echoed raw: a call whose
            # arguments were not a JSON object is replayed with ``{}`` so the server accepts
            # later turns (the OpenAI client replays such calls as text instead).
            d["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {
                        "name": c.name or "unknown",
                        "arguments": json.dumps(c.arguments if c.error is None and isinstance(c.arguments, dict) else {}),
                    },
                }
                for c in self.tool_calls
            ]
        if self.tool_call_id is not None:
            d["tool_call_id"] = self.tool_call_id
        if self.name is not None and self.role == "tool":
            d["name"] = self.name
        return d


class Usage(Record):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ChatResponse(Record):
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    finish_reason: str = ""
    """stop, tool_calls, length (truncated), error."""
    error: str | None = None
    """Set when no usable answer came back (after retries); the text is then empty."""
    latency_s: float = 0.0
    attempts: int = 1
    token_ids: tuple[int, ...] | None = None
    """The completion's token ids, when the backend gives them (in-process backends; the
    OpenAI client when log-probabilities were asked for and the server returns token ids)."""
    logprobs: tuple[float, ...] | None = None
    """Log-probability of each completion token under the sampling distribution, when
    requested (``SamplingConfig.logprobs``) and the backend gives them; aligned with
    ``token_ids`` when both are set."""
    fallback: str | None = None
    """Set on the one response where the client switched to another form for good (the
    server refused ``tools``: text tools; or refused ``response_format``: sent without it):
    why. The caller traces it as ``llm_fallback``."""
    format_dropped: bool = False
    """True when the request asked for a ``response_format`` that was not applied (the server
    refused it, now or earlier: the client remembers and no longer sends it). The text is then
    free-form; a caller that wanted structured output should stop asking for it."""

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_message(self) -> ChatMessage:
        return ChatMessage(role="assistant", content=self.text, tool_calls=self.tool_calls)


@runtime_checkable
class ChatModel(Protocol):
    """What every backend offers. ``chat`` is thread-safe; backends limit their own concurrency."""

    name: str

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        tools: Sequence[ToolSpec] = (),
        sampling: SamplingConfig | None = None,
    ) -> ChatResponse: ...


_DEADLINE: ContextVar[float | None] = ContextVar("prover_llm_deadline", default=None)


@contextmanager
def request_deadline(deadline: float | None) -> Iterator[None]:
    """Within this block (this thread / context), model calls should end by ``deadline``
    (a ``time.monotonic()`` value; None: no limit). Backends that can bound a request read
    it with ``current_deadline()``: the OpenAI client caps each request's timeout, its
    retries and its ``max_tokens`` by it. Backends that cannot ignore it."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def current_deadline() -> float | None:
    """The deadline set by the innermost ``request_deadline`` block, or None."""
    return _DEADLINE.get()


def seconds_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (never negative), None when there is none."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def sample_many(
    model: ChatModel,
    messages: Sequence[ChatMessage],
    *,
    n: int,
    sampling: SamplingConfig | None = None,
    response_format: dict[str, Any] | None = None,
) -> tuple[ChatResponse, ...]:
    """``n`` independent samples for one conversation.

    Uses the backend's ``chat_many`` (one request with the API's ``n``, and
    ``response_format`` such as ``{"type": "json_schema", ...}``) when it has one; otherwise
    calls ``chat`` ``n`` times, in which case ``response_format`` is not enforced by the
    backend (the caller must validate the text). Always returns exactly ``n`` responses
    (failures are responses with ``error`` set); ``n < 1`` returns ``()``.
    """
    if n < 1:
        return ()
    many = getattr(model, "chat_many", None)
    if callable(many):
        out = tuple(many(list(messages), n=n, sampling=sampling, response_format=response_format))
        if len(out) < n:  # a server that returned fewer choices than asked: top up one by one
            out += tuple(model.chat(list(messages), sampling=sampling) for _ in range(n - len(out)))
        return out[:n]
    return tuple(model.chat(list(messages), sampling=sampling) for _ in range(n))


def error_response(message: str, *, latency_s: float = 0.0, attempts: int = 1) -> ChatResponse:
    return ChatResponse(error=message, finish_reason="error", latency_s=latency_s, attempts=attempts)


def parse_arguments(name: str, raw: Any, call_id: str | None = None) -> ToolCall:
    """A ToolCall from a name and raw arguments (JSON text or an already-parsed object)."""
    cid = call_id or f"call_{uuid.uuid4().hex[:12]}"
    if not name:
        return ToolCall(id=cid, name="", raw_arguments=str(raw), error="tool call without a function name")
    if isinstance(raw, dict):
        return ToolCall(id=cid, name=name, arguments=raw, raw_arguments=json.dumps(raw))
    text = raw if isinstance(raw, str) else json.dumps(raw)
    if not text.strip():
        return ToolCall(id=cid, name=name, arguments={}, raw_arguments=text)
    try:
        val = json.loads(text)
    except json.JSONDecodeError as e:
        return ToolCall(
            id=cid, name=name, raw_arguments=text, error=f"arguments are not valid JSON ({e.msg} at char {e.pos}); possibly truncated"
        )
    if not isinstance(val, dict):
        return ToolCall(id=cid, name=name, raw_arguments=text, error="arguments must be a JSON object")
    return ToolCall(id=cid, name=name, arguments=val, raw_arguments=text)


_TEXT_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


def parse_text_tool_calls(text: str) -> tuple[str, tuple[ToolCall, ...]]:
    """Split ``<tool_call>{json}</tool_call>`` blocks out of model text.

    Returns the text without the blocks and the calls; a block that is not valid JSON (or
    is cut off by the token limit) becomes a ToolCall with ``error`` set.
    """
    calls: list[ToolCall] = []
    for m in _TEXT_CALL.finditer(text):
        body = m.group(1).strip()
        try:
            obj = json.loads(body)
        except json.JSONDecodeError as e:
            name_m = re.search(r'"name"\s*:\s*"([^"]+)"', body)
            calls.append(
                ToolCall(
                    id=f"call_{uuid.uuid4().hex[:12]}",
                    name=name_m.group(1) if name_m else "",
                    raw_arguments=body,
                    error=f"tool call is not valid JSON ({e.msg}); possibly truncated",
                )
            )
            continue
        if not isinstance(obj, dict):
            calls.append(ToolCall(id=f"call_{uuid.uuid4().hex[:12]}", name="", raw_arguments=body, error="tool call must be a JSON object"))
            continue
        calls.append(parse_arguments(str(obj.get("name", "")), obj.get("arguments", obj.get("parameters", {}))))
    clean = _TEXT_CALL.sub("", text).strip()
    return clean, tuple(calls)


def tools_prompt(tools: Sequence[ToolSpec]) -> str:
    """Tool descriptions for models without native tool support (appended to the system prompt)."""
    if not tools:
        return ""
    lines = [
        "You can call tools. To call one, write exactly:",
        '<tool_call>{"name": "TOOL_NAME", "arguments": {...}}</tool_call>',
        "Available tools (JSON schemas):",
    ]
    for t in tools:
        lines.append(json.dumps({"name": t.name, "description": t.description, "parameters": t.parameters}))
    return "\n".join(lines)


def with_tools_prompt(messages: list[dict[str, Any]], tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """``messages`` (OpenAI-style dicts) with ``tools_prompt(tools)`` appended to the system
    message, or put first as one when there is none. Modifies and returns the list."""
    extra = tools_prompt(tools)
    if messages and messages[0]["role"] == "system":
        messages[0] = {**messages[0], "content": messages[0]["content"] + "\n\n" + extra}
    else:
        messages.insert(0, {"role": "system", "content": extra})
    return messages


def estimate_tokens(text: str) -> int:
    """Rough count when a backend reports no usage: ~4 characters per token."""
    return max(1, len(text) // 4) if text else 0
