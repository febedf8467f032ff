"""CLI entrypoint in-process: list, fetch without network, config errors, validate/run/report round trip."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from benchmarks import cli, fetch

TINY = Path(__file__).resolve().parents[1] / "data" / "benchmarks" / "tiny"


def test_list(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "putnam-coq" in out and "412 problems" in out and "minif2f-rocq" in out and "488 problems" in out


def test_fetch_without_network_exits_2(tmp_path, monkeypatch, capsys):
    def no_net(args, cwd, timeout=600):
        raise fetch.FetchError("git fetch failed: Could not resolve host: github.com")

    monkeypatch.setattr(fetch, "_git", no_net)
    assert cli.main(["fetch", "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("prover-bench: error: fetch failed") and "Could not resolve host" in err


def test_bad_config_and_budgets_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[search\n")
    assert cli.main(["run", str(TINY), "--db", str(tmp_path / "r.db"), "--config", str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    assert cli.main(["sweep", str(TINY), "--db", str(tmp_path / "r.db"), "--budgets", "5,x"]) == 2
    assert "--budgets" in capsys.readouterr().err
    assert cli.main(["run", str(TINY), "--db", str(tmp_path / "r.db"), "--attempt-fn", "nomodule_xyz:f"]) == 2


@pytest.mark.rocq
def test_validate_run_report_round_trip(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    assert cli.main(["validate", str(TINY), "--db", db, "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "4 statements, 3 compile, 1 excluded" in out and "excluded broken (failed)" in out
    args = ["run", str(TINY), "--db", db, "--k", "2", "--timeout", "3", "--attempt-fn", "bench_fakes:coin_attempt",
            "--limit", "2"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "2 problems to run, 1 excluded" in out and "4 attempts planned, 0 already recorded" in out
    assert cli.main(args) == 0
    assert "4 attempts planned, 4 already recorded" in capsys.readouterr().out
    assert cli.main(["report", "--db", db, "--out", str(tmp_path / "rep"), "--json", "--no-plots"]) == 0
    import json

    summ = json.loads(capsys.readouterr().out)
    assert summ["attempts"] == 4 and summ["problems"] == 2 and summ["excluded"] == 1


def test_attempt_identity():
    """The default attempt function adds nothing to a run's key; another adds its reference and
    what its ``identity`` declares; an identity that raises stops the run with its cause."""
    import bench_fakes

    from benchmarks.attempt_contract import RunError, attempt_identity
    from benchmarks.runner import DEFAULT_ATTEMPT

    assert attempt_identity(DEFAULT_ATTEMPT, DEFAULT_ATTEMPT) == {}
    assert attempt_identity("bench_fakes:coin_attempt", DEFAULT_ATTEMPT) == {"attempt_fn": "bench_fakes:coin_attempt"}
    assert attempt_identity(bench_fakes.coin_attempt, DEFAULT_ATTEMPT) == {"attempt_fn": "bench_fakes:coin_attempt"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAKE_SETTING", "a")
        assert attempt_identity("bench_fakes:setting_attempt", DEFAULT_ATTEMPT)["settings"] == {"setting": "a"}
        mp.delenv("FAKE_SETTING")
        with pytest.raises(RunError, match="bench_fakes:setting_attempt: LookupError: FAKE_SETTING is not set"):
            attempt_identity("bench_fakes:setting_attempt", DEFAULT_ATTEMPT)


@pytest.mark.rocq
def test_attempt_settings_are_part_of_the_run_key(tmp_path, capsys, monkeypatch):
    """Two runs into one database that differ only in what the attempt function reads from the
    environment (a trained and an untrained policy, say) are two runs: the second is not taken
    for a resume of the first."""
    db = str(tmp_path / "r.db")
    args = ["run", str(TINY), "--db", db, "--timeout", "3", "--attempt-fn", "bench_fakes:setting_attempt", "--limit", "2"]
    monkeypatch.setenv("FAKE_SETTING", "trained")
    assert cli.main(args) == 0
    assert "2 attempts planned, 0 already recorded" in capsys.readouterr().out
    assert cli.main(args) == 0
    assert "2 attempts planned, 2 already recorded" in capsys.readouterr().out
    monkeypatch.setenv("FAKE_SETTING", "init")
    assert cli.main(args) == 0
    assert "2 attempts planned, 0 already recorded" in capsys.readouterr().out
    monkeypatch.delenv("FAKE_SETTING")
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert "bench_fakes:setting_attempt" in err and "FAKE_SETTING is not set" in err and "Traceback" not in err
