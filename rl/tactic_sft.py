"""Supervised fine-tuning of the tactic model: goal in, one tactic sentence out, LoRA on a causal LM.

``prover-train CONFIG.toml`` runs this stage when the config says ``stage = "sft"``
(``rl.tactic_sft_config``). Each step record (``rl.stepdata.schema.Step``) becomes one example:
the prompt ``prover.search.lm_prompt.tactic_prompt(goal)`` and the completion
``tactic_completion(tactic)`` followed by the end-of-text token. The loss is the mean
cross-entropy over the completion tokens only; the prompt is context, never a target.

Outputs under the output folder, written as training goes:

- ``metrics.jsonl``: one line per optimiser step (loss, tokens, tokens/s, learning rate);
- ``eval.jsonl``: one line per evaluation on a fixed held-out draw of valid steps: teacher-forced
  loss, top-1 / top-5 exact match of the tactic (whitespace collapsed; beam search, decoding stops
  at a newline, read with ``parse_completion``), top-1 first-word match;
- ``adapter/`` (peft ``save_pretrained``), ``tactic-model.json`` (the card the search's model
  source reads), ``summary.json``, ``curves.png``.

Training data is refused (``ValueError`` naming the file and line) when a step is of the ``valid``
split or of a held-out file (``benchmarks.library_split.is_held_out``); a held-out example whose
dedup key is a training example's is dropped from the evaluation (``eval_dropped_overlap``).

Not covered: resuming an interrupted run (rerun it; ``init_adapter`` continues from a saved
adapter), full fine-tuning, multi-device training.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from benchmarks.library_split import is_held_out
from prover.search.lm_beams import beam_search
from prover.search.lm_card import TacticModelCard
from prover.search.lm_card import write_card as save_card
from prover.search.lm_prompt import parse_completion, tactic_completion, tactic_prompt

from .lm import LMPolicy, LoraSettings, TokenBatch, make_token_batch
from .stepdata.schema import Step, dedup, read_jsonl
from .tactic_sft_config import SFTJob, SFTSection


@dataclass(frozen=True)
class Example:
    """One training or evaluation example: token ids of the prompt and of the completion (EOS last)."""

    prompt_text: str
    tactic: str
    prompt: tuple[int, ...]
    completion: tuple[int, ...]
    source: str = "human"
    key: str = ""
    """The step's ``Step.dedup_key()``: held-out examples with a training example's key are dropped."""

    @property
    def length(self) -> int:
        return len(self.prompt) + len(self.completion)


def build_example(step: Step, encode: Callable[[str], list[int]], eos: int) -> Example:
    """The example of ``step``: ``tactic_prompt`` of its goal, ``tactic_completion`` of its tactic + EOS."""
    prompt_text = tactic_prompt(step.goals_before)
    completion = [*encode(tactic_completion(step.tactic)), eos]
    return Example(prompt_text, " ".join(step.tactic.split()), tuple(encode(prompt_text)), tuple(completion),
                   step.source, step.dedup_key())


def select_examples(steps: Iterable[Step], encode: Callable[[str], list[int]], eos: int, *,
                    limit: int | None, max_tokens: int, seed: int, skip: int = 0) -> list[Example]:
    """Deduplicated steps that fit ``max_tokens``, shuffled by ``seed``, the ``limit`` after the
    first ``skip`` (None: all the rest).

    The same steps, tokenizer and seed give the same list in the same order, so a draw with
    ``skip = n`` shares no example with the draw of the first ``n``."""
    fitting = [ex for ex in (build_example(s, encode, eos) for s in dedup(steps)) if ex.length <= max_tokens]
    random.Random(seed).shuffle(fitting)
    return fitting[skip:] if limit is None else fitting[skip:skip + limit]


def dataset_sha256(examples: Sequence[Example]) -> str:
    """Hash of the exact examples (prompt text and tactic, in order)."""
    h = hashlib.sha256()
    for ex in examples:
        h.update(json.dumps([ex.prompt_text, ex.tactic]).encode("utf-8") + b"\n")
    return h.hexdigest()


def length_batches(examples: Sequence[Example], batch_size: int, rng: random.Random) -> list[list[Example]]:
    """Batches of ``batch_size`` examples of similar length (less padding), in a shuffled order."""
    keyed = sorted(examples, key=lambda ex: (ex.length, rng.random()))
    batches = [keyed[i:i + batch_size] for i in range(0, len(keyed), batch_size)]
    rng.shuffle(batches)
    return batches


def to_batch(examples: Sequence[Example], pad: int) -> TokenBatch:
    return make_token_batch([ex.prompt for ex in examples], [ex.completion for ex in examples], pad)


def completion_loss(policy: LMPolicy, batch: TokenBatch) -> torch.Tensor:
    """Mean cross-entropy of the completion tokens (the logits of prompt positions are never projected)."""
    logits = policy(batch.ids, batch.attention, batch.pos).float()
    nll = F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), reduction="none").view_as(batch.mask)
    return (nll * batch.mask).sum() / batch.mask.sum().clamp(min=1.0)


def lr_at(step: int, total: int, warmup: int, peak: float) -> float:
    """Linear warm-up to ``peak`` over ``warmup`` steps, then cosine down to ``peak / 10`` at ``total``."""
    if warmup and step < warmup:
        return peak * (step + 1) / warmup
    frac = min(1.0, (step - warmup) / max(1, total - warmup))
    return peak * (0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * frac)))


# -- evaluation --------------------------------------------------------------------------------

def _norm(tactic: str) -> str:
    return " ".join(tactic.split())


def first_word(tactic: str) -> str:
    """The tactic's head word (``apply`` of ``apply H.``), without a trailing period or semicolon."""
    words = tactic.split()
    return words[0].rstrip(".;") if words else ""


