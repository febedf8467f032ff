"""Agent-loop episodes (``env.loop = "agent"``): the prover's LemmaAgent with the policy as its
chat model; reward from the full verdict, tool results fed back, episodes trainable as they are."""

import json

import pytest
from rl_helpers import ForcedSampler, RuleVerifier
from test_loop import cfg

from prover.llm.base import ChatMessage, parse_arguments
from rl import agent_env
from rl.agent_env import (
    AgentEnvironment,
    PolicyChatModel,
    first_error,
    render_conversation,
)
from rl.config import EnvConfig
from rl.curriculum import generate
from rl.loop import train, trainable
from rl.tactic_env import render_prompt
from rl.verifier import Verifier


def _taut():
    train_set, _ = generate(("taut",), 1, 2, 1)
    return train_set[0]


# -- pure parts: no proof assistant -------------------------------------------------------------
def test_first_error_reads_check_results():
    assert first_error("Errors:\n- proof line 1: Tactic failure: Cannot find witness.\n- proof line 2: x\n"
                       "Open goals:\n  P") == "Tactic failure: Cannot find witness."
    assert first_error("Errors:\n- No such goal.\n- proof line 1: No such goal.") == "No such goal."
    assert first_error("Open goals:\n  ====\n  P") == "proof incomplete"
    assert first_error("rejected: the proof contains a hole (sorry/admit/Admitted); give a complete proof"
                       ).startswith("rejected: the proof contains a hole")


def test_render_conversation_is_the_tactic_loop_prompt():
    p = _taut()
    c1 = parse_arguments("check", {"proof": "lia."}, "c1")
    c2 = parse_arguments("check", {"proof": "intros."}, "c2")
    msgs = [
        ChatMessage(role="system", content="You are a Rocq proof engineer."),
        ChatMessage(role="user", content=f"Prove this lemma: Theorem {p.name} ..."),  # names the family: not shown
        ChatMessage(role="assistant", tool_calls=(c1,)),
        ChatMessage(role="tool", tool_call_id="c1", name="check",
                    content="Errors:\n- proof line 1: Tactic failure: Cannot find witness."),
        ChatMessage(role="assistant", tool_calls=(c2,)),
        ChatMessage(role="tool", tool_call_id="c2", name="check",
                    content=f"Errors:\n- proof line 2: (in proof {p.name}): Attempt to save an incomplete proof"),
    ]
    got = render_conversation(p, msgs)
    assert got == render_prompt(p, [("lia.", "Tactic failure: Cannot find witness."),
                                    ("intros.", f"(in proof {p.name}): Attempt to save an incomplete proof")])
    assert p.name not in got and "(in proof goal)" in got
    assert render_conversation(p, msgs[:2]) == render_prompt(p, [])


def test_policy_chat_model_answers_check_and_records_tokens():
    p = _taut()
    llm = PolicyChatModel(ForcedSampler(["split. tauto."]), p, version=None, seed=3, episode=0,
                          latest_version=lambda: 0, streaming=True)
    resp = llm.chat([ChatMessage(role="user", content="prove it")])
    assert resp.ok and [c.name for c in resp.tool_calls] == ["check"]
    assert resp.tool_calls[0].arguments == {"proof": "split. tauto."}
    (t,) = llm.turns
    assert t.prompt == render_prompt(p, []) and t.version == 0 and t.completion.logprobs == (-1.0, -1.0, -1.0)


# -- real Rocq: LemmaAgent checks in coqtop, the verdict is the full soundness verdict -------
def _verified_episodes(p, scripts, *, max_turns, n=1):
    """``n`` agent-loop episodes of ``p`` under the real verifier; the environment and the
    verifier are closed afterwards (the verifier is returned for its counters)."""
    v = Verifier(mode="auto", timeout=60)
    env = AgentEnvironment(v, ForcedSampler(scripts), EnvConfig(loop="agent", max_turns=max_turns))
    try:
        return env.run_group(p, n, seed=1), v
    finally:
        env.close()
        v.close()


