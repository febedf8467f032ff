"""``prove`` in agent mode end to end with the real SmolLM2: through the OpenAI path (the shared
``prover-serve`` server) and in process (transformers).

The built-in search on the whole theorem and the portfolio before each agent are off, so every
lemma is left to the model: a real informal proof, real sketch attempts, lemma agents that make
real tool calls. The 135M model rarely proves anything; the verdict alone decides, and what is
checked is that the run is sound and accounted for: exit code matching the verdict, every model
call one ``llm_call`` event with its fields, at least one call answered with tokens, tool calls
the model made executed as ``tool`` events, a budget that holds, and no process left behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from llm_helpers import ROOT, session_processes, tool_path

pytestmark = pytest.mark.llm

PROBLEMS = ["double_le.v", "sum_squares.v"]
"""One per path: nat arithmetic through the server, reals in process (a second problem on the
same path added ~90 s and nothing the first does not check)."""
BUDGET_S = 120.0
SLACK_S = 120.0
"""What a run may take past its budget: start-up (Python, Rocq sessions, the in-process model's
load) and the final verification, not model calls."""
LLM_FIELDS = {"backend", "model", "prompt_tokens", "completion_tokens", "seconds", "tool_calls", "error"}


def _config(tmp_path: Path, model: str) -> Path:
    cfg = tmp_path / "agent.toml"
    cfg.write_text(
        f"""
[model]
{model}
timeout_s = 120.0
max_retries = 1
max_model_len = 4096
initial_tokens_per_s = 2.0   # a CPU prior: max_tokens sized so a first call can finish in its share

[sampling]
temperature = 0.7
max_tokens = 64
seed = 0

[prover]
workers = 1
direct_search_first = false
automation_first = false
sketch_rounds = 1
sketch_repairs = 1
agent_turns = 3

[informal]
n = 1
revision_rounds = 0
verify = false
""",
        encoding="utf-8",
    )
    return cfg


def _prove(problem: str, cfg: Path, tmp_path: Path, *extra: str) -> tuple[int, dict, list[dict], float]:
    trace = tmp_path / "trace.jsonl"
    cmd = [tool_path("prove"), str(ROOT / "examples" / "rocq" / problem), "--config", str(cfg), "--timeout", str(BUDGET_S)]
    cmd += ["--json", "--trace", str(trace), "--no-cache", *extra]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=BUDGET_S + 600)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        raise
    wall = time.monotonic() - t0
    time.sleep(1)
    left = session_processes(proc.pid)
    assert not left, f"processes left by prove: {left}"
    assert proc.returncode in (0, 1), err[-2000:]
    summary = json.loads(out)
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines() if line.strip()]
    return proc.returncode, summary, events, wall


def _check_run(rc: int, summary: dict, events: list[dict], wall: float, backend: str) -> None:
    assert summary["mode"] == "agent"
    assert (rc == 0) == summary["proved"]
    if summary["proved"]:
        assert summary["verdict"]["accepted"], summary["verdict"]
    else:
        assert summary["verdict"] is None or not summary["verdict"]["accepted"]
    assert wall <= BUDGET_S + SLACK_S, f"run took {wall:.0f} s on a {BUDGET_S:.0f} s budget"
    kinds = [e["kind"] for e in events]
    assert "llm" not in kinds, "model calls are traced as `llm_call` events only"
    calls = [e for e in events if e["kind"] == "llm_call"]
    assert calls, f"no model call traced: {sorted(set(kinds))}"
    for c in calls:
        assert set(c["data"]) >= LLM_FIELDS, c
        assert c["data"]["backend"] == backend
    assert summary["spent"]["llm_calls"] == len(calls)
    stages = {c["data"].get("stage") for c in calls}
    assert "informal" in stages, stages
    # A tool the model called is run and traced, in the order it was called.
    called = [n for c in calls if c["data"]["stage"] == "agent" for n in c["data"]["tool_calls"]]
    ran = [e["data"]["tool"] for e in events if e["kind"] == "tool"]
    for name in called:
        assert name in ran or name not in {"check", "goals", "search", "auto_close", "python", "split_lemma", "give_up"}, (called, ran)
    # At least one model call came back with tokens and no error: the run exercised a real
    # model, not only timeouts.
    answered = [c for c in calls if not c["data"]["error"] and c["data"]["completion_tokens"] > 0]
    assert answered, [c["data"]["error"] for c in calls]


@pytest.mark.parametrize("problem", PROBLEMS[:1])
def test_agent_mode_through_the_openai_server(server, tmp_path, problem):
    cfg = _config(tmp_path, f'type = "openai"\nmodel = "{server.name}"\nendpoint = "{server.url}"')
    rc, summary, events, wall = _prove(problem, cfg, tmp_path)
    _check_run(rc, summary, events, wall, "openai")


@pytest.mark.parametrize("problem", PROBLEMS[1:])
def test_agent_mode_in_process_transformers(model_dir, tmp_path, problem):
    cfg = _config(tmp_path, f'type = "transformers"\nmodel = "{model_dir}"\ndtype = "float32"')
    rc, summary, events, wall = _prove(problem, cfg, tmp_path)
    _check_run(rc, summary, events, wall, "transformers")

