"""OpenAI-compatible chat over HTTP (vLLM's server, hosted APIs) with the standard library only.

Per request: ``POST {endpoint}/chat/completions``. Retries with exponential backoff on
timeouts, connection errors, HTTP 429 and 5xx, and on a body that is not JSON; other 4xx
answers are returned at once as an error value. A semaphore caps requests in flight.
The API key is read from the environment variable named in the config at call time.
Token usage comes from the response's ``usage`` (estimated from text when absent).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from ..config import ModelConfig, SamplingConfig
from .base import (
    ChatMessage,
    ChatResponse,
    ToolCall,
    ToolSpec,
    Usage,
    error_response,
    estimate_tokens,
    parse_arguments,
    parse_text_tool_calls,
    tools_prompt,
)

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAIChat:
    """``ChatModel`` over an OpenAI-compatible endpoint. Thread-safe."""

    def __init__(self, config: ModelConfig, sampling: SamplingConfig | None = None, *, sleep=time.sleep):
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model or "default"
        self._sem = threading.BoundedSemaphore(max(1, config.concurrency))
        self._sleep = sleep
        self._lock = threading.Lock()
        self.calls = 0
        self.tokens_in = 0
        self.tokens_out = 0

    # --- request -------------------------------------------------------------------------
    def _payload(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], sampling: SamplingConfig) -> dict[str, Any]:
        msgs = [m.openai() for m in messages]
        if tools and not self.config.native_tools:
            extra = tools_prompt(tools)
            if msgs and msgs[0]["role"] == "system":
                msgs[0] = {**msgs[0], "content": msgs[0]["content"] + "\n\n" + extra}
            else:
                msgs.insert(0, {"role": "system", "content": extra})
            # Replay earlier tool traffic as plain text for servers without tool support.
            for m in msgs:
                if m["role"] == "tool":
                    m["role"] = "user"
                    m["content"] = f"[tool result]\n{m['content']}"
                    m.pop("tool_call_id", None)
                    m.pop("name", None)
                m.pop("tool_calls", None)
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": msgs,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
        }
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if tools and self.config.native_tools:
            body["tools"] = [t.openai() for t in tools]
            body["tool_choice"] = "auto"
        return body

    def _post(self, body: dict[str, Any]) -> tuple[int, str]:
        url = self.config.endpoint.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.config.api_key_env, "")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.config.timeout_s) as resp:
                return resp.status, resp.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as e:
            try:
                detail = e.read().decode("utf-8", errors="replace")[:500]
            except Exception:  # noqa: BLE001 - body of an error page is best effort
                detail = ""
            return e.code, detail

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        sampling = sampling or self.sampling
        body = self._payload(messages, tools, sampling)
        t0 = time.monotonic()
        last_error = "no attempt made"
        attempts = 0
        for attempt in range(self.config.max_retries + 1):
            attempts = attempt + 1
            if attempt:
                self._sleep(self.config.backoff_s * (2 ** (attempt - 1)))
            with self._sem:
                try:
                    status, text = self._post(body)
                except TimeoutError:
                    last_error = f"timeout after {self.config.timeout_s:.0f}s"
                    continue
                except urllib.error.URLError as e:
                    reason = e.reason
                    last_error = (
                        f"timeout after {self.config.timeout_s:.0f}s"
                        if isinstance(reason, (TimeoutError, socket.timeout))
                        else f"connection failed: {reason}"
                    )
                    continue
                except (ConnectionError, OSError) as e:
                    last_error = f"connection failed: {e}"
                    continue
            if status in RETRY_STATUS:
                last_error = f"HTTP {status}: {text[:200]}"
                continue
            if status >= 400:
                return error_response(f"HTTP {status}: {text[:300]}", latency_s=time.monotonic() - t0, attempts=attempts)
            try:
                data = json.loads(text)
                choice = data["choices"][0]
            except (json.JSONDecodeError, KeyError, IndexError, TypeError):
                last_error = f"malformed response body: {text[:200]!r}"
                continue
            resp = self._parse(data, choice, tools, time.monotonic() - t0, attempts)
            with self._lock:
                self.calls += 1
                self.tokens_in += resp.usage.prompt_tokens
                self.tokens_out += resp.usage.completion_tokens
            return resp
        return error_response(last_error, latency_s=time.monotonic() - t0, attempts=attempts)

    def _parse(self, data: dict, choice: dict, tools: Sequence[ToolSpec], latency: float, attempts: int) -> ChatResponse:
        msg = choice.get("message") or {}
        text = msg.get("content") or ""
        if not isinstance(text, str):
            text = json.dumps(text)
        calls: list[ToolCall] = []
        for raw in msg.get("tool_calls") or []:
            fn = (raw or {}).get("function") or {}
            calls.append(parse_arguments(str(fn.get("name") or ""), fn.get("arguments", ""), (raw or {}).get("id")))
        if tools and not calls and "<tool_call>" in text:
            text, parsed = parse_text_tool_calls(text)
            calls.extend(parsed)
        usage = data.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens") or 0)
        completion_tokens = int(usage.get("completion_tokens") or 0) or estimate_tokens(text)
        return ChatResponse(
            text=text,
            tool_calls=tuple(calls),
            usage=Usage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens),
            finish_reason=str(choice.get("finish_reason") or ""),
            latency_s=latency,
            attempts=attempts,
        )
