"""Report from a small recorded database (tests/data/benchmarks/small.db): numbers, files, CLI."""

import itertools
import json
import shutil
import sqlite3
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from benchmarks import analysis
from benchmarks.report import write_report

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "benchmarks" / "small.db"


@pytest.fixture()
def db(tmp_path):
    path = tmp_path / "small.db"
    shutil.copy(DATA, path)
    return path


def _brute(outcomes: list[bool], k: int) -> float:
    subsets = list(itertools.combinations(outcomes, k))
    return sum(any(s) for s in subsets) / len(subsets)


def _expected(db: Path) -> dict:
    """pass@k per run label straight from SQL, by brute-force enumeration."""
    conn = sqlite3.connect(db)
    per = defaultdict(lambda: defaultdict(list))
    for label, pid, outcome in conn.execute(
            "SELECT r.label, a.problem_id, a.outcome FROM attempts a JOIN runs r USING (run_key) WHERE a.status='done'"):
        per[label][pid].append(outcome == "proved")
    conn.close()
    out = {}
    for label, probs in per.items():
        n = min(len(v) for v in probs.values())
        out[label] = {k: sum(_brute(v, k) for v in probs.values()) / len(probs) for k in (1, 2, 4) if k <= n}
        out[label]["solved"] = sum(any(v) for v in probs.values())
        out[label]["attempts"] = sum(len(v) for v in probs.values())
    return out


def test_report_numbers_match_brute_force(db, tmp_path):
    ds = analysis.load([db])
    summ = write_report(ds, tmp_path / "out", compare_runs=("fakeA@10s", "fakeB"))
    expected = _expected(db)
    assert {r["label"] for r in summ["runs"]} == set(expected) == {"real-default", "fakeA@2s", "fakeA@5s", "fakeA@10s",
                                                                    "fakeB"}
    for run in summ["runs"]:
        exp = expected[run["label"]]
        assert run["solved"] == exp["solved"] and run["attempts"] == exp["attempts"]
        for k, v in run["pass_at_k"].items():
            assert v == pytest.approx(exp[int(k)], abs=1e-6), (run["label"], k)
    assert summ["attempts"] == sum(e["attempts"] for e in expected.values()) == 51
    assert summ["problems"] == 3 and summ["excluded"] == 1
    real = next(r for r in summ["runs"] if r["label"] == "real-default")
    assert real["solved_problems"] == ["lia_succ"] and real["tokens"] == 0 and real["checker_cpu_s"] > 0

    sweep = next(s for s in summ["sweeps"] if len({p["timeout_s"] for p in s["points"]}) == 3)
    assert sorted({p["k"] for p in sweep["points"]}) == [1, 2, 4]
    for p in sweep["points"]:
        label = f"fakeA@{p['timeout_s']:g}s"
        assert p["solved"] == pytest.approx(expected[label][p["k"]], abs=1e-6)
        assert p["combined"] == pytest.approx(p["checker_cpu_s"] + p["tokens"] / 1000)
    assert sweep["fits"]["checker_cpu_s"]["points"] == 9 and sweep["fits"]["checker_cpu_s"]["r2"] is not None
    assert summ["compare"]["common"] == 3 and summ["compare"]["a"] == "fakeA@10s"


def test_report_files(db, tmp_path):
    out = tmp_path / "out"
    write_report(analysis.load([db]), out, compare_runs=("fakeA@10s", "fakeB"))
    md = (out / "report.md").read_text()
    for needle in ("## Runs", "real-default", "pass@k", "## Excluded statements", "`broken` (failed)",
                   "## Scaling sweeps", "R² =", "## Side by side"):
        assert needle in md, needle
    for name in ("runs.csv", "passk.csv", "problems.csv", "attempts.csv", "excluded.csv", "sweep.csv", "compare.csv"):
        assert (out / name).read_text().count("\n") >= 2, name
    pngs = list(out.glob("*.png"))
    assert (out / "passk.png") in pngs and any(p.name.startswith("scaling_") for p in pngs)
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert json.loads((out / "summary.json").read_text())["attempts"] == 51


def test_cli_report_json(db, tmp_path):
    before = db.read_bytes()
    r = subprocess.run([sys.executable, "-m", "benchmarks", "report", "--db", str(db), "--out", str(tmp_path / "o"),
                        "--json", "--no-plots"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    summ = json.loads(r.stdout)
    assert {"problems", "attempts", "solved", "excluded", "runs"} <= set(summ)
    assert (summ["problems"], summ["attempts"], summ["solved"]) == (3, 51, 3)
    assert not list((tmp_path / "o").glob("*.png"))
    assert db.read_bytes() == before  # reports open the DB read-only
    r = subprocess.run([sys.executable, "-m", "benchmarks", "report", "--db", str(db), "--out", str(tmp_path / "o"),
                        "--compare", "nope", "fakeB"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 2 and "no runs named 'nope'" in r.stderr
