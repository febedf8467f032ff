"""rl.bench: curriculum export as a benchmark folder, and the policy as a benchmark attempt function."""

import json

import pytest
from rl_helpers import RuleVerifier
from test_loop import cfg

from benchmarks.problem import AttemptRequest, AttemptResult
from benchmarks.runner import resolve_attempt_fn, safe_attempt
from benchmarks.suites import get_suite
from lean_tools.parsing import parse_source
from rl import bench
from rl.curriculum import generate
from rl.loop import train

FAMS = ("eval_nat", "lin_nat", "taut")


def test_export_round_trips_through_the_folder_suite(tmp_path):
    paths = bench.export(tmp_path / "suite", n=6, seed=3, families=FAMS, max_difficulty=1)
    _, held = generate(FAMS, 1, 0, 6, 3)
    assert sorted(p.name for p in paths) == sorted(f"{p.name}.v" for p in held)
    probs = {p.name: p for p in get_suite(str(tmp_path / "suite")).load()}
    assert len(probs) == 6
    for p in held:
        bp = probs[p.name]
        assert bp.language == "rocq" and bp.theorem == p.name and bp.text == p.text
        src = parse_source(bp.text, "rocq")
        assert src.theorem_name == p.name and src.statement == p.statement and src.terminator == "Admitted."
        assert p.split == "heldout"


