"""The informal loop (candidates -> verify with sandbox checks -> revise -> select) with scripted
models; the claim checks run in the real Python sandbox."""

import json
import threading

import pytest
from prover_testlib import DATA, Router

from prover.budget import Budget
from prover.config import load_config
from prover.errors import BudgetExceeded
from prover.informal import (
    RESPONSE_FORMAT,
    check_status,
    judgement_from_text,
    parse_judgement,
    response_format,
    solve_informal,
)
from prover.llm import ScriptedLLM
from prover.llm.base import ChatResponse, Usage, error_response
from prover.problem import problem_from_text
from prover.records import (
    InformalCandidate,
    InformalJudgement,
    InformalRevision,
    InformalSelection,
    SandboxCheck,
)
from prover.trace import Trace

SRC = "Require Import Arith.\n\nTheorem pow_ten : 2 ^ 10 = 1024.\nProof.\nAdmitted.\n"


def cfg(**over):
    base = {"model__type": "openai", "budget__wall_s": 600.0}
    return load_config(env={}, **{**base, **over})


def problem(informal=None):
    return problem_from_text(SRC, "rocq", informal=informal)


def judgement(score, flags=(), reasoning="Checked each step."):
    return json.dumps({"reasoning": reasoning, "score": score, "flags": list(flags)})


def kind_of(messages):
    text = messages[-1].content
    if "meticulous grader" in text:
        return "verify"
    if "grader's\njudgement" in text or "Previous proof:" in text:
        return "revise"
    return "candidate"


def proof_in(messages):
    text = messages[-1].content
    return text.split("<proof>\n", 1)[1].split("\n</proof>", 1)[0]


def run(llm, config, informal=None, budget=None):
    tr = Trace(None)
    b = budget or Budget(config.budget)
    out = solve_informal(problem(informal), llm, config, budget=b, trace=tr)
    return out, tr, b


# --- parsing -------------------------------------------------------------------------------------
def test_judgement_parses_plain_fenced_and_trailing_json():
    plain = judgement(0.5, [{"step": "2", "issue": "wrong sum", "check_code": "assert 1 + 1 == 2"}])
    j = judgement_from_text("c0", plain)
    assert j.parsed and j.score == 0.5 and j.flags[0].check_code == "assert 1 + 1 == 2"
    fenced = "Step 1 is fine. Step 2 divides by x.\n```json\n" + judgement(0.4, [{"step": 2, "issue": "x may be 0"}]) + "\n```"
    j = judgement_from_text("c0", fenced)
    assert j.parsed and j.score == 0.4 and j.flags[0].step == "2" and j.flags[0].check_code is None
    assert j.reasoning.startswith("Step 1 is fine")  # prose before the object is kept as reasoning
    trailing = 'I think it is right. {"reasoning": "ok {braces} inside", "score": 1, "flags": []}'
    assert judgement_from_text("c0", trailing).score == 1.0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "The proof is great, 10/10.",
        '{"reasoning": "x", "score": 1.5, "flags": []}',
        '{"score": "high"}',
        '{"score": 0.9, "flags": "none"}',
        '{"score": true}',
    ],
)
def test_unparseable_judgement_scores_zero(text):
    j = judgement_from_text("c0", text)
    assert not j.parsed and j.score == 0.0 and j.error


def test_malformed_flags_are_dropped_not_fatal():
    j = judgement_from_text(
        "c0", json.dumps({"reasoning": "r", "score": 0.3, "flags": ["text", {"step": "1"}, {"step": "1", "issue": "gap"}]})
    )
    assert j.parsed and [f.issue for f in j.flags] == ["gap"]
    assert parse_judgement("no json")[0] is None


def test_response_format_is_a_json_schema_with_reasoning_first():
    schema = RESPONSE_FORMAT["json_schema"]["schema"]
    assert RESPONSE_FORMAT["type"] == "json_schema"
    assert list(schema["properties"]) == ["reasoning", "score", "flags"]
    bounded = response_format(300, 3)["json_schema"]["schema"]
    assert bounded["properties"]["reasoning"]["maxLength"] == 300 and bounded["properties"]["flags"]["maxItems"] == 3
    assert "maxLength" not in response_format(None, 3)["json_schema"]["schema"]["properties"]["reasoning"]
    assert "maxLength" not in schema["properties"]["reasoning"]  # the module constant is not mutated


