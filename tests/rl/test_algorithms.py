"""Each algorithm against numbers worked out by hand (in the comments)."""

import math

import pytest
import torch

from rl.algorithms import LossInputs, build_algorithm
from rl.config import AlgorithmConfig


def alg(type_="grpo", max_new_tokens=4, **kw):
    return build_algorithm(AlgorithmConfig(type=type_, **kw), max_new_tokens)


def inputs(logp, old=None, samp=None, adv=(1.0,), mask=None, positive=(False,), ref=None):
    logp = torch.tensor(logp, dtype=torch.float32, requires_grad=True)
    old = torch.zeros_like(logp) if old is None else torch.tensor(old, dtype=torch.float32)
    samp = old.clone() if samp is None else torch.tensor(samp, dtype=torch.float32)
    mask = torch.ones_like(logp) if mask is None else torch.tensor(mask, dtype=torch.float32)
    ref = None if ref is None else torch.tensor(ref, dtype=torch.float32)
    return LossInputs(logp=logp, old_logp=old, sampler_logp=samp, advantages=torch.tensor(adv), mask=mask,
                      positive=torch.tensor(positive), ref_logp=ref)


def test_grpo_advantages_group_normalised_unbiased_std():
    # rewards 1,0,0,1: mean 0.5; unbiased std = sqrt(4 * 0.25 / 3) = 0.57735 -> +-0.5/0.57735 = +-0.866025
    a = alg("grpo").advantages(torch.tensor([1.0, 0.0, 0.0, 1.0]))
    assert torch.allclose(a, torch.tensor([0.866025, -0.866025, -0.866025, 0.866025]), atol=1e-5)
    # all equal: zero advantage (0 / (0 + eps))
    assert torch.allclose(alg("grpo").advantages(torch.tensor([1.0, 1.0])), torch.zeros(2))


def test_dr_grpo_advantages_not_std_normalised():
    # rewards 1,0,0,0: mean 0.25 -> 0.75, -0.25, -0.25, -0.25
    a = alg("dr_grpo").advantages(torch.tensor([1.0, 0.0, 0.0, 0.0]))
    assert torch.allclose(a, torch.tensor([0.75, -0.25, -0.25, -0.25]))


def test_dapo_dynamic_sampling_keep_group():
    d = alg("dapo")
    assert not d.keep_group([1.0, 1.0, 1.0]) and not d.keep_group([0.0, 0.0]) and d.keep_group([0.0, 1.0])
    assert alg("grpo").keep_group([1.0, 1.0])  # off for GRPO by default
    assert not alg("grpo", dynamic_sampling=True).keep_group([1.0, 1.0])


def test_dapo_overlong_shaping():
    # L_max 6, L_cache 2: len<=4 -> +0; len 5 -> (4-5)/2 = -0.5; len 6 -> (4-6)/2 = -1; len 7 -> -1
    d = alg("dapo", overlong_max=6, overlong_cache=2)
    assert [d.shape_reward(1.0, n) for n in (3, 4, 5, 6, 7)] == [1.0, 1.0, 0.5, 0.0, 0.0]
    assert alg("dapo").shape_reward(1.0, 100) == 1.0  # off without overlong_max


def test_ppo_clip_grpo_symmetric_and_dapo_clip_higher():
    # ratio 1.5, A=+1: grpo clip at 1.2 -> min(1.5, 1.2) = 1.2 -> loss -1.2; dapo clips at 1.28 -> -1.28
    assert alg("grpo", tis_cap=None).loss(inputs([[math.log(1.5)]])).loss.item() == pytest.approx(-1.2)
    assert alg("dapo", tis_cap=None).loss(inputs([[math.log(1.5)]])).loss.item() == pytest.approx(-1.28)
    # ratio 0.5, A=-1: min(-0.5, -0.8) = -0.8 -> loss 0.8 (same for both: eps_low 0.2)
    for t in ("grpo", "dapo"):
        out = alg(t, tis_cap=None).loss(inputs([[math.log(0.5)]], adv=(-1.0,)))
        assert out.loss.item() == pytest.approx(0.8) and out.stats["clip_frac"] == 1.0
    # inside the trust region: ratio 1.1, A=+1 -> loss -1.1, not clipped, gradient -A * ratio = -1.1
    x = inputs([[math.log(1.1)]])
    out = alg("grpo", tis_cap=None).loss(x)
    out.loss.backward()
    assert out.loss.item() == pytest.approx(-1.1) and out.stats["clip_frac"] == 0.0
    assert x.logp.grad.item() == pytest.approx(-1.1)


