"""End to end on real Rocq with a scripted LLM: sketch -> lemma agents -> assembly -> verdict."""

import os

import pytest
from prover_testlib import DATA, Router

from prover.api import load_problem, prove
from prover.llm import ScriptedLLM
from prover.llm.base import error_response
from prover.trace import Trace

pytestmark = pytest.mark.rocq

MAIN = "Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.\nProof.\n  intros H. pose proof ({lemma} n m H). lia.\nQed."
GOOD = "```coq\nLemma double_mono (n m : nat) : n <= m -> 2 * n <= 2 * m.\nAdmitted.\n" + MAIN.format(lemma="double_mono") + "\n```"
CHECK_LIA = {"tool": "check", "args": {"proof": "intros; lia."}}


@pytest.fixture
def problem():
    return load_problem(DATA / "double_le.v")


def run(problem, cfg, router_or_llm):
    tr = Trace(None)
    llm = router_or_llm.llm if isinstance(router_or_llm, Router) else router_or_llm
    return prove(problem, cfg, trace=tr, llm=llm), tr


def test_proof_found_through_the_sketch(problem, agent_config):
    r = Router(sketch=[GOOD], lemmas={"double_mono": [CHECK_LIA]})
    res, tr = run(problem, agent_config.with_overrides(prover__record_conversations=True), r)
    assert res.proved, res.reason
    assert res.mode == "agent" and res.verdict.accepted
    assert "Lemma double_mono" in res.proof_text and "intros; lia." in res.proof_text
    assert res.proof_text.index("Lemma double_mono") < res.proof_text.index("Theorem double_le")
    assert [lem.name for lem in res.lemmas] == ["double_mono"] and res.lemmas[0].source == "agent"
    assert res.spent.llm_calls == 3 and res.spent.tokens_in > 0 and res.spent.attempts >= 2
    kinds = [e.kind for e in tr.events]
    assert kinds[0] == "start" and kinds[-1] == "end" and "sketch" in kinds and "verdict" in kinds
    assert r.seen == ["informal", "sketch", "lemma:double_mono"]
    conv = tr.of_kind("conversation")[0].data["messages"]
    assert [m["role"] for m in conv] == ["system", "user", "assistant", "tool"]
    assert conv[2]["tool_calls"][0]["name"] == "check"
    assert "Initial goal:" in conv[1]["content"] and "2 * n <= 2 * m" in conv[1]["content"]


def test_invalid_sketch_repaired_from_errors(problem, agent_config):
    broken = GOOD.replace("pose proof (double_mono", "pose proof (double_mon")
    r = Router(sketch=[broken, GOOD], lemmas={"double_mono": [CHECK_LIA]})
    res, tr = run(problem, agent_config, r)
    assert res.proved, res.reason
    errs = tr.of_kind("sketch_error")
    assert errs and "double_mon" in str(errs[0].data["errors"])
    # the second sketch request carried the proof assistant's error back to the model
    sketch_requests = [msgs for msgs, _ in r.llm.requests if "formal proof *sketch*" in msgs[0].content]
    assert "was not found" in sketch_requests[-1][-1].content
    assert tr.of_kind("sketch")[0].data["repairs"] == 1


def test_failed_lemma_goes_back_to_the_sketch(problem, agent_config):
    wrong = "```coq\nLemma too_strong (n m : nat) : n <= m -> 2 * n < 2 * m.\nAdmitted.\n" + MAIN.format(lemma="too_strong") + "\n```"
    r = Router(
        sketch=[wrong, GOOD],
        lemmas={
            "too_strong": [CHECK_LIA, {"tool": "give_up", "args": {"reason": "false for n = m"}}],
            "double_mono": [CHECK_LIA],
        },
    )
    res, tr = run(problem, agent_config, r)
    assert res.proved, res.reason
    by = {lem.name: lem for lem in res.lemmas}
    assert not by["too_strong"].proved and "false for n = m" in by["too_strong"].reason
    assert by["double_mono"].proved
    rounds = tr.of_kind("round")
    assert rounds and rounds[0].data["failed"] == ["too_strong"]
    second = [msgs for msgs, _ in r.llm.requests if "formal proof *sketch*" in msgs[0].content][-1]
    assert "too_strong" in second[0].content and "different decomposition" in second[0].content


def test_cheating_proofs_are_rejected(problem, agent_config):
    cheat = "intros; lia.\nQed.\nAxiom cheat : False.\nLemma filler : True.\nProof.\nexact I."
    r = Router(
        sketch=[GOOD],
        lemmas={"double_mono": [{"tool": "check", "args": {"proof": "admit."}}, {"tool": "check", "args": {"proof": cheat}}]},
    )
    cfg = agent_config.with_overrides(prover__sketch_rounds=1)
    res, tr = run(problem, cfg, r)
    assert not res.proved and res.proof_text is None
    assert not any(e.data["accepted"] for e in tr.of_kind("verdict"))
    tools = [e.data["result"] for e in tr.of_kind("tool")]
    assert tools[0].startswith("rejected: the proof contains a hole")
    # the check tool screens its input with the soundness screens: the axiom never reaches
    # the session (the verdict would stop it there too)
    assert tools[1].startswith("rejected:") and "Axiom" in tools[1]
    assert not res.lemmas[0].proved


