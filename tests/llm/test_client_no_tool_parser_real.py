"""The OpenAI client against a real vLLM started WITHOUT tool parsing (no
``--enable-auto-tool-choice --tool-call-parser``, as many users run it) and a small 2,048-token
context: the 400 vLLM really answers to ``tools``, the client's fall-back to text tools (once),
the model's own calls kept in the history and accepted by the real server on later turns, and a
long conversation trimmed to the real context.

This module starts its own server (one per module, ~1-3 minutes on 2 shared cores) because the
tier's shared ``server`` has tool parsing on; it stops it and checks that no process is left.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from prover.config import ModelConfig, SamplingConfig
from prover.llm.base import ChatMessage, ToolSpec

pytestmark = pytest.mark.llm

STARTUP_S = 900.0
CHECK = ToolSpec(
    name="check_proof_script",
    description="Check a Coq proof script for the current goal and report the errors.",
    parameters={"type": "object", "properties": {"script": {"type": "string"}}, "required": ["script"]},
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def plain_server(model_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    import psutil

    port = _free_port()
    log = tmp_path_factory.mktemp("plain_server") / "vllm.log"
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", str(model_dir), "--host", "127.0.0.1", "--port", str(port),
        "--served-model-name", "smollm2", "--max-model-len", "2048",
        "--dtype", "float32", "--enforce-eager",
    ]  # fmt: skip
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "1")}
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        t0 = time.monotonic()
        while True:
            if proc.poll() is not None:
                pytest.fail(f"vLLM exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=5):
                    break
            except OSError:
                if time.monotonic() - t0 > STARTUP_S:
                    pytest.fail(f"vLLM did not answer within {STARTUP_S:.0f}s")
                time.sleep(2)
        yield url
    finally:
        pids = [proc.pid]
        try:
            pids += [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            pass
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        time.sleep(2)
        left = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
        assert not left, f"processes left behind: {left}"


def _client(url: str):
    from prover.llm.openai_client import OpenAIChat

    return OpenAIChat(ModelConfig(type="openai", model="smollm2", endpoint=url, timeout_s=600, max_retries=1))


def test_fallback_to_text_tools_and_history_on_a_real_server(plain_server):
    llm = _client(plain_server)
    system = ChatMessage(role="system", content="You prove Coq lemmas by calling tools.")
    task = ChatMessage(role="user", content="Goal: forall n : nat, n + 0 = n. Check a proof script.")
    first = llm.chat([system, task], tools=[CHECK], sampling=SamplingConfig(max_tokens=48, temperature=0))
    assert first.ok, first.error
    assert first.fallback is not None and "text tools" in first.fallback  # the real 400 was seen once
    assert not llm.native_tools and llm.context_len == 2048
    # the model's answer (calls or not) goes back into the history, with a tool result when it
    # called something; the real server accepts the replay in text-tool mode
    history = [system, task, first.as_message()]
    for c in first.tool_calls:
        history.append(ChatMessage(role="tool", content="error: the script does not compile", tool_call_id=c.id, name=c.name or "?"))
    if not first.tool_calls:
        history.append(ChatMessage(role="user", content="Use the check_proof_script tool."))
    second = llm.chat(history, tools=[CHECK], sampling=SamplingConfig(max_tokens=32, temperature=0))
    assert second.ok, second.error
    assert second.fallback is None  # once per client
    for c in first.tool_calls + second.tool_calls:
        assert (c.arguments is None) == (c.error is not None)


def test_long_conversation_is_trimmed_to_the_real_context(plain_server):
    llm = _client(plain_server)
    history = [ChatMessage(role="system", content="You prove Coq lemmas."), ChatMessage(role="user", content="Prove n + 0 = n.")]
    for k in range(30):  # ~30 x 700 characters: well past 2,048 tokens
        history.append(ChatMessage(role="assistant", content=f"Attempt {k}: intros n. induction n; simpl; auto. " * 8))
        history.append(ChatMessage(role="user", content="Error: the proof does not compile. Try again. " * 6))
    r = llm.chat(history, sampling=SamplingConfig(max_tokens=4096, temperature=0))
    assert r.ok, r.error  # neither max_tokens 4096 nor the history got a 400 through
    assert 0 < r.usage.prompt_tokens <= 2048 and r.usage.prompt_tokens + r.usage.completion_tokens <= 2048
