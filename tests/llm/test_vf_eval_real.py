"""``vf-eval`` (the ``null`` harness) on the ``prover-tasks`` taskset against the real local
vLLM server (the tier's ``server`` fixture, SmolLM2): two rollouts of at most two turns and 128
completion tokens each (a 512-token turn takes minutes on 2 CPU cores), each scored by the
soundness verdict or recorded with its error."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.llm
BIN = Path(sys.executable).parent


def test_vf_eval_null_harness_on_smollm2(server, tmp_path):
    assert importlib.util.find_spec("prover_tasks"), "install the taskset: pip install -e environments/prover_tasks (make setup does)"
    base = server.url.rstrip("/")
    base = base if base.endswith("/v1") else base + "/v1"
    cmd = [str(BIN / "vf-eval"), "prover-tasks", "-n", "2", "-r", "1", "-c", "1", "-m", server.name,
           "--client.base-url", base, "--client.api-key-var", "PROVER_TEST_KEY",
           "--env.agent.harness.id", "null", "--env.agent.runtime.type", "subprocess",
           "--env.agent.max-turns", "2", "--env.agent.sampling.max-tokens", "128",
           "--env.taskset.families", '["lin_nat"]', "--env.taskset.max-difficulty", "1",
           "--no-push", "-o", str(tmp_path)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3000, cwd=str(tmp_path), check=False,
                       env={**os.environ, "PROVER_TEST_KEY": "local"})
    logs = "\n".join(p.read_text(errors="replace") for p in tmp_path.glob("*/logs/**/*.log"))
    if "install failed" in logs or "uv_supports_scripts" in logs or "Failed to download" in logs:
        pytest.skip("the null harness could not download its chat program's packages (uv) here")
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    (traces,) = list(tmp_path.glob("*/traces.jsonl"))
    episodes = [json.loads(line) for line in traces.read_text().splitlines() if line.strip()]
    assert len(episodes) == 2
    scored = 0
    for ep in episodes:
        for t in ep["traces"]:
            if "verified" in (t["rewards"] or {}):
                scored += 1
                reward = t["rewards"]["verified"]["score"]
                assert reward in (0.0, 1.0) and "verdict" in t["info"]
                assert (reward == 1.0) == bool(t["info"]["verdict"].get("accepted"))
            else:
                assert t["errors"], "a rollout that was not scored records why"
    assert scored >= 1, "no rollout reached scoring (the model never answered)"
