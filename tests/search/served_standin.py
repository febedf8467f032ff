"""A stand-in for a vLLM completions server over real HTTP, as strict as the real one was seen to be
(``tests/prover/vllm_standin.py`` is its twin for the chat endpoint the agents use).

What a vLLM 0.32.0 server (CPU build, SmolLM2 with a LoRA module) did with the requests of
``OpenAITacticModel``, and what this stand-in therefore does:
- ``GET /v1/models`` lists the served names (the base model's and each LoRA module's);
- ``POST /v1/completions`` with a ``model`` it does not serve: HTTP 404 ``NotFoundError``; ``n``
  below 1: HTTP 400; ``logprobs`` above 20 or negative: HTTP 400 (the real server reads -1 as the
  whole vocabulary, then refuses it); ``max_tokens`` below 1 or above ``max_model_len``: HTTP 400;
  a prompt longer than ``max_model_len`` tokens: HTTP 400 (tokens counted here as
  ``ceil(chars / 3.5)``, as the chat stand-in does);
- a choice's ``text`` ends before the first stop string (which is dropped), its
  ``logprobs.tokens`` and ``token_logprobs`` run up to and including the token that holds it, and
  ``finish_reason`` is ``"stop"`` (``stop_reason`` the string); a completion that reaches
  ``max_tokens`` first is cut there with ``finish_reason`` ``"length"``.

Each scripted completion is a list of ``(token, logprob)`` pairs, written as the model would go on
(past the newline); the ``n`` choices of a request cycle through the script. ``replay`` instead
answers every request with one recorded response body. Every request body is recorded.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_LOGPROBS = 20
"""vLLM's default ``--max-logprobs``."""

Script = list[list[tuple[str, float]]]


@dataclass
class Standin:
    served: tuple[str, ...]
    script: Script = field(default_factory=list)
    max_model_len: int = 1024
    replay: dict[str, Any] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The HTTP status and JSON body vLLM gives ``body``."""
        self.requests.append(body)
        model, n, logprobs, max_tokens = body.get("model"), body.get("n", 1), body.get("logprobs"), body.get("max_tokens", 16)
        if model not in self.served:
            return 404, _error(f"The model `{model}` does not exist.", "NotFoundError", 404, "model")
        if not isinstance(n, int) or n < 1:
            return 400, _error(f"n must be at least 1, got {n}.", "BadRequestError", 400)
        if logprobs is not None and not 0 <= logprobs <= MAX_LOGPROBS:
            return 400, _error(f"Requested sample logprobs of {logprobs}, which is greater than max allowed: {MAX_LOGPROBS}",
                               "BadRequestError", 400, "logprobs")
        if not isinstance(max_tokens, int) or max_tokens < 1:
            return 400, _error(f"max_tokens must be at least 1, got {max_tokens}.", "BadRequestError", 400)
        if max_tokens > self.max_model_len:
            return 400, _error(f"max_tokens={max_tokens} cannot be greater than max_model_len={self.max_model_len}. "
                               "Please request fewer output tokens.", "BadRequestError", 400, "max_tokens")
        prompt = math.ceil(len(body.get("prompt", "")) / 3.5)
        if prompt > self.max_model_len:
            return 400, _error(f"This model's maximum context length is {self.max_model_len} tokens. However, your prompt "
                               f"contains at least {prompt} input tokens, which exceeds this limit even without any output "
                               "tokens. Please reduce the length of the input prompt.", "BadRequestError", 400, "input_tokens")
        if self.replay is not None:
            return 200, self.replay
        stop = body.get("stop") or []
        stops = [stop] if isinstance(stop, str) else list(stop)
        choices = [_choice(i, self.script[i % len(self.script)], stops, max_tokens, logprobs is not None) for i in range(n)]
        return 200, {"id": "cmpl-standin", "object": "text_completion", "created": 0, "model": model, "choices": choices,
                     "usage": {"prompt_tokens": 1, "completion_tokens": sum(len(c["logprobs"]["tokens"]) for c in choices if c["logprobs"]),
                               "total_tokens": 0}}


def _error(message: str, kind: str, code: int, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _choice(index: int, tokens: list[tuple[str, float]], stops: list[str], max_tokens: int, logprobs: bool) -> dict[str, Any]:
    """One choice as vLLM writes it: generation ends at the first token whose text completes a stop
    string (the text is cut before the stop string) or after ``max_tokens`` tokens."""
    text, kept, finish, reason = "", [], "length", None
    for tok, lp in tokens[:max_tokens]:
        kept.append((tok, lp))
        found = [((text + tok).find(s), s) for s in stops if s in text + tok]
        if found:
            at, reason = min(found)
            text, finish = (text + tok)[:at], "stop"
            break
        text += tok
    lps = {"tokens": [t for t, _ in kept], "token_logprobs": [lp for _, lp in kept], "top_logprobs": [{t: lp} for t, lp in kept],
           "text_offset": [0] * len(kept)} if logprobs else None
    return {"index": index, "text": text, "logprobs": lps, "finish_reason": finish, "stop_reason": reason}


@contextmanager
def serving(standin: Standin) -> Iterator[Standin]:
    """Serve ``standin`` on 127.0.0.1 (a free port) for the block; ``standin.url`` is its ``/v1``."""

    class Handler(BaseHTTPRequestHandler):
        def _send(self, code: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": m, "object": "model", "created": 0, "owned_by": "vllm"}
                                                            for m in standin.served]})
            else:
                self._send(404, _error("Not Found", "NotFoundError", 404))

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if self.path.rstrip("/") == "/v1/completions":
                self._send(*standin.answer(body))
            else:
                self._send(404, _error("Not Found", "NotFoundError", 404))

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    standin.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield standin
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
