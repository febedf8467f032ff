"""Configuration of the tactic model's supervised stage (``stage = "sft"`` in a ``prover-train`` TOML).

A config file with a top-level ``stage = "sft"`` is an SFT job: a ``[sft]`` table (data, selection,
LoRA, optimiser, evaluation) and an ``[output]`` table. Files without ``stage`` (or with
``stage = "rl"``) are RL jobs (``rl.config``). Overrides are the same ``key.sub=value`` strings,
e.g. ``sft.examples=64``. Like ``rl.config``, this module imports neither torch nor transformers.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .config import ConfigError, _one_line, apply_overrides

STEPS_DIR = "~/.cache/agentic-prover/tactics/steps"
"""Where ``prover-data`` installs the step data (``train.jsonl``, ``valid.jsonl``)."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LoraSection(_Section):
    rank: int = Field(16, ge=1)
    """LoRA rank of every adapted linear module."""
    alpha: float = Field(32.0, gt=0.0)
    """Scaling numerator: the update is scaled by alpha / rank."""
    targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    """Names of the linear modules that get adapters (peft ``target_modules``)."""
    dropout: float = Field(0.0, ge=0.0, lt=1.0)
    last_layers: int | None = Field(None, ge=1)
    """Adapt only the last this-many transformer layers (None: all). Gradients then stop there, so
    the backward pass costs that share of a full one."""


class SFTSection(_Section):
    base: str = "smollm2"
    """The base model: a Hugging Face folder or a name ``prover.models.ensure_model`` knows."""
    train_file: str = f"{STEPS_DIR}/train.jsonl"
    """JSONL of ``rl.stepdata.schema.Step`` records to train on."""
    valid_file: str = f"{STEPS_DIR}/valid.jsonl"
    """JSONL of held-out steps (other source files than ``train_file``); the eval set is drawn here."""
    extra_examples: tuple[str, ...] = ()
    """More JSONL step files (e.g. ``source = "search"`` steps for expert iteration): all of their
    steps that fit ``max_tokens`` are used, on top of ``examples``."""
    examples: int = Field(2000, ge=1)
    """How many steps of ``train_file`` to train on (a seeded draw among those that fit)."""
    skip_examples: int = Field(0, ge=0)
    """Leave out the first this many steps of the seeded draw: the steps a model being continued
    (``init_adapter``) was drawn, so that a retrain with the same ``seed`` sees fresh human steps."""
    max_tokens: int = Field(192, ge=8)
    """Steps whose prompt + completion is longer than this many tokens are dropped."""
    epochs: int = Field(1, ge=0)
    """Passes over the training examples; 0 only evaluates the starting model (base or ``init_adapter``)."""
    batch_size: int = Field(8, ge=1)
    """Examples per optimiser step; batches are made of examples of similar length."""
    lr: float = Field(3e-4, gt=0.0)
    """Peak learning rate (linear warm-up over ``warmup_steps``, then cosine to a tenth)."""
    warmup_steps: int = Field(10, ge=0)
    weight_decay: float = Field(0.0, ge=0.0)
    grad_clip: float = Field(1.0, gt=0.0)
    lora: LoraSection = LoraSection()
    init_adapter: str | None = None
    """A peft adapter folder to continue from (a previous round's ``adapter/``); its LoRA settings win."""
    eval_every: int = Field(50, ge=0)
    """Evaluate every this-many optimiser steps (0: only before and after training)."""
    eval_examples: int = Field(100, ge=1)
    """Size of the fixed held-out set (a seeded draw from ``valid_file``)."""
    eval_before: bool = True
    """Evaluate before the first step (the starting model's point on the curve)."""
    beams: int = Field(5, ge=1)
    """Beam width of evaluation decoding; top-k accuracy counts the first k distinct tactics."""
    max_new_tokens: int = Field(32, ge=1)
    """Most tokens the model writes for one tactic (evaluation, and the card's value)."""
    eval_batch: int = Field(10, ge=1)
    """Prompts decoded together during evaluation."""
    seed: int = 0
    device: Literal["auto", "cpu", "cuda"] = "auto"
    dtype: Literal["float32", "bfloat16"] = "float32"
    torch_threads: int | None = 2
    """torch.set_num_threads; None leaves torch's default."""
    max_wall_s: float | None = Field(None, gt=0.0)
    """Stop training once this many seconds of steps have run (then evaluate and save)."""


class SFTOutput(_Section):
    dir: str = "runs/tactic-sft"


class SFTJob(_Section):
    stage: Literal["sft"] = "sft"
    sft: SFTSection = SFTSection()
    output: SFTOutput = SFTOutput()

    def dump(self) -> dict:
        return json.loads(self.model_dump_json())


def _read_toml(path: str | Path) -> dict:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: invalid TOML: {err}") from None


def config_stage(path: str | Path) -> str:
    """``"sft"`` or ``"rl"``: the stage a config file asks for (no ``stage`` key: rl). Raises ConfigError."""
    stage = _read_toml(path).get("stage", "rl")
    if stage not in ("sft", "rl"):
        raise ConfigError(f"{path}: stage must be 'sft' or 'rl', not {stage!r}")
    return str(stage)


def sft_from_dict(data: dict, overrides: list[str] | None = None) -> SFTJob:
    data = apply_overrides(data, overrides or [])
    try:
        return SFTJob.model_validate(data)
    except ValidationError as err:
        raise ConfigError(_one_line(err)) from None


def load_sft_config(path: str | Path, overrides: list[str] | None = None) -> SFTJob:
    """Load an SFT config file and apply overrides. Raises ConfigError with a one-line message."""
    return sft_from_dict(_read_toml(path), overrides)


def shipped_sft_configs() -> list[Path]:
    """The ``stage = "sft"`` TOML files under ``rl/configs``."""
    return sorted(p for p in (Path(__file__).parent / "configs").glob("*.toml")
                  if tomllib.loads(p.read_text(encoding="utf-8")).get("stage") == "sft")
