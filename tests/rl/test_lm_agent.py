"""Pure parts of the real-LM agent path: what script a free-text reply proposes, the compact
prompt, and the H200 demo's report (no model, no proof assistant)."""

from __future__ import annotations

from prover.llm.base import ChatMessage, parse_text_tool_calls
from rl.curriculum import generate
from rl.h200.demo import report
from rl.lm_agent import proof_of, render_compact


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
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert p.name not in "".join(m["content"] for m in out)
    assert out[1]["content"] == f"Theorem goal {p.statement}."
    assert "lia failed" in out[3]["content"]


def test_demo_report_names_pass_at_1_split_and_ratio():
    summary = {"heldout_before": {"pass1": 0.1, "problems": 4, "samples": 2},
               "heldout_after": {"pass1": 0.25, "problems": 4, "samples": 2, "by_family": {"taut": 0.5}},
               "modes": {"sync": {"steps": 2, "seconds_per_step": 10.0, "share_waiting_for_rollouts": 0.8,
                                  "share_waiting_for_checker": 0.3, "share_training": 0.2},
                         "async": {"steps": 2, "seconds_per_step": 5.0}}}
    text = report(summary, 42.0, "cpu")
    assert "before 0.100 -> after 0.250" in text and "2.00x" in text and "checker 30%" in text
