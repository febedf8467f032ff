"""The informal loop end to end with the real local model (SmolLM2 behind vLLM's OpenAI server):
whatever the tiny model writes, every step comes back as a well-formed record and the budget
counts every call."""

import pytest

from prover.budget import Budget
from prover.config import load_config
from prover.informal import solve_informal
from prover.llm import make_llm
from prover.problem import problem_from_text
from prover.records import (
    InformalCandidate,
    InformalJudgement,
    InformalRevision,
    InformalSelection,
    SandboxCheck,
)
from prover.trace import Trace, read_trace

pytestmark = pytest.mark.llm

SRC = "Require Import Arith Lia.\n\nTheorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.\nProof.\nAdmitted.\n"
RECORDS = {
    "informal_candidate": InformalCandidate,
    "informal_judgement": InformalJudgement,
    "sandbox_check": SandboxCheck,
    "informal_revision": InformalRevision,
    "informal_selected": InformalSelection,
}


def test_informal_loop_with_the_real_model(server, tmp_path):
    endpoint, model = server.url, server.name
    cfg = load_config(
        env={},
        model__type="openai",
        model__endpoint=endpoint,
        model__model=model,
        sampling__max_tokens=160,
        informal__reasoning_chars=300,
        informal__max_flags=2,
        budget__wall_s=1200.0,
        informal__n=2,
        informal__revision_rounds=1,
        informal__budget_share=1.0,
        informal__accept_score=1.0,  # every parsed judgement below 1 asks for a revision
    )
    llm = make_llm(cfg)
    budget = Budget(cfg.budget)
    path = tmp_path / "trace.jsonl"
    with Trace(path) as tr:
        out = solve_informal(problem_from_text(SRC, "rocq"), llm, cfg, budget=budget, trace=tr)
    events = read_trace(path)
    kinds = [e.kind for e in events]
    for ev in events:
        if ev.kind in RECORDS:
            RECORDS[ev.kind].model_validate(ev.data["record"])
    calls = [e for e in events if e.kind == "llm_call"]
    assert len(calls) == budget.llm_calls >= 2 and all(e.data["stage"].startswith("informal") for e in calls)
    assert budget.tokens_out > 0 and budget.tokens_in > 0
    assert kinds.count("informal_candidate") >= 1 and kinds.count("informal_selected") == 1
    judgements = [InformalJudgement.model_validate(e.data["record"]) for e in events if e.kind == "informal_judgement"]
    assert len(judgements) >= kinds.count("informal_candidate")
    for j in judgements:
        assert 0.0 <= j.score <= 1.0 and (j.parsed or j.score == 0.0)
        assert j.structured  # vLLM takes the JSON-schema response_format
    sel = InformalSelection.model_validate(events[kinds.index("informal_selected")].data["record"])
    assert out.selected.candidate == sel.selected and out.selected.text
    assert sel.ranking == tuple(sorted(sel.ranking, key=lambda r: -r[1]))
