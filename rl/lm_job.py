"""Build the trainer and sampler of a real-LM job (``model.type = "lm"``), for ``rl.loop.Job``.

The policy is ``rl.lm.LMPolicy`` over ``model.path`` (a Hugging Face folder, or a bundled name
such as ``smollm2`` through ``prover.models.ensure_model``), full fine-tuning or LoRA
(``model.lora_rank > 0``). The trainer is the algorithm-blind ``rl.trainer.Trainer`` with the
token codec (``rl.lm.TokenCodec``); what it hands the sampler after each update is the
policy's weights under Hugging Face names, LoRA merged (``LMPolicy.hf_weights``). The sampler
is vLLM (``sampler.type = "vllm"``, weights pushed into the running engine) or transformers
(``"transformers"``, the fallback).
"""

from __future__ import annotations

from pathlib import Path

from .trainer import Trainer


class LMTrainer(Trainer):
    """``Trainer`` whose sampler hand-off is the policy's Hugging Face-named weights."""

    def state_dict_for_sampler(self) -> dict:
        return dict(self.module.hf_weights())


def build_lm_parts(cfg, algorithm, out: Path, world, keep_ref: bool):
    import torch

    from .lm import LMPolicy, LoraSettings, TokenCodec
    from .text_samplers import text_sampler

    mc, sc, tc = cfg.model, cfg.sampler, cfg.trainer
    lora = LoraSettings(rank=mc.lora_rank, alpha=mc.lora_alpha, targets=tuple(mc.lora_targets))
    policy = LMPolicy.load(mc.path or "smollm2", lora=lora, dtype=getattr(torch, mc.dtype))
    trainer = LMTrainer(policy, algorithm, tc, temperature=sc.temperature, device=world.device, keep_reference=keep_ref,
                        codec=TokenCodec(policy), world=world)
    sampler = text_sampler(policy, sc, seed=tc.seed, weights_dir=out / "pushed_weights",
                           keep=cfg.async_.max_staleness + 2, device=world.device)
    return trainer, sampler
