"""The real-LM policy on CPU (``rl.lm``): token batches, scoring, and LoRA-merged weights.

A small random-initialised Llama stands in for SmolLM2 (same architecture, no download)."""

from __future__ import annotations

import pytest
import torch
from lm_helpers import tiny_llama

transformers = pytest.importorskip("transformers")


def _policy(folder, rank: int):
    from rl.lm import LMPolicy, LoraSettings

    lm = transformers.AutoModelForCausalLM.from_pretrained(folder)
    lora = LoraSettings(rank=rank, alpha=8.0)
    if rank:
        import peft

        lm = peft.get_peft_model(lm, peft.LoraConfig(r=rank, lora_alpha=8.0, target_modules=list(lora.targets),
                                                     task_type="CAUSAL_LM"))
    return LMPolicy(lm, None, folder=folder, lora=lora)


@pytest.mark.parametrize("rank", [0, 4])
def test_score_tokens_matches_a_plain_forward(tmp_path, rank):
    """Scoring projects onto the vocabulary at completion positions only; the numbers are those
    of the full model (LoRA layers included) at those positions."""
    from rl.lm import make_token_batch, score_tokens

    policy = _policy(tiny_llama(tmp_path / "m"), rank)
    if rank:  # nonzero adapters, so that a forward skipping them would differ
        with torch.no_grad():
            for n, p in policy.named_parameters():
                if "lora_B" in n:
                    p.normal_(0, 0.5)
    prompts, comps = [[1, 5, 9], [1, 7]], [[11, 12, 2], [13]]
    b = make_token_batch(prompts, comps, pad=0)
    with torch.no_grad():
        lp, ent = score_tokens(policy, b)
        for i, (p, c) in enumerate(zip(prompts, comps)):
            logits = policy.lm(input_ids=torch.tensor([p + c])).logits[0].log_softmax(-1)
            want = [float(logits[len(p) - 1 + t, tok]) for t, tok in enumerate(c)]
            assert torch.allclose(lp[i, : len(c)], torch.tensor(want), atol=1e-5)
    assert lp[1, 1:].abs().sum() == 0 and ent[1, 1:].abs().sum() == 0 and (ent[0] > 0).all()


def test_lora_weights_are_merged_under_hugging_face_names(tmp_path):
    from rl.lm import make_token_batch, score_tokens

    folder = tiny_llama(tmp_path / "m")
    policy = _policy(folder, 4)
    b = make_token_batch([[1, 5, 9, 20]], [[30, 31, 2]], pad=0)
    opt = torch.optim.AdamW([p for p in policy.parameters() if p.requires_grad], lr=1e-2)
    for _ in range(3):  # LoRA's B starts at zero: train so the adapters matter
        loss = -score_tokens(policy, b)[0].sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    weights = dict(policy.hf_weights())
    plain = transformers.AutoModelForCausalLM.from_pretrained(folder)
    assert set(weights) == set(plain.state_dict())  # no lora_ / base_layer / base_model names
    before = plain(input_ids=b.ids).logits
    plain.load_state_dict(weights, strict=True)
    with torch.no_grad():
        merged = plain(input_ids=b.ids).logits
        adapted = policy(b.ids, b.attention)
    assert (merged - before).abs().max() > 1e-3  # the adapters changed the model
    assert torch.allclose(merged, adapted, atol=1e-5)


def test_hf_text_sampler_logprobs_are_the_trainers(tmp_path):
    """The transformers fallback sampler reports exactly the log-probabilities the trainer's
    codec computes for the same prompt text and tokens, and stamps the pushed version."""
    from lm_helpers import word_tokenizer

    from rl.lm import LMPolicy, LoraSettings, TokenCodec
    from rl.text_samplers import HFTextSampler
    from rl.trainer import TrainSample

    folder = tiny_llama(tmp_path / "m")
    policy = LMPolicy(transformers.AutoModelForCausalLM.from_pretrained(folder), word_tokenizer(), folder=folder,
                      lora=LoraSettings())
    sampler = HFTextSampler(policy, max_new_tokens=6, temperature=1.0, seed=0)
    sampler.push(dict(policy.hf_weights()), 3)
    prompt = "Theorem goal : forall n : nat , n = n ."
    v, comp = sampler.sample_text(prompt, seed=11)
    assert v == 3 and len(comp.token_ids) == len(comp.logprobs) >= 1
    assert sampler.sample_text(prompt, seed=11)[1] == comp  # seeded: the same draw again
    codec = TokenCodec(policy)
    batch = codec.batch([TrainSample(prompt=prompt, actions=comp.token_ids, sampler_logprobs=comp.logprobs,
                                     advantage=1.0, positive=True)])
    with torch.no_grad():
        lp, _ = codec.score(policy, batch, 1.0)
    assert torch.allclose(lp[0, : len(comp.logprobs)], torch.tensor(comp.logprobs), atol=1e-4)


def test_text_sampler_follows_the_sampler_section(tmp_path):
    """``rl.text_samplers.text_sampler`` (the one constructor the trainer and the benchmark attempt
    share) builds the transformers sampler with the section's settings; ``temperature`` overrides."""
    from rl.config import SamplerConfig
    from rl.lm import LMPolicy, LoraSettings
    from rl.text_samplers import HFTextSampler, text_sampler

    folder = tiny_llama(tmp_path / "m")
    policy = LMPolicy(transformers.AutoModelForCausalLM.from_pretrained(folder), None, folder=folder,
                      lora=LoraSettings())
    sc = SamplerConfig(type="transformers", temperature=0.7, max_new_tokens=5)
    s = text_sampler(policy, sc, seed=3, keep=4)
    assert isinstance(s, HFTextSampler)
    assert (s.temperature, s.max_new_tokens, s.seed, s.keep) == (0.7, 5, 3, 4)
    assert text_sampler(policy, sc, seed=3, temperature=0.2).temperature == 0.2
