"""The ``lm`` and ``learned`` presets: ``prove --preset``, the benchmark presets and the tactic
model part of ``prover-setup model tactics``, with the model missing, shipped and installed (the
base model's preparation stood in for; no model is loaded here)."""

import json
import time
from pathlib import Path

import pytest

from benchmarks.presets import get_preset, search_attempt
from benchmarks.problem import AttemptRequest, BenchProblem
from prover.commands import prove, setup
from prover.config import SearchSettings, load_config
from prover.presets import KNN_MISSING, LM_MISSING, PresetError, default_tactic_model, search_overrides, tactic_model_installed
from prover.search import SearchBudget
from prover.search.lm_card import CARD_FILE, TacticModelCard, read_card, write_card
from prover.search.lm_source import DEFAULT_MAX_CALLS, Proposal

TRUE_FILE = "Theorem t : True.\nProof.\nAdmitted.\n"


@pytest.fixture
def homes(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(k-NN index folder, tactic model folder), both empty, where the presets look."""
    knn, lm = tmp_path / "knn", tmp_path / "lm"
    monkeypatch.setenv("PROVER_KNN_INDEX", str(knn))
    monkeypatch.setenv("PROVER_TACTIC_MODEL", str(lm))
    return knn, lm


def _install_knn(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.npz").write_bytes(b"")
    (folder / "entries.jsonl").write_text("", encoding="utf-8")


def test_the_card_file_and_the_defaults_agree():
    assert tactic_model_installed(Path("/nonexistent")) is False
    assert CARD_FILE == "tactic-model.json"
    assert SearchSettings().lm_max_calls == SearchBudget().lm_max_calls == DEFAULT_MAX_CALLS
    assert SearchSettings().lm_k == SearchBudget().lm_k == 8 and SearchSettings().lm_model is None


def test_default_model_location(monkeypatch):
    monkeypatch.delenv("PROVER_TACTIC_MODEL", raising=False)
    assert default_tactic_model() == Path("~/.cache/agentic-prover/tactics/lm").expanduser()


def test_lm_and_learned_set_the_model_and_refuse_without_it(homes):
    knn, lm = homes
    for name in ("lm", "learned"):
        with pytest.raises(PresetError):
            search_overrides(name)
    _install_knn(knn)
    with pytest.raises(PresetError, match=LM_MISSING):
        search_overrides("learned")
    write_card(lm, TacticModelCard(base="smollm2"))
    assert search_overrides("lm") == {"lm_model": str(lm)}
    assert search_overrides("learned") == {"knn_index": str(knn), "lm_model": str(lm)}
    cfg = prove._with_preset(load_config(None, env={}), "learned")
    assert (cfg.search.knn_index, cfg.search.lm_model, cfg.search.hammer) == (str(knn), str(lm), "fallback")
    assert prove._with_preset(load_config(None, env={}), "knn").search.lm_model is None


@pytest.mark.parametrize("name", ["lm", "learned"])
def test_prove_without_the_model_exits_2_naming_the_setup_command(homes, tmp_path, capsys, name):
    _install_knn(homes[0])
    problem = tmp_path / "t.v"
    problem.write_text(TRUE_FILE, encoding="utf-8")
    assert prove.main([str(problem), "--preset", name, "--quiet"]) == 2
    assert "the tactic language model is not installed: run `prover-setup model tactics`" in capsys.readouterr().err


def test_benchmark_presets_without_the_model_are_error_results(homes):
    problem = BenchProblem(suite="t", name="t", language="rocq", text=TRUE_FILE)
    for name in ("lm", "learned"):
        preset = get_preset(name)
        assert preset.config["budget"] == get_preset("default").config["budget"]
        res = search_attempt(problem, AttemptRequest(seed=0, timeout_s=10, config=preset.config))
        assert res.outcome == "error" and (KNN_MISSING if name == "learned" else LM_MISSING) in res.reason
    _install_knn(homes[0])
    res = search_attempt(problem, AttemptRequest(seed=0, timeout_s=10, config=get_preset("learned").config))
    assert res.outcome == "error" and LM_MISSING in res.reason and str(homes[1]) in res.reason


def _shipped(folder: Path, adapter: bool = True) -> Path:
    """A repository's ``rl/tactic_model``: a card naming the bundled base and an adapter folder."""
    if adapter:
        (folder / "adapter").mkdir(parents=True)
        (folder / "adapter" / "adapter_config.json").write_text("{}", encoding="utf-8")
        (folder / "adapter" / "adapter_model.safetensors").write_bytes(b"weights")
    write_card(folder, TacticModelCard(base="smollm2", adapter="adapter", max_new_tokens=32, trained={"steps": 5}))
    return folder


def test_setup_installs_the_shipped_model_with_its_base_named(homes, tmp_path, monkeypatch, capsys):
    base = tmp_path / "models" / "smollm2"
    asked: list[str] = []
    monkeypatch.setattr("prover.models.ensure_model", lambda name, log=print: asked.append(str(name)) or base)
    source = _shipped(tmp_path / "repo")
    for _ in range(2):  # again: the adapter is replaced, not merged
        assert setup.setup_tactic_model(source) == 0
    lm = homes[1]
    card = read_card(lm)
    assert asked == ["smollm2", "smollm2"] and card.base == str(base.resolve())
    assert (card.adapter, card.max_new_tokens, card.trained) == ("adapter", 32, {"steps": 5})
    assert (lm / "adapter" / "adapter_model.safetensors").read_bytes() == b"weights"
    assert capsys.readouterr().out.strip().splitlines()[-1] == str(lm)
    assert search_overrides("lm") == {"lm_model": str(lm)}


def test_setup_installs_a_served_models_card_as_it_is(homes, tmp_path, monkeypatch):
    monkeypatch.setattr("prover.models.ensure_model", lambda name, log=print: pytest.fail("no base to prepare"))
    served = TacticModelCard(base="tactics", endpoint="http://127.0.0.1:8000/v1")
    write_card(tmp_path / "repo", served)
    assert setup.setup_tactic_model(tmp_path / "repo") == 0
    assert read_card(homes[1]) == served


def test_setup_without_a_shipped_model_says_so_and_installs_nothing(homes, tmp_path, capsys):
    assert setup.setup_tactic_model(tmp_path / "repo") == 0
    assert "no trained tactic model in this repository" in capsys.readouterr().err
    assert not tactic_model_installed(homes[1])


def test_setup_refuses_a_shipped_card_without_its_adapter(homes, tmp_path, capsys):
    assert setup.setup_tactic_model(_shipped(tmp_path / "repo", adapter=False)) == 1
    assert "adapter is missing" in capsys.readouterr().err and not tactic_model_installed(homes[1])


def test_setup_tactics_prints_the_index_then_the_model(homes, tmp_path, monkeypatch, capsys):
    def fake_run(cmd, cwd=None, env=None):
        if cmd[3] == "index":  # python -m rl.stepdata.cli index --data DIR
            _install_knn(Path(cmd[-1]) / "knn")
        return 0

    monkeypatch.setattr(setup, "_run", fake_run)
    monkeypatch.setattr(setup.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr("prover.models.ensure_model", lambda name, log=print: tmp_path / "base")
    monkeypatch.setattr(setup, "TACTIC_MODEL_SOURCE", _shipped(tmp_path / "repo"))
    assert setup.main(["model", "tactics", "--limit-files", "1"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-2:] == [str(homes[0]), str(homes[1])]


class _AnyGoalModel:
    """A tactic model with nothing to propose, that records the prompts it was asked."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def propose(self, prompt: str, k: int) -> list[Proposal]:
        assert prompt.startswith("Rocq goal:\n") and prompt.endswith("\nNext tactic:")
        self.prompts.append(prompt)
        time.sleep(0.05)  # a model takes time: the search's report must show it
        return []


@pytest.mark.rocq
def test_prove_with_the_lm_preset_answers_as_the_default_does(homes, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_card(homes[1], TacticModelCard(base="smollm2"))
    model = _AnyGoalModel()
    monkeypatch.setattr("prover.search.search.load_model", lambda path: model)
    problem = tmp_path / "t.v"
    problem.write_text("Theorem t : forall n : nat, n + 0 = n.\nProof.\nAdmitted.\n", encoding="utf-8")
    runs = {}
    for preset in ("default", "lm"):
        assert prove.main([str(problem), "--preset", preset, "--json", "--no-cache", "--timeout", "60"]) == 0
        runs[preset] = json.loads(capsys.readouterr().out)
    assert runs["lm"].keys() == runs["default"].keys() and runs["lm"]["proved"] is True
    assert model.prompts == []  # a closer proved the root: the model is asked only after the closers fail
    false = tmp_path / "f.v"
    false.write_text("Theorem f : forall n : nat, n = S n.\nProof.\nAdmitted.\n", encoding="utf-8")
    for preset in ("default", "lm"):
        assert prove.main([str(false), "--preset", preset, "--json", "--no-cache", "--timeout", "5"]) == 1
        runs[preset] = json.loads(capsys.readouterr().out)
    assert runs["lm"].keys() == runs["default"].keys() and runs["lm"]["proved"] is False
    assert model.prompts  # no closer proves it: the model was asked
    spent = {preset: runs[preset]["spent"] for preset in runs}
    assert spent["lm"].keys() == spent["default"].keys()
    assert spent["lm"]["tactic_model_calls"] == len(model.prompts) and spent["lm"]["tactic_model_s"] > 0
    assert spent["default"]["tactic_model_calls"] == 0 == spent["default"]["tactic_model_s"]
    assert spent["lm"]["llm_calls"] == 0  # the tactic model is not the LLM backend
