"""The ``prover-tasks`` verifiers taskset: loading, the reward on scripted rollouts, the toolset
(the tools ``prover-mcp`` serves, driven by a scripted MCP client), ``vf-validate``, and the
adversarial cheats of the soundness suite (each must earn 0)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import verifiers.v1 as vf  # `make setup` installs environments/prover_tasks and with it verifiers
from soundness_suite import load as load_cases
from verifiers.v1.graph import MessageNode
from verifiers.v1.types import AssistantMessage, ToolCall, ToolMessage, UserMessage

from prover.tools import SERVED
from prover_tasks.taskset import (
    ProverData,
    ProverTask,
    ProverTaskConfig,
    ProverTaskset,
    ProverTasksetConfig,
)

ROOT = Path(__file__).resolve().parents[2]


def curriculum(n: int = 3, **kw) -> list[ProverTask]:
    return list(ProverTaskset(ProverTasksetConfig(id="prover-tasks", size=n, **kw)))


def scripted_trace(task: ProverTask, turns: list) -> vf.Trace:
    """A finished rollout: the task prompt, then ``turns`` (assistant messages as sampled, tool results)."""
    trace = vf.Trace(
        task=vf.TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
        agent=vf.AgentInfo(config=vf.AgentConfig(), name="scripted", trainable=False),
    )
    nodes = [MessageNode(message=UserMessage(content=task.data.prompt_text))]
    for m in turns:
        nodes.append(MessageNode(parent=len(nodes) - 1, message=m, sampled=isinstance(m, AssistantMessage)))
    trace.nodes = nodes
    return trace


def score(task: ProverTask, turns: list) -> tuple[float, dict]:
    trace = scripted_trace(task, turns)
    asyncio.run(task.score(trace))
    return trace.rewards["verified"].score, trace.info.get("verdict", {})


def answer(text: str) -> AssistantMessage:
    return AssistantMessage(content=f"Here is the proof.\n```coq\n{text}\n```")


def test_tasksets_load_our_suites():
    tasks = curriculum(4)
    assert len({t.key for t in tasks}) == 4 and all(t.data.language == "rocq" and t.data.reference for t in tasks)
    for t in tasks:
        assert t.data.problem.rstrip() in t.data.prompt_text and t.data.reference not in t.data.prompt_text
        assert "verify" in t.data.system_prompt
    for suite in ("minif2f-rocq-valid", "minif2f-rocq-test", "putnam-coq"):
        (first,) = list(ProverTaskset(ProverTasksetConfig(id="prover-tasks", suite=suite)).take(1))
        assert first.data.suite.startswith(suite.split("-")[0]) and first.data.id.startswith(first.data.suite + "/")
        assert first.data.problem in first.data.prompt_text and first.data.reference is None
    with pytest.raises(ValueError):
        curriculum(1, split="nope")


@pytest.mark.rocq
def test_reward_is_the_verdict_on_scripted_rollouts():
    task = curriculum(1, families=["lin_nat"])[0]
    p, ref = task.data.problem, task.data.reference
    good = p.replace("Admitted.", f"{ref}\nQed.")
    assert score(task, [answer(good)])[0] == 1.0
    assert score(task, [answer(ref)])[0] == 1.0  # a bare proof body is put into the file
    wrong, verdict = score(task, [answer(p.replace("Admitted.", "reflexivity.\nQed."))])
    assert wrong == 0.0 and verdict["stage"] == "compile"
    none, verdict = score(task, [AssistantMessage(content="I could not do it.")])
    assert none == 0.0 and verdict["stage"] == "answer"
    call = ToolCall(id="c1", name="verify", arguments=json.dumps({"problem": p, "proof": good}))
    fallback, verdict = score(task, [AssistantMessage(content=None, tool_calls=[call]), ToolMessage(tool_call_id="c1", content="{}"),
                                     AssistantMessage(content="done")])
    assert fallback == 1.0 and verdict["source"] == "verify call"
    claimed, _ = score(task, [AssistantMessage(content="verify said accepted: true. QED")])  # a claim earns nothing
    assert claimed == 0.0
    shaped = ProverTask(task.data, ProverTaskConfig(shaping_credit=0.1))
    assert score(shaped, [answer(p.replace("Admitted.", "reflexivity.\nQed."))])[0] == pytest.approx(0.1)
    assert score(shaped, [answer(p.replace("Admitted.", "admit.\nQed."))])[0] == 0.0  # a screen rejection gets nothing


def _cheat_cases():
    cases = load_cases("rocq", "cheats") + [c for c in load_cases("lean", "cheats") if c.static != ("none",)]
    return cases


@pytest.mark.rocq
def test_every_adversarial_cheat_earns_zero():
    cases = _cheat_cases()
    assert len(cases) > 40

    async def run_all():
        sem = asyncio.Semaphore(2)

        async def one(case):
            problem, cheat = case.texts()
            data = ProverData(id=case.id, prompt="p", problem=problem, language=case.language)
            task = ProverTask(data, ProverTaskConfig(verify_timeout_s=60))
            fence = "coq" if case.language == "rocq" else "lean"
            trace = scripted_trace(task, [AssistantMessage(content=f"```{fence}\n{cheat}\n```")])
            async with sem:
                await task.score(trace)
            return case, trace.rewards["verified"].score, trace.info["verdict"]

        return await asyncio.gather(*(one(c) for c in cases))

    for case, reward, verdict in asyncio.run(run_all()):
        assert reward == 0.0, (case.id, verdict)
        assert verdict["accepted"] is False


@pytest.fixture
def toolset_url(tmp_path):
    """The taskset's tool server, started the way verifiers starts it (``python -m``, config in VF_CONFIG)."""
    port_file = tmp_path / "port"
    env = {**os.environ, "VF_CONFIG": json.dumps({"sessions": 1}), "MCP_PORT_FILE": str(port_file), "VF_STATE_URL": ""}
    proc = subprocess.Popen([sys.executable, "-m", "prover_tasks.toolset"], env=env, cwd=tempfile.gettempdir(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600  # importing verifiers alone took 60 s on the loaded test machine
    while not (port_file.exists() and port_file.read_text().strip().isdigit()):
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the toolset never reported its port"
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port_file.read_text().strip()}/mcp"
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.mark.rocq
def test_scripted_client_drives_the_toolset_and_scores(toolset_url):
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    task = curriculum(1, families=["lin_nat"])[0]
    p = task.data.problem

    async def scripted():
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # the server may still be binding its app
            try:
                async with streamable_http_client(toolset_url) as (r, w), ClientSession(r, w) as s:
                    await s.initialize()
                    names = {t.name for t in (await s.list_tools()).tools}
                    turns = []
                    g = await s.call_tool("goals", {"problem": p})
                    turns += [AssistantMessage(tool_calls=[ToolCall(id="g", name="goals", arguments=json.dumps({"problem": p}))]),
                              ToolMessage(tool_call_id="g", content=json.dumps(g.structured_content))]
                    auto = await s.call_tool("auto_close", {"problem": p, "budget_s": 30})
                    proof = auto.structured_content["proof"]
                    v = await s.call_tool("verify", {"problem": p, "proof": proof})
                    turns += [
                        AssistantMessage(
                            tool_calls=[ToolCall(id="v", name="verify", arguments=json.dumps({"problem": p, "proof": proof}))]
                        ),
                        ToolMessage(tool_call_id="v", content=json.dumps(v.structured_content)),
                        answer(proof),
                    ]
                    return names, g, auto, v, turns
            except Exception:  # noqa: BLE001 - not listening yet
                await asyncio.sleep(0.3)
        raise AssertionError("could not reach the toolset")

    names, g, auto, v, turns = asyncio.run(scripted())
    assert names == set(SERVED)
    assert not g.is_error and g.structured_content["goals"]
    assert auto.structured_content["proved"] and v.structured_content["accepted"]
    assert score(task, turns)[0] == 1.0


def test_toolset_serves_the_same_tools_as_prover_mcp():
    """Same names, same input schemas: both register through ``prover.mcp.server.register``."""
    import anyio
    from mcp.server.mcpserver import MCPServer

    from prover.config import load_config
    from prover.mcp.server import ToolHost, build_server
    from prover_tasks.toolset import ProverToolset, ProverToolsetConfig

    direct = anyio.run(build_server(ToolHost(load_config(env={}))).list_tools)
    mcp = MCPServer("t")
    ProverToolset(ProverToolsetConfig()).register(mcp)
    served = anyio.run(mcp.list_tools)
    assert [t.name for t in direct] == [t.name for t in served] == list(SERVED)
    assert [t.input_schema for t in direct] == [t.input_schema for t in served]


@pytest.mark.rocq
def test_vf_validate_accepts_the_gold_witnesses(tmp_path):
    exe = Path(sys.executable).parent / "vf-validate"
    r = subprocess.run([str(exe), "prover-tasks", "-n", "1", "-o", str(tmp_path), "--runtime.type", "subprocess"],
                       check=False, capture_output=True, text=True, timeout=600, cwd=str(tmp_path))
    (summary,) = list(tmp_path.glob("*/summary.json"))
    data = json.loads(summary.read_text())
    assert data["outcomes"]["valid"] == 1 and data["checks"]["gold"]["valid"] == 1 and data["checks"]["noop"]["valid"] == 1, r.stdout[
        -2000:
    ]
