"""The in-process backends on the real SmolLM2: transformers and vLLM (``vllm.LLM``, CPU build).

Each is loaded once per module. What is checked: the prompt carries the tools, completions come
with token ids and log-probabilities, the two backends agree on the log-probabilities of the same
tokens, a cut-off tool call is a value with ``error`` set, a long conversation is trimmed to the
window, the request deadline stops generation, and weights pushed into the vLLM engine are used.
"""

from __future__ import annotations

import time

import pytest

from prover.config import ModelConfig, SamplingConfig
from prover.llm.base import ChatMessage, ToolCall, ToolSpec, request_deadline

pytestmark = pytest.mark.llm

CHECK = ToolSpec(
    name="check_proof_script",
    description="Check a Coq proof script for the current goal.",
    parameters={"type": "object", "properties": {"script": {"type": "string"}}, "required": ["script"]},
)
GOAL = "Goal: forall n : nat, n + 0 = n."


def _few_shot_calls() -> list[ChatMessage]:
    """A history in which the assistant answered twice with a tool call: the model is then
    likely to start its next answer with ``<tool_call>`` too."""
    msgs = [
        ChatMessage(role="system", content="You prove Coq lemmas. Always answer with one tool call."),
        ChatMessage(role="user", content=GOAL),
    ]
    for i, script in enumerate(["intros n. simpl. reflexivity.", "induction n; simpl; auto."]):
        call = ToolCall(id=f"call_{i}", name="check_proof_script", arguments={"script": script}, raw_arguments="")
        msgs += [
            ChatMessage(role="assistant", content="", tool_calls=(call,)),
            ChatMessage(role="tool", content="Error: the goal is not closed.", tool_call_id=call.id, name=call.name),
        ]
    return msgs


@pytest.fixture(scope="module")
def tf(model_dir):
    from prover.llm.local import TransformersChat

    return TransformersChat(ModelConfig(type="transformers", model=str(model_dir), dtype="float32"))


@pytest.fixture(scope="module")
def engine(model_dir):
    from prover.llm.local import VLLMChat

    llm = VLLMChat(ModelConfig(type="vllm", model=str(model_dir), max_model_len=2048))
    yield llm
    llm.close()


def test_transformers_prompt_carries_tools_and_history(tf):
    prompt = tf.render(_few_shot_calls(), [CHECK])
    assert '"name": "check_proof_script"' in prompt  # the tool list
    assert "induction n; simpl; auto." in prompt  # the model's own earlier call
    assert "the goal is not closed" in prompt  # and its result


def test_transformers_returns_token_ids_and_logprobs(tf):
    r = tf.chat([ChatMessage(role="user", content="Say hello.")], sampling=SamplingConfig(max_tokens=8, temperature=0, logprobs=True))
    assert r.ok, r.error
    assert r.token_ids is not None and len(r.token_ids) == r.usage.completion_tokens > 0
    assert r.logprobs is not None and len(r.logprobs) == len(r.token_ids)
    assert all(lp <= 0.0 for lp in r.logprobs)
    again = tf.chat([ChatMessage(role="user", content="Say hello.")], sampling=SamplingConfig(max_tokens=8, temperature=0))
    assert again.token_ids == r.token_ids and again.logprobs is None


def test_cut_off_tool_call_is_a_value_with_an_error(tf):
    """Real imperfect output: a tool call cut by the token limit comes back with ``error`` set."""
    r = tf.chat(_few_shot_calls(), tools=[CHECK], sampling=SamplingConfig(max_tokens=6, temperature=0))
    assert r.ok, r.error
    assert r.finish_reason == "length"
    if not r.tool_calls:
        pytest.skip(f"the model did not start a tool call this time: {r.text!r}")
    assert all(c.error is not None and c.arguments is None for c in r.tool_calls)


def test_long_conversation_is_trimmed_to_the_window(model_dir):
    from prover.llm.local import TransformersChat

    small = TransformersChat(ModelConfig(type="transformers", model=str(model_dir), dtype="float32", max_model_len=400))
    msgs = _few_shot_calls() * 1
    for _ in range(6):
        msgs += [ChatMessage(role="assistant", content="I will try again. " * 20), ChatMessage(role="user", content="Try again. " * 10)]
    full = len(small.encode(small.render(msgs, [CHECK])))
    assert full > 400
    r = small.chat(msgs, tools=[CHECK], sampling=SamplingConfig(max_tokens=16, temperature=0))
    assert r.ok, r.error
    assert r.usage.prompt_tokens + r.usage.completion_tokens <= 400


def test_deadline_stops_generation(tf):
    t0 = time.monotonic()
    with request_deadline(time.monotonic() + 2.0):
        r = tf.chat(
            [ChatMessage(role="user", content="Write a long story about numbers.")], sampling=SamplingConfig(max_tokens=2000, temperature=0)
        )
    assert r.ok, r.error
    assert r.finish_reason == "length" and r.usage.completion_tokens < 2000
    with request_deadline(time.monotonic() - 1.0):
        late = tf.chat([ChatMessage(role="user", content="hi")])
    assert late.error and "no time left" in late.error
    assert time.monotonic() - t0 < 600  # guards a hang, not a speed


def test_vllm_in_process_agrees_with_transformers(engine, tf):
    """The same greedy completion scored by both backends: vLLM's log-probabilities (raw, as
    it samples them) match transformers' forward pass on those tokens."""
    import torch

    msgs = [ChatMessage(role="user", content="Name three prime numbers.")]
    r = engine.chat(msgs, sampling=SamplingConfig(max_tokens=12, temperature=0, logprobs=True))
    assert r.ok, r.error
    assert r.token_ids and r.logprobs and len(r.logprobs) == len(r.token_ids) == r.usage.completion_tokens
    prompt = tf.encode(tf.render(msgs, []))
    assert r.usage.prompt_tokens == len(prompt)
    ids = torch.tensor([prompt + list(r.token_ids)])
    with torch.no_grad():
        logits = tf.model(ids).logits[0, len(prompt) - 1 : -1].float()
    ref = torch.log_softmax(logits, dim=-1).gather(1, torch.tensor(r.token_ids)[:, None])[:, 0]
    assert torch.allclose(ref, torch.tensor(r.logprobs), atol=0.05), (ref.tolist(), r.logprobs)


def test_vllm_in_process_tool_prompt_and_weight_push(engine, model_dir):
    from safetensors.torch import load_file

    r = engine.chat(_few_shot_calls(), tools=[CHECK], sampling=SamplingConfig(max_tokens=24, temperature=0))
    assert r.ok, r.error
    for c in r.tool_calls:
        assert (c.arguments is None) == (c.error is not None)
    weights = load_file(str(model_dir / "model.safetensors"))
    name = "model.norm.weight"
    msgs = [ChatMessage(role="user", content="Name three prime numbers.")]
    s = SamplingConfig(max_tokens=8, temperature=0, logprobs=True)
    before = engine.chat(msgs, sampling=s)
    engine.load_weights([(name, weights[name] * 0.25)])
    pushed = engine.chat(msgs, sampling=s)
    engine.load_weights([(name, weights[name])])
    restored = engine.chat(msgs, sampling=s)
    assert pushed.logprobs != before.logprobs, "the pushed weights were not used"
    assert restored.token_ids == before.token_ids
    assert restored.logprobs == pytest.approx(before.logprobs, abs=1e-4)
