"""Search presets: ``prove --preset``, the benchmark's ``knn`` preset and ``prover-setup model
tactics``, with the k-NN index missing, present and built (the build's commands stood in for)."""

from pathlib import Path

import pytest

from benchmarks.presets import get_preset, search_attempt
from benchmarks.problem import AttemptRequest, BenchProblem
from prover.commands import prove, setup
from prover.config import load_config
from prover.presets import KNN_MISSING, PresetError, default_knn_index, search_overrides


@pytest.fixture
def no_index(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "knn"
    monkeypatch.setenv("PROVER_KNN_INDEX", str(folder))
    return folder


def _install(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.npz").write_bytes(b"")
    (folder / "entries.jsonl").write_text("", encoding="utf-8")


def test_presets_set_the_search_settings(no_index):
    assert search_overrides("default") == {}
    assert search_overrides("hammer") == {"hammer": "only"}
    with pytest.raises(PresetError, match="known: default, hammer, knn"):
        search_overrides("nope")
    _install(no_index)
    assert search_overrides("knn") == {"knn_index": str(no_index)}
    cfg = prove._with_preset(load_config(None, env={}), "knn")
    assert cfg.search.knn_index == str(no_index) and cfg.search.knn_k == 8 and cfg.search.hammer == "fallback"
    assert prove._with_preset(load_config(None, env={}), "hammer").search.hammer == "only"


def test_default_index_location(monkeypatch):
    monkeypatch.delenv("PROVER_KNN_INDEX", raising=False)
    assert default_knn_index() == Path("~/.cache/agentic-prover/tactics/knn").expanduser()


def test_prove_with_the_knn_preset_and_no_index_exits_2_naming_the_setup_command(no_index, tmp_path, capsys):
    problem = tmp_path / "t.v"
    problem.write_text("Theorem t : True.\nProof.\nAdmitted.\n", encoding="utf-8")
    assert prove.main([str(problem), "--preset", "knn", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the k-NN tactic index is not installed: run `prover-setup model tactics`" in err


def test_benchmark_knn_preset_without_index_is_an_error_result(no_index):
    preset = get_preset("knn")
    assert preset.config["budget"] == get_preset("default").config["budget"]
    problem = BenchProblem(suite="t", name="t", language="rocq", text="Theorem t : True.\nProof.\nAdmitted.\n")
    res = search_attempt(problem, AttemptRequest(seed=0, timeout_s=10, config=preset.config))
    assert res.outcome == "error" and KNN_MISSING in res.reason and str(no_index) in res.reason


def test_setup_tactics_builds_then_moves_the_index_and_runs_again(no_index, monkeypatch, capsys):
    ran: list[list[str]] = []

    def fake_run(cmd, cwd=None, env=None):
        ran.append(cmd)
        if cmd[3] == "index":  # python -m rl.stepdata.cli index --data DIR
            _install(Path(cmd[-1]) / "knn")
        return 0

    monkeypatch.setattr(setup, "_run", fake_run)
    monkeypatch.setattr(setup.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(setup, "TACTIC_MODEL_SOURCE", no_index.parent / "no-model")  # the model part: tests/prover/test_lm_presets.py
    monkeypatch.setattr(setup, "TACTICS_JOBS", 2)
    for _ in range(2):
        assert setup.main(["model", "tactics", "--limit-files", "3"]) == 0
    data = str(no_index.parent / "steps")
    jobs = ["--out", data, "--jobs", "2"]
    assert [c[3:] for c in ran[:3]] == [
        ["build", "--libraries", "stdlib", "--limit-files", "3", *jobs],
        ["build", "--libraries", "stdpp", "--limit-files", "3", *jobs],
        ["index", "--data", data],
    ]
    assert len(ran) == 6 and (no_index / "index.npz").is_file()
    assert capsys.readouterr().out.strip().splitlines()[-1] == str(no_index)


def test_setup_tactics_builds_the_measured_files_by_default(no_index, monkeypatch):
    ran: list[list[str]] = []

    def fake_run(cmd, cwd=None, env=None):
        ran.append(cmd)
        return 1 if cmd[3] == "index" else 0  # the builds succeed, the index fails: nothing after it runs

    monkeypatch.setattr(setup, "_run", fake_run)
    monkeypatch.setattr(setup.shutil, "which", lambda name: "/usr/bin/" + name)
    assert setup.main(["model", "tactics"]) == 1
    assert [c[4:8] for c in ran[:2]] == [["--libraries", "stdlib", "--limit-files", "130"],
                                          ["--libraries", "stdpp", "--limit-files", "20"]]
    assert [c[3] for c in ran] == ["build", "build", "index"]


def test_setup_tactics_refuses_a_zero_bound():
    with pytest.raises(SystemExit):
        setup.main(["model", "tactics", "--limit-files", "0"])