def stop_token_ids(policy: LMPolicy) -> list[int]:
    """End-of-text plus every vocabulary token whose text contains a newline: decoding stops there
    (``prover.search.lm_source.stop_ids``, the set the search stops its beams at)."""
    from prover.search.lm_source import stop_ids

    return list(stop_ids(policy.tokenizer, policy.eos_token_id))


def beam_tactics(policy: LMPolicy, example: Example, *, beams: int, max_new_tokens: int,
                 stop_ids: Sequence[int]) -> list[str]:
    """The distinct tactics of the example's beams, best first (unparsable ones left out)."""
    seen: list[str] = []
    for beam in beam_search(policy.lm, example.prompt, beams=beams, max_new_tokens=max_new_tokens, stop_ids=stop_ids):
        tactic = parse_completion(policy.tokenizer.decode(list(beam.tokens), skip_special_tokens=True))
        if tactic is not None and _norm(tactic) not in seen:
            seen.append(_norm(tactic))
    return seen


@torch.no_grad()
def heldout_loss(policy: LMPolicy, examples: Sequence[Example], batch_size: int) -> float:
    """Completion-token cross-entropy over ``examples``, weighted by their completion lengths."""
    device = next(policy.parameters()).device
    total, count = 0.0, 0.0
    for i in range(0, len(examples), batch_size):
        batch = to_batch(examples[i:i + batch_size], policy.pad_token_id).to(device)
        n = float(batch.mask.sum())
        total += float(completion_loss(policy, batch)) * n
        count += n
    return total / max(count, 1.0)


def evaluate(policy: LMPolicy, examples: Sequence[Example], sft: SFTSection) -> dict:
    """Held-out loss, top-1 / top-5 exact match and top-1 first-word match on ``examples``."""
    policy.eval()
    t0 = time.monotonic()
    loss = heldout_loss(policy, examples, sft.batch_size)
    stops = stop_token_ids(policy)
    top1 = top5 = word1 = 0
    for ex in examples:
        cands = beam_tactics(policy, ex, beams=sft.beams, max_new_tokens=sft.max_new_tokens, stop_ids=stops)
        top1 += bool(cands) and cands[0] == ex.tactic
        top5 += ex.tactic in cands[:5]
        word1 += bool(cands) and first_word(cands[0]) == first_word(ex.tactic)
    n = len(examples)
    policy.train()
    return {"loss": loss, "top1": top1 / n, "top5": top5 / n, "first_word_top1": word1 / n, "n": n,
            "seconds": round(time.monotonic() - t0, 2)}


