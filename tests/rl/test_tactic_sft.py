"""The tactic model's supervised stage (``rl.tactic_sft``): examples, selection, config, a tiny run.

A small random-initialised Llama with a word-level tokenizer stands in for SmolLM2 (no download);
the llm-tier test at the end runs two steps on the real SmolLM2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from prover.search.lm_prompt import tactic_completion, tactic_prompt
from rl.config import ConfigError
from rl.stepdata.schema import Goal, Step, write_jsonl
from rl.tactic_sft_config import config_stage, load_sft_config, sft_from_dict, shipped_sft_configs

ROOT = Path(__file__).resolve().parents[2]


def _step(conclusion: str, tactic: str, *, hyps: tuple[str, ...] = (), split: str = "train", source: str = "human") -> Step:
    goal = Goal(hypotheses=list(hyps), conclusion=conclusion, others=0)
    return Step(library="stdlib", licence="LGPL-2.1-only", file="A.v", lemma="l", index=0, goals_before=goal,
                tactic=tactic, goals_after=goal, source=source, split=split)  # type: ignore[arg-type]


def _encode(text: str) -> list[int]:
    """A stand-in tokenizer: one id per character."""
    return [ord(c) for c in text]


# -- examples and selection -------------------------------------------------------------------

def test_example_is_the_shared_prompt_and_its_mask_covers_the_completion_only():
    from rl.tactic_sft import build_example, to_batch

    step = _step("n + 0 = n", "intros  n.", hyps=("n : nat",))
    ex = build_example(step, _encode, eos=7)
    assert ex.prompt == tuple(_encode(tactic_prompt(step.goals_before)))
    assert ex.completion == (*_encode(tactic_completion("intros n.")), 7)
    assert ex.tactic == "intros n."
    batch = to_batch([ex, build_example(_step("True", "auto."), _encode, eos=7)], pad=0)
    # the targets are exactly the completion tokens (EOS last), and every prompt token is masked out
    n = len(ex.completion)
    assert batch.targets[0, :n].tolist() == list(ex.completion)
    assert batch.mask[0].sum() == n and batch.mask[0, n:].sum() == 0
    assert batch.pos[0, 0] == len(ex.prompt) - 1  # the logit at the prompt's last token predicts the first target
    assert batch.mask[1].sum() == len(_encode(tactic_completion("auto."))) + 1


def test_selection_is_deterministic_deduplicated_and_length_bounded():
    from rl.tactic_sft import dataset_sha256, select_examples

    steps = [_step(f"P{i} = P{i}", "reflexivity.") for i in range(30)]
    steps += [steps[3], _step("x" * 500, "auto.")]  # a repeat, and one too long for the bound
    a = select_examples(steps, _encode, 0, limit=10, max_tokens=80, seed=1)
    b = select_examples(list(steps), _encode, 0, limit=10, max_tokens=80, seed=1)
    c = select_examples(steps, _encode, 0, limit=10, max_tokens=80, seed=2)
    assert a == b and dataset_sha256(a) == dataset_sha256(b)
    assert a != c and dataset_sha256(a) != dataset_sha256(c)
    everything = select_examples(steps, _encode, 0, limit=None, max_tokens=80, seed=1)
    assert len(everything) == 30  # the repeat counted once, the long step dropped
    assert all(ex.length <= 80 for ex in everything)

    # a continued run skips what the first draw took: the next examples of the same order
    later = select_examples(steps, _encode, 0, limit=10, max_tokens=80, seed=1, skip=10)
    assert later == everything[10:20] and not {ex.key for ex in later} & {ex.key for ex in a}
    assert select_examples(steps, _encode, 0, limit=None, max_tokens=80, seed=1, skip=25) == everything[25:]


def test_length_batches_cover_every_example_once():
    import random

    from rl.tactic_sft import build_example, length_batches

    exs = [build_example(_step("P" * k, "auto."), _encode, 0) for k in range(1, 22)]
    batches = length_batches(exs, 4, random.Random(0))
    assert sorted(ex.length for b in batches for ex in b) == sorted(ex.length for ex in exs)
    assert all(len(b) <= 4 for b in batches)
    assert max(b[-1].length - b[0].length for b in batches) <= 4  # neighbours in length share a batch


def test_learning_rate_warms_up_then_decays_to_a_tenth():
    from rl.tactic_sft import lr_at

    assert lr_at(0, 100, 10, 1.0) == pytest.approx(0.1)
    assert lr_at(9, 100, 10, 1.0) == pytest.approx(1.0)
    assert lr_at(100, 100, 10, 1.0) == pytest.approx(0.1)
    assert lr_at(50, 100, 10, 1.0) < lr_at(20, 100, 10, 1.0)


# -- config -----------------------------------------------------------------------------------

def test_every_shipped_sft_config_loads_and_is_an_sft_stage():
    paths = shipped_sft_configs()
    assert {p.name for p in paths} >= {"tactic_sft_cpu.toml", "tactic_sft_h200.toml"}
    for p in paths:
        assert config_stage(p) == "sft"
        load_sft_config(p)
    job = load_sft_config(ROOT / "rl/configs/tactic_sft_cpu.toml", ["sft.examples=64", "sft.lora.rank=4"])
    assert job.sft.examples == 64 and job.sft.lora.rank == 4
    assert config_stage(ROOT / "rl/configs/smoke.toml") == "rl"


@pytest.mark.parametrize("data, needle", [
    ({"stage": "sft", "sft": {"examples": 0}}, "sft.examples"),
    ({"stage": "sft", "sft": {"lr": "fast"}}, "sft.lr"),
    ({"stage": "sft", "sft": {"epocs": 2}}, "sft.epocs"),
    ({"stage": "sft", "trainer": {}}, "trainer"),
])
def test_bad_sft_config_is_one_line_error(data, needle):
    with pytest.raises(ConfigError) as err:
        sft_from_dict(data)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_cli_bad_sft_config_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('stage = "sft"\n[sft]\nbatch_size = -1\n')
    proc = subprocess.run([sys.executable, "-m", "rl.cli", str(bad)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "sft.batch_size" in proc.stderr
    odd = tmp_path / "odd.toml"
    odd.write_text('stage = "pretrain"\n')
    proc = subprocess.run([sys.executable, "-m", "rl.cli", str(odd)], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2 and "stage" in proc.stderr


@pytest.mark.parametrize("update, needle", [
    ({"split": "valid"}, "split 'valid'"),
    ({"file": "H.v"}, "stdlib/H.v is held out"),  # is_held_out("stdlib", "H.v")
])
def test_a_valid_or_held_out_step_is_refused_as_training_data(tmp_path, update, needle):
    from rl.tactic_sft import training_steps

    path = tmp_path / "train.jsonl"
    write_jsonl(path, [_step("True", "auto."), _step("P", "exact I.")])
    assert [s.tactic for s in training_steps(path)] == ["auto.", "exact I."]
    write_jsonl(path, [_step("True", "auto."), _step("P", "exact I.").model_copy(update=update)])
    with pytest.raises(ValueError) as err:
        training_steps(path)
    assert str(err.value).startswith(f"{path}:2: ") and needle in str(err.value) and "\n" not in str(err.value)


def _cli_sft(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cfg = tmp_path / "sft.toml"
    cfg.write_text(f'stage = "sft"\n[sft]\nbase = "no-such-model"\ntrain_file = "{tmp_path / "train.jsonl"}"\n'
                   f'valid_file = "{tmp_path / "valid.jsonl"}"\n')
    return subprocess.run([sys.executable, "-m", "rl.cli", str(cfg), *args], capture_output=True, text=True, cwd=ROOT,
                          check=False)


def test_cli_sft_missing_steps_or_unwritable_output_exits_2_before_loading_the_model(tmp_path):
    proc = _cli_sft(tmp_path, "--output", str(tmp_path / "out"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "step file not found" in proc.stderr
    assert not (tmp_path / "out").exists()
    write_jsonl(tmp_path / "train.jsonl", [_step("True", "auto.")])
    write_jsonl(tmp_path / "valid.jsonl", [_step("P", "exact I.", split="valid")])
    (tmp_path / "file").write_text("")
    proc = _cli_sft(tmp_path, "--output", str(tmp_path / "file" / "out"))  # a folder under a file
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "file" in proc.stderr
    assert "no-such-model" not in proc.stderr  # the output was checked before the (missing) model


def test_config_module_imports_no_torch():
    code = "import sys, rl.tactic_sft_config; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


# -- a tiny end-to-end run ----------------------------------------------------------------------

def _tiny_model(folder: Path) -> Path:
    from lm_helpers import tiny_llama, word_tokenizer

    tiny_llama(folder)
    word_tokenizer().save_pretrained(folder)
    return folder


def _tiny_job(tmp_path: Path, **sft):
    train = [_step("forall n : nat , n = n", "intros n ."), _step("goal", "auto ."), _step("nat", "lia .")]
    write_jsonl(tmp_path / "train.jsonl", train)
    # two held-out steps with new goals, and one with a training step's goal and tactic (dropped)
    valid = [_step("forall m : nat , m = m", "intros m ."), _step("goal2", "auto ."), train[2]]
    write_jsonl(tmp_path / "valid.jsonl", [s.model_copy(update={"split": "valid"}) for s in valid])
    base = {"base": str(_tiny_model(tmp_path / "model")), "train_file": str(tmp_path / "train.jsonl"),
            "valid_file": str(tmp_path / "valid.jsonl"), "examples": 3, "epochs": 40, "batch_size": 3,
            "lr": 1e-2, "warmup_steps": 0, "eval_every": 20, "eval_examples": 3, "beams": 3,
            "max_new_tokens": 6, "torch_threads": 1, "device": "cpu",
            "lora": {"rank": 8, "alpha": 16.0, "targets": ["q_proj", "v_proj", "up_proj", "down_proj"]}}
    return sft_from_dict({"stage": "sft", "sft": {**base, **sft}, "output": {"dir": str(tmp_path / "out")}})


def test_tiny_sft_run_learns_and_writes_adapter_card_and_logs(tmp_path):
    pytest.importorskip("peft")
    from prover.search.lm_card import CARD_FILE
    from rl.tactic_sft import train_sft

    job = _tiny_job(tmp_path)
    summary = train_sft(job)
    out = tmp_path / "out"
    metrics = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    evals = [json.loads(x) for x in (out / "eval.jsonl").read_text().splitlines()]
    assert len(metrics) == 40 and {"loss", "tokens", "tokens_per_s"} <= set(metrics[0])
    assert metrics[-1]["loss"] < 0.7 * metrics[0]["loss"]
    assert [e["step"] for e in evals] == [0, 20, 40]
    assert evals[-1]["loss"] < evals[0]["loss"]
    assert {"top1", "top5", "first_word_top1"} <= set(evals[-1])
    assert (out / "adapter" / "adapter_config.json").is_file()
    card = json.loads((out / CARD_FILE).read_text())
    assert card["base"] == job.sft.base and card["adapter"] == "adapter" and card["max_new_tokens"] == 6
    assert card["trained"]["dataset_sha256"] == summary["dataset_sha256"] and card["trained"]["steps"] == 40
    assert summary["examples"] == summary["selected_examples"] == 3  # distinct examples, not 40 epochs' worth
    assert summary["eval_examples"] == 2 and summary["eval_dropped_overlap"] == 1 and evals[-1]["n"] == 2
    assert (out / "summary.json").is_file()
    if summary.get("eval_after") and pytest.importorskip("matplotlib"):
        assert (out / "curves.png").stat().st_size > 0


def test_sft_continues_from_a_saved_adapter(tmp_path):
    pytest.importorskip("peft")
    from rl.tactic_sft import train_sft

    first = train_sft(_tiny_job(tmp_path, epochs=10, eval_every=0))
    adapter = tmp_path / "out" / "adapter"
    again = _tiny_job(tmp_path, epochs=1, eval_every=0, init_adapter=str(adapter), lora={"rank": 2})
    second = train_sft(again.model_copy(update={"output": again.output.model_copy(update={"dir": str(tmp_path / "o2")})}))
    # the second run starts where the first ended (its adapter, its rank), not from the base model
    assert second["eval_before"]["loss"] == pytest.approx(first["eval_after"]["loss"], rel=1e-4)
    conf = json.loads((tmp_path / "o2" / "adapter" / "adapter_config.json").read_text())
    assert conf["r"] == 8


def test_wall_bound_stops_training_and_the_summary_counts_what_was_trained(tmp_path):
    pytest.importorskip("peft")
    from rl.tactic_sft import train_sft

    summary = train_sft(_tiny_job(tmp_path, batch_size=1, eval_every=0, eval_before=False, max_wall_s=1e-6))
    assert summary["steps"] == 1 and summary["examples"] == 1 and summary["selected_examples"] == 3
    assert summary["dataset_sha256"] != summary["selected_sha256"]


def test_beam_search_returns_distinct_ranked_stopped_beams(tmp_path):
    pytest.importorskip("peft")
    from prover.search.lm_beams import beam_search
    from rl.tactic_sft import build_example, load_policy

    job = _tiny_job(tmp_path)
    policy = load_policy(job.sft, __import__("torch").device("cpu"))
    ex = build_example(_step("goal", "auto ."), policy.encode, policy.eos_token_id)
    beams = beam_search(policy.lm, ex.prompt, beams=4, max_new_tokens=5, stop_ids=[policy.eos_token_id])
    assert 1 <= len(beams) <= 4
    assert [b.score for b in beams] == sorted((b.score for b in beams), reverse=True)
    assert len({b.tokens for b in beams}) == len(beams)
    assert all(b.tokens[-1] == policy.eos_token_id or len(b.tokens) == 5 for b in beams)
    # each beam's score is its tokens' summed log-probability under one full forward pass (a wrong
    # reordering of the key/value cache among the beams would score another beam's history)
    import torch
    import torch.nn.functional as F

    for b in beams:
        ids = torch.tensor([[*ex.prompt, *b.tokens]])
        with torch.no_grad():
            logp = F.log_softmax(policy.lm(input_ids=ids).logits[0].float(), dim=-1)
        n = len(ex.prompt)
        full = sum(float(logp[n - 1 + i, t]) for i, t in enumerate(b.tokens))
        assert b.score == pytest.approx(full, abs=1e-3)


def test_a_continued_run_skips_the_steps_its_model_was_drawn(tmp_path):
    pytest.importorskip("peft")
    from rl.expert_iteration import fresh_offset
    from rl.tactic_sft import train_sft

    job = _tiny_job(tmp_path, epochs=1, eval_every=0, eval_before=False, examples=2)
    train_sft(job)
    out = tmp_path / "out"
    trained = json.loads((out / "tactic-model.json").read_text())["trained"]
    assert (trained["drawn_examples"], trained["extra_examples"]) == (2, 0) and len(trained["train_file_sha256"]) == 64
    assert fresh_offset(out, job.sft)[0] == 2  # the card the trainer writes says what it drew
    with pytest.raises(ValueError, match="skip_examples = 3 leaves no step"):
        train_sft(_tiny_job(tmp_path, epochs=1, eval_every=0, eval_before=False, skip_examples=3))
    (tmp_path / "train.jsonl").write_text((tmp_path / "train.jsonl").read_text() + "\n")  # same path, other bytes
    offset, why = fresh_offset(out, job.sft)
    assert offset == 0 and "train file content" in why


# -- the real model ------------------------------------------------------------------------------

@pytest.mark.llm
def test_two_sft_steps_on_smollm2(tmp_path):
    from rl.tactic_sft import train_sft

    job = load_sft_config(ROOT / "rl/configs/tactic_sft_cpu.toml", [
        "sft.examples=4", "sft.batch_size=2", "sft.eval_examples=2", "sft.beams=2", "sft.max_new_tokens=8",
        f'output.dir="{tmp_path / "out"}"'])
    summary = train_sft(job)
    assert summary["steps"] == 2 and summary["eval_after"]["n"] == 2
    assert (tmp_path / "out" / "adapter" / "adapter_model.safetensors").is_file()
