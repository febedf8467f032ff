"""The expert-iteration driver: the exact commands of each stage, what a round records, and
resuming, with the commands faked at ``subprocess.run`` (nothing else is replaced)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.db import ResultsDB
from benchmarks.problem import AttemptResult, BenchProblem
from rl import expert_iteration as ei
from rl.stepdata.schema import Goal, Step, write_jsonl

PY = sys.executable


def _write_db(path: Path, suite: str, proved: int, failed: int) -> None:
    with ResultsDB(path) as db:
        problems = [BenchProblem(suite=suite, name=f"p{i}", language="rocq", text="Lemma a : True.\nProof.\nAdmitted.\n")
                    for i in range(proved + failed)]
        db.upsert_problems(problems)
        db.ensure_run("k", label="l", suite=suite, suite_version="v", config_hash="c", config={}, timeout_s=20.0,
                      command="x")
        for i, p in enumerate(problems):
            aid = db.claim("k", p.id, 0, suite_version="v", config_hash="c", timeout_s=20.0, owner="h:1:1")
            assert aid is not None
            db.finish(aid, AttemptResult(outcome="proved", proof="x") if i < proved else AttemptResult(outcome="failed"))


def _step(tactic: str) -> Step:
    return Step(library="stdlib", licence="LGPL-2.1-only", file="A/B.v", lemma="a", index=0,
                goals_before=Goal(conclusion="True"), tactic=tactic, goals_after=Goal(), source="search", split="train")


class FakeRun:
    """Stands in for ``subprocess.run``: records (argv, PROVER_TACTIC_MODEL) and writes what the
    real command would (a results database, a steps file, a model card)."""

    def __init__(self, fail_on: str | None = None):
        self.calls: list[tuple[list[str], str | None]] = []
        self.fail_on = fail_on

    def __call__(self, argv: list[str], *, env: dict, stdout, stderr, check: bool) -> subprocess.CompletedProcess:
        self.calls.append((argv, env.get(ei.MODEL_ENV)))
        if self.fail_on and self.fail_on in argv:
            return subprocess.CompletedProcess(argv, 3)
        if argv[2] == "benchmarks":
            db = Path(argv[argv.index("--db") + 1])
            _write_db(db, argv[4], proved=2 if argv[4] == ei.ITER_SUITE else 1, failed=1)
        elif argv[2] == "rl.stepdata.cli":
            out = Path(argv[argv.index("--out") + 1])
            write_jsonl(out, [_step("auto."), _step(f"exact {out.parent.name}.")])
        else:
            out = Path(json.loads(next(a for a in argv if a.startswith("output.dir=")).split("=", 1)[1]))
            (out / "adapter").mkdir(parents=True)
            (out / "tactic-model.json").write_text(json.dumps({"base": "smollm2", "adapter": "adapter"}))
        return subprocess.CompletedProcess(argv, 0)


@pytest.fixture(autouse=True)
def _in_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default ``--sft-config`` is relative to the repository, where the driver runs."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])


@pytest.fixture
def start_model(tmp_path: Path) -> Path:
    model = tmp_path / "start"
    (model / "adapter").mkdir(parents=True)
    (model / "tactic-model.json").write_text(json.dumps({"base": "smollm2", "adapter": "adapter"}))
    return model


def _bench(suite: str, db: Path, label: str) -> list[str]:
    return [PY, "-m", "benchmarks", "run", suite, "--preset", "lm", "--db", str(db), "--timeout", "20",
            "--check-timeout", "300", "--workers", "2", "--label", label]


def test_two_rounds_run_the_exact_commands_and_record_each_round(tmp_path: Path, start_model: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", fake)
    out = tmp_path / "ei"
    assert ei.main(["--rounds", "2", "--start-model", str(start_model), "--out", str(out)]) == 0
    r1, r2 = out / "round1", out / "round2"
    expected = [
        (_bench(ei.HELDOUT_SUITE, out / "round0" / "heldout.db", "lm-round1-heldout"), str(start_model)),
        (_bench(ei.ITER_SUITE, r1 / "iter.db", "lm-round1"), str(start_model)),
        ([PY, "-m", "rl.stepdata.cli", "from-proofs", "--db", str(r1 / "iter.db"), "--suite", ei.ITER_SUITE,
          "--out", str(r1 / "search_steps.jsonl")], None),
        ([PY, "-m", "rl.cli", "rl/configs/tactic_sft_cpu.toml", f'sft.init_adapter="{start_model / "adapter"}"',
          f'sft.extra_examples=["{r1 / "search_steps.jsonl"}"]', f'output.dir="{r2 / "model"}"',
          "sft.skip_examples=0", "sft.examples=300", "sft.eval_every=0", "sft.eval_examples=50"], None),
        (_bench(ei.HELDOUT_SUITE, r1 / "heldout.db", "lm-round2-heldout"), str(r2 / "model")),
        (_bench(ei.ITER_SUITE, r2 / "iter.db", "lm-round2"), str(r2 / "model")),
        ([PY, "-m", "rl.stepdata.cli", "from-proofs", "--db", str(r2 / "iter.db"), "--suite", ei.ITER_SUITE,
          "--out", str(r2 / "search_steps.jsonl")], None),
        ([PY, "-m", "rl.cli", "rl/configs/tactic_sft_cpu.toml", f'sft.init_adapter="{r2 / "model" / "adapter"}"',
          f'sft.extra_examples=["{r1 / "search_steps.jsonl"}", "{r2 / "search_steps.jsonl"}"]',
          f'output.dir="{out / "round3" / "model"}"', "sft.skip_examples=0",
          "sft.examples=300", "sft.eval_every=0", "sft.eval_examples=50"], None),
        (_bench(ei.HELDOUT_SUITE, r2 / "heldout.db", "lm-round3-heldout"), str(out / "round3" / "model")),
    ]
    assert fake.calls == expected
    lines = [json.loads(x) for x in (out / "rounds.jsonl").read_text().splitlines()]
    assert [x["round"] for x in lines] == [0, 1, 2]
    assert (lines[0]["heldout_proved"], lines[0]["heldout_problems"]) == (1, 2)
    one = lines[1]
    assert (one["model"], one["trained_model"]) == (str(start_model), str(r2 / "model"))
    assert (one["iter_proved"], one["iter_problems"], one["heldout_proved"], one["heldout_problems"]) == (2, 3, 1, 2)
    # round 2's file repeats "auto." from round 1: one of its two steps is new
    assert (one["search_steps"], one["new_steps"], lines[2]["search_steps"], lines[2]["new_steps"]) == (2, 2, 2, 1)
    assert set(one["seconds"]) == {"iter", "steps", "train", "heldout"}


def test_a_failed_stage_stops_and_a_rerun_resumes_from_it(tmp_path: Path, start_model: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ei"
    args = ["--rounds", "1", "--start-model", str(start_model), "--out", str(out), "--limit", "2", "--timeout", "10"]
    failing = FakeRun(fail_on="rl.cli")
    monkeypatch.setattr(ei.subprocess, "run", failing)
    assert ei.main(args) == 1
    assert "exited 3" in capsys.readouterr().err and (out / "round1" / "logs" / "train.log").is_file()
    assert not (out / "rounds.jsonl").exists() or "\"round\": 1" not in (out / "rounds.jsonl").read_text()
    resumed = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", resumed)
    assert ei.main(args) == 0
    # the baseline, the search and the step extraction are not run again
    assert [argv[2] for argv, _ in resumed.calls] == ["rl.cli", "benchmarks"]
    assert resumed.calls[1][0][-4:] == ["--label", "lm-round2-heldout", "--limit", "2"]
    assert "--timeout" in resumed.calls[1][0] and resumed.calls[1][0][resumed.calls[1][0].index("--timeout") + 1] == "10"
    again = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", again)
    assert ei.main(args) == 0 and again.calls == []
    assert [json.loads(x)["round"] for x in (out / "rounds.jsonl").read_text().splitlines()] == [0, 1]


def test_resuming_with_other_settings_is_refused(tmp_path: Path, start_model: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(ei.subprocess, "run", FakeRun())
    out = tmp_path / "ei"
    assert ei.main(["--rounds", "1", "--start-model", str(start_model), "--out", str(out)]) == 0
    assert ei.main(["--rounds", "1", "--start-model", str(start_model), "--out", str(out), "--timeout", "30"]) == 2
    assert "other settings (timeout)" in capsys.readouterr().err


def test_a_start_model_without_a_card_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ei.main(["--rounds", "1", "--start-model", str(tmp_path), "--out", str(tmp_path / "ei")]) == 2
    assert "has no tactic-model.json" in capsys.readouterr().err
    assert ei.main(["--rounds", "0", "--start-model", str(tmp_path)]) == 2


def test_a_bad_rounds_line_is_one_line_naming_file_and_line(tmp_path: Path, start_model: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(ei.subprocess, "run", FakeRun())
    out = tmp_path / "ei"
    args = ["--rounds", "1", "--start-model", str(start_model), "--out", str(out)]
    assert ei.main(args) == 0
    log = out / "rounds.jsonl"
    good = log.read_text()
    for bad, needle in [('{"model": "m"}\n', "no integer"), ("{not json\n", "not JSON")]:
        log.write_text(good + bad)
        capsys.readouterr()
        assert ei.main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"expert_iteration: {log}:3: ") and needle in err and err.count("\n") == 1


def test_a_bad_sft_config_fails_before_any_stage_runs(tmp_path: Path, start_model: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    fake = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", fake)
    out = tmp_path / "ei"
    base = ["--rounds", "1", "--start-model", str(start_model), "--out", str(out)]
    assert ei.main([*base, "--sft-override", "sft.examples=-1"]) == 2
    err = capsys.readouterr().err
    assert "sft.examples" in err and err.count("\n") == 1
    assert ei.main([*base, "--sft-config", str(tmp_path / "missing.toml")]) == 2
    assert "config file not found" in capsys.readouterr().err
    assert fake.calls == [] and not out.exists()


def _card(folder: Path, **trained) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tactic-model.json").write_text(json.dumps({"base": "smollm2", "adapter": "adapter", "trained": trained}))
    return folder


def test_a_retrain_skips_the_human_steps_earlier_models_were_drawn(tmp_path: Path) -> None:
    from rl.tactic_sft_config import load_sft_config

    sft = load_sft_config("rl/configs/tactic_sft_cpu.toml", ["sft.examples=300"]).sft
    same = {"train_file": sft.train_file, "seed": sft.seed, "max_tokens": sft.max_tokens}
    # a card without drawn_examples: its selection less its extra steps
    old = _card(tmp_path / "old", config={"sft": same}, selected_examples=1600)
    assert ei.fresh_offset(old, sft)[0] == 1600
    # a continued model: what its run skipped plus what it drew
    later = _card(tmp_path / "later", config={"sft": {**same, "skip_examples": 1600}}, drawn_examples=300,
                  selected_examples=305, extra_examples=5)
    assert ei.fresh_offset(later, sft)[0] == 1900
    other_seed = _card(tmp_path / "seed", config={"sft": {**same, "seed": sft.seed + 1}}, selected_examples=1600)
    offset, why = ei.fresh_offset(other_seed, sft)
    assert offset == 0 and "another seed" in why
    assert ei.fresh_offset(_card(tmp_path / "none"), sft)[0] == 0


def test_the_iteration_search_preset_and_the_skip_reach_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rl.tactic_sft_config import load_sft_config

    sft = load_sft_config("rl/configs/tactic_sft_cpu.toml", []).sft
    start = _card(tmp_path / "start", config={"sft": {"train_file": sft.train_file, "seed": sft.seed,
                                                       "max_tokens": sft.max_tokens}}, selected_examples=992)
    (start / "adapter").mkdir()
    fake = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", fake)
    out = tmp_path / "ei"
    assert ei.main(["--rounds", "1", "--start-model", str(start), "--out", str(out), "--iter-preset", "learned"]) == 0
    iter_argv = fake.calls[1][0]
    assert iter_argv[iter_argv.index("--preset") + 1] == "learned" and iter_argv[-1] == "learned-round1"
    heldout = fake.calls[-1][0]
    assert heldout[heldout.index("--preset") + 1] == "lm"  # the rounds are always measured with the model alone
    assert "sft.skip_examples=992" in fake.calls[3][0]
    train_log = out / "round1" / "logs" / "train.log"
    assert "skipped" in train_log.read_text()
    notes = [line for line in train_log.read_text().splitlines() if line.startswith("# ")]
    assert len(notes) == 1
    (out / "rounds.jsonl").unlink()  # resume inside round 1: its held-out stage runs again, its training does not
    (out / "round1" / "stages" / "heldout.json").unlink()
    for db in (out / "round1").glob("heldout.db*"):
        db.unlink()
    assert ei.main(["--rounds", "1", "--start-model", str(start), "--out", str(out), "--iter-preset", "learned"]) == 0
    # a resumed run that trains nothing writes no second note
    assert [line for line in train_log.read_text().splitlines() if line.startswith("# ")] == notes
    # an explicit skip is the user's: no second one is added
    fake2 = FakeRun()
    monkeypatch.setattr(ei.subprocess, "run", fake2)
    out2 = tmp_path / "ei2"
    assert ei.main(["--rounds", "1", "--start-model", str(start), "--out", str(out2), "--sft-override", "sft.skip_examples=5"]) == 0
    assert [a for a in fake2.calls[3][0] if a.startswith("sft.skip_examples")] == ["sft.skip_examples=5"]


def test_each_rounds_model_is_a_point_of_the_rounds_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = _card(tmp_path / "start", final_eval={"loss": 2.5, "top1": 0.05, "top5": 0.05})
    (start / "adapter").mkdir()
    monkeypatch.setattr(ei.subprocess, "run", FakeRun())  # its round-2 card records no training run
    out = tmp_path / "ei"
    assert ei.main(["--rounds", "1", "--start-model", str(start), "--out", str(out)]) == 0
    s = ei.Settings(out=out, start_model=start)
    points = ei.round_points(s, ei.read_rounds(out / "rounds.jsonl"))
    assert [(p["model_round"], p["proved"], p["problems"]) for p in points] == [(1, 1, 2), (2, 1, 2)]
    assert points[0]["eval"]["top1"] == 0.05 and points[1]["eval"] is None
    pytest.importorskip("matplotlib")
    assert (out / "rounds.png").stat().st_size > 0
