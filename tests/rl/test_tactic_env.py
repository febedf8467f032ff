"""Episodes: rewards from the verdict, multi-turn feedback, crashes and interruptions as data."""

import torch
from rl_helpers import RuleVerifier

from rl.action_samplers import TorchSampler
from rl.config import EnvConfig, ModelConfig
from rl.curriculum import generate
from rl.policy import build_model
from rl.tactic_env import Environment, render_prompt


def _sampler():
    torch.manual_seed(0)
    m = build_model(ModelConfig(type="tiny_gru", d_model=16, n_layers=1), 3)
    s = TorchSampler(m, max_prompt_chars=128, max_new_tokens=3, keep=2, end_bias=3.0)
    s.push(m.state_dict(), 0)
    return s


def test_single_turn_rewards_follow_verdicts():
    train, _ = generate(("taut",), 1, 2, 1)
    env = Environment(RuleVerifier(), _sampler(), EnvConfig(max_turns=1))
    eps = env.run_group(train[0], 32, seed=1)
    assert len(eps) == 32 and all(len(e.turns) == 1 for e in eps)
    for e in eps:
        assert e.solved == (e.turns[0].script == "tauto.") and e.reward == float(e.solved)
        assert e.error is None and e.version_start == 0
        assert "taut" not in e.turns[0].prompt  # name hidden
    assert any(e.solved for e in eps) and not all(e.solved for e in eps)


def test_multi_turn_feeds_back_errors_and_shapes():
    train, _ = generate(("lin_nat",), 1, 2, 1)
    env = Environment(RuleVerifier(), _sampler(), EnvConfig(max_turns=3, shaping="turn_penalty"))
    eps = env.run_group(train[0], 32, seed=2)
    late = [e for e in eps if e.solved and len(e.turns) > 1]
    assert late, "some episode should succeed after a failed turn"
    for e in late:
        assert "(* tried: " in e.turns[1].prompt and e.turns[0].script in e.turns[1].prompt
        assert e.reward == 1.0 - 0.1 * (len(e.turns) - 1)
    assert all(len(e.turns) <= 3 for e in eps)
    assert all(not e.solved or e.turns[-1].verdict.accepted for e in eps)


def test_crashing_checker_is_recorded_not_raised():
    train, _ = generate(("taut",), 1, 2, 1)
    s = _sampler()
    # whatever the policy samples first, make that script explode
    first = s.sample([render_prompt(train[0], [])], version=0, seed=5 * 1000 + 1)[1][0]
    from rl.policy import script_of

    env = Environment(RuleVerifier(fail_on=script_of(first.actions)), s, EnvConfig())
    eps = env.run_group(train[0], 1, seed=5)
    assert eps[0].error and eps[0].error.startswith("crashed: RuntimeError") and eps[0].reward == 0.0


def test_non_streaming_episode_is_interrupted_when_weights_move():
    train, _ = generate(("lin_nat",), 1, 2, 1)
    s = _sampler()
    env = Environment(RuleVerifier(answers={"lin_nat": "never"}), s, EnvConfig(max_turns=3), streaming=False)
    eps = env.run_group(train[0], 4, seed=1, latest_version=lambda: 1)  # sampled on 0, trainer at 1
    assert all(e.error and e.error.startswith("interrupted") for e in eps)
    assert all(len(e.turns) == 1 for e in eps)
    env2 = Environment(RuleVerifier(answers={"lin_nat": "never"}), s, EnvConfig(max_turns=3), streaming=True)
    eps2 = env2.run_group(train[0], 4, seed=1, latest_version=lambda: 1)
    assert all(e.error is None and e.streamed and len(e.turns) == 3 for e in eps2)
    assert all(t.policy_version == 0 for e in eps2 for t in e.turns)  # finished on the pinned snapshot


def test_goal_credit_shaping_rewards_rejected_prefixes_below_a_proof():
    train, _ = generate(("conj",), 1, 2, 1)
    env = Environment(RuleVerifier(), _sampler(), EnvConfig(shaping="goal_credit", goal_credit_weight=0.3))
    eps = env.run_group(train[0], 64, seed=3)
    shaped = [e for e in eps if not e.solved and e.reward > 0]
    assert shaped and all(e.reward == 0.3 * 0.5 and e.turns[0].script.startswith("split.") for e in shaped)
    assert all(e.reward == 1.0 for e in eps if e.solved)
    assert all(e.reward == 0.0 for e in eps if not e.solved and not e.turns[0].script.startswith("split."))
