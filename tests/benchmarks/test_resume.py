"""Resume after SIGKILL: a real `prover-bench run` subprocess is killed -9 mid-run and rerun.

No attempt may be lost or recorded twice; attempts finished before the kill are kept as they
were; attempts cut off by the kill are redone. Uses the fake attempt function (the prover's
own cost is not the point here) over a folder of tiny Rocq statements (validated by coqc).
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.rocq


def _env(sleep: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")])
    env["FAKE_ATTEMPT_SLEEP"] = sleep
    return env


def _count(db: Path, status: str) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return conn.execute("SELECT COUNT(*) FROM attempts WHERE status=?", (status,)).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_sigkill_mid_run_then_resume(tmp_path):
    probs = tmp_path / "probs"
    probs.mkdir()
    for i in range(5):
        (probs / f"t{i}.v").write_text(f"Theorem t{i} : {i} = {i}.\nProof.\nAdmitted.\n")
    db = tmp_path / "r.db"
    cmd = [sys.executable, "-m", "benchmarks", "run", str(probs), "--db", str(db), "--k", "4", "--workers", "2",
           "--timeout", "5", "--attempt-fn", "bench_fakes:coin_attempt"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=_env("0.3"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if _count(db, "done") >= 6 and _count(db, "running") >= 1:
            break
        assert proc.poll() is None, proc.stdout.read()
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("run did not reach the kill point")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()

    conn = sqlite3.connect(db)
    before = {(r[0], r[1]): (r[2], r[3]) for r in conn.execute(
        "SELECT problem_id, seed, id, finished_at FROM attempts WHERE status='done'")}
    running = conn.execute("SELECT COUNT(*) FROM attempts WHERE status='running'").fetchone()[0]
    conn.close()
    assert 6 <= len(before) < 20 and running >= 1

    r = subprocess.run(cmd, cwd=ROOT, env=_env("0"), capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{len(before)} already recorded" in r.stdout and f"{running} interrupted attempts redone" in r.stdout

    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT problem_id, seed, id, finished_at, status FROM attempts").fetchall()
    conn.close()
    keys = [(p, s) for p, s, *_ in rows]
    assert len(rows) == 20 and len(set(keys)) == 20  # 5 problems x 4 seeds, none lost, none twice
    assert {s for *_, s in rows} == {"done"}
    after = {(p, s): (i, f) for p, s, i, f, _ in rows}
    assert all(after[k] == v for k, v in before.items())  # finished attempts were not redone
