"""In-process backends: transformers with local weights, and vLLM (optional extra).

Both render the conversation with the tokenizer's chat template (passing ``tools`` when the
template accepts them, else describing the tools in the system prompt) and read tool calls
from ``<tool_call>{json}</tool_call>`` blocks in the generated text. Heavy imports happen in
the constructor, never at module import. Neither downloads anything: ``model`` must be a
local directory (or a name already in the local cache).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from ..config import ModelConfig, SamplingConfig
from .base import (
    BackendUnavailable,
    ChatMessage,
    ChatResponse,
    ToolSpec,
    Usage,
    error_response,
    parse_text_tool_calls,
    tools_prompt,
)


def _plain_messages(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], native: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        content = m.content
        if m.tool_calls:
            content += "".join(
                f'\n<tool_call>{{"name": "{c.name}", "arguments": {c.raw_arguments or "{}"}}}</tool_call>' for c in m.tool_calls
            )
        role = m.role
        if role == "tool":
            role, content = "user", f"[tool result {m.name or ''}]\n{content}"
        out.append({"role": role, "content": content})
    if tools and not native:
        extra = tools_prompt(tools)
        if out and out[0]["role"] == "system":
            out[0]["content"] += "\n\n" + extra
        else:
            out.insert(0, {"role": "system", "content": extra})
    return out


def _render(tokenizer, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]) -> str:
    if getattr(tokenizer, "chat_template", None):
        try:
            return tokenizer.apply_chat_template(
                _plain_messages(messages, tools, native=True) if not tools else _plain_messages(messages, tools, native=False),
                tokenize=False,
                add_generation_prompt=True,
            )
        except Exception:  # noqa: BLE001, S110 - templates vary; fall back to plain text
            pass
    parts = [f"<|{m['role']}|>\n{m['content']}" for m in _plain_messages(messages, tools, native=False)]
    return "\n".join(parts) + "\n<|assistant|>\n"


class TransformersChat:
    """``ChatModel`` over ``AutoModelForCausalLM`` from a local directory. One generation at a time."""

    def __init__(self, config: ModelConfig, sampling: SamplingConfig | None = None, *, model: Any = None, tokenizer: Any = None):
        try:
            import torch
            import transformers
        except ImportError as e:
            raise BackendUnavailable("the transformers backend needs `pip install torch transformers`") from e
        self._torch = torch
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model or "local"
        if model is None or tokenizer is None:
            try:
                tokenizer = tokenizer or transformers.AutoTokenizer.from_pretrained(config.model, local_files_only=True)
                model = model or transformers.AutoModelForCausalLM.from_pretrained(
                    config.model, local_files_only=True, torch_dtype=None if config.dtype == "auto" else getattr(torch, config.dtype)
                )
            except OSError as e:
                raise BackendUnavailable(f"cannot load local model {config.model!r}: {e}") from e
        self.model = model.to(config.device).eval()
        self.tokenizer = tokenizer
        self._lock = threading.Lock()

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        s = sampling or self.sampling
        t0 = time.monotonic()
        prompt = _render(self.tokenizer, messages, tools)
        try:
            with self._lock, self._torch.no_grad():
                enc = self.tokenizer(prompt, return_tensors="pt").to(self.config.device)
                n_in = int(enc["input_ids"].shape[1])
                if s.seed is not None:
                    self._torch.manual_seed(s.seed)
                out = self.model.generate(
                    **enc,
                    max_new_tokens=s.max_tokens,
                    do_sample=s.temperature > 0,
                    temperature=s.temperature if s.temperature > 0 else None,
                    top_p=s.top_p if s.temperature > 0 else None,
                    pad_token_id=self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.tokenizer.eos_token_id,
                )
            new = out[0][n_in:]
            text = self.tokenizer.decode(new, skip_special_tokens=True)
        except Exception as e:  # noqa: BLE001 - a failed generation is a value
            return error_response(f"generation failed: {type(e).__name__}: {e}", latency_s=time.monotonic() - t0)
        eos = self.tokenizer.eos_token_id
        finished = len(new) > 0 and eos is not None and int(new[-1]) == eos
        clean, calls = parse_text_tool_calls(text) if tools else (text, ())
        return ChatResponse(
            text=clean,
            tool_calls=calls,
            usage=Usage(prompt_tokens=n_in, completion_tokens=len(new)),
            finish_reason="stop" if finished else "length",
            latency_s=time.monotonic() - t0,
        )


class VLLMChat:
    """``ChatModel`` over in-process ``vllm.LLM`` (install the ``vllm`` extra; needs a GPU)."""

    def __init__(self, config: ModelConfig, sampling: SamplingConfig | None = None):
        try:
            import vllm
        except ImportError as e:
            raise BackendUnavailable("the vllm backend needs `pip install agentic-prover[vllm]` and a GPU") from e
        self._vllm = vllm
        self.config = config
        self.sampling = sampling or SamplingConfig()
        self.name = config.model
        self.engine = vllm.LLM(model=config.model, dtype=config.dtype)
        self.tokenizer = self.engine.get_tokenizer()
        self._lock = threading.Lock()

    def chat(
        self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling: SamplingConfig | None = None
    ) -> ChatResponse:
        s = sampling or self.sampling
        t0 = time.monotonic()
        prompt = _render(self.tokenizer, messages, tools)
        params = self._vllm.SamplingParams(temperature=s.temperature, top_p=s.top_p, max_tokens=s.max_tokens, seed=s.seed)
        try:
            with self._lock:
                out = self.engine.generate([prompt], params, use_tqdm=False)[0]
        except Exception as e:  # noqa: BLE001 - a failed generation is a value
            return error_response(f"generation failed: {type(e).__name__}: {e}", latency_s=time.monotonic() - t0)
        comp = out.outputs[0]
        clean, calls = parse_text_tool_calls(comp.text) if tools else (comp.text, ())
        return ChatResponse(
            text=clean,
            tool_calls=calls,
            usage=Usage(prompt_tokens=len(out.prompt_token_ids or ()), completion_tokens=len(comp.token_ids or ())),
            finish_reason=str(comp.finish_reason or ""),
            latency_s=time.monotonic() - t0,
        )
