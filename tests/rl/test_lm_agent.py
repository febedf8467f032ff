"""Pure parts of the real-LM agent path: what script a free-text reply proposes, the compact
prompt, and the H200 demo's report (no model, no proof assistant)."""

from __future__ import annotations

import pytest

from prover.llm.base import ChatMessage, parse_text_tool_calls
from rl.curriculum import generate
from rl.h200.demo import report
from rl.lm_agent import COMPACT_EXAMPLES, proof_of, render_compact


def test_proof_of_prefers_a_check_call_then_a_fence_then_proof_qed():
    text = 'I think <tool_call>{"name": "check", "arguments": {"proof": "lia."}}</tool_call> ```coq\nauto.\n```'
    _clean, calls = parse_text_tool_calls(text)
    assert proof_of(text, calls) == "lia."
    assert proof_of("Sure:\n```coq\nProof.\nintros. tauto.\nQed.\n```", ()) == "intros. tauto."
    assert proof_of("Proof. simpl. reflexivity. Qed. That is all.", ()) == "simpl. reflexivity."
    assert proof_of("The Chinese Remainder Theorem says...", ()) == ""


def test_compact_prompt_hides_the_theorem_name_and_keeps_the_checker_reply():
    train, _ = generate(("taut",), 1, 2, 1, seed=0)
    p = train[0]
    msgs = [ChatMessage(role="system", content="long agent system prompt"),
            ChatMessage(role="user", content=f"Prove {p.name} ..."),
            ChatMessage(role="assistant", content="```coq\nlia.\n```"),
            ChatMessage(role="user", content=f"Errors: (in proof {p.name}): lia failed")]
    out = render_compact(p, msgs)
    shots = 2 * len(COMPACT_EXAMPLES)
    assert [m["role"] for m in out] == ["system"] + ["user", "assistant"] * len(COMPACT_EXAMPLES) + \
        ["user", "assistant", "user"]
    assert p.name not in "".join(m["content"] for m in out)
    assert out[1 + shots]["content"] == f"Theorem goal {p.statement}."
    assert "lia failed" in out[3 + shots]["content"]


def test_demo_report_names_pass_at_1_split_and_ratio():
    summary = {"heldout_before": {"pass1": 0.1, "problems": 4, "samples": 2},
               "heldout_after": {"pass1": 0.25, "problems": 4, "samples": 2, "by_family": {"taut": 0.5}},
               "modes": {"sync": {"steps": 2, "seconds_per_step": 10.0, "share_waiting_for_rollouts": 0.8,
                                  "share_waiting_for_checker": 0.3, "share_training": 0.2},
                         "async": {"steps": 2, "seconds_per_step": 5.0}}}
    text = report(summary, 42.0, "cpu")
    assert "before 0.100 -> after 0.250" in text and "2.00x" in text and "checker 30%" in text


def test_group_first_turns_are_sampled_in_one_batch_with_the_episodes_own_seeds(tmp_path):
    """``LMChatFactory.prefetch`` draws a group's first turns in one ``sample_texts`` call (here
    the transformers sampler's batch); the episodes then hold the tokens they would have sampled
    one by one with the same seeds, and the same log-probabilities up to rounding."""
    transformers = pytest.importorskip("transformers")
    from lm_helpers import tiny_llama, word_tokenizer
    from rl_helpers import RuleVerifier

    from rl.agent_env import AgentEnvironment
    from rl.config import EnvConfig
    from rl.lm import LMPolicy, LoraSettings
    from rl.lm_agent import LMChatFactory
    from rl.text_samplers import HFTextSampler

    calls = {"one": 0, "batch": 0}

    class CountingSampler(HFTextSampler):
        """The transformers sampler, counting its calls."""

        def sample_text(self, prompt, version=None, seed=None):
            calls["one"] += 1
            return super().sample_text(prompt, version, seed)

        def sample_texts(self, prompt, seeds):
            calls["batch"] += 1
            return super().sample_texts(prompt, seeds)

    folder = tiny_llama(tmp_path / "m")
    policy = LMPolicy(transformers.AutoModelForCausalLM.from_pretrained(folder), word_tokenizer(), folder=folder,
                      lora=LoraSettings())
    sampler = CountingSampler(policy, max_new_tokens=8, temperature=1.0, seed=0)
    sampler.push(dict(policy.hf_weights()), 0)
    problem = generate(("taut",), 1, 2, 1, seed=0)[0][0]
    factory = LMChatFactory(prompt="compact", max_prompt_tokens=4096, reply_prefix="```coq\n")
    def one_by_one(sampler_, problem_, **kw):  # the same chat models, without the factory's prefetch
        return factory(sampler_, problem_, **kw)

    runs = {}
    for name, chat_model in (("batched", factory), ("one_by_one", one_by_one)):
        env = AgentEnvironment(RuleVerifier(), sampler, EnvConfig(loop="agent", max_turns=1),
                               chat_model=chat_model)
        try:
            runs[name] = env.run_group(problem, 3, seed=7)
        finally:
            env.close()
    assert calls == {"one": 3, "batch": 1}  # one-by-one: 3 calls; batched: 1 call, no single ones
    for a, b in zip(runs["batched"], runs["one_by_one"]):
        assert a.error is None and b.error is None
        assert a.check_seconds >= 0 and b.check_seconds >= 0  # the batch's time is generation, not checking
        assert [t.actions for t in a.turns] == [t.actions for t in b.turns]
        for ta, tb in zip(a.turns, b.turns):  # one batch vs one by one: equal up to float rounding
            assert max(abs(x - y) for x, y in zip(ta.logprobs, tb.logprobs)) < 1e-4
    assert all(t.prompt.endswith("```coq\n") and t.text.startswith("```coq\n") for t in a.turns)
    assert len({runs["batched"][i].turns[0].actions for i in range(3)}) > 1  # distinct seeds, distinct samples