def test_endpoint_failures_are_survived(problem, agent_config):
    truncated = {"tool": "check", "raw": '{"proof": "intros; li'}
    as_text = "Here it is:\n```coq\nLemma double_mono (n m : nat) : n <= m -> 2 * n <= 2 * m.\nProof. intros; lia. Qed.\n```"
    r = Router(
        sketch=[GOOD], lemmas={"double_mono": [error_response("HTTP 500: boom"), truncated, error_response("timeout after 300s"), as_text]}
    )
    res, tr = run(problem, agent_config, r)
    assert res.proved, res.reason
    bad_call = [e for e in tr.of_kind("tool") if not e.data["ok"]]
    assert bad_call and "could not be read" in bad_call[0].data["result"]
    assert any(e.data.get("error") for e in tr.of_kind("llm_call"))
    assert res.lemmas[0].proof.strip() == "intros; lia."  # a text answer with a code block is checked too


def test_model_down_everywhere_is_a_clean_failure(problem, agent_config):
    llm = ScriptedLLM(lambda messages, tools: error_response("connection failed: refused"))
    cfg = agent_config.with_overrides(prover__sketch_rounds=1, prover__sketch_repairs=1)
    res, tr = run(problem, cfg, llm)
    assert not res.proved and "model endpoint unreachable" in res.reason and "connection failed" in res.reason
    # the informal call already found the endpoint dead: no sketch, no repairs, no new rounds
    assert len(tr.of_kind("llm_call")) == 1 and not tr.of_kind("sketch_error")
    assert tr.events[-1].kind == "end"


def test_model_not_served_stops_at_the_first_call(problem, agent_config):
    msg = "model not served: 'nosuchmodel' is not a model of http://127.0.0.1:9/v1 (it serves: smollm2)"
    llm = ScriptedLLM(lambda messages, tools: error_response(msg))
    res, tr = run(problem, agent_config, llm)
    assert not res.proved and res.reason.startswith("model not served") and "smollm2" in res.reason
    assert len(tr.of_kind("llm_call")) == 1  # no later call can succeed: the run stops there
    assert tr.events[-1].kind == "end"


def test_split_lemma_into_sub_lemmas(problem, agent_config):
    split = {
        "tool": "split_lemma",
        "args": {"lemmas": ["Lemma twice (n m : nat) : n <= m -> n + n <= m + m."], "proof": "intros H. pose proof (twice n m H). lia."},
    }
    r = Router(sketch=[GOOD], lemmas={"double_mono": [split], "double_mono_twice": [CHECK_LIA]})
    res, tr = run(problem, agent_config, r)
    assert tr.of_kind("split")[0].data["ok"] is True
    assert res.proved, res.reason
    assert "Lemma double_mono_twice" in res.proof_text and "pose proof (double_mono_twice n m H)" in res.proof_text
    assert res.proof_text.index("Lemma double_mono_twice") < res.proof_text.index("Lemma double_mono (")
    dm = next(lem for lem in res.lemmas if lem.name == "double_mono")
    assert dm.source == "split" and [s.name for s in dm.sublemmas] == ["double_mono_twice"]


def test_lemma_cache_is_reused_across_runs(problem, agent_config):
    r1 = Router(sketch=[GOOD], lemmas={"double_mono": [CHECK_LIA]})
    res1, _ = run(problem, agent_config, r1)
    assert res1.proved
    r2 = Router(sketch=[GOOD.replace("double_mono", "mono2")])  # same statement, other name; no agent script
    res2, tr2 = run(problem, agent_config, r2)
    assert res2.proved, res2.reason
    assert res2.lemmas[0].source == "cache"
    assert "lemma:mono2" not in r2.seen
    assert tr2.of_kind("cache")[0].data["reused"] is True


def test_budget_stop_leaves_a_complete_trace(problem, agent_config):
    r = Router(sketch=[GOOD], lemmas={"double_mono": [CHECK_LIA]})
    cfg = agent_config.with_overrides(budget__attempts=1)
    res, tr = run(problem, cfg, r)
    assert not res.proved and res.stopped_by == "attempts"
    assert tr.events[-1].kind == "end" and tr.events[-1].data["stopped_by"] == "attempts"