# -- the run ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SFTData:
    """What one run trains and evaluates on."""

    train: list[Example]
    eval: list[Example]
    drawn: int
    extra: int
    eval_dropped: int = 0
    """Examples of the held-out draw left out because a training example has their dedup key."""


def _path(text: str) -> Path:
    p = Path(text).expanduser()
    if not p.is_file():
        raise FileNotFoundError(f"step file not found: {p}")
    return p


def check_step_files(sft: SFTSection) -> None:
    """Every step file the run reads exists (checked before the model is loaded)."""
    for f in (sft.train_file, sft.valid_file, *sft.extra_examples):
        _path(f)


def training_steps(path: Path) -> list[Step]:
    """The steps of a training file (``sft.train_file`` or one of ``sft.extra_examples``).

    A step of the ``valid`` split, or of a file held out of training
    (``benchmarks.library_split.is_held_out``), raises ``ValueError`` naming the file and line:
    training on it would leak the held-out measurement into the model."""
    steps: list[Step] = []
    with path.open(encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                step = Step.model_validate_json(line)
            except ValueError as e:
                raise ValueError(f"{path}:{k}: not a step record: {e}") from None
            if step.split != "train":
                raise ValueError(f"{path}:{k}: a step of split {step.split!r} cannot be trained on")
            if is_held_out(step.library, step.file):
                raise ValueError(f"{path}:{k}: {step.library}/{step.file} is held out of training "
                                 "(benchmarks.library_split.is_held_out)")
            steps.append(step)
    return steps


def load_data(sft: SFTSection, policy: LMPolicy) -> SFTData:
    """The seeded training draw plus every fitting extra step, and the fixed held-out set less the
    examples whose dedup key is a training example's (the draw itself does not depend on them)."""
    enc, eos = policy.encode, policy.eos_token_id
    drawn = select_examples(training_steps(_path(sft.train_file)), enc, eos, limit=sft.examples,
                            max_tokens=sft.max_tokens, seed=sft.seed, skip=sft.skip_examples)
    extra_steps = [s for f in sft.extra_examples for s in training_steps(_path(f))]
    extra = select_examples(extra_steps, enc, eos, limit=None, max_tokens=sft.max_tokens, seed=sft.seed)
    heldout = select_examples(read_jsonl(_path(sft.valid_file)), enc, eos, limit=sft.eval_examples,
                              max_tokens=sft.max_tokens, seed=sft.seed)
    if not drawn and sft.skip_examples:
        raise ValueError(f"sft.skip_examples = {sft.skip_examples} leaves no step of {sft.train_file} to draw: "
                         f"fewer of its steps fit sft.max_tokens = {sft.max_tokens}")
    if not drawn and not extra:
        raise FileNotFoundError(f"no training step of {sft.train_file} fits sft.max_tokens = {sft.max_tokens}")
    trained_keys = {ex.key for ex in (*drawn, *extra)}
    kept = [ex for ex in heldout if ex.key not in trained_keys]
    if not kept:
        raise ValueError(f"every held-out example of {sft.valid_file} is also a training example")
    return SFTData(drawn + extra, kept, len(drawn), len(extra), eval_dropped=len(heldout) - len(kept))


def load_policy(sft: SFTSection, device: torch.device) -> LMPolicy:
    """The base model with fresh LoRA adapters, or with ``init_adapter`` loaded trainable."""
    dtype = torch.bfloat16 if sft.dtype == "bfloat16" else torch.float32
    lora = LoraSettings(rank=sft.lora.rank, alpha=sft.lora.alpha, targets=sft.lora.targets, dropout=sft.lora.dropout)
    import peft

    if sft.init_adapter is None:
        base = LMPolicy.load(sft.base, lora=LoraSettings(rank=0), dtype=dtype)
        n_layers = int(base.lm.config.num_hidden_layers)
        layers = None if sft.lora.last_layers is None else list(range(max(0, n_layers - sft.lora.last_layers), n_layers))
        conf = peft.LoraConfig(r=lora.rank, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                               target_modules=list(lora.targets), layers_to_transform=layers, task_type="CAUSAL_LM")
        policy = LMPolicy(peft.get_peft_model(base.lm, conf), base.tokenizer, folder=base.folder, lora=lora)
    else:
        adapter = Path(sft.init_adapter).expanduser()
        if not (adapter / "adapter_config.json").is_file():
            raise FileNotFoundError(f"sft.init_adapter: {adapter} has no adapter_config.json")
        base = LMPolicy.load(sft.base, lora=LoraSettings(rank=0), dtype=dtype)
        lm = peft.PeftModel.from_pretrained(base.lm, str(adapter), is_trainable=True)
        conf = lm.peft_config["default"]
        lora = LoraSettings(rank=int(conf.r), alpha=float(conf.lora_alpha), targets=tuple(sorted(conf.target_modules)),
                            dropout=float(conf.lora_dropout))
        policy = LMPolicy(lm, base.tokenizer, folder=base.folder, lora=lora)
    return policy.to(device)


def _device(sft: SFTSection) -> torch.device:
    if sft.device == "cuda" or (sft.device == "auto" and torch.cuda.is_available()):
        return torch.device("cuda")
    return torch.device("cpu")


class _Log:
    """Append-only JSONL files of the run, flushed line by line."""

    def __init__(self, out: Path):
        self.out = out

    def write(self, name: str, row: dict) -> None:
        with (self.out / name).open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def _train_step(policy: LMPolicy, opt: torch.optim.Optimizer, batch: TokenBatch, sft: SFTSection) -> float:
    loss = completion_loss(policy, batch)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.trainable_parameters(), sft.grad_clip)
    opt.step()
    return float(loss.detach())


