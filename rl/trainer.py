"""The algorithm-blind trainer: samples with advantages in, one optimiser step out.

The trainer turns ``TrainSample``s into a padded batch, computes the step's "old"
log-probabilities (and the reference's, for KL) once without gradient, then runs
``ppo_epochs`` x ``minibatches`` updates, each asking ``algorithm.loss`` for the loss. It never
looks at rewards or algorithm names, nor at what kind of policy it trains: a *codec* turns
samples into a batch and scores it (``ActionCodec``: the tactic-token policies of
``rl.policy``; ``rl.lm.TokenCodec``: a real LM's free-form completions).

Data parallelism (``world`` from ``rl.distributed.init_world`` under ``torchrun``): the model
is wrapped in DDP, each rank steps on its own samples, and the loss is normalised by the counts
summed over all ranks and multiplied by the world size (DDP averages gradients), so one step
equals a single process stepping on every rank's samples at once. Every rank must call
``step`` the same number of times with at least ``minibatches`` samples.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass

import torch

from .algorithms import Algorithm, LossInputs, Norm
from .config import TrainerConfig
from .distributed import World, all_sum, wrap_ddp
from .policy import encode_prompt, make_batch, score


@dataclass(frozen=True)
class TrainSample:
    prompt: str
    actions: tuple[int, ...]
    """Action indices, END included when the sampler emitted it."""
    sampler_logprobs: tuple[float, ...]
    advantage: float
    positive: bool
    staleness: int = 0


class ActionCodec:
    """Samples of the tactic-token policies (``rl.policy``): prompt characters, action indices."""

    def __init__(self, max_prompt_chars: int, end_bias: float = 0.0):
        self.max_prompt_chars = max_prompt_chars
        self.end_bias = end_bias

    def batch(self, samples: list[TrainSample]):
        return make_batch([encode_prompt(s.prompt, self.max_prompt_chars) for s in samples],
                          [list(s.actions) for s in samples])

    def score(self, model: torch.nn.Module, batch, temperature: float) -> tuple[torch.Tensor, torch.Tensor]:
        return score(model, batch, temperature, self.end_bias)

    def select(self, batch, ix: torch.Tensor):
        return type(batch)(batch.ids[ix], batch.act_pos[ix], batch.actions[ix], batch.mask[ix])

    def seq_tokens(self, batch) -> float:
        return float((batch.ids != 0).sum())


class Trainer:
    def __init__(self, model: torch.nn.Module, algorithm: Algorithm, cfg: TrainerConfig, *, max_prompt_chars: int = 192,
                 temperature: float = 1.0, device: str = "cpu", keep_reference: bool = False,
                 end_bias: float = 0.0, codec=None, world: World | None = None):
        self.world = world or World(device=device)
        self.module = model.to(device)
        """The unwrapped policy (its state dict is what samplers and checkpoints get)."""
        self.model = wrap_ddp(self.module, self.world)
        self.algorithm = algorithm
        self.cfg = cfg
        self.codec = codec or ActionCodec(max_prompt_chars, end_bias)
        self.temperature = temperature
        self.device = device
        params = [p for p in self.module.parameters() if p.requires_grad]
        self.opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.params = params
        self.ref = None
        if keep_reference:
            self.ref = copy.deepcopy(self.module).eval()
            for p in self.ref.parameters():
                p.requires_grad_(False)
        self.gen = torch.Generator().manual_seed(cfg.seed + 1)
        self.reuse_old_logprobs = cfg.ppo_epochs == 1 and cfg.minibatches == 1
        """One update per step: the policy at the start of the step is the one being updated, so its
        log-probabilities (PPO's pi_old) are that update's own forward pass, detached, not an extra pass."""

    def state_dict_for_sampler(self) -> dict:
        return {k: v.detach().to("cpu").clone() for k, v in self.module.state_dict().items()}

    def step(self, samples: list[TrainSample]) -> dict[str, float]:
        """One optimiser step (several updates if ppo_epochs/minibatches > 1). Returns statistics."""
        w = self.world
        if not samples and not w.distributed:
            return {"loss": 0.0, "tokens": 0}
        if w.distributed and len(samples) < self.cfg.minibatches:
            raise ValueError(f"rank {w.rank} has {len(samples)} samples, fewer than trainer.minibatches "
                             f"= {self.cfg.minibatches}: every rank needs a share of every update")
        t0 = time.perf_counter()
        batch = self.codec.batch(samples).to(self.device)
        T = batch.mask.shape[1]
        samp = torch.zeros((len(samples), T))
        for b, s in enumerate(samples):
            samp[b, : len(s.sampler_logprobs)] = torch.tensor(s.sampler_logprobs[:T])
        samp = samp.to(self.device)
        adv = torch.tensor([s.advantage for s in samples], device=self.device)
        pos = torch.tensor([s.positive for s in samples], device=self.device)
        self.model.train()
        with torch.no_grad():
            old = None if self.reuse_old_logprobs else self.codec.score(self.module, batch, self.temperature)[0]
            ref = self.codec.score(self.ref, batch, self.temperature)[0] if self.ref is not None else None
        n = len(samples)
        totals: dict[str, float] = {}
        updates = 0
        for _ in range(self.cfg.ppo_epochs):
            order = torch.randperm(n, generator=self.gen)
            if w.distributed:  # exactly `minibatches` non-empty chunks on every rank
                chunks = list(torch.tensor_split(order, self.cfg.minibatches))
            else:
                mb = max(1, n // self.cfg.minibatches)
                chunks = [order[start : start + mb] for start in range(0, n, mb)]
            for chunk in chunks:
                ix = chunk.to(self.device)
                sub = self.codec.select(batch, ix)
                local = Norm.of(sub.mask, pos[ix])
                g = all_sum([local.seqs, local.tokens, local.pos_tokens], w)
                logp, ent = self.codec.score(self.model, sub, self.temperature)
                out = self.algorithm.loss(LossInputs(
                    logp=logp, old_logp=logp.detach() if old is None else old[ix], sampler_logp=samp[ix], advantages=adv[ix], mask=sub.mask,
                    positive=pos[ix], ref_logp=ref[ix] if ref is not None else None, entropy=ent,
                    norm=Norm(*g),
                ))
                self.opt.zero_grad(set_to_none=True)
                (out.loss * w.size).backward()  # DDP averages gradients over ranks; the loss is already global
                gn = torch.nn.utils.clip_grad_norm_(self.params, self.cfg.grad_clip)
                self.opt.step()
                updates += 1
                stats = dict(out.stats)
                stats["loss"] = all_sum([float(out.loss.detach())], w)[0]
                stats["grad_norm"] = float(gn)
                stats["entropy"] = float((ent.detach() * sub.mask).sum() / sub.mask.sum().clamp(min=1))
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
        res = {k: v / max(1, updates) for k, v in totals.items()}
        res["tokens"] = float(batch.mask.sum())
        res["seq_tokens"] = self.codec.seq_tokens(batch)
        res["train_seconds"] = time.perf_counter() - t0
        return res
