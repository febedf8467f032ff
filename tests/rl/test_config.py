"""Config parsing: every shipped TOML loads; overrides; one-line errors; no torch at import."""

import subprocess
import sys
from pathlib import Path

import pytest

from rl.config import (
    ConfigError,
    RLConfig,
    apply_overrides,
    from_dict,
    load_config,
    shipped_configs,
)

ROOT = Path(__file__).resolve().parents[2]


def test_every_shipped_config_loads():
    paths = shipped_configs()
    names = {p.name for p in paths}
    assert {"smoke.toml", "h200.toml", "cpu_demo.toml"} <= names
    for p in paths:
        cfg = load_config(p)
        assert isinstance(cfg, RLConfig)


def test_overrides_nested_and_typed():
    cfg = load_config(ROOT / "rl/configs/smoke.toml", ["trainer.steps=3", "algorithm.type=dapo", "async.mode=sync",
                                                       "curriculum.families=['taut']", "model.dropout=0.1"])
    assert cfg.trainer.steps == 3
    assert cfg.algorithm.type == "dapo" and cfg.algorithm.eps_high_value == 0.28
    assert cfg.algorithm.dynamic_sampling_on
    assert cfg.async_.mode == "sync"
    assert cfg.curriculum.families == ("taut",)
    assert cfg.model.dropout == 0.1


def test_new_knobs_default_to_the_old_behaviour():
    cfg = from_dict({})
    assert cfg.env.loop == "tactic" and cfg.algorithm.entropy_coef == 0.0
    agent = load_config(ROOT / "rl/configs/agent_loop_cpu.toml")
    assert agent.env.loop == "agent" and agent.env.max_turns > 1
    ent = load_config(ROOT / "rl/configs/cpu_demo_entropy.toml")
    demo = load_config(ROOT / "rl/configs/cpu_demo.toml")
    assert ent.algorithm.entropy_coef > 0
    # the same run as cpu_demo apart from the bonus (and where it writes)
    assert ent.model_copy(update={"algorithm": demo.algorithm, "output": demo.output}) == demo


def test_algorithm_defaults_follow_type():
    assert from_dict({"algorithm": {"type": "grpo"}}).algorithm.eps_high_value == 0.2
    assert not from_dict({"algorithm": {"type": "grpo"}}).algorithm.dynamic_sampling_on
    assert from_dict({"algorithm": {"type": "dapo", "dynamic_sampling": False}}).algorithm.dynamic_sampling_on is False


@pytest.mark.parametrize(
    "overrides, needle",
    [
        (["trainer.steps=0"], "trainer.steps"),
        (["trainer.nonsense=1"], "trainer.nonsense"),
        (["algorithm.type=ppo"], "algorithm.type"),
        (["no_equals_sign"], "key.sub=value"),
        (["sampler.type=vllm"], "vllm"),
        (["env.loop=chat"], "env.loop"),
        (["algorithm.entropy_coef=-0.1"], "algorithm.entropy_coef"),
        (["env.agent_wall_s=0"], "env.agent_wall_s"),
    ],
)
def test_bad_overrides_are_one_line_errors(overrides, needle):
    with pytest.raises(ConfigError) as ei:
        load_config(ROOT / "rl/configs/smoke.toml", overrides)
    msg = str(ei.value)
    assert needle in msg and "\n" not in msg


def test_apply_overrides_does_not_mutate():
    d = {"a": {"b": 1}}
    out = apply_overrides(d, ["a.b=2", "a.c='x'"])
    assert d == {"a": {"b": 1}} and out == {"a": {"b": 2, "c": "x"}}


def test_config_module_does_not_import_torch():
    code = "import sys, rl.config, rl.records, rl.curriculum; print(any(m in sys.modules for m in ('torch','transformers','vllm','ray')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_bad_input_exit_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[trainer]\nsteps = -1\n")
    for args in ([str(bad)], [str(tmp_path / "missing.toml")], [str(ROOT / "rl/configs/smoke.toml"), "trainer.lr=-1"]):
        r = subprocess.run([sys.executable, "-m", "rl.cli", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr and r.stderr.startswith("prover-train: ")
        assert len(r.stderr.strip().splitlines()) == 1
