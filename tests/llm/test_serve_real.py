"""The real server started by ``prover-serve`` (one per test run, see conftest.py): what it
reports, that its chat template carries tools, and real model output through the project's
OpenAI client, imperfect as it comes."""

from __future__ import annotations

import json
import urllib.request

import pytest

from prover.config import ModelConfig, SamplingConfig
from prover.llm.base import (
    ChatMessage,
    ToolSpec,
    parse_arguments,
    parse_text_tool_calls,
)

pytestmark = pytest.mark.llm

CHECK = ToolSpec(
    name="check_proof_script",
    description="Check a Coq proof script for the current goal and report the errors.",
    parameters={"type": "object", "properties": {"script": {"type": "string"}}, "required": ["script"]},
)


def _post(url: str, body: dict, timeout: float = 600) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def _client(server, **kw):
    from prover.llm.openai_client import OpenAIChat

    return OpenAIChat(ModelConfig(type="openai", model=server.name, endpoint=server.url, timeout_s=600, max_retries=1, **kw))


def test_models_endpoint_names_the_model_and_its_context(server):
    with urllib.request.urlopen(f"{server.url}/models", timeout=30) as r:
        data = json.loads(r.read())
    (entry,) = data["data"]
    assert entry["id"] == "smollm2"
    assert entry["max_model_len"] == 4096


def test_served_template_shows_the_tools_to_the_model(server, model_dir):
    """SmolLM2's own template drops ``tools``; prover-serve passes the project's instead, so the
    tokens the server feeds the model contain the tool's name and schema."""
    from transformers import AutoTokenizer

    from prover.llm.templates import renders_tools

    tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    assert not renders_tools(tok), "SmolLM2's own template renders tools now: the fallback is no longer needed"
    body = {"model": server.name, "messages": [{"role": "user", "content": "hello"}]}
    plain = _post(server.url.removesuffix("/v1") + "/tokenize", body)
    with_tools = _post(server.url.removesuffix("/v1") + "/tokenize", {**body, "tools": [CHECK.openai()]})
    text = tok.decode(with_tools["tokens"])
    assert "check_proof_script" in text and '"script"' in text
    assert "check_proof_script" not in tok.decode(plain["tokens"])


def test_forced_tool_call_is_real_and_parsed_as_a_value(server):
    """With ``tool_choice: "required"`` the model starts a tool call. Either the server parsed it
    (``tool_calls``; whatever arguments the 135M model wrote, ``parse_arguments`` makes a value of
    them), or the token limit cut it off: then vLLM returns the ``<tool_call>`` text as content
    (seen here: the model wrote the schema back as arguments until the limit), and the text
    parser makes it a ToolCall with ``error`` set, as the client does."""
    body = {
        "model": server.name,
        "messages": [
            {"role": "system", "content": "You prove Coq lemmas by calling tools."},
            {"role": "user", "content": "Goal: forall n : nat, n + 0 = n. Check a proof script."},
        ],
        "tools": [CHECK.openai()],
        "tool_choice": "required",
        "max_tokens": 64,
        "temperature": 0,
    }
    out = _post(f"{server.url}/chat/completions", body)
    choice = out["choices"][0]
    raw = choice["message"].get("tool_calls") or []
    if raw:
        call = parse_arguments(raw[0]["function"]["name"], raw[0]["function"]["arguments"], raw[0]["id"])
        assert call.name == "check_proof_script"
        assert (call.arguments is None) == (call.error is not None)
        return
    content = choice["message"]["content"] or ""
    assert choice["finish_reason"] == "length" and "<tool_call>" in content, out
    _, calls = parse_text_tool_calls(content)
    assert calls and all(c.error is not None and c.arguments is None for c in calls), calls


def test_client_round_trip_with_tool_history_is_accepted(server):
    """The client's replay of a conversation with a tool call and its result (arguments as the
    model wrote them, however malformed) is accepted by the real server."""
    llm = _client(server)
    bad = parse_arguments("check_proof_script", '"n"', "call_abc123")  # the real 135M output seen on this server
    assert bad.error is not None
    history = [
        ChatMessage(role="system", content="You prove Coq lemmas by calling tools."),
        ChatMessage(role="user", content="Goal: forall n : nat, n + 0 = n."),
        ChatMessage(role="assistant", content="", tool_calls=(bad,)),
        ChatMessage(role="tool", content="error: arguments must be a JSON object", tool_call_id=bad.id, name=bad.name),
    ]
    r = llm.chat(history, tools=[CHECK], sampling=SamplingConfig(max_tokens=32, temperature=0))
    assert r.ok, r.error
    assert r.usage.prompt_tokens > 0
    for c in r.tool_calls:
        assert (c.arguments is None) == (c.error is not None)


def test_client_sizes_max_tokens_to_the_context(server):
    """Asking for more completion tokens than the window holds is not a 400: the client reads
    ``max_model_len`` from the server and lowers ``max_tokens``."""
    llm = _client(server)
    r = llm.chat([ChatMessage(role="user", content="Say hi.")], sampling=SamplingConfig(max_tokens=100_000, temperature=0))
    assert r.ok, r.error
    assert 0 < r.usage.completion_tokens <= 4096


def test_client_returns_token_ids_and_logprobs(server):
    llm = _client(server)
    r = llm.chat(
        [ChatMessage(role="user", content="Count to three.")], sampling=SamplingConfig(max_tokens=12, temperature=0, logprobs=True)
    )
    assert r.ok, r.error
    assert r.logprobs is not None and len(r.logprobs) == r.usage.completion_tokens
    assert all(lp <= 0.0 for lp in r.logprobs)
    if r.token_ids is not None:
        assert len(r.token_ids) == len(r.logprobs)
