"""The trainer's weights reach a running vLLM V1 engine (``rl.vllm_engine``), both transports.

Proof of the push: on a fixed token sequence, a few optimiser steps move the trainer's
log-probabilities by more than ten times ``TOL``; before the push vLLM still matches the old
weights, after it vLLM matches the trainer within ``TOL`` (max absolute difference per token,
in nats). Needs vllm (the CPU build here); ~1-2 min per engine on 2 shared cores."""

from __future__ import annotations

import pytest
import torch
from lm_helpers import tiny_llama

pytestmark = pytest.mark.llm

TOL = 1e-3
SEQ = [1, 17, 42, 99, 7, 250, 3, 64, 128, 5, 33, 301, 77, 12]


def _trainer_logprobs(policy) -> torch.Tensor:
    from rl.lm import make_token_batch, score_tokens

    b = make_token_batch([SEQ[:1]], [SEQ[1:]], pad=0)
    with torch.no_grad():
        lp, _ = score_tokens(policy, b)
    return lp[0]


def _train_a_little(policy) -> None:
    from rl.lm import make_token_batch, score_tokens

    opt = torch.optim.AdamW(policy.parameters(), lr=3e-3)
    b = make_token_batch([SEQ[:1]], [SEQ[1:]], pad=0)
    for _ in range(5):
        lp, _ = score_tokens(policy, b)
        loss = -lp.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


@pytest.mark.parametrize("transport", ["iterator", "path"])
def test_push_moves_vllm_to_the_trainer_weights(tmp_path, monkeypatch, transport):
    import transformers

    from rl.lm import LMPolicy, LoraSettings
    from rl.vllm_engine import VLLMEngine

    if transport == "path":  # the path transport is the one that crosses the engine's process boundary
        monkeypatch.setenv("VLLM_ENABLE_V1_MULTIPROCESSING", "1")
    folder = tiny_llama(tmp_path / "model")
    policy = LMPolicy(transformers.AutoModelForCausalLM.from_pretrained(folder), None, folder=folder,
                      lora=LoraSettings())
    engine = VLLMEngine(folder, transport=transport, weights_dir=tmp_path / "pushed", max_model_len=128,
                        tokenizer=False)
    try:
        assert engine.in_process == (transport == "iterator")
        engine.push(policy.hf_weights(), 0)
        before = _trainer_logprobs(policy)
        served = torch.tensor(engine.prompt_logprobs(SEQ))
        assert (served - before).abs().max() < TOL  # same weights, same numbers

        _train_a_little(policy)
        after = _trainer_logprobs(policy)
        assert (after - before).abs().max() > 10 * TOL  # the update moved the trainer
        stale = torch.tensor(engine.prompt_logprobs(SEQ))
        assert (stale - after).abs().max() > 10 * TOL  # vLLM does not see it yet

        engine.push(policy.hf_weights(), 1)
        pushed = torch.tensor(engine.prompt_logprobs(SEQ))
        print(f"{transport}: moved {float((after - before).abs().max()):.4f}, "
              f"after push {float((pushed - after).abs().max()):.2e} (TOL {TOL})")
        assert (pushed - after).abs().max() < TOL
        assert engine.version == 1
        version, comps = engine.generate([SEQ[:4]], max_tokens=3, temperature=1.0, seed=0)
        assert version == 1 and len(comps[0][0].token_ids) == len(comps[0][0].logprobs) == 3
    finally:
        engine.close()


def test_path_transport_without_a_folder_uses_a_temporary_one(tmp_path):
    """``text_sampler`` for ``type = "vllm"``, ``vllm_transport = "path"`` and no ``weights_dir``
    (the benchmark attempt's case): pushes land in a temporary folder that ``close()`` removes."""
    import transformers
    from lm_helpers import word_tokenizer

    from rl.config import SamplerConfig
    from rl.lm import LMPolicy, LoraSettings
    from rl.text_samplers import VLLMTextSampler, text_sampler

    folder = tiny_llama(tmp_path / "model")
    tok = word_tokenizer()
    tok.save_pretrained(folder)
    policy = LMPolicy(transformers.AutoModelForCausalLM.from_pretrained(folder), tok, folder=folder,
                      lora=LoraSettings())
    sc = SamplerConfig(type="vllm", vllm_transport="path", max_new_tokens=3, vllm_max_model_len=128)
    sampler = text_sampler(policy, sc, seed=0)
    assert isinstance(sampler, VLLMTextSampler)
    pushed = sampler.engine.weights_dir
    try:
        assert pushed is not None and pushed.is_dir()
        sampler.push(dict(policy.hf_weights()), 0)
        assert (pushed / "v0").is_dir()
        v, comp = sampler.sample_text("Theorem goal : forall n : nat , n = n .", seed=1)
        assert v == 0 and 1 <= len(comp.token_ids) == len(comp.logprobs) <= 3
    finally:
        sampler.close()
    assert not pushed.exists()
