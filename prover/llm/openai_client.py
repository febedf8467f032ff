"""OpenAI-compatible chat (vLLM's server, hosted APIs) through the ``openai`` SDK.

What the client does around the SDK (its own retries are off; this loop owns them):

- **Outcomes are values.** Timeouts, connection errors, HTTP errors after the last retry and
  unreadable bodies come back as a ``ChatResponse`` with ``error`` set; nothing here raises
  for a server or network failure.
- **Retries** on timeouts, connection errors, HTTP 408/409/425/429/5xx and unreadable
  bodies: exponential backoff ``backoff_s * 2**k`` with jitter (x0.5-1.5), or the server's
  ``Retry-After`` when it sends one. Other 4xx answers are not retried, except those named below
  (tools refused, context exceeded, ``response_format`` or ``n`` refused), asked again once in another form.
  Which errors are retried and which refusals are answered, and how: ``http_errors.py``.
- **Budgets.** Inside ``request_deadline(t)`` (set by ``prover.chat.call_model``) every
  attempt's timeout is ``min(timeout_s, seconds left)``, no retry starts once the deadline has
  passed, and ``max_tokens`` is lowered to what the generation rate (assumed at first, then
  measured on the answers; lowered after a timeout) can produce in the time left. Wall time
  (``latency_s``) counts all attempts and waits. A request cut by the deadline (its timeout
  was lowered to the time left) fails as ``"no time left in the budget (timeout after Ns at
  the deadline)"``, which the endpoint-health streak (``Budget.note_llm_outcome``) ignores;
  a request that hits its own ``timeout_s`` fails as ``"timeout after Ns"``.
- **Context.** The model's context length is read once from ``/v1/models`` (vLLM reports
  ``max_model_len``), else ``ModelConfig.max_model_len``; a 400 that names the length teaches
  it too. Prompts are measured with a characters-per-token ratio calibrated on the server's
  reported ``prompt_tokens``; the oldest turns after the first user message are dropped
  until the prompt fits, and ``max_tokens`` is sized to what the context leaves.
- **Structured output.** A server that refuses ``response_format`` (HTTP 400 naming it) is
  asked again without it, and the client remembers: later requests go without it. The
  response that saw the refusal carries ``fallback`` (traced once as ``llm_fallback``), and
  every response whose ``response_format`` was not applied has ``format_dropped`` set.
- **A model the server does not serve** (absent from ``/v1/models``, or a 404 naming it) is
  an error value at once, ``"model not served: ..."`` listing what the server has; nothing
  more is sent.
- **Tools.** ``tools`` are sent with ``tool_choice: "auto"`` (``"required"`` when the
  sampling asks for it). A server without tool parsing
  answers 400 (vLLM: '"auto" tool choice requires --enable-auto-tool-choice ...'); the
  client then switches to text tools (described in the system prompt, calls read from
  ``<tool_call>`` blocks) for good, once, and flags that response (``fallback``).
- **History is replayed so the server accepts it.** A tool call whose arguments were not a
  JSON object is never echoed as a call: it is replayed as ``<tool_call>`` text in the
  assistant message and its result as a user message. In text-tool mode the model's own
  calls stay in the history as the ``<tool_call>`` blocks it wrote.

The API key is read from the environment variable named in the config when the SDK client is
first built (lazily, on the first request).
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..config import ModelConfig, SamplingConfig
from . import http_errors
from .base import (
    ChatMessage,
    ChatResponse,
    ToolCall,
    ToolSpec,
    Usage,
    current_deadline,
    error_response,
    estimate_tokens,
    parse_arguments,
    parse_text_tool_calls,
    seconds_left,
    with_tools_prompt,
)
from .http_errors import RETRY_STATUS, RetryPolicy
from .openai_request import Attempt, Exchange, Failure, Then

MIN_COMPLETION = 16
"""A request that cannot leave this many completion tokens (context or time) is not sent."""
_SAFETY = 0.9
"""Fraction of the context the estimated prompt + completion may fill (the estimate is rough)."""
_OMITTED = "[earlier turns of this conversation were omitted to fit the model's context]"


class OpenAIChat:
    """``ChatModel`` over an OpenAI-compatible endpoint, with ``chat_many``. Thread-safe."""

    backend = "openai"

    def __init__(
        self,
        config: ModelConfig,
        sampling: SamplingConfig | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ):
        """Nothing is contacted here: the SDK client and the ``/v1/models`` probe are made on first use."""
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model or "default"
        self._sem = threading.BoundedSemaphore(max(1, config.concurrency))
        self._sleep = sleep
        self._jitter = jitter
        self._lock = threading.Lock()
        self._client: Any = None
        self.native_tools = config.native_tools
        """False once the server refused ``tools`` (or when configured so)."""
        self._fallback_reason: str | None = None
        self.response_format_ok = True
        """False once the server refused ``response_format``: it is no longer sent."""
        self.context_len: int | None = config.max_model_len
        self._probed = False
        self.missing_model: str | None = None
        """Set when the server says it does not serve ``config.model`` (``/v1/models`` or a 404
        naming the model): every later request fails at once with this error, unsent."""
        self.chars_per_token = 3.0
        """Prompt characters per token; starts low (over-estimates tokens), calibrated on usage."""
        self.tokens_per_s: float | None = config.initial_tokens_per_s
        """Completion rate (tokens / request second): ``initial_tokens_per_s`` until measured,
        then a running figure that leans to the slowest; lowered after a timeout."""
        self._rate_measured = False
        self.calls = 0
        self.tokens_in = 0
        self.tokens_out = 0

    # --- the SDK client and the server's facts ---------------------------------------------
    def _sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(
                    base_url=self.config.endpoint.rstrip("/"),
                    api_key=os.environ.get(self.config.api_key_env) or "EMPTY",
                    max_retries=0,
                    timeout=self.config.timeout_s,
                )
            return self._client

    def _probe_context(self, deadline: float | None) -> None:
        """Read ``max_model_len`` from ``/v1/models`` once (a failure leaves the config value)."""
        with self._lock:
            if self._probed:
                return
            self._probed = True
        left = seconds_left(deadline)
        timeout = min(10.0, self.config.timeout_s, left if left is not None else 10.0)
        if timeout < 0.5:
            return
        try:
            listing = self._sdk().models.list(timeout=timeout)
            cards = list(listing.data)
        except Exception:  # noqa: BLE001 - the probe is best effort; the chat call reports failures
            return
        ids = [str(getattr(c, "id", "")) for c in cards]
        if ids and self.config.model and self.config.model not in ids:
            self._not_served(ids)
            return
        card = next((c for c in cards if getattr(c, "id", None) == self.config.model), cards[0] if cards else None)
        extra = getattr(card, "model_extra", None) or {}
        n = extra.get("max_model_len")
        if isinstance(n, int) and n > 0:
            with self._lock:
                self.context_len = n

    def _not_served(self, served: Sequence[str] | None) -> None:
        listing = f" (it serves: {', '.join(served)})" if served else ""
        with self._lock:
            self.missing_model = f"model not served: {self.config.model!r} is not a model of {self.config.endpoint}{listing}"

    def _set_context(self, n: int) -> bool:
        """Take the context length a 400 named; True when it changed."""
        with self._lock:
            changed = self.context_len != n
            self.context_len = n
        return changed

    # --- rendering the history -------------------------------------------------------------
    def render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], native: bool) -> list[dict[str, Any]]:
        """The OpenAI message list the server is sent (see the module docstring for the rules)."""
        text_mode = bool(tools) and not native
        out: list[dict[str, Any]] = []
        as_text: set[str] = set()  # ids of calls replayed as text: their results become user turns
        for m in messages:
            if m.role == "assistant":
                content = m.content or ""
                calls = []
                blocks = []
                for c in m.tool_calls:
                    valid = c.error is None and isinstance(c.arguments, dict) and bool(c.name)
                    if valid and not text_mode:
                        calls.append(
                            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                        )
                        continue
                    as_text.add(c.id)
                    blocks.append(json.dumps({"name": c.name, "arguments": c.arguments}) if valid else _raw_call(c))
                if blocks:
                    replay = "\n".join(f"<tool_call>{b}</tool_call>" for b in blocks)
                    content = f"{content}\n{replay}" if content else replay
                d: dict[str, Any] = {"role": "assistant", "content": content}
                if calls:
                    d["tool_calls"] = calls
                out.append(d)
            elif m.role == "tool":
                if m.tool_call_id in as_text or text_mode or m.tool_call_id is None:
                    out.append({"role": "user", "content": f"[result of tool {m.name or 'call'}]\n{m.content}"})
                else:
                    out.append({"role": "tool", "content": m.content, "tool_call_id": m.tool_call_id})
            else:
                out.append({"role": m.role, "content": m.content})
        if text_mode:
            with_tools_prompt(out, tools)
        return out

    def _tokens(self, msgs: list[dict[str, Any]], tools_json: str) -> int:
        chars = len(tools_json) + sum(len(json.dumps(m)) + 8 for m in msgs)
        return int(chars / self.chars_per_token) + 8

    def _fit(self, msgs: list[dict[str, Any]], tools_json: str, want: int) -> tuple[list[dict[str, Any]], int, str | None]:
        """Trim ``msgs`` to the context and size ``max_tokens``: (messages, max_tokens, error)."""
        ctx = self.context_len
        if ctx is None:
            return msgs, want, None
        usable = int(ctx * _SAFETY)
        floor = min(want, max(MIN_COMPLETION, min(512, ctx // 8)))
        head = 0  # keep the system message(s) and the first user message
        while head < len(msgs) and msgs[head]["role"] == "system":
            head += 1
        if head < len(msgs) and msgs[head]["role"] == "user":
            head += 1
        trimmed = list(msgs)
        dropped = False
        while self._tokens(trimmed, tools_json) + floor > usable and len(trimmed) > head + 1:
            del trimmed[head]
            # never start the kept tail with a tool result whose call was dropped
            while len(trimmed) > head + 1 and trimmed[head]["role"] == "tool":
                del trimmed[head]
            dropped = True
        if dropped:
            trimmed.insert(head, {"role": "user", "content": _OMITTED})
        prompt = self._tokens(trimmed, tools_json)
        room = usable - prompt
        if room < MIN_COMPLETION:
            return trimmed, 0, f"prompt too long for the model's context ({prompt} estimated tokens, context {ctx})"
        return trimmed, min(want, room), None

    # --- requests --------------------------------------------------------------------------
    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        return self._request(messages, tools, sampling or self.sampling, n=1, response_format=None)[0]

    def chat_many(
        self,
        messages: Sequence[ChatMessage],
        *,
        n: int,
        sampling: SamplingConfig | None = None,
        response_format: dict[str, Any] | None = None,
    ) -> tuple[ChatResponse, ...]:
        """``n`` samples from one request (the API's ``n``), optionally with ``response_format``
        (e.g. ``{"type": "json_schema", "json_schema": {...}}``). A server that refuses
        ``response_format`` is asked again without it; one that refuses ``n`` (or returns fewer
        choices) is asked once per missing sample. Returns ``n`` responses (errors as values)."""
        if n < 1:
            return ()
        sampling = sampling or self.sampling
        out = list(self._request(messages, (), sampling, n=n, response_format=response_format))
        if not out[0].ok:  # the request failed: every sample failed with it, no more requests
            return tuple(out[0] for _ in range(n))
        while len(out) < n:
            more = self._request(messages, (), sampling, n=1, response_format=response_format)
            out.extend(more)
            if not more[0].ok:
                out.extend(more[0] for _ in range(n - len(out)))
        return tuple(out[:n])

    def _request(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        sampling: SamplingConfig,
        *,
        n: int,
        response_format: dict[str, Any] | None,
    ) -> tuple[ChatResponse, ...]:
        """One request, asked again as the server's answers require (``http_errors``): the
        responses, or one error response."""
        ex = Exchange(n=n, response_format=response_format)
        deadline = current_deadline()
        self._probe_context(deadline)
        if self.missing_model is not None:
            return (error_response(self.missing_model, latency_s=time.monotonic() - ex.t0),)
        if response_format is not None and not self.response_format_ok:
            ex.response_format, ex.format_dropped = None, True
        while True:
            left = seconds_left(deadline)
            if left is not None and left < 1.0:
                return ex.failed(ex.out_of_time())
            req = self._build(messages, tools, sampling, ex, left)
            if isinstance(req, str):
                return ex.failed(req)
            ex.attempts += 1
            sent = self._send(req, ex, tools)
            if isinstance(sent, tuple):
                return sent
            ex.last_error = sent.error
            if sent.then == "reshape":
                ex.attempts -= 1  # the same request again, in another form
            elif sent.then == "stop":
                return ex.failed(sent.error)
            elif sent.then == "retry" and (why := self._wait_to_retry(ex, sent.retry_after, deadline)) is not None:
                return ex.failed(why)

    def _build(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], sampling: SamplingConfig, ex: Exchange, left: float | None
    ) -> Attempt | str:
        """The request to send now (history rendered and trimmed to the context, ``max_tokens``
        sized to the context and the time left), or why none can be sent."""
        native = self.native_tools
        msgs = self.render(messages, tools, native)
        tools_json = json.dumps([t.openai() for t in tools]) if tools and native else ""
        want = sampling.max_tokens
        rate = self.tokens_per_s
        if left is not None and rate is not None:  # n choices share the rate
            want = min(want, max(MIN_COMPLETION, int(rate * (left - 1.0) / ex.n)))
        msgs, max_tokens, err = self._fit(msgs, tools_json, want)
        if err is not None:
            return err
        kwargs: dict[str, Any] = {
            "model": self.config.model,
            "messages": msgs,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": max_tokens,
            "timeout": min(self.config.timeout_s, left) if left is not None else self.config.timeout_s,
        }
        if sampling.seed is not None:
            kwargs["seed"] = sampling.seed
        if ex.n > 1:
            kwargs["n"] = ex.n
        if ex.response_format is not None:
            kwargs["response_format"] = ex.response_format
        if sampling.logprobs:
            kwargs["logprobs"] = True
            # vLLM: the completion's token ids (``return_token_ids``), and logprob tokens
            # written as "token_id:N" (read when the first is absent); other servers ignore them
            kwargs["extra_body"] = {"return_token_ids": True, "return_tokens_as_token_ids": True}
        if tools_json:
            kwargs["tools"] = [t.openai() for t in tools]
            kwargs["tool_choice"] = sampling.tool_choice
        prompt_chars = sum(len(json.dumps(m)) + 8 for m in msgs) + len(tools_json)
        return Attempt(kwargs, native, bool(tools_json), max_tokens, prompt_chars, deadline_set=left is not None)

    def _send(self, req: Attempt, ex: Exchange, tools: Sequence[ToolSpec]) -> tuple[ChatResponse, ...] | Failure:
        """Send ``req``: the parsed responses, or how it failed and what comes next."""
        import openai

        try:
            with self._sem:
                t_req = time.monotonic()
                completion = self._sdk().chat.completions.create(**req.kwargs)
                req_s = time.monotonic() - t_req
            choices = list(completion.choices or [])
            if not choices:
                raise ValueError("no choices")
        except openai.APITimeoutError:
            return Failure(self._timed_out(req, ex.n), "retry")
        except openai.APIConnectionError as e:
            return Failure(f"connection failed: {http_errors.cause(e)}", "retry")
        except openai.APIStatusError as e:
            return self._status_failure(e, req, ex)
        except Exception as e:  # noqa: BLE001 - an unreadable body (SDK parse errors, no choices)
            return Failure(f"malformed response: {type(e).__name__}: {str(e)[:200]}", "retry")
        latency = time.monotonic() - ex.t0
        responses = self._parse(completion, choices, tools, req.native, latency, ex.attempts, req.prompt_chars, req_s)
        if ex.format_dropped:
            responses = tuple(r.model_copy(update={"format_dropped": True}) for r in responses)
        if ex.fallback is not None:
            responses = (responses[0].model_copy(update={"fallback": ex.fallback}), *responses[1:])
        return responses

    def _timed_out(self, req: Attempt, n: int) -> str:
        """The error of a request that timed out; the rate is lowered (it could not produce
        ``max_tokens`` in that time: expect less)."""
        timeout = req.kwargs["timeout"]
        if req.deadline_set and timeout < self.config.timeout_s:
            # the run's (or a stage's) deadline cut the request, not its own limit: time
            # ran out, which says nothing more about the endpoint (budget streaks skip it)
            error = f"no time left in the budget (timeout after {timeout:.0f}s at the deadline)"
        else:
            error = f"timeout after {timeout:.0f}s"
        with self._lock:
            bound = 0.7 * req.max_tokens * n / max(1.0, timeout)
            self.tokens_per_s = bound if self.tokens_per_s is None else min(self.tokens_per_s, bound)
        return error

    def _status_failure(self, e: Any, req: Attempt, ex: Exchange) -> Failure:
        """An HTTP error: retried (``RETRY_STATUS``), answered (``http_errors.REFUSALS``, the
        first that applies) or final."""
        status = e.status_code
        detail = http_errors.detail(e)
        error = f"HTTP {status}: {detail[:300]}"
        if status in RETRY_STATUS:
            return Failure(error, "retry", http_errors.retry_after(e))
        for refusal, m in http_errors.refusals(status, detail):
            then = self._answer(refusal, m, detail, req, ex)
            if then == "stop":  # the model is not served: the error says so
                return Failure(f"{self.missing_model}: {detail[:200]}", "stop")
            if then is not None:
                return Failure(error, then)
        return Failure(error, "stop")

    def _answer(self, refusal: http_errors.Refusal, m: re.Match[str], detail: str, req: Attempt, ex: Exchange) -> Then | None:
        """What the client does about a refusal (see ``Refusal.outcome``); None when it does
        not apply to this request."""
        outcome = refusal.outcome
        if outcome == "text_tools" and req.tools:
            with self._lock:
                first = self.native_tools
                self.native_tools = False
                if first and self._fallback_reason is None:
                    self._fallback_reason = detail[:300]
                    ex.fallback = f"server refused native tool calls ({detail[:200]}); switched to text tools"
            return "reshape"
        if outcome == "no_format" and ex.response_format is not None:
            ex.response_format, ex.format_dropped = None, True
            with self._lock:
                first = self.response_format_ok
                self.response_format_ok = False
            if first and ex.fallback is None:
                ex.fallback = f"server refused response_format ({detail[:200]}); sent without it from now on"
            return "reshape"
        if outcome == "one_sample" and ex.n > 1:
            ex.n = 1  # chat_many asks again for the missing samples
            return "reshape"
        if outcome == "not_served":
            self._not_served(None)
            return "stop"
        if outcome == "context_length" and not ex.learned_ctx and self._set_context(int(m.group(1))):
            ex.learned_ctx = True
            return "again"
        if outcome == "prompt_tokens" and not ex.recalibrated:
            # our estimate was low: take the server's count and trim again
            ex.recalibrated = True
            with self._lock:
                self.chars_per_token = min(self.chars_per_token, 0.95 * req.prompt_chars / max(1, int(m.group(1))))
            return "again"
        return None

    def _wait_to_retry(self, ex: Exchange, retry_after: float | None, deadline: float | None) -> str | None:
        """Sleep before the next retry (``RetryPolicy``); the final error when there is none."""
        wait = RetryPolicy(self.config.max_retries, self.config.backoff_s).wait(ex.retries, retry_after, self._jitter)
        if wait is None:
            return ex.last_error
        ex.retries += 1
        left = seconds_left(deadline)
        if left is not None and wait >= left - 1.0:
            return f"{ex.last_error}; no time left in the budget for a retry"
        self._sleep(min(wait, 60.0))
        return None

    def _parse(
        self,
        completion: Any,
        choices: list[Any],
        tools: Sequence[ToolSpec],
        native: bool,
        latency: float,
        attempts: int,
        prompt_chars: int,
        req_s: float,
    ) -> tuple[ChatResponse, ...]:
        usage = getattr(completion, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        total_completion = int(getattr(usage, "completion_tokens", 0) or 0)
        texts = []
        for ch in choices:
            msg = getattr(ch, "message", None)
            text = getattr(msg, "content", None) or ""
            texts.append(text if isinstance(text, str) else json.dumps(text))
        est = [estimate_tokens(t) for t in texts]
        out = []
        for i, ch in enumerate(choices):
            msg = getattr(ch, "message", None)
            text = texts[i]
            calls: list[ToolCall] = []
            for raw in getattr(msg, "tool_calls", None) or []:
                fn = getattr(raw, "function", None)
                calls.append(
                    parse_arguments(str(getattr(fn, "name", "") or ""), getattr(fn, "arguments", "") or "", getattr(raw, "id", None))
                )
            if tools and not calls and "<tool_call>" in text:
                text, parsed = parse_text_tool_calls(text)
                calls.extend(parsed)
            token_ids, logprobs = _logprobs(ch)
            if total_completion and len(choices) > 1:
                completion_tokens = round(total_completion * est[i] / max(1, sum(est)))
            else:
                completion_tokens = total_completion or (len(logprobs) if logprobs else est[i])
            out.append(
                ChatResponse(
                    text=text,
                    tool_calls=tuple(calls),
                    usage=Usage(prompt_tokens=prompt_tokens if i == 0 else 0, completion_tokens=completion_tokens),
                    finish_reason=str(getattr(ch, "finish_reason", "") or ""),
                    latency_s=latency,
                    attempts=attempts,
                    token_ids=token_ids,
                    logprobs=logprobs,
                )
            )
        with self._lock:
            self.calls += 1
            self.tokens_in += prompt_tokens
            self.tokens_out += total_completion
            if prompt_tokens > 0:
                ratio = prompt_chars / prompt_tokens
                # calibrate towards the observed ratio, never above it (over-estimating tokens is safe)
                self.chars_per_token = min(ratio, 0.5 * self.chars_per_token + 0.5 * ratio)
            if total_completion >= 8 and req_s > 0:
                rate = total_completion / req_s
                if not self._rate_measured or self.tokens_per_s is None:
                    self.tokens_per_s, self._rate_measured = rate, True
                else:
                    self.tokens_per_s = min(rate, 0.5 * self.tokens_per_s + 0.5 * rate)
        return tuple(out)


def _raw_call(c: ToolCall) -> str:
    """A malformed call replayed as text: its name and its raw arguments as a JSON string, so
    the model sees what it sent, and no server ever parses the broken arguments."""
    return json.dumps({"name": c.name or "?", "arguments": c.raw_arguments})


def _logprobs(choice: Any) -> tuple[tuple[int, ...] | None, tuple[float, ...] | None]:
    """(token ids, log-probabilities) of a choice: vLLM's ``token_ids`` field, else the
    "token_id:N" tokens of the logprobs; None for what the server did not give."""
    direct = getattr(choice, "token_ids", None)
    ids_direct = tuple(int(t) for t in direct) if isinstance(direct, list) and all(isinstance(t, int) for t in direct) else None
    lp = getattr(choice, "logprobs", None)
    content = getattr(lp, "content", None) if lp is not None else None
    if not content:
        return ids_direct, None
    values = tuple(float(t.logprob) for t in content)
    if ids_direct is not None:
        return ids_direct, values
    ids: list[int] = []
    for t in content:
        tok = str(getattr(t, "token", ""))
        if not tok.startswith("token_id:"):
            return None, values
        try:
            ids.append(int(tok[len("token_id:") :]))
        except ValueError:
            return None, values
    return tuple(ids), values