def test_loss_aggregation_per_algorithm():
    # ratio 1 everywhere; mask [[1,0],[1,1]]; A = [2, 1] -> per-token x = [[-2, .], [-1, -1]]
    # grpo: per-sequence means (-2, -1) -> -1.5; dapo: token mean -4/3; dr_grpo: -4 / (2 seqs * 4) = -0.5
    def run(t):
        x = inputs([[0.0, 0.0], [0.0, 0.0]], adv=(2.0, 1.0), mask=[[1, 0], [1, 1]], positive=(False, False))
        return alg(t, max_new_tokens=4, tis_cap=None).loss(x).loss.item()

    assert run("grpo") == pytest.approx(-1.5)
    assert run("dapo") == pytest.approx(-4 / 3)
    assert run("dr_grpo") == pytest.approx(-0.5)


def test_truncated_importance_sampling():
    # old 0, sampler log(0.25): pi_old/pi_sampler = 4, capped at 2 -> loss -2 * (ratio 1 * A 1) = -2
    out = alg("grpo", tis_cap=2.0).loss(inputs([[0.0]], samp=[[math.log(0.25)]]))
    assert out.loss.item() == pytest.approx(-2.0) and out.stats["tis_weight_mean"] == pytest.approx(2.0)
    # sampler log 2 (sampler more confident): weight 0.5, under the cap -> loss -0.5
    assert alg("grpo", tis_cap=2.0).loss(inputs([[0.0]], samp=[[math.log(2.0)]])).loss.item() == pytest.approx(-0.5)
    # TIS off: weight 1
    assert alg("grpo", tis_cap=None).loss(inputs([[0.0]], samp=[[math.log(0.25)]])).loss.item() == pytest.approx(-1.0)


def test_kl_k3_to_reference():
    # ref 0, logp log(0.5), old = logp so ratio 1, A = 0: d = ref - logp = log 2;
    # k3 = e^d - d - 1 = 2 - 0.693147 - 1 = 0.306853; kl_coef 0.1 -> loss 0.0306853
    lp = math.log(0.5)
    out = alg("grpo", kl_coef=0.1, tis_cap=None).loss(inputs([[lp]], old=[[lp]], adv=(0.0,), ref=[[0.0]]))
    assert out.loss.item() == pytest.approx(0.0306853, abs=1e-6)
    assert out.stats["kl"] == pytest.approx(0.306853, abs=1e-6)


def test_positive_example_nll():
    # A = 0 so only the NLL term: positive sample has 2 tokens at log 0.5, negative one token at log 0.1;
    # NLL averages over positive tokens only: 0.693147; coef 0.1 -> loss 0.0693147
    lp, lq = math.log(0.5), math.log(0.1)
    x = inputs([[lp, lp], [lq, 0.0]], old=[[lp, lp], [lq, 0.0]], adv=(0.0, 0.0), mask=[[1, 1], [1, 0]],
               positive=(True, False))
    out = alg("grpo", pos_nll_coef=0.1, tis_cap=None).loss(x)
    assert out.loss.item() == pytest.approx(0.0693147, abs=1e-6)
    assert out.stats["pos_nll"] == pytest.approx(0.693147, abs=1e-6)
    # no positive samples: the term is absent
    x2 = inputs([[lq]], old=[[lq]], adv=(0.0,), positive=(False,))
    assert alg("grpo", pos_nll_coef=0.1).loss(x2).loss.item() == pytest.approx(0.0)


def test_entropy_bonus():
    # A = 0, ratio 1: only the bonus. mask [[1,0],[1,1]], H = [[1.0, 9.0], [0.2, 0.4]] (9.0 is masked out).
    # grpo: per-sequence means (1.0, 0.3) -> 0.65; coef 0.1 -> loss -0.065
    # dapo: token mean (1.0 + 0.2 + 0.4) / 3 = 0.533333 -> loss -0.0533333
    # dr_grpo: token sum 1.6 / (2 seqs * 4) = 0.2 -> loss -0.02
    def run(t, coef=0.1):
        x = inputs([[0.0, 0.0], [0.0, 0.0]], adv=(0.0, 0.0), mask=[[1, 0], [1, 1]], positive=(False, False))
        x.entropy = torch.tensor([[1.0, 9.0], [0.2, 0.4]], requires_grad=True)
        out = alg(t, max_new_tokens=4, tis_cap=None, entropy_coef=coef).loss(x)
        return out, x

    assert run("grpo")[0].loss.item() == pytest.approx(-0.065)
    assert run("dapo")[0].loss.item() == pytest.approx(-0.0533333, abs=1e-6)
    assert run("dr_grpo")[0].loss.item() == pytest.approx(-0.02)
    # the gradient raises entropy: d loss / d H = -coef * 0.5 (seq 1 token) and -coef * 0.25 (seq 2 tokens, grpo)
    out, x = run("grpo")
    out.loss.backward()
    assert torch.allclose(x.entropy.grad, torch.tensor([[-0.05, 0.0], [-0.025, -0.025]]))
    # off by default (coef 0), and absent when no entropy is passed
    assert run("grpo", coef=0.0)[0].loss.item() == pytest.approx(0.0)
    assert alg("grpo", entropy_coef=0.1, tis_cap=None).loss(inputs([[0.0]], adv=(0.0,))).loss.item() == 0.0