@pytest.mark.rocq
def test_agent_episode_feeds_back_tool_results_and_is_rewarded_by_the_verdict():
    p = _taut()
    eps, v = _verified_episodes(p, ["lia.", "tauto."], max_turns=3, n=2)
    for e in eps:
        assert e.error is None and e.solved and e.reward == 1.0 and trainable(e)
        assert [t.script for t in e.turns] == ["lia.", "tauto."]
        first, last = e.turns
        # turn 1: the agent's check failed; its tool result is the next prompt's feedback
        assert first.verdict.source == "agent" and not first.verdict.accepted and first.verdict.reason
        assert first.prompt == render_prompt(p, [])
        assert last.prompt == render_prompt(p, [("lia.", first.verdict.reason)])
        assert f"(* tried: lia. => {first.verdict.reason[:40]}" in last.prompt
        # turn 2: the reward-bearing verdict is the verifier's, not the agent's
        assert last.verdict.accepted and last.verdict.source in ("soundness", "checker", "cache:soundness",
                                                                 "cache:checker")
        assert e.stop_reason == "agent claimed a proof"
        assert last.actions and len(last.logprobs) == len(last.actions) + 1 and last.ended
    assert v.fresh_checks == 1 and v.cache_hits == 1  # the full verdict ran once; the second episode hit the cache


@pytest.mark.rocq
@pytest.mark.parametrize("cheat", ["admit.", "Admitted."])
def test_cheating_script_earns_nothing(cheat, monkeypatch):
    p = _taut()
    monkeypatch.setattr(agent_env, "script_of", lambda actions: cheat)  # as if the policy could emit it
    (e,), _ = _verified_episodes(p, ["tauto."], max_turns=2)
    assert e.error is None and not e.solved and e.reward == 0.0
    assert [t.script for t in e.turns] == [cheat, cheat]
    assert e.turns[0].verdict.reason.startswith("rejected: the proof contains a hole")
    assert e.turns[-1].verdict.source == "static" and not e.turns[-1].verdict.accepted


@pytest.mark.rocq
def test_agent_claim_without_the_verdict_earns_nothing(monkeypatch):
    """A fooled agent check (every proof 'complete') claims a proof; the verdict still decides."""
    from prover.workspace import CheckResult, Workspace

    monkeypatch.setattr(Workspace, "check_decl", lambda self, *a, **k: CheckResult(True, True))
    p = _taut()
    (e,), _ = _verified_episodes(p, ["intros."], max_turns=3)
    assert e.stop_reason == "agent claimed a proof" and len(e.turns) == 1
    assert not e.solved and e.reward == 0.0 and not e.turns[0].verdict.accepted


@pytest.mark.rocq
def test_crashed_and_interrupted_episodes_are_data():
    p = _taut()
    env = AgentEnvironment(RuleVerifier(fail_on="tauto."), ForcedSampler(["lia.", "tauto."]),
                           EnvConfig(loop="agent", max_turns=3))
    try:
        crashed = env.run_group(p, 2, seed=1)
        env.streaming = False
        moved = env.run_group(p, 2, seed=1, latest_version=lambda: 1)  # sampled on 0, trainer already at 1
    finally:
        env.close()
    for e in crashed:
        assert e.error.startswith("crashed: RuntimeError") and e.reward == 0.0 and not trainable(e)
        assert [t.script for t in e.turns] == ["lia.", "tauto."]
    assert moved[0].error.startswith("interrupted: EpisodeInterrupted") and len(moved[0].turns) == 1
    assert moved[1].error.startswith("interrupted") and moved[1].turns == ()


@pytest.mark.rocq
def test_short_training_run_in_agent_loop(tmp_path):
    c = cfg(env__loop="agent", env__max_turns=2, trainer__steps=2, trainer__batch_groups=2, sampler__group_size=3,
            curriculum__families=["eval_nat", "taut"], curriculum__heldout_size=3)
    summary = train(c, tmp_path, log=lambda *_: None)  # the real Verifier: full soundness verdicts
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2] and all("loss" in r and "entropy" in r for r in rows)
    assert summary["heldout_after"]["problems"] == 3
    eps = [json.loads(line) for line in (tmp_path / "rollouts.jsonl").read_text().splitlines()]
    assert len(eps) >= 2 * 2 * 3 and all(e["stop_reason"] for e in eps)
    assert all(e["error"] is None and 1 <= len(e["turns"]) <= 2 for e in eps)
    # earlier turns carry the agent's check; only the last one carries the verifier's verdict
    assert all(t["verdict"]["source"] == "agent" for e in eps for t in e["turns"][:-1])
    assert all(e["solved"] == e["turns"][-1]["verdict"]["accepted"] for e in eps)
