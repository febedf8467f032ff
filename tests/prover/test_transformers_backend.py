"""The transformers backend with a tiny randomly initialised model built from a config (no download)."""

import pytest

transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
tokenizers = pytest.importorskip("tokenizers")

from prover.config import ModelConfig, ProverConfig, SamplingConfig  # noqa: E402 - after the importorskip guards
from prover.llm import make_llm  # noqa: E402 - after the importorskip guards
from prover.llm.base import ChatMessage, ToolSpec  # noqa: E402 - after the importorskip guards
from prover.llm.local import TransformersChat  # noqa: E402 - after the importorskip guards


def tiny_model_dir(tmp_path):
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    words = ["[UNK]", "[PAD]", "[EOS]", "<|user|>", "<|assistant|>", "<|system|>", "prove", "it", "lia", ".", "intros", "auto"]
    vocab = {w: i for i, w in enumerate(words)}
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="[EOS]")
    torch.manual_seed(0)
    cfg = transformers.GPT2Config(vocab_size=len(words), n_positions=256, n_embd=32, n_layer=1, n_head=2, bos_token_id=2, eos_token_id=2)
    model = transformers.GPT2LMHeadModel(cfg)
    d = tmp_path / "tiny"
    model.save_pretrained(d)
    fast.save_pretrained(d)
    return d


def test_tiny_random_model_generates(tmp_path):
    d = tiny_model_dir(tmp_path)
    cfg = ProverConfig(model=ModelConfig(type="transformers", model=str(d)), sampling=SamplingConfig(max_tokens=8, temperature=0.0))
    llm = make_llm(cfg)
    assert isinstance(llm, TransformersChat)
    tool = ToolSpec(name="check_proof", description="check", parameters={"type": "object", "properties": {}})
    r = llm.chat([ChatMessage(role="system", content="be brief"), ChatMessage(role="user", content="prove it")], tools=[tool])
    assert r.ok, r.error
    assert r.usage.prompt_tokens > 0 and 0 < r.usage.completion_tokens <= 8
    assert r.finish_reason in ("stop", "length")
    assert isinstance(r.text, str) and r.tool_calls == ()  # random weights: no tool-call block


def test_sampling_with_seed_is_reproducible(tmp_path):
    d = tiny_model_dir(tmp_path)
    llm = TransformersChat(ModelConfig(type="transformers", model=str(d)), SamplingConfig(max_tokens=6, temperature=1.0, seed=3))
    a = llm.chat([ChatMessage(role="user", content="prove it")])
    b = llm.chat([ChatMessage(role="user", content="prove it")])
    assert a.text == b.text


def test_missing_weights_is_backend_unavailable(tmp_path):
    from prover.llm.base import BackendUnavailable

    with pytest.raises(BackendUnavailable):
        TransformersChat(ModelConfig(type="transformers", model=str(tmp_path / "nothing")))


def test_required_tool_choice_starts_the_answer_with_a_call(tmp_path):
    """``tool_choice = "required"`` in process: the prompt ends with ``<tool_call>``, so what the
    (random) model writes is read as a call; cut off by the token limit, it is a value with ``error``."""
    d = tiny_model_dir(tmp_path)
    llm = TransformersChat(ModelConfig(type="transformers", model=str(d)), SamplingConfig(max_tokens=4, temperature=0.0))
    tool = ToolSpec(name="check_proof", description="check", parameters={"type": "object", "properties": {}})
    msgs = [ChatMessage(role="user", content="prove it")]
    plain = llm.chat(msgs, tools=[tool])
    forced = llm.chat(msgs, tools=[tool], sampling=SamplingConfig(max_tokens=4, temperature=0.0, tool_choice="required"))
    assert plain.ok and forced.ok and plain.tool_calls == ()
    assert len(forced.tool_calls) == 1 and forced.tool_calls[0].error is not None and forced.tool_calls[0].arguments is None
    assert forced.usage.prompt_tokens > plain.usage.prompt_tokens