def test_sandbox_check_status():
    from prover.workspace import run_python_snippet

    assert check_status(run_python_snippet("assert 2 ** 10 == 1024", 10)) == "holds"
    assert check_status(run_python_snippet("assert 2 ** 10 == 1000, 'no'", 10)) == "refuted"
    assert check_status(run_python_snippet("print(undefined_name)", 10)) == "error"


# --- the loop ------------------------------------------------------------------------------------
WRONG = "Claim 1: 2^10 = 1000. Claim 2: hence the result."
RIGHT = "Claim 1: 2^10 = 1024 by repeated doubling. Claim 2: this is the statement."


def test_wrong_numeric_claim_is_refuted_in_the_sandbox_and_revised():
    seen = []

    def script(messages, tools):
        k = kind_of(messages)
        seen.append(k)
        if k == "candidate":
            return WRONG
        if k == "revise":
            assert "REFUTED" in messages[-1].content and "AssertionError" in messages[-1].content
            return RIGHT
        body = proof_in(messages)
        value = "1000" if "1000" in body else "1024"
        # The model's own score is high for both; only the sandbox tells them apart.
        return judgement(0.8, [{"step": "Claim 1", "issue": "check the power", "check_code": f"assert 2 ** 10 == {value}"}])

    config = cfg(informal__n=1, informal__revision_rounds=2, informal__accept_score=0.75)
    out, tr, _ = run(ScriptedLLM(script), config)
    assert seen == ["candidate", "verify", "revise", "verify"]  # the revision holds: no second round
    checks = [SandboxCheck.model_validate(e.data["record"]) for e in tr.of_kind("sandbox_check")]
    assert [c.status for c in checks] == ["refuted", "holds"]
    judgements = [InformalJudgement.model_validate(e.data["record"]) for e in tr.of_kind("informal_judgement")]
    assert judgements[0].model_score == 0.8 and judgements[0].score == config.informal.refuted_cap and judgements[0].refuted
    assert judgements[1].score == 0.8 and not judgements[1].refuted
    rev = InformalRevision.model_validate(tr.of_kind("informal_revision")[0].data["record"])
    assert rev.candidate == "c0" and rev.revised == "c0r1"
    assert out.selected.text == RIGHT and out.selected.candidate == "c0r1" and out.selected.score == 0.8
    assert out.selected.source == "llm" and out.selected.tokens_out > 0


def test_selection_picks_the_better_judged_candidate_and_keeps_the_others():
    texts = ["Proof A.", "Proof B.", "Proof C."]
    scores = {"Proof A.": 0.4, "Proof B.": 0.95, "Proof C.": 0.6}
    counter = {"i": 0}
    lock = threading.Lock()

    def script(messages, tools):
        if kind_of(messages) == "candidate":
            with lock:
                i = counter["i"]
                counter["i"] += 1
            return texts[i]
        return judgement(scores[proof_in(messages)])

    config = cfg(informal__n=3, informal__revision_rounds=0)
    out, tr, b = run(ScriptedLLM(script), config)
    assert out.selected.text == "Proof B." and out.selected.score == 0.95
    assert [p.text for p in out.ranked] == ["Proof B.", "Proof C.", "Proof A."]
    sel = InformalSelection.model_validate(tr.of_kind("informal_selected")[0].data["record"])
    assert sel.selected == "c1" and [c for c, _ in sel.ranking] == ["c1", "c2", "c0"] and sel.stopped_by is None
    assert sel.calls == 6 == b.llm_calls  # 3 candidates + 3 judgements, all counted in the run's budget
    cands = [InformalCandidate.model_validate(e.data["record"]) for e in tr.of_kind("informal_candidate")]
    assert sorted(c.text for c in cands) == sorted(texts)
    assert len(tr.of_kind("llm_call")) == 6


