"""How the informal loop's cost (model calls, tokens, wall time) grows with ``informal.n`` and
``informal.revision_rounds``.

Runs ``prover.informal.solve_informal`` on one problem for every (n, rounds) pair of the grid and
writes one JSON line per pair as it goes (a rerun skips pairs already in ``--out``), then prints a
Markdown table. Each row: requests sent to the model, completions (``llm_calls``), prompt and
completion tokens, judgements, sandbox checks, revisions, wall seconds, the selected score, and
``stopped_by`` (``budget_share`` when the loop's share of the budget ran out).

Models:
- ``--backend scripted`` (default): a deterministic stand-in that makes every judgement ask for a
  revision (score 0.5 with one flagged claim whose check holds), so each round revises every
  candidate: the loop's worst case. Its token counts are estimates (4 characters a token) of the
  real prompts the loop renders and of fixed-size answers (``--answer-tokens``).
- ``--backend openai --endpoint URL --model NAME``: a real OpenAI-compatible server (for example
  ``prover-serve`` / vLLM with SmolLM2 on CPU); token counts are the server's.

    python benchmarks/informal_cost.py [--problem examples/rocq/double_le.v] [--n 1,2,4]
        [--rounds 0,1,2] [--backend scripted|openai --endpoint URL --model NAME]
        [--max-tokens 256] [--reasoning-chars 4000] [--max-flags 8] [--out results/informal_cost.jsonl]

What is not measured: the loop's effect on proof rates (that needs the benchmark runner with a
strong model); wall time with the scripted model is the sandbox and bookkeeping only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class CountingModel:
    """Wraps a model and counts requests (one ``chat`` or one ``chat_many`` call each)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = getattr(inner, "name", "model")
        self.requests = 0
        self._lock = threading.Lock()
        if hasattr(inner, "chat_many"):
            self.chat_many = self._chat_many

    def chat(self, messages, *, tools=(), sampling=None):
        with self._lock:
            self.requests += 1
        return self.inner.chat(messages, tools=tools, sampling=sampling)

    def _chat_many(self, messages, *, n, sampling=None, response_format=None):
        with self._lock:
            self.requests += 1
        return self.inner.chat_many(messages, n=n, sampling=sampling, response_format=response_format)