def test_export_cli_and_bad_input(tmp_path, capsys):
    assert bench.main(["export", "--out", str(tmp_path / "a"), "--n", "3", "--split", "train"]) == 0
    assert len(list((tmp_path / "a").glob("*.v"))) == 3
    assert bench.main(["export", "--out", str(tmp_path / "b"), "--split", "nope"]) == 2
    assert bench.main(["export", "--out", str(tmp_path / "b"), "--n", "0"]) == 2
    assert bench.main(["export", "--out", str(tmp_path / "b"), "--families", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "split must be" in err and "unknown curriculum families" in err


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A real prover-train run directory (config.json + checkpoint) of a tiny, barely trained policy."""
    run = tmp_path_factory.mktemp("run")
    c = cfg(trainer__steps=1, curriculum__families=list(FAMS))
    train(c, run, verifier=RuleVerifier(), log=lambda *_: None)
    assert (run / "config.json").is_file() and (run / "checkpoint" / "state.pt").is_file()
    return run


@pytest.fixture()
def two_problems(tmp_path):
    bench.export(tmp_path / "suite", n=2, seed=0, families=("eval_nat", "lin_nat"), max_difficulty=1)
    return list(get_suite(str(tmp_path / "suite")).load())


def test_missing_checkpoint_is_an_error_result(two_problems, monkeypatch, tmp_path):
    monkeypatch.delenv(bench.ENV_CHECKPOINT, raising=False)
    fn = resolve_attempt_fn("rl.bench:policy_attempt")
    res = safe_attempt(fn, two_problems[0], AttemptRequest(seed=0, timeout_s=1))
    assert res.outcome == "error" and bench.ENV_CHECKPOINT in res.reason
    monkeypatch.setenv(bench.ENV_CHECKPOINT, str(tmp_path / "nothing"))
    res = safe_attempt(fn, two_problems[0], AttemptRequest(seed=0, timeout_s=1))
    assert res.outcome == "error" and "no such file" in res.reason


def test_policy_init_and_trained_load_and_are_cached(tiny_run):
    a = bench.load_policy(str(tiny_run), "trained")
    assert bench.load_policy(str(tiny_run / "checkpoint" / "state.pt"), "trained") is not a  # keyed by ref
    assert bench.load_policy(str(tiny_run), "trained") is a
    b = bench.load_policy(str(tiny_run), "init")
    wa = next(iter(a.snapshots.get(None)[1].parameters()))
    wb = next(iter(b.snapshots.get(None)[1].parameters()))
    assert not bool((wa == wb).all())  # one trained step moved the weights
    with pytest.raises(bench.PolicyLoadError):
        bench.load_policy(str(tiny_run), "best")


def test_lm_attempt_refuses_a_run_that_is_not_a_language_model(tiny_run, two_problems, monkeypatch):
    with pytest.raises(bench.PolicyLoadError, match="policy_attempt"):
        bench.load_lm_policy(str(tiny_run))
    monkeypatch.setenv(bench.ENV_CHECKPOINT, str(tiny_run))
    res = safe_attempt(bench.lm_attempt, two_problems[0], AttemptRequest(timeout_s=5.0, seed=0))
    assert res.outcome == "error" and "model.type" in res.reason


def test_lm_sampler_choice_is_validated_and_the_warmup_is_declared(tiny_run, monkeypatch):
    assert bench.sampler_from_env() is None  # unset: the run's own sampler.type
    for ok in ("vllm", "transformers"):
        monkeypatch.setenv(bench.ENV_SAMPLER, ok)
        assert bench.sampler_from_env() == ok
    monkeypatch.setenv(bench.ENV_SAMPLER, "hf")
    with pytest.raises(bench.PolicyLoadError, match="'vllm' or 'transformers'"):
        bench.sampler_from_env()
    # the runner calls lm_attempt.warmup once per worker; on a bad run it raises, naming the cause
    monkeypatch.delenv(bench.ENV_SAMPLER)
    monkeypatch.setenv(bench.ENV_CHECKPOINT, str(tiny_run))
    with pytest.raises(bench.PolicyLoadError, match="policy_attempt"):
        bench.lm_attempt.warmup()


def test_never_accepts_without_the_verdict(tiny_run, two_problems, monkeypatch):
    """Every script passes the (stubbed) prescreen; a verdict that rejects all means no proof."""
    from lean_tools import soundness
    from lean_tools.soundness.verdict import reject

    calls = []

    def refuse(problem_text, candidate_text, language, theorem=None, timeout=120.0, **kw):
        calls.append((problem_text, candidate_text, theorem))
        return reject("compile", "refused by the test", language, theorem or "")

    monkeypatch.setenv(bench.ENV_CHECKPOINT, str(tiny_run))
    monkeypatch.setattr(bench, "_prescreen", lambda header, code, timeout: bench.Prescreen(True, "", 0.0))
    monkeypatch.setattr(soundness, "verify", refuse)
    for p in two_problems:
        calls.clear()
        res = bench.policy_attempt(p, AttemptRequest(seed=1, timeout_s=1.0))
        assert isinstance(res, AttemptResult) and res.outcome == "failed" and res.proof is None
        assert calls and all(c[0] == p.text and c[2] == p.theorem for c in calls)
        assert all(c[1].startswith(p.text.split("Proof.")[0]) and c[1].rstrip().endswith("Qed.") for c in calls)
        assert res.tokens > 0 and 1.0 <= res.wall_s < 10.0
        assert "full-verdict rejections" in res.reason


@pytest.mark.rocq
def test_policy_attempt_against_real_rocq(tiny_run, two_problems, monkeypatch):
    from lean_tools.soundness import verify

    monkeypatch.setenv(bench.ENV_CHECKPOINT, str(tiny_run))
    for p in two_problems:
        res = bench.policy_attempt(p, AttemptRequest(seed=0, timeout_s=3.0))
        assert res.outcome in ("proved", "failed") and res.tokens > 0 and res.wall_s > 0
        assert json.loads(res.model_dump_json())["outcome"] == res.outcome  # a JSONL-able record
        if res.proved:
            assert verify(p.text, res.proof, "rocq", theorem=p.theorem).accepted
            assert res.checker_cpu_s > 0
        else:
            assert res.proof is None and res.wall_s >= 3.0


def test_policy_temperature_from_the_environment(tiny_run, monkeypatch):
    monkeypatch.delenv(bench.ENV_TEMPERATURE, raising=False)
    assert bench.temperature_from_env() is None
    monkeypatch.setenv(bench.ENV_TEMPERATURE, "1.5")
    assert bench.temperature_from_env() == 1.5
    hot = bench.load_policy(str(tiny_run), "trained", 1.5)
    assert hot.temperature == 1.5 and hot is not bench.load_policy(str(tiny_run), "trained")
    assert bench.load_policy(str(tiny_run), "trained").temperature == 1.0  # the run's sampler.temperature
    for bad in ("0", "-1", "hot"):
        monkeypatch.setenv(bench.ENV_TEMPERATURE, bad)
        with pytest.raises(bench.PolicyLoadError, match=bench.ENV_TEMPERATURE):
            bench.temperature_from_env()