def _evaluate_and_save(policy: LMPolicy, data: SFTData, job: SFTJob, step: int, log: _Log) -> dict:
    row = {"step": step, **evaluate(policy, data.eval, job.sft)}
    log.write("eval.jsonl", row)
    policy.lm.save_pretrained(str(log.out / "adapter"))
    return row


def train_sft(job: SFTJob) -> dict:
    """Run the SFT stage of ``job``; returns (and writes) the summary."""
    sft, out = job.sft, Path(job.output.dir).expanduser()
    check_step_files(sft)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("metrics.jsonl", "eval.jsonl"):
        (out / name).unlink(missing_ok=True)
    (out / "config.json").write_text(json.dumps(job.dump(), indent=2) + "\n")
    if sft.torch_threads:
        torch.set_num_threads(sft.torch_threads)
    torch.manual_seed(sft.seed)
    device = _device(sft)
    policy = load_policy(sft, device)
    data = load_data(sft, policy)
    log, rng = _Log(out), random.Random(sft.seed)
    total = sft.epochs * math.ceil(len(data.train) / sft.batch_size)
    opt = torch.optim.AdamW(policy.trainable_parameters(), lr=sft.lr, weight_decay=sft.weight_decay)
    evals = [_evaluate_and_save(policy, data, job, 0, log)] if sft.eval_before else []
    policy.train()
    step, train_s, tokens = 0, 0.0, 0
    seen: dict[Example, None] = {}  # the distinct examples trained on, in first-seen order
    for epoch in range(sft.epochs):
        for chunk in length_batches(data.train, sft.batch_size, rng):
            if sft.max_wall_s is not None and train_s >= sft.max_wall_s:
                break
            for group in opt.param_groups:
                group["lr"] = lr_at(step, total, sft.warmup_steps, sft.lr)
            batch = to_batch(chunk, policy.pad_token_id).to(device)
            t0 = time.monotonic()
            loss = _train_step(policy, opt, batch, sft)
            dt = time.monotonic() - t0
            step, train_s, n_tok = step + 1, train_s + dt, int(batch.attention.sum())
            tokens += n_tok
            seen.update(dict.fromkeys(chunk))
            log.write("metrics.jsonl", {"step": step, "epoch": epoch, "loss": loss, "tokens": n_tok,
                                        "completion_tokens": int(batch.mask.sum()), "seconds": round(dt, 3),
                                        "tokens_per_s": round(n_tok / max(dt, 1e-9), 1),
                                        "lr": opt.param_groups[0]["lr"]})
            if sft.eval_every and step % sft.eval_every == 0 and step < total:
                evals.append(_evaluate_and_save(policy, data, job, step, log))
    if step > 0 or not evals:  # epochs = 0 with eval_before: the starting model's point is the result
        evals.append(_evaluate_and_save(policy, data, job, step, log))
    summary = _summary(job, data, evals, list(seen), step=step, train_s=train_s, tokens=tokens)
    _finish(out, job, summary)
    return summary