def test_revision_is_ranked_only_if_it_judges_better():
    def script(messages, tools):
        k = kind_of(messages)
        if k == "candidate":
            return "First try."
        if k == "revise":
            return "Worse try."
        return judgement(0.5 if proof_in(messages) == "First try." else 0.1, [{"step": "1", "issue": "gap"}])

    out, tr, _ = run(ScriptedLLM(script), cfg(informal__n=1, informal__revision_rounds=1))
    assert out.selected.text == "First try." and out.selected.candidate == "c0"
    assert len(tr.of_kind("informal_revision")) == 1 and len(tr.of_kind("informal_judgement")) == 2


def test_unparseable_judgement_scores_zero_and_is_not_revised():
    def script(messages, tools):
        return "Proof." if kind_of(messages) == "candidate" else "Looks fine to me!"

    llm = ScriptedLLM(script)
    out, tr, _ = run(llm, cfg(informal__n=2, informal__revision_rounds=2))
    assert [e.data["score"] for e in tr.of_kind("informal_judgement")] == [0.0, 0.0]
    assert not tr.of_kind("informal_revision") and len(llm.requests) == 4
    assert out.selected.text == "Proof." and out.selected.score == 0.0


def test_token_share_stops_the_loop_and_it_still_selects():
    big = Usage(prompt_tokens=400, completion_tokens=600)

    def script(messages, tools):
        if kind_of(messages) == "candidate":
            return ChatResponse(text="A proof.", usage=big, finish_reason="stop")
        return ChatResponse(text=judgement(0.2, [{"step": "1", "issue": "gap"}]), usage=big, finish_reason="stop")

    # 4 candidates use 4000 tokens: above a share of 0.3 * 10000, so no judgement is asked for.
    config = cfg(informal__n=4, budget__tokens=10_000, informal__budget_share=0.3)
    llm = ScriptedLLM(script)
    out, tr, b = run(llm, config)
    assert len(llm.requests) == 4 and not tr.of_kind("informal_judgement")
    sel = tr.of_kind("informal_selected")[0].data
    assert sel["stopped_by"] == "budget_share" and out.selected.text == "A proof." and out.selected.score is None
    assert b.exceeded() is None  # the run's own budget is untouched: the sketch still has its share

    # A larger share (4500 tokens): 2 candidates and 2 judgements (4000), one revision (5000), then
    # nothing more: the share is checked before every call.
    llm = ScriptedLLM(script)
    out, tr, _ = run(llm, cfg(informal__n=2, budget__tokens=10_000, informal__budget_share=0.45, informal__parallel=1))
    assert len(tr.of_kind("informal_judgement")) == 2 and len(tr.of_kind("informal_revision")) == 1 and len(llm.requests) == 5
    assert tr.of_kind("informal_selected")[0].data["stopped_by"] == "budget_share"


def test_the_runs_own_budget_stop_propagates():
    config = cfg(informal__n=2, informal__parallel=2)
    b = Budget(config.budget)

    def script(messages, tools):
        if kind_of(messages) == "verify":
            b.cancel()  # e.g. Ctrl-C while the judgements run (in worker threads)
        return "A proof." if kind_of(messages) == "candidate" else judgement(0.1, [{"step": "1", "issue": "gap"}])

    with pytest.raises(BudgetExceeded) as e:
        run(ScriptedLLM(script), config, budget=b)
    assert e.value.which == "interrupt"


def test_wall_share_stops_the_loop():
    import time

    def script(messages, tools):
        time.sleep(0.3)
        return "A proof." if kind_of(messages) == "candidate" else judgement(0.1, [{"step": "1", "issue": "gap"}])

    # 0.1 of a 2 s budget: the first call alone outlives the share.
    out, tr, _ = run(ScriptedLLM(script), cfg(informal__n=1, budget__wall_s=2.0, informal__budget_share=0.1))
    assert tr.of_kind("informal_selected")[0].data["stopped_by"] == "budget_share"
    assert not tr.of_kind("informal_judgement") and out.selected.text == "A proof."


