"""Trainer: TIS weights from sampler log-probabilities, updates move the policy the right way."""

import torch

from rl.algorithms import build_algorithm
from rl.config import AlgorithmConfig, ModelConfig, TrainerConfig
from rl.policy import ACTIONS, build_model, encode_prompt, make_batch, score
from rl.trainer import TrainSample

LIA = ACTIONS.index("lia.")
TAUTO = ACTIONS.index("tauto.")


def _trainer(cap=1.5, lr=1e-2):
    from rl.trainer import Trainer

    torch.manual_seed(0)
    model = build_model(ModelConfig(type="tiny_gru", d_model=16, n_layers=1, max_prompt_chars=32), 3)
    alg = build_algorithm(AlgorithmConfig(type="grpo", tis_cap=cap), 3)
    return Trainer(model, alg, TrainerConfig(lr=lr), max_prompt_chars=32, end_bias=3.0)


def _logp(tr, prompt, actions):
    with torch.no_grad():
        lp, _ = score(tr.model, make_batch([encode_prompt(prompt, 32)], [actions]), 1.0, 3.0)
    return lp[0, : len(actions)].tolist()


def test_tis_weight_is_capped_ratio_to_the_sampler():
    tr = _trainer(cap=1.5)
    acts = [LIA, 0]
    lp = _logp(tr, "Goal x.", acts)
    # the sampler was half as likely on each token: pi_old / pi_sampler = 2, capped at 1.5
    s = TrainSample(prompt="Goal x.", actions=tuple(acts), sampler_logprobs=tuple(v - 0.693147 for v in lp),
                    advantage=1.0, positive=True)
    stats = tr.step([s, s])
    assert abs(stats["tis_weight_mean"] - 1.5) < 1e-4
    # on-policy samples: weight 1
    tr2 = _trainer(cap=1.5)
    s2 = TrainSample(prompt="Goal x.", actions=tuple(acts), sampler_logprobs=tuple(lp), advantage=1.0, positive=True)
    assert abs(tr2.step([s2])["tis_weight_mean"] - 1.0) < 1e-4


def test_positive_advantage_raises_and_negative_lowers_logprob():
    tr = _trainer(cap=None)
    good, bad = [LIA, 0], [TAUTO, 0]
    before_g, before_b = sum(_logp(tr, "Goal y.", good)), sum(_logp(tr, "Goal y.", bad))
    samples = [TrainSample("Goal y.", tuple(good), tuple(_logp(tr, "Goal y.", good)), 1.0, True),
               TrainSample("Goal y.", tuple(bad), tuple(_logp(tr, "Goal y.", bad)), -1.0, False)]
    for _ in range(5):
        tr.step(samples)
    assert sum(_logp(tr, "Goal y.", good)) > before_g + 0.1
    assert sum(_logp(tr, "Goal y.", bad)) < before_b - 0.1


def test_entropy_bonus_raises_policy_entropy():
    """With zero advantages only the bonus moves the policy: its entropy on the batch goes up."""
    from rl.trainer import Trainer

    def entropy_after(coef):
        torch.manual_seed(0)
        model = build_model(ModelConfig(type="tiny_gru", d_model=16, n_layers=1, max_prompt_chars=32), 3)
        tr = Trainer(model, build_algorithm(AlgorithmConfig(type="grpo", tis_cap=None, entropy_coef=coef), 3),
                     TrainerConfig(lr=1e-2), max_prompt_chars=32, end_bias=3.0)
        lp = _logp(tr, "Goal z.", [LIA, TAUTO, 0])
        s = TrainSample("Goal z.", (LIA, TAUTO, 0), tuple(lp), 0.0, False)
        return [tr.step([s, s])["entropy"] for _ in range(6)]

    plain, bonus = entropy_after(0.0), entropy_after(0.5)
    assert plain[0] == bonus[0]  # same start
    assert bonus[-1] > bonus[0] + 0.01 and abs(plain[-1] - plain[0]) < 1e-6


def test_reusing_the_update_pass_as_pi_old_gives_the_same_step():
    """With one update per step, pi_old taken from the update's own pass (detached) and from a
    separate no-grad pass give the same loss, statistics and parameters."""
    samples = [TrainSample("Goal z.", (LIA, 0), (-1.0, -1.2), 0.7, True),
               TrainSample("Goal z.", (TAUTO, 0), (-2.0, -0.9), -0.7, False)]
    results, params = [], []
    for reuse in (True, False):
        tr = _trainer(cap=2.0)
        assert tr.reuse_old_logprobs
        tr.reuse_old_logprobs = reuse
        results.append(tr.step(samples))
        params.append(torch.cat([p.detach().flatten() for p in tr.module.parameters()]))
    assert abs(results[0]["loss"] - results[1]["loss"]) < 1e-6
    assert torch.allclose(params[0], params[1], atol=1e-6)