class WorstCaseModel:
    """Scripted stand-in: candidates and revisions of ``answer_tokens`` tokens; every judgement
    scores 0.5 with one flag whose ``check_code`` holds, so every candidate is revised each round."""

    name = "scripted-worst-case"

    def __init__(self, answer_tokens: int):
        self.answer_tokens = answer_tokens

    def chat(self, messages, *, tools=(), sampling=None):
        from prover.llm.base import ChatResponse, Usage, estimate_tokens

        prompt = "\n".join(m.content for m in messages)
        if "meticulous grader" in prompt:
            text = json.dumps(
                {
                    "reasoning": "Step 1 is asserted without an argument. " * max(1, self.answer_tokens // 40),
                    "score": 0.5,
                    "flags": [{"step": "1", "issue": "unjustified", "check_code": "assert sum(range(5)) == 10"}],
                }
            )
        else:
            text = "Claim: an intermediate step, justified. " * max(1, self.answer_tokens // 8)
        return ChatResponse(
            text=text, usage=Usage(prompt_tokens=estimate_tokens(prompt), completion_tokens=estimate_tokens(text)), finish_reason="stop"
        )


def run_one(problem, llm, base_cfg, n: int, rounds: int) -> dict:
    from prover.budget import Budget
    from prover.informal import solve_informal
    from prover.trace import Trace

    cfg = base_cfg.with_overrides(informal__n=n, informal__revision_rounds=rounds)
    model = CountingModel(llm)
    budget = Budget(cfg.budget)
    trace = Trace(None)
    t0 = time.monotonic()
    out = solve_informal(problem, model, cfg, budget=budget, trace=trace)
    sel = out.selection
    return {
        "model": llm.name,
        "n": n,
        "rounds": rounds,
        "requests": model.requests,
        "completions": budget.llm_calls,
        "tokens_in": budget.tokens_in,
        "tokens_out": budget.tokens_out,
        "judgements": len(trace.of_kind("informal_judgement")),
        "parsed": sum(1 for e in trace.of_kind("informal_judgement") if e.data.get("parsed")),
        "checks": len(trace.of_kind("sandbox_check")),
        "revisions": len(trace.of_kind("informal_revision")),
        "wall_s": round(time.monotonic() - t0, 2),
        "selected_score": out.selected.score,
        "stopped_by": sel.stopped_by if sel else None,
    }


def table(rows: list[dict]) -> str:
    head = (
        "| model | n | rounds | requests | completions | tokens in | tokens out "
        "| judgements (parsed) | checks | revisions | wall s | stopped |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['n']} | {r['rounds']} | {r['requests']} | {r['completions']} | {r['tokens_in']} | {r['tokens_out']} "
            f"| {r['judgements']} ({r['parsed']}) | {r['checks']} | {r['revisions']} | {r['wall_s']} | {r['stopped_by'] or '-'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--problem", default="examples/rocq/double_le.v")
    ap.add_argument("--n", default="1,2,4", help="comma-separated candidate counts")
    ap.add_argument("--rounds", default="0,1,2", help="comma-separated revision-round counts")
    ap.add_argument("--backend", choices=["scripted", "openai"], default="scripted")
    ap.add_argument("--endpoint", default="http://127.0.0.1:8000/v1")
    ap.add_argument("--model", default="")
    ap.add_argument("--max-tokens", type=int, default=256, help="per completion (openai backend)")
    ap.add_argument("--answer-tokens", type=int, default=300, help="size of the scripted model's answers")
    ap.add_argument("--reasoning-chars", type=int, default=4000, help="informal.reasoning_chars (bound on the judgement's reasoning)")
    ap.add_argument("--max-flags", type=int, default=8, help="informal.max_flags")
    ap.add_argument("--budget-share", type=float, default=1.0, help="informal.budget_share (1.0: measure the loop unstopped)")
    ap.add_argument("--wall", type=float, default=3600.0, help="run wall budget, seconds")
    ap.add_argument("--out", default="results/informal_cost.jsonl")
    args = ap.parse_args(argv)
    try:
        ns = [int(x) for x in args.n.split(",") if x.strip()]
        rounds = [int(x) for x in args.rounds.split(",") if x.strip()]
    except ValueError:
        print("informal_cost: --n and --rounds take comma-separated integers", file=sys.stderr)
        return 2

    from prover.config import ConfigError, load_config
    from prover.errors import BadProblem
    from prover.problem import load_problem

    try:
        problem = load_problem(args.problem)
        cfg = load_config(
            env={},
            model__type="openai",
            model__endpoint=args.endpoint,
            model__model=args.model,
            sampling__max_tokens=args.max_tokens,
            budget__wall_s=args.wall,
            informal__budget_share=args.budget_share,
            informal__reasoning_chars=args.reasoning_chars,
            informal__max_flags=args.max_flags,
        )
    except (BadProblem, ConfigError) as e:
        print(f"informal_cost: {e}", file=sys.stderr)
        return 2
    from prover.llm.base import ChatModel

    llm: ChatModel | None
    if args.backend == "scripted":
        llm = WorstCaseModel(args.answer_tokens)
    else:
        from prover.llm import make_llm

        llm = make_llm(cfg)
    if llm is None:  # make_llm gives None only for model type "none"
        print("informal_cost: the config names no model", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["model"], r["n"], r["rounds"])] = r
    rows = []
    for n in ns:
        for r in rounds:
            key = (llm.name, n, r)
            if key not in done:
                done[key] = run_one(problem, llm, cfg, n, r)
                with out.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(done[key]) + "\n")
                print(f"n={n} rounds={r}: {done[key]['completions']} completions, {done[key]['wall_s']} s", file=sys.stderr)
            rows.append(done[key])
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