class ManyModel:
    """A client with ``chat_many`` (one request, ``n`` choices) that refuses ``response_format``
    with HTTP 400, as a server without structured outputs does."""

    name = "many"

    def __init__(self):
        self.many_calls = []
        self.chat_calls = 0

    def chat(self, messages, *, tools=(), sampling=None):
        self.chat_calls += 1
        return ChatResponse(text=judgement(0.9), usage=Usage(prompt_tokens=5, completion_tokens=5), finish_reason="stop")

    def chat_many(self, messages, *, n, sampling=None, response_format=None):
        self.many_calls.append((n, response_format is not None, sampling.temperature if sampling else None))
        if response_format is not None:
            return tuple(error_response("HTTP 400: response_format json_schema is not supported") for _ in range(n))
        if "meticulous grader" in messages[-1].content:
            return (ChatResponse(text=judgement(0.9), usage=Usage(prompt_tokens=5, completion_tokens=5), finish_reason="stop"),)
        return tuple(
            ChatResponse(text=f"Proof {i}.", usage=Usage(prompt_tokens=5, completion_tokens=5), finish_reason="stop") for i in range(n)
        )


def test_one_request_with_n_and_structured_output_fallback():
    m = ManyModel()
    config = cfg(informal__n=3, informal__revision_rounds=0, informal__parallel=1, informal__temperature=1.1)
    out, tr, _ = run(m, config)
    assert m.many_calls[0] == (3, False, 1.1)  # the candidates: one request with n=3
    assert m.many_calls[1][1] is True and m.many_calls[2][1] is False  # refused once, then plain text
    assert all(not rf for _, rf, _ in m.many_calls[3:])  # not asked again after the refusal
    assert len(tr.of_kind("llm_fallback")) == 1 and len(tr.of_kind("informal_judgement")) == 3
    assert out.selected.score == 0.9


def test_structured_output_refused_by_a_real_client_costs_one_request():
    """Through the OpenAI client against a strict vLLM stand-in that refuses ``response_format``:
    the client asks again without it and flags the response; the loop traces one
    ``llm_fallback``, parses the judgements as free text and stops asking for the format."""
    from vllm_standin import Reply, VLLMStandIn

    from prover.llm.openai_client import OpenAIChat

    def script(body):
        if "response_format" in body:
            return Reply(status=400, error="response_format json_schema is not supported by this server")
        if "meticulous grader" in body["messages"][-1]["content"]:
            return Reply(judgement(0.9))
        return Reply("A proof.")

    config = cfg(informal__n=2, informal__revision_rounds=0, informal__parallel=1)
    with VLLMStandIn(script) as s:
        llm = OpenAIChat(config.model.model_copy(update={"model": s.model, "endpoint": s.url, "timeout_s": 10.0}), config.sampling)
        out, tr, _ = run(llm, config)
    assert len(s.rejected) == 1 and sum("response_format" in b for b in s.requests) == 1
    assert len(tr.of_kind("llm_fallback")) == 1
    judged = tr.of_kind("informal_judgement")
    assert len(judged) == 2 and all(e.data["record"]["structured"] is False for e in judged)
    assert out.selected.score == 0.9


def test_user_proof_is_graded_not_rewritten():
    def script(messages, tools):
        assert kind_of(messages) == "verify" and "Add 1 to both sides" in proof_in(messages)
        return judgement(
            0.3, [{"step": "2", "issue": "the sum of the first 4 odd numbers is wrong", "check_code": "assert 1 + 3 + 5 + 7 == 15"}]
        )

    llm = ScriptedLLM(script)
    out, tr, _ = run(llm, cfg(), informal="Add 1 to both sides. The first 4 odd numbers sum to 15.")
    assert len(llm.requests) == 1
    assert out.selected.source == "user" and out.selected.text.startswith("Add 1")
    assert out.selected.score == 0.2 and out.selected.flags[0].issue.startswith("the sum")  # refuted: capped
    assert tr.of_kind("informal_judgement")[0].data["candidate"] == "user"
    assert tr.of_kind("sandbox_check")[0].data["status"] == "refuted"
    out, tr, _ = run(ScriptedLLM([]), cfg(informal__grade_user=False), informal="Given.")
    assert out.selected.score is None and not tr.events


def test_verify_off_sends_one_candidate_unjudged_and_no_model_gives_none():
    llm = ScriptedLLM(["Only proof."])
    out, tr, _ = run(llm, cfg(informal__verify=False))
    assert out.selected.text == "Only proof." and out.selected.score is None and len(llm.requests) == 1
    out, tr, _ = run(None, cfg())
    assert out.selected.source == "none" and not tr.events


