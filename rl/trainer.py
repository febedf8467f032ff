"""The algorithm-blind trainer: samples with advantages in, one optimiser step out.

The trainer turns ``TrainSample``s into a padded batch, computes the step's "old"
log-probabilities (and the reference's, for KL) once without gradient, then runs
``ppo_epochs`` x ``minibatches`` updates, each asking ``algorithm.loss`` for the loss. It never
looks at rewards or algorithm names. With several GPUs under ``torchrun`` the model is
wrapped in FSDP (``rl.distributed.maybe_fsdp``); on CPU or one GPU it is plain torch.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass

import torch

from .algorithms import Algorithm, LossInputs
from .config import TrainerConfig
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


class Trainer:
    def __init__(self, model: torch.nn.Module, algorithm: Algorithm, cfg: TrainerConfig, *, max_prompt_chars: int,
                 temperature: float = 1.0, device: str = "cpu", keep_reference: bool = False,
                 end_bias: float = 0.0):
        self.model = model.to(device)
        self.algorithm = algorithm
        self.cfg = cfg
        self.max_prompt_chars = max_prompt_chars
        self.temperature = temperature
        self.end_bias = end_bias
        self.device = device
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.ref = None
        if keep_reference:
            self.ref = copy.deepcopy(self.model).eval()
            for p in self.ref.parameters():
                p.requires_grad_(False)
        self.gen = torch.Generator().manual_seed(cfg.seed + 1)

    def state_dict_for_sampler(self) -> dict:
        return {k: v.detach().to("cpu").clone() for k, v in self.model.state_dict().items()}

    def step(self, samples: list[TrainSample]) -> dict[str, float]:
        """One optimiser step (several updates if ppo_epochs/minibatches > 1). Returns statistics."""
        if not samples:
            return {"loss": 0.0, "tokens": 0}
        t0 = time.perf_counter()
        prompts = [encode_prompt(s.prompt, self.max_prompt_chars) for s in samples]
        acts = [list(s.actions) for s in samples]
        batch = make_batch(prompts, acts).to(self.device)
        T = batch.mask.shape[1]
        samp = torch.zeros((len(samples), T))
        for b, s in enumerate(samples):
            samp[b, : len(s.sampler_logprobs)] = torch.tensor(s.sampler_logprobs)
        samp = samp.to(self.device)
        adv = torch.tensor([s.advantage for s in samples], device=self.device)
        pos = torch.tensor([s.positive for s in samples], device=self.device)
        self.model.train()
        with torch.no_grad():
            old, _ = score(self.model, batch, self.temperature, self.end_bias)
            ref = score(self.ref, batch, self.temperature, self.end_bias)[0] if self.ref is not None else None
        n = len(samples)
        mb = max(1, n // self.cfg.minibatches)
        totals: dict[str, float] = {}
        updates = 0
        for _ in range(self.cfg.ppo_epochs):
            order = torch.randperm(n, generator=self.gen)
            for start in range(0, n, mb):
                ix = order[start : start + mb].to(self.device)
                if len(ix) == 0:
                    continue
                sub = type(batch)(batch.ids[ix], batch.act_pos[ix], batch.actions[ix], batch.mask[ix])
                logp, ent = score(self.model, sub, self.temperature, self.end_bias)
                out = self.algorithm.loss(LossInputs(
                    logp=logp, old_logp=old[ix], sampler_logp=samp[ix], advantages=adv[ix], mask=sub.mask,
                    positive=pos[ix], ref_logp=ref[ix] if ref is not None else None, entropy=ent,
                ))
                self.opt.zero_grad(set_to_none=True)
                out.loss.backward()
                gn = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.grad_clip)
                self.opt.step()
                updates += 1
                stats = dict(out.stats)
                stats["loss"] = float(out.loss.detach())
                stats["grad_norm"] = float(gn)
                stats["entropy"] = float((ent.detach() * sub.mask).sum() / sub.mask.sum().clamp(min=1))
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
        res = {k: v / max(1, updates) for k, v in totals.items()}
        res["tokens"] = float(batch.mask.sum())
        res["seq_tokens"] = float((batch.ids != 0).sum())
        res["train_seconds"] = time.perf_counter() - t0
        return res
