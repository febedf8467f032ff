"""RL algorithms as small hooks over one algorithm-blind trainer.

An ``Algorithm`` answers four questions; the trainer knows nothing else about it:
- ``shape_reward(reward, length)``: reward after optional shaping (DAPO overlong shaping).
- ``keep_group(rewards)``: dynamic sampling - drop groups whose rewards are all equal.
- ``advantages(rewards)``: one advantage per sample of a group (broadcast over its tokens).
- ``loss(inputs)``: the scalar loss and its statistics from per-token log-probabilities.

Shared per-token surrogate (PPO clip, with truncated importance sampling and optional terms):
    r_t   = exp(logp_t - old_t)                                 (old: trainer policy at step start)
    w_t   = min(exp(old_t - sampler_t), tis_cap)                (TIS; w_t = 1 when off; no gradient)
    pg_t  = -w_t * min(r_t * A, clip(r_t, 1 - eps_low, 1 + eps_high) * A)
    kl_t  = exp(ref_t - logp_t) - (ref_t - logp_t) - 1          (k3 estimator, when kl_coef > 0)
    x_t   = pg_t + kl_coef * kl_t
    loss  = aggregate(x) + pos_nll_coef * mean over tokens of correct samples of (-logp_t)
            - entropy_coef * aggregate(H)                       (H_t: entropy of the step's action
                                                                 distribution, with gradient)
Aggregation differs: GRPO averages tokens within a sequence, then sequences; DAPO averages
over all tokens of the batch; Dr.GRPO sums tokens and divides by batch * a constant length.
The entropy bonus uses the same aggregation as the policy-gradient term, so its weight
relative to that term does not depend on the algorithm.
Advantages: GRPO and DAPO use (r - mean) / (std + eps) with the unbiased std (n - 1) of the
group; Dr.GRPO uses r - mean. Refs: DeepSeekMath (GRPO), DAPO (Yu et al. 2025), Dr.GRPO (Liu
et al. 2025), Seed-Thinking-v1.5 / VAPO (positive-example LM loss), Yao et al. 2025 (TIS).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .config import AlgorithmConfig


@dataclass
class LossInputs:
    logp: torch.Tensor  # [B, T] current policy, with gradient
    old_logp: torch.Tensor  # [B, T] trainer policy at the start of the step (no gradient)
    sampler_logp: torch.Tensor  # [B, T] what the sampler reported
    advantages: torch.Tensor  # [B]
    mask: torch.Tensor  # [B, T] 1 for real tokens
    positive: torch.Tensor  # [B] bool: sample earned the full reward
    ref_logp: torch.Tensor | None = None  # [B, T] reference policy (KL)
    entropy: torch.Tensor | None = None  # [B, T] current policy's per-token entropy, with gradient
    norm: Norm | None = None
    """Denominators of the aggregation; None: this batch's own counts. Under data parallelism the
    trainer passes the counts summed over all ranks, so each rank's loss is its share of the
    global loss (normalised by the global sequence and token counts)."""


@dataclass(frozen=True)
class Norm:
    """Counts the loss is normalised by: sequences, real tokens, tokens of positive samples."""

    seqs: float
    tokens: float
    pos_tokens: float

    @staticmethod
    def of(mask: torch.Tensor, positive: torch.Tensor) -> Norm:
        return Norm(float(mask.shape[0]), float(mask.sum()), float((mask * positive.float().unsqueeze(-1)).sum()))


@dataclass
class LossOutput:
    loss: torch.Tensor
    stats: dict[str, float]


class Algorithm:
    """GRPO; subclasses change only what differs."""

    name = "grpo"

    def __init__(self, cfg: AlgorithmConfig, max_new_tokens: int = 1):
        self.cfg = cfg
        self.eps_low = cfg.eps_low
        self.eps_high = cfg.eps_high_value
        self.max_new_tokens = max_new_tokens

    # -- data-side hooks ----------------------------------------------------------------
    def shape_reward(self, reward: float, length: int) -> float:
        return reward

    def keep_group(self, rewards: list[float]) -> bool:
        if not self.cfg.dynamic_sampling_on:
            return True
        return max(rewards) - min(rewards) > 1e-9

    def advantages(self, rewards: torch.Tensor) -> torch.Tensor:
        centred = rewards - rewards.mean()
        if rewards.numel() < 2:
            return torch.zeros_like(rewards)
        return centred / (rewards.std(unbiased=True) + self.cfg.std_eps)

    # -- loss ---------------------------------------------------------------------------
    def aggregate(self, x: torch.Tensor, mask: torch.Tensor, norm: Norm) -> torch.Tensor:
        per_seq = (x * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)
        return per_seq.sum() / max(norm.seqs, 1.0)

    def loss(self, inp: LossInputs) -> LossOutput:
        cfg, m = self.cfg, inp.mask
        norm = inp.norm or Norm.of(m, inp.positive)
        adv = inp.advantages.unsqueeze(-1)
        ratio = torch.exp(inp.logp - inp.old_logp)
        clipped = ratio.clamp(1.0 - self.eps_low, 1.0 + self.eps_high)
        surrogate = torch.minimum(ratio * adv, clipped * adv)
        if cfg.tis_cap is not None:
            w = torch.exp(inp.old_logp - inp.sampler_logp).clamp(max=cfg.tis_cap).detach()
        else:
            w = torch.ones_like(ratio)
        x = -w * surrogate
        kl = torch.zeros_like(x)
        if cfg.kl_coef > 0 and inp.ref_logp is not None:
            d = inp.ref_logp - inp.logp
            kl = torch.exp(d) - d - 1.0
            x = x + cfg.kl_coef * kl
        loss = self.aggregate(x, m, norm)
        pos_nll = torch.zeros(())
        if cfg.pos_nll_coef > 0:
            pm = m * inp.positive.float().unsqueeze(-1)
            if norm.pos_tokens > 0:
                pos_nll = -(inp.logp * pm).sum() / norm.pos_tokens
                loss = loss + cfg.pos_nll_coef * pos_nll
        if cfg.entropy_coef > 0 and inp.entropy is not None:
            loss = loss - cfg.entropy_coef * self.aggregate(inp.entropy, m, norm)
        n = m.sum().clamp(min=1.0)
        was_clipped = ((ratio * adv) > (clipped * adv)).float()  # min chose the clipped branch
        stats = {
            "clip_frac": float(((was_clipped * m).sum() / n).detach()),
            "tis_weight_mean": float(((w * m).sum() / n).detach()),
            "kl": float(((kl * m).sum() / n).detach()),
            "pos_nll": float(pos_nll.detach()),
        }
        return LossOutput(loss, stats)


class GRPO(Algorithm):
    name = "grpo"


class DAPO(Algorithm):
    """Clip-higher, dynamic sampling (via ``keep_group``), token-level mean, overlong shaping."""

    name = "dapo"

    def shape_reward(self, reward: float, length: int) -> float:
        L_max = self.cfg.overlong_max
        if L_max is None:
            return reward
        L_cache = self.cfg.overlong_cache
        if length <= L_max - L_cache:
            return reward
        if length <= L_max:
            return reward + ((L_max - L_cache) - length) / L_cache
        return reward - 1.0

    def aggregate(self, x: torch.Tensor, mask: torch.Tensor, norm: Norm) -> torch.Tensor:
        return (x * mask).sum() / max(norm.tokens, 1.0)


class DrGRPO(Algorithm):
    """No std normalisation of advantages; no per-sequence length normalisation."""

    name = "dr_grpo"

    def advantages(self, rewards: torch.Tensor) -> torch.Tensor:
        return rewards - rewards.mean()

    def aggregate(self, x: torch.Tensor, mask: torch.Tensor, norm: Norm) -> torch.Tensor:
        length = self.cfg.dr_grpo_norm_tokens or self.max_new_tokens
        return (x * mask).sum() / (max(norm.seqs, 1.0) * length)


def build_algorithm(cfg: AlgorithmConfig, max_new_tokens: int) -> Algorithm:
    cls = {"grpo": GRPO, "dapo": DAPO, "dr_grpo": DrGRPO}[cfg.type]
    return cls(cfg, max_new_tokens)