def _summary(job: SFTJob, data: SFTData, evals: list[dict], seen: list[Example], *, step: int, train_s: float,
             tokens: int) -> dict:
    """``examples`` and ``dataset_sha256``: the distinct examples trained on, in first-seen order (fewer
    than ``selected_examples`` when ``max_wall_s`` stopped the run early)."""
    return {"examples": len(seen), "dataset_sha256": dataset_sha256(seen), "selected_examples": len(data.train),
            "selected_sha256": dataset_sha256(data.train), "drawn_examples": data.drawn, "extra_examples": data.extra,
            "eval_examples": len(data.eval), "eval_dropped_overlap": data.eval_dropped,
            "eval_sha256": dataset_sha256(data.eval), "steps": step, "train_seconds": round(train_s, 1),
            "train_tokens": tokens, "tokens_per_s": round(tokens / max(train_s, 1e-9), 1),
            "eval_before": evals[0] if job.sft.eval_before else None, "eval_after": evals[-1]}


def _finish(out: Path, job: SFTJob, summary: dict) -> None:
    adapter_bytes = sum(p.stat().st_size for p in (out / "adapter").rglob("*") if p.is_file())
    summary["adapter_bytes"] = adapter_bytes
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    trained = {"config": job.dump(), "dataset_sha256": summary["dataset_sha256"], "examples": summary["examples"],
               "steps": summary["steps"], "seconds": summary["train_seconds"], "final_eval": summary["eval_after"],
               "drawn_examples": summary["drawn_examples"], "extra_examples": summary["extra_examples"],
               "selected_examples": summary["selected_examples"],
               "train_file_sha256": file_sha256(Path(job.sft.train_file).expanduser())}
    write_card(out, base=job.sft.base, adapter="adapter", max_new_tokens=job.sft.max_new_tokens, trained=trained)
    try:
        plot_curves(out)
    except ImportError:  # matplotlib is an optional extra: the numbers are in the JSONL files
        pass


def file_sha256(path: Path) -> str:
    """Hash of a file's bytes (the train file a model was drawn from: another file, another order)."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def write_card(out: Path, *, base: str, adapter: str | None, max_new_tokens: int, trained: dict) -> Path:
    """Write ``tactic-model.json`` (``prover.search.lm_card.TacticModelCard``) into ``out``."""
    card = TacticModelCard(base=base, adapter=adapter, max_new_tokens=max_new_tokens, trained=trained)
    return save_card(out, card)


def plot_curves(run: Path) -> Path:
    """``curves.png``: training loss per step, held-out top-1 / top-5 per evaluation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines() if x.strip()]
    evals = [json.loads(x) for x in (run / "eval.jsonl").read_text().splitlines() if x.strip()]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax1.plot([r["step"] for r in rows], [r["loss"] for r in rows], color="0.6", lw=0.8, label="train loss")
    if evals:
        ax1.plot([e["step"] for e in evals], [e["loss"] for e in evals], "k-s", ms=4, label="held-out loss")
        ax2.plot([e["step"] for e in evals], [e["top1"] for e in evals], "-o", label="top-1 exact")
        ax2.plot([e["step"] for e in evals], [e["top5"] for e in evals], "-s", label="top-5 exact")
        ax2.plot([e["step"] for e in evals], [e["first_word_top1"] for e in evals], "--^", label="top-1 first word")
    ax1.set_xlabel("optimiser step")
    ax1.set_ylabel("completion cross-entropy")
    ax1.legend(fontsize=8)
    ax2.set_xlabel("optimiser step")
    ax2.set_ylabel(f"held-out accuracy (n={evals[-1]['n'] if evals else 0})")
    ax2.set_ylim(-0.02, 1.02)
    ax2.legend(fontsize=8)
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    fig.suptitle(f"Tactic model SFT: {run.name}")
    fig.tight_layout()
    path = run / "curves.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
