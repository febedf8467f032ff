"""Presets (``prover-bench run --preset``) and what every run records (code version, config
hash, seeds, shuffle seed, excluded statements); the version-1 database upgrade."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from benchmarks import cli
from benchmarks.attempt_contract import attempt_identity, keyed_config_hash
from benchmarks.db import SCHEMA_VERSION, ResultsDB
from benchmarks.presets import (
    PRESETS,
    Preset,
    candidate_file,
    get_preset,
    register,
    search_attempt,
    split_statement,
)
from benchmarks.problem import AttemptRequest, BenchProblem, config_hash
from benchmarks.runner import DEFAULT_ATTEMPT, code_version
from benchmarks.suites import normalize_rocq

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "search"
TINY = ROOT / "tests" / "data" / "benchmarks" / "tiny"


def test_registry_holds_default_and_baseline_and_refuses_duplicates():
    assert {"default", "baseline"} <= set(PRESETS)
    d = get_preset("default")
    assert d.config["budget"] == {"seconds": 5.0, "max_expansions": 40, "max_attempts": 300, "max_depth": 5,
                                  "clock": "cpu", "root_timeout_scale": 1.0}
    assert get_preset("baseline").config["table"] == "baseline"
    with pytest.raises(ValueError):
        register(Preset(name="default", attempt_fn="x:y"))
    with pytest.raises(KeyError, match=r"known: .*baseline.*default"):
        get_preset("nope")


def test_split_statement_keeps_definitions_in_header():
    header, stmt = split_statement(normalize_rocq((DATA / "ends_at_proof.v").read_text()))
    assert "Definition g" in header and header.startswith("Require Import Arith.")
    assert stmt.startswith("Theorem sample_ends_at_proof (x : nat)") and stmt.endswith("x = 3.")


def test_candidate_file_puts_requires_before_the_theorem():
    text = normalize_rocq((DATA / "with_admitted.v").read_text())
    out = candidate_file(text, "From Coq Require Import Lia.\nintros; lia.")
    assert out.index("From Coq Require Import Lia.") < out.index("Theorem ")
    assert "intros; lia." in out and out.rstrip().endswith("Qed.") and "Admitted" not in out


def _problem(name: str) -> BenchProblem:
    return BenchProblem(suite="t", name=name, language="rocq", text=normalize_rocq((DATA / f"{name}.v").read_text()))


def test_hard_limit_abandons_a_search_that_never_returns(monkeypatch):
    """A Python loop that never returns (no proof-assistant call to time out) is cut by the alarm."""
    import prover.search

    def spin(*args, **kwargs):
        while True:
            pass

    monkeypatch.setattr(prover.search, "prove_goal", spin)
    cfg = dict(get_preset("default").config, hard_limit_s=1)
    res = search_attempt(_problem("with_admitted"), AttemptRequest(seed=0, timeout_s=10, config=cfg))
    assert res.outcome == "timeout" and res.reason == "hard limit: abandoned after 1 s"


def test_preset_refuses_lean_and_conflicting_flags(tmp_path, capsys):
    lean = BenchProblem(suite="t", name="x", language="lean", text="theorem x : True := sorry")
    res = search_attempt(lean, AttemptRequest(seed=0, timeout_s=10, config=get_preset("default").config))
    assert res.outcome == "error" and "Rocq problems only" in res.reason
    db = str(tmp_path / "r.db")
    assert cli.main(["run", str(TINY), "--db", db, "--preset", "default", "--attempt-fn", "a:b"]) == 2
    assert "--preset fixes" in capsys.readouterr().err
    assert cli.main(["run", str(TINY), "--db", db, "--preset", "nope"]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err


@pytest.mark.rocq
def test_default_preset_run_records_code_version_config_seed_and_exclusions(tmp_path, capsys, monkeypatch):
    import benchmarks.runner

    version = code_version()  # read once: another commit in a shared tree between the runs would start a new run
    monkeypatch.setattr(benchmarks.runner, "code_version", lambda repo=None: version)
    suite = tmp_path / "suite"
    suite.mkdir()
    for f in DATA.glob("*.v"):
        (suite / f.name).write_text(normalize_rocq(f.read_text()))
    (suite / "broken.v").write_text("Theorem broken : undefined_name = 0.\nProof.\nAdmitted.\n")
    db = str(tmp_path / "r.db")
    args = ["run", str(suite), "--db", db, "--preset", "default", "--shuffle", "3", "--quiet"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "2 problems to run, 1 excluded" in out and "made now (proved 2)" in out
    assert cli.main(args) == 0
    assert "2 already recorded" in capsys.readouterr().out  # resumed: nothing redone
    with sqlite3.connect(db) as c:
        c.row_factory = sqlite3.Row
        (run,) = c.execute("SELECT * FROM runs").fetchall()
        attempts = c.execute("SELECT seed, outcome, proof FROM attempts").fetchall()
    assert run["code_version"] == version and version != "unknown" and run["run_key"].endswith("|" + version)
    preset = get_preset("default")  # the key holds the preset's attempt function as well as its config
    assert run["config_hash"] == keyed_config_hash(preset.config, attempt_identity(preset.attempt_fn, DEFAULT_ATTEMPT))
    assert run["config_hash"] != config_hash(preset.config)
    assert json.loads(run["config"]) == get_preset("default").config
    assert run["shuffle_seed"] == 3
    excluded = json.loads(run["excluded"])
    assert [e["problem"] for e in excluded] == [f"dir:{suite.name}/broken"] and excluded[0]["status"] == "failed"
    assert sorted(a["seed"] for a in attempts) == [0, 0] and all(a["outcome"] == "proved" for a in attempts)
    assert all("Qed." in a["proof"] for a in attempts)


def test_version_1_database_is_upgraded_when_written_and_read_as_is(tmp_path):
    v1 = tmp_path / "v1.db"
    shutil.copy(ROOT / "tests" / "data" / "benchmarks" / "schema_v1.db", v1)  # a results database of schema version 1
    with sqlite3.connect(v1) as c:
        assert c.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0] == "1"
    from benchmarks import analysis

    assert analysis.load([v1]).runs  # read-only: no upgrade needed
    with ResultsDB(v1):
        pass
    with sqlite3.connect(v1) as c:
        assert c.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0] == str(SCHEMA_VERSION)
        row = c.execute("SELECT code_version, excluded, shuffle_seed FROM runs").fetchone()
    assert row == ("", "[]", None)


def test_a_timeout_sets_the_preset_budget_and_keeps_what_runs():
    from benchmarks.presets import get_preset, with_budget

    default = with_budget(get_preset("default"), 30)
    assert default["budget"]["seconds"] == 30.0 and default["budget"]["clock"] == "cpu"
    assert default["table"] == "default" and default["session"] == get_preset("default").config["session"]
    hammer = with_budget(get_preset("hammer"), 30)
    assert hammer["budget"]["hammer"] == "only" and hammer["budget"]["hammer_seconds"] == 25.0
    assert get_preset("default").config["budget"]["seconds"] == 5.0  # the registry itself is unchanged


def test_installed_sources_enter_the_config_by_content_not_by_path(tmp_path, monkeypatch):
    from benchmarks.presets import PRESETS, identify_sources

    def install(root: Path, weights: bytes) -> None:
        (root / "knn").mkdir(parents=True)
        (root / "knn" / "index.npz").write_bytes(b"index")
        (root / "knn" / "entries.jsonl").write_text("{}\n")
        (root / "base").mkdir()
        (root / "base" / "config.json").write_text('{"model_type": "llama"}')
        (root / "lm" / "adapter").mkdir(parents=True)
        card = {"base": str(root / "base"), "adapter": "adapter"}  # the installed card names its base's folder
        (root / "lm" / "tactic-model.json").write_text(json.dumps(card))
        (root / "lm" / "adapter" / "adapter_model.safetensors").write_bytes(weights)

    def ids(root: Path) -> dict:
        monkeypatch.setenv("PROVER_KNN_INDEX", str(root / "knn"))
        monkeypatch.setenv("PROVER_TACTIC_MODEL", str(root / "lm"))
        return identify_sources(PRESETS["learned"].config)

    install(tmp_path / "a", b"round 1")
    install(tmp_path / "b", b"round 1")
    install(tmp_path / "c", b"round 2")
    a, b, c = ids(tmp_path / "a"), ids(tmp_path / "b"), ids(tmp_path / "c")
    assert a == b  # the same index and model installed elsewhere: the same config
    assert a["knn_id"] == c["knn_id"] and a["lm_id"] != c["lm_id"]
    assert config_hash(a) != config_hash(c)
    assert "knn_id" not in identify_sources(PRESETS["default"].config)
    (tmp_path / "b" / "base" / "config.json").write_text('{"model_type": "other"}')
    assert ids(tmp_path / "b")["lm_id"] != a["lm_id"]  # another base model: another key
    monkeypatch.setenv("PROVER_TACTIC_MODEL", str(tmp_path / "missing"))
    assert "lm_id" not in identify_sources(PRESETS["lm"].config)
