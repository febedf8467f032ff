"""Policies and samplers: sampler log-probabilities equal the trainer's scoring of the same tokens."""

import pytest
import torch

from rl.action_samplers import SnapshotGone, TorchSampler
from rl.config import ModelConfig
from rl.policy import (
    ACTIONS,
    END,
    build_model,
    encode_prompt,
    make_batch,
    score,
    script_of,
)

PROMPTS = ["Goal : 1 + 1 = 2.", "Goal : forall P : Prop, P -> P.", "Goal (x y : nat) : x <= x + y."]


def _check_consistent(model, sampler, comps, end_bias, temperature=1.0):
    prompts = [encode_prompt(p, 64) for p in PROMPTS]
    acts = [list(c.actions) + ([END] if c.ended else []) for c in comps]
    logp, _ = score(model, make_batch(prompts, acts), temperature, end_bias)
    for b, c in enumerate(comps):
        assert len(c.logprobs) == len(acts[b])
        assert torch.allclose(logp[b, : len(acts[b])], torch.tensor(c.logprobs), atol=1e-4)
        assert c.actions, "END is masked at the first step"


@pytest.mark.parametrize("kind", ["tiny_transformer", "tiny_gru", "hf_config"])
def test_torch_sampler_logprobs_match_trainer(kind):
    torch.manual_seed(0)
    cfg = ModelConfig(type=kind, d_model=32, n_layers=1, n_heads=2, max_prompt_chars=64)
    model = build_model(cfg, 4).eval()
    s = TorchSampler(model, max_prompt_chars=64, max_new_tokens=4, end_bias=1.5)
    s.push(model.state_dict(), 0)
    v, comps = s.sample(PROMPTS, seed=3)
    assert v == 0 and len(comps) == 3
    _check_consistent(model, s, comps, 1.5)
    assert all(len(c.actions) <= 4 for c in comps)
    assert all(isinstance(script_of(c.actions), str) for c in comps)
    # seeded: same seed, same draw, whatever happened in between
    s.sample(PROMPTS, seed=99)
    assert s.sample(PROMPTS, seed=3)[1] == comps


@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_transformers_sampler_logprobs_match_trainer(temperature):
    from rl.action_samplers import TransformersSampler

    torch.manual_seed(0)
    cfg = ModelConfig(type="hf_config", d_model=32, n_layers=1, n_heads=2, max_prompt_chars=64)
    model = build_model(cfg, 4).eval()
    s = TransformersSampler(model, max_prompt_chars=64, max_new_tokens=4, end_bias=1.0, temperature=temperature)
    s.push(model.state_dict(), 0)
    _, comps = s.sample(PROMPTS, seed=1)
    _check_consistent(model, s, comps, 1.0, temperature)


def test_torch_sampler_with_temperature_matches_trainer():
    torch.manual_seed(0)
    model = build_model(ModelConfig(type="tiny_transformer", d_model=32, n_layers=1, n_heads=2,
                                    max_prompt_chars=64), 4).eval()
    s = TorchSampler(model, max_prompt_chars=64, max_new_tokens=4, end_bias=2.0, temperature=0.5)
    s.push(model.state_dict(), 0)
    _, comps = s.sample(PROMPTS, seed=4)
    _check_consistent(model, s, comps, 2.0, 0.5)


def test_snapshots_kept_and_evicted():
    torch.manual_seed(0)
    model = build_model(ModelConfig(type="tiny_gru", d_model=16, n_layers=1), 3)
    s = TorchSampler(model, max_prompt_chars=64, max_new_tokens=3, keep=2)
    sd = model.state_dict()
    s.push(sd, 0)
    s.push({k: v + 1.0 if v.is_floating_point() else v for k, v in sd.items()}, 1)
    a = s.sample(PROMPTS[:1], version=0, seed=5)
    b = s.sample(PROMPTS[:1], version=1, seed=5)
    assert a[0] == 0 and b[0] == 1
    s.push(sd, 2)
    with pytest.raises(SnapshotGone):
        s.sample(PROMPTS[:1], version=0)
    assert s.version == 2


def test_end_token_is_action_zero_and_vocab():
    assert ACTIONS[END] == "<end>" and "lia." in ACTIONS and "tauto." in ACTIONS
    assert script_of([ACTIONS.index("split."), ACTIONS.index("tauto."), ACTIONS.index("lia.")]) == "split. tauto. lia."