def test_every_sample_failing_gives_no_proof():
    out, tr, _ = run(ScriptedLLM(lambda m, t: error_response("HTTP 500: boom")), cfg(informal__n=2))
    assert out.selected.source == "none" and out.selected.text == "" and out.ranked == ()
    assert tr.of_kind("informal_selected")[0].data["selected"] is None


def test_trace_records_round_trip_through_jsonl(tmp_path):
    path = tmp_path / "t.jsonl"

    def script(messages, tools):
        k = kind_of(messages)
        if k == "candidate":
            return WRONG
        if k == "revise":
            return RIGHT
        return judgement(
            0.5,
            [{"step": "1", "issue": "power", "check_code": "assert 2 ** 10 == 1000" if "1000" in proof_in(messages) else "assert True"}],
        )

    config = cfg(informal__n=2, informal__revision_rounds=1)
    with Trace(path) as tr:
        solve_informal(problem(), ScriptedLLM(script), config, budget=Budget(config.budget), trace=tr)
    from prover.trace import read_trace

    types = {
        "informal_candidate": InformalCandidate,
        "informal_judgement": InformalJudgement,
        "sandbox_check": SandboxCheck,
        "informal_revision": InformalRevision,
        "informal_selected": InformalSelection,
    }
    seen = set()
    for ev in read_trace(path):
        if ev.kind in types:
            types[ev.kind].model_validate(ev.data["record"])
            seen.add(ev.kind)
    assert seen == set(types)


# --- live view and the pipeline ------------------------------------------------------------------
def test_live_view_shows_the_loop():
    import io

    from rich.console import Console

    from prover.view import LiveView

    buf = io.StringIO()
    view = LiveView("pow_ten", console=Console(file=buf, width=160))

    def script(messages, tools):
        k = kind_of(messages)
        if k == "candidate":
            return WRONG
        if k == "revise":
            return RIGHT
        value = "1000" if "1000" in proof_in(messages) else "1024"
        return judgement(0.8, [{"step": "1", "issue": "power", "check_code": f"assert 2 ** 10 == {value}"}])

    config = cfg(informal__n=1, informal__accept_score=0.75)
    tr = Trace(None)
    tr.listen(view.on_event)
    solve_informal(problem(), ScriptedLLM(script), config, budget=Budget(config.budget), trace=tr)
    view.console.print(view.render())
    out = buf.getvalue()
    assert "informal: 1 candidates, 2 judged (best 0.80), 2 sandbox checks (1 refuted), 1 revisions, selected c0r1" in out


@pytest.mark.rocq
def test_a_failed_sketch_round_moves_to_the_next_candidate():
    from prover.api import load_problem, prove

    good = (
        "```coq\nLemma double_mono (n m : nat) : n <= m -> 2 * n <= 2 * m.\nProof.\n  intros; lia.\nQed.\n"
        "Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.\nProof.\n  intros H. pose proof (double_mono n m H). lia.\nQed.\n```"
    )
    r = Router(
        informal=["Proof A: double it.", "Proof B: monotonicity of doubling."],
        verify=[judgement(0.9), judgement(0.5, [{"step": "1", "issue": "terse"}])],
        sketch=["I cannot write this.", good],
    )
    config = load_config(
        env={},
        model__type="openai",
        prover__direct_search_first=False,
        prover__automation_first=False,
        prover__cache_path=None,
        prover__sketch_rounds=2,
        prover__sketch_repairs=0,
        informal__n=2,
        informal__revision_rounds=0,
        informal__parallel=1,
    )
    tr = Trace(None)
    res = prove(load_problem(DATA / "double_le.v"), config, trace=tr, llm=r.llm)
    assert res.proved, res.reason
    sketch_prompts = [msgs[0].content for msgs, _ in r.llm.requests if "formal proof *sketch*" in msgs[0].content]
    assert "Proof A" in sketch_prompts[0] and "Proof B" in sketch_prompts[1]
    selected = [e.data for e in tr.of_kind("informal_selected")]
    assert [s["selected"] for s in selected] == ["c0", "c1"] and selected[1]["round"] == 1
    assert res.informal is not None and res.informal.candidate == "c1" and res.informal.score == 0.5
