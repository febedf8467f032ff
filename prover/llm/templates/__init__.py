"""Chat templates that carry tools, for transformers and vLLM alike.

A model's own chat template is used when it renders tools: ``renders_tools(tokenizer)`` renders a
conversation with a probe tool, an assistant call of it and its result, and checks that the
probe's name shows up both in the tool list and in the replayed call. Otherwise the project's
``chatml_tools.jinja`` is used: ChatML (``<|im_start|>role ... <|im_end|>``) with the tools listed
hermes-style in the system turn and calls written as ``<tool_call>{"name", "arguments"}</tool_call>``,
which is what vLLM's ``--tool-call-parser hermes`` and ``parse_text_tool_calls`` read back.

The same choice is made for both runtimes: ``chat_template_for(tokenizer)`` gives the in-process
backends the template text (``apply_chat_template(chat_template=...)``) and
``chat_template_file(folder)`` gives ``prover-serve`` the path for ``--chat-template``.

Covered: ChatML-family models (SmolLM2, Qwen2, Hermes). Not covered: models whose special tokens
are not ChatML and whose own template drops tools (the fallback would render tokens they do not
know; such a model needs its own tool-aware template).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

CHATML_TOOLS = "chatml_tools.jinja"
_PROBE = "prover_probe_tool_7f3a"


def project_template_path(name: str = CHATML_TOOLS) -> Path:
    """Path of a template kept in this package (for vLLM's ``--chat-template``)."""
    return Path(str(resources.files(__package__).joinpath(name)))


def project_template(name: str = CHATML_TOOLS) -> str:
    """Text of a template kept in this package."""
    return project_template_path(name).read_text(encoding="utf-8")


def _probe_conversation() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    tools: list[dict[str, Any]] = [
        {
            "type": "function",
            "function": {
                "name": _PROBE,
                "description": "probe",
                "parameters": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            },
        }
    ]
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": _PROBE + "_called", "arguments": {"x": "1"}}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "name": _PROBE + "_called", "content": "probe result 4b1d"},
    ]
    return messages, tools


def renders_tools(tokenizer: Any, template: str | None = None) -> bool:
    """True when ``template`` (default: the tokenizer's own) shows tools, calls and tool results."""
    if template is None and not getattr(tokenizer, "chat_template", None):
        return False
    messages, tools = _probe_conversation()
    try:
        text = tokenizer.apply_chat_template(
            messages, tools=tools, chat_template=template, tokenize=False, add_generation_prompt=True
        )
    except Exception:  # noqa: BLE001 - a template that cannot render this conversation does not carry tools
        return False
    text = str(text)
    listed = text.replace(_PROBE + "_called", "").count(_PROBE) > 0
    return listed and (_PROBE + "_called") in text and "probe result 4b1d" in text


def chat_template_for(tokenizer: Any) -> str | None:
    """None when the tokenizer's own template carries tools, else the project's template text."""
    return None if renders_tools(tokenizer) else project_template()


def chat_template_file(model_folder: str | Path) -> Path | None:
    """For ``--chat-template``: None when the model's own template carries tools, else the project's file.

    Loads only the tokenizer of ``model_folder`` (local files, no download).
    """
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(model_folder), local_files_only=True)
    return None if renders_tools(tok) else project_template_path()