def _coq_children() -> list[int]:
    me = os.getpid()
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as fh:
                stat = fh.read()
            comm = stat[stat.index("(") + 1 : stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == me and comm.startswith("coq"):
            out.append(int(pid))
    return out


def test_ctrl_c_leaves_trace_and_no_processes(problem, agent_config, tmp_path):
    def script(messages, tools):
        if messages[0].role == "system":
            raise KeyboardInterrupt
        return GOOD if "sketch" in messages[0].content else "informal"

    path = tmp_path / "trace.jsonl"
    res = prove(problem, agent_config, trace=path, llm=ScriptedLLM(script))
    assert not res.proved and res.stopped_by == "interrupt"
    from prover.trace import read_trace

    evs = read_trace(path)
    assert evs[0].kind == "start" and evs[-1].kind == "end" and evs[-1].data["stopped_by"] == "interrupt"
    lemma_events = [e for e in evs if e.kind == "lemma"]
    assert [(e.lemma, e.data["reason"]) for e in lemma_events] == [("double_mono", "interrupted")]
    assert _coq_children() == []


def test_lemmas_are_proved_in_parallel(problem, agent_config):
    two = (
        "```coq\nLemma double_mono (n m : nat) : n <= m -> 2 * n <= 2 * m.\nAdmitted.\n"
        "Lemma plus_one (k j : nat) : k <= j -> k <= j + 1.\nAdmitted.\n"
        "Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.\nProof.\n"
        "  intros H. apply plus_one. apply double_mono. exact H.\nQed.\n```"
    )
    r = Router(sketch=[two], lemmas={"double_mono": [CHECK_LIA], "plus_one": [CHECK_LIA]})
    res, tr = run(problem, agent_config.with_overrides(prover__workers=2), r)
    assert res.proved, res.reason
    assert sorted(lem.name for lem in res.lemmas) == ["double_mono", "plus_one"]
    kinds = [(e.kind, e.lemma) for e in tr.events if e.kind in ("lemma_start", "lemma")]
    assert [k for k, _ in kinds[:2]] == ["lemma_start", "lemma_start"]  # both running at once
    assert tr.of_kind("sketch")[0].data["edges"] == [["double_le", "double_mono"], ["double_le", "plus_one"]]


def test_lemmas_closed_by_the_portfolio_need_no_agent(problem, agent_config):
    r = Router(sketch=[GOOD])  # no agent script: the built-in search must close the lemma
    cfg = agent_config.with_overrides(prover__automation_first=True)
    res, _ = run(problem, cfg, r)
    assert res.proved, res.reason
    assert res.lemmas[0].source == "automation" and "lemma:double_mono" not in r.seen
    assert "From Coq Require Import Lia Lra Psatz." in res.proof_text.split("Lemma double_mono")[0]


def test_no_gate_behind_the_sketch(problem, agent_config):
    # no sketch compiles: a lemma agent then works on the theorem itself
    r = Router(sketch=["I cannot write a sketch."], lemmas={"double_le": [{"tool": "check", "args": {"proof": "intros; lia."}}]})
    cfg = agent_config.with_overrides(prover__sketch_rounds=2, prover__sketch_repairs=0)
    res, tr = run(problem, cfg, r)
    assert res.proved, res.reason
    assert "lemma agent on the theorem" in res.reason
    assert [e.data["stage"] for e in tr.of_kind("stage")][-2:] == ["lemma agent on the theorem", "soundness verdict"]
    assert "lemma:double_le" in r.seen


def test_against_a_vllm_without_tool_parser(problem, agent_config):
    # the OpenAI client end to end on a strict vLLM stand-in started without tool parsing:
    # the agent's first call gets the 400, the client falls back to text tools once, the
    # model's <tool_call> text is read, and the proof is found and verified
    from vllm_standin import Reply, VLLMStandIn, call

    from prover.llm.openai_client import OpenAIChat

    def script(body):
        first_user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        if "formal proof *sketch*" in first_user:
            return Reply(GOOD)
        if body["messages"][0]["role"] == "system":
            return Reply("", tool_calls=[call("check", '{"proof": "intros; lia."}')])
        return Reply("Double both sides.")

    with VLLMStandIn(script, tool_parser=False, max_model_len=4096) as s:
        cfg = agent_config.with_overrides(model__model=s.model, model__endpoint=s.url)
        res, tr = run(problem, cfg, OpenAIChat(cfg.model, cfg.sampling))
    assert res.proved, res.reason
    assert len(tr.of_kind("llm_fallback")) == 1 and len(s.rejected) == 1
    calls = tr.of_kind("llm_call")
    fields = {"backend", "model", "prompt_tokens", "completion_tokens", "seconds", "tool_calls", "error"}
    assert calls and all(fields <= set(e.data) for e in calls)
    assert all(e.data["backend"] == "openai" and e.data["model"] == "smollm2" for e in calls)
    assert ["check"] in [e.data["tool_calls"] for e in calls]
    assert all(b["max_tokens"] <= 4096 for b in s.requests)


def test_after_a_prose_answer_the_agent_asks_for_a_tool_call(problem, agent_config):
    """An agent turn answered with neither a tool call nor a proof makes the next turn ask for
    a call (``tool_choice = "required"``); once the model called a tool it is back to ``auto``."""
    r = Router(sketch=[GOOD], lemmas={"double_mono": ["I believe the lemma holds.", {"tool": "goals", "args": {"proof": ""}}, CHECK_LIA]})
    choices = []

    class Recording:
        name = "recording"

        def chat(self, messages, *, tools=(), sampling=None):
            if tools:
                choices.append(None if sampling is None else sampling.tool_choice)
            return r.llm.chat(messages, tools=tools, sampling=sampling)

    res, _ = run(problem, agent_config, Recording())
    assert res.proved, res.reason
    assert choices == [None, "required", None]
