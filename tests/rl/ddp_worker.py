"""Run by ``tests/rl/test_distributed.py``: two trainer steps on a fixed synthetic batch.

Under ``torchrun --nproc_per_node 2`` each rank trains on its shard of the batch through DDP
(gloo), in float64; run plainly it is the one-process reference on the whole batch. After each step every
process saves its flattened parameters to ``OUT/<tag>_rank<r>_step<k>.pt``.
Usage: ``python tests/rl/ddp_worker.py OUT ALGORITHM``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import torch

from rl.algorithms import build_algorithm
from rl.config import AlgorithmConfig, ModelConfig, TrainerConfig
from rl.distributed import init_world, shard, shutdown
from rl.policy import ACTIONS, build_model
from rl.trainer import Trainer, TrainSample


def batch(step: int) -> list[TrainSample]:
    rng = random.Random(100 + step)
    out = []
    for i in range(8):  # uneven lengths, so per-rank and global token counts differ
        n = rng.randint(1, 5)
        acts = (*(rng.randrange(1, len(ACTIONS)) for _ in range(n)), 0)
        out.append(TrainSample(prompt=f"Goal {rng.randint(0, 99)} + {i} = {rng.randint(0, 99)}.", actions=acts,
                               sampler_logprobs=tuple(-2.0 for _ in acts), advantage=rng.uniform(-1, 1),
                               positive=rng.random() < 0.5))
    return out


def main() -> None:
    out, alg = Path(sys.argv[1]), sys.argv[2]
    torch.set_num_threads(1)
    # float64: Adam's first step divides each gradient by its own magnitude, which blows float32
    # rounding differences (sums taken in another order across ranks) up to ~1e-4 on parameters
    # whose gradient is almost zero; in float64 the comparison measures the algorithm, not rounding.
    torch.set_default_dtype(torch.float64)
    w = init_world("cpu")
    torch.manual_seed(0)
    mcfg = ModelConfig(d_model=32, n_layers=1, n_heads=2, max_prompt_chars=48)
    model = build_model(mcfg, 6)
    tcfg = TrainerConfig(lr=1e-2, seed=0, minibatches=1)
    acfg = AlgorithmConfig(type=alg, pos_nll_coef=0.1, entropy_coef=0.01)
    trainer = Trainer(model, build_algorithm(acfg, 6), tcfg, max_prompt_chars=48, end_bias=3.0, world=w)
    tag = "ddp" if w.distributed else "ref"
    for step in range(2):
        trainer.step(shard(batch(step), w))
        flat = torch.cat([p.detach().flatten() for p in trainer.module.parameters()])
        torch.save(flat, out / f"{alg}_{tag}_rank{w.rank}_step{step}.pt")
    shutdown(w)


if __name__ == "__main__":
    main()
