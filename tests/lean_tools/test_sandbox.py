"""The process sandbox on real processes: limits, sessions, network isolation, CPU accounting.

Every test here runs small ``python3``/``sh`` children; none needs a proof assistant.
"""

from __future__ import annotations

import re
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from lean_tools import sandbox
from lean_tools.procstat import ProcessTree, group_usage

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def py(code: str) -> list[str]:
    return [PY, "-I", "-c", code]


def test_no_preexec_fn_in_the_tree():
    """Python documents ``preexec_fn`` as unsafe in threaded programs; nothing may use it."""
    offenders = []
    for folder in ("lean_tools", "prover", "rl", "benchmarks", "sketch", "environments"):
        for path in (ROOT / folder).rglob("*.py"):
            if re.search(r"preexec_fn\s*=", path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_limits_are_set_on_the_child():
    lim = sandbox.Limits(cpu_seconds=7, memory_bytes=1536 * 1024**2, file_bytes=3 * 1024**2, open_files=77)
    code = ("import resource as r, os; print(*[r.getrlimit(x) for x in (r.RLIMIT_CPU, r.RLIMIT_AS, r.RLIMIT_FSIZE,"
            " r.RLIMIT_NOFILE, r.RLIMIT_CORE)], os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid())")
    r = sandbox.run(py(code), limits=lim, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["(7,", "12)", f"({1536 * 1024**2},", f"{1536 * 1024**2})", f"({3 * 1024**2},",
                                f"{3 * 1024**2})", "(77,", "77)", "(0,", "0)", "True", "True"]


def test_memory_limit_holds_from_the_first_instruction():
    """The limit is set before the program runs: an allocation as its first act fails."""
    r = sandbox.run(py("x = bytearray(600 * 1024**2)"), limits=sandbox.Limits(memory_bytes=300 * 1024**2), timeout=60)
    assert r.returncode != 0 and "MemoryError" in r.stderr


def test_cpu_limit_stops_a_busy_loop():
    r = sandbox.run(py("while True: pass"), limits=sandbox.Limits(cpu_seconds=1), timeout=60)
    assert r.returncode == -24 and r.timed_out  # SIGXCPU
    assert 0.8 <= r.cpu_seconds < 10


def test_wall_timeout_kills_the_whole_group(tmp_path):
    r = sandbox.run(["/bin/sh", "-c", "sleep 300 & echo $! > pid; wait"], timeout=1.5, cwd=tmp_path)
    assert r.timed_out
    pid = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 5
    while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "grandchild survived the timeout"
        time.sleep(0.05)


def test_cpu_is_accounted_per_process_not_per_thread_pool():
    """Two checks at once: the sleeper is not charged for the CPU the burner spends.

    (``RUSAGE_CHILDREN`` differences would give the sleeper the burner's second.)"""
    out: dict[str, sandbox.RunResult] = {}

    def go(name: str, code: str) -> None:
        out[name] = sandbox.run(py(code), timeout=120)

    burn = "import time\nwhile time.process_time() < 1.0: pass"
    threads = [threading.Thread(target=go, args=("sleep", "import time; time.sleep(2.5)")),
               threading.Thread(target=go, args=("burn", burn))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out["burn"].cpu_seconds >= 0.95
    assert out["sleep"].cpu_seconds < 0.5


def test_finished_cpu_ledger_adds_each_run():
    before = sandbox.finished_cpu_seconds()
    r = sandbox.run(py("import time\nwhile time.process_time() < 0.3: pass"), timeout=60)
    assert sandbox.finished_cpu_seconds() - before >= r.cpu_seconds - 1e-9
    assert r.cpu_seconds >= 0.3


def test_spawn_refuses_preexec_fn():
    with pytest.raises(ValueError):
        sandbox.spawn(["true"], limits=sandbox.Limits(), preexec_fn=lambda: None)


def test_spawned_session_is_limited_and_in_its_own_group():
    proc = sandbox.spawn(py("import time; time.sleep(30)"), limits=sandbox.Limits(memory_bytes=900 * 1024**2),
                         stdin=subprocess.DEVNULL)
    try:
        p = psutil.Process(proc.pid)
        assert p.rlimit(resource.RLIMIT_AS) == (900 * 1024**2, 900 * 1024**2)
        assert __import__("os").getpgid(proc.pid) == proc.pid
    finally:
        sandbox.kill_group(proc)
    assert proc.returncode == -9


@pytest.mark.skipif(not sandbox.network_isolated(), reason="no network namespaces here")
def test_network_is_isolated():
    """Only a loopback interface, and the host's localhost services are unreachable."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    try:
        code = (f"import socket\nprint(open('/proc/net/dev').read().count(':'))\ns = socket.socket()\n"
                f"s.settimeout(3)\ntry:\n    s.connect(('127.0.0.1', {port})); print('connected')\n"
                "except OSError as e: print('refused', type(e).__name__)")
        r = sandbox.run(py(code), timeout=60)
        assert r.returncode == 0, r.stderr
        ifaces, verdict = r.stdout.split("\n", 1)
        assert ifaces.strip() == "1"  # lo only
        assert verdict.startswith("refused")
        control = sandbox.run(py(code), limits=sandbox.Limits(isolate_network=False), timeout=60)
        assert "connected" in control.stdout  # the probe itself can reach the server when not isolated
    finally:
        srv.close()


def test_process_tree_counts_live_and_reaped_children():
    code = ("import subprocess, sys, time\n"
            "subprocess.run([sys.executable, '-c', 'import time\\nwhile time.process_time() < 0.6: pass'])\n"
            "x = bytearray(120 * 1024**2)\nprint('ready', flush=True)\ntime.sleep(30)")
    proc = sandbox.spawn(py(code), limits=sandbox.Limits(), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        rss, cpu = ProcessTree(proc.pid).usage()
        assert cpu >= 0.6  # the reaped grandchild's CPU is in its parent's children_* time
        assert rss >= 120 * 1024**2
        assert group_usage(proc.pid)[0] >= 120 * 1024**2
    finally:
        sandbox.kill_group(proc)
    tree = ProcessTree(proc.pid)
    assert tree.usage() == (0, 0.0)
