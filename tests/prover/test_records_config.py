from pathlib import Path

import pytest
from pydantic import ValidationError

from prover.config import ConfigError, ProverConfig, load_config
from prover.records import (
    LemmaResult,
    LemmaSpec,
    Problem,
    ProofResult,
    Sketch,
    Spent,
    TraceEvent,
)
from prover.trace import Trace, read_trace

ROOT = Path(__file__).resolve().parents[2]


def test_records_roundtrip_jsonl():
    p = Problem(
        name="t",
        language="rocq",
        text="Theorem t : True.\nAdmitted.",
        header="",
        theorem_name="t",
        statement="True",
        declaration="Theorem t : True.",
    )
    sk = Sketch(
        problem="t", round=0, lemmas=(LemmaSpec(name="a", declaration="Lemma a : True."),), main_proof="exact I.", edges=(("t", "a"),)
    )
    r = ProofResult(
        problem="t",
        language="rocq",
        proved=False,
        reason="x",
        spent=Spent(wall_s=1.5, attempts=3),
        lemmas=(LemmaResult(name="a", proved=True, proof="exact I."),),
    )
    for rec in (p, sk, r):
        assert type(rec).from_json(rec.to_json()) == rec
    with pytest.raises(ValidationError):
        p.name = "u"  # frozen


def test_trace_file_is_jsonl(tmp_path):
    path = tmp_path / "t.jsonl"
    with Trace(path) as tr:
        tr.emit("start", problem="p", n=1)
        tr.emit("end", problem="p", spent=Spent(wall_s=2.0))
    evs = read_trace(path)
    assert [e.kind for e in evs] == ["start", "end"]
    assert evs[1].data["spent"]["wall_s"] == 2.0
    assert isinstance(evs[0], TraceEvent)


def test_config_toml_env_cli_precedence(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('[model]\ntype = "openai"\nmodel = "from-toml"\n[prover]\nworkers = 3\n[budget]\nwall_s = 50\n')
    cfg = load_config(f, env={"PROVER_MODEL": "from-env"}, prover__workers=5)
    assert cfg.model.model == "from-env" and cfg.prover.workers == 5 and cfg.budget.wall_s == 50
    assert load_config(env={"PROVER_ENDPOINT": "http://x/v1"}).model.type == "openai"
    assert load_config(env={}).model.type == "none"
    assert "api_key" not in str(cfg.summary()).replace("api_key_env", "")


def test_config_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[model\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad, env={})
    unknown = tmp_path / "u.toml"
    unknown.write_text("[model]\nflavour = 1\n")
    with pytest.raises(ConfigError):
        load_config(unknown, env={})
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.toml", env={})
    with pytest.raises(ConfigError, match="invalid override"):
        load_config(env={"PROVER_WORKERS": "many"})
    with pytest.raises(ConfigError):
        load_config(env={"PROVER_BACKEND": "gpt"})
    assert load_config(env={"PROVER_WORKERS": "3", "PROVER_TIMEOUT": "12.5"}).prover.workers == 3


def test_shipped_configs_parse():
    files = sorted((ROOT / "examples" / "configs").glob("*.toml"))
    assert files, "examples/configs/*.toml missing"
    for f in files:
        assert isinstance(load_config(f, env={}), ProverConfig)
