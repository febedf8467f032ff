"""Checkpoints for exact resume: model, optimiser, reference, step, policy version, RNGs, data cursor.

One file, ``<output>/checkpoint/state.pt``, written to a temporary name and renamed so a
crash mid-write leaves the previous checkpoint intact. Exactness: in synchronous mode a run
resumed at step k continues bit-for-bit like the uninterrupted run (tested). In async mode
the interleaving of rollout threads is not reproducible, so resume restores the state but
not the exact sample order.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import torch


def path_in(output_dir: str | Path) -> Path:
    return Path(output_dir) / "checkpoint" / "state.pt"


def save(output_dir: str | Path, *, trainer, sampler, problems, step: int, version: int, extra: dict | None = None) -> Path:
    p = path_in(output_dir)
    p.parent.mkdir(parents=True, exist_ok=True)
    state = {
        "step": step,
        "version": version,
        "model": trainer.module.state_dict(),
        "optimizer": trainer.opt.state_dict(),
        "reference": trainer.ref.state_dict() if trainer.ref is not None else None,
        "trainer_gen": trainer.gen.get_state(),
        "sampler_gen": sampler.gen.get_state() if hasattr(sampler, "gen") else None,
        "problems": problems.state(),
        "torch_rng": torch.get_rng_state(),
        "python_rng": random.getstate(),
        "numpy_rng": np.random.get_state(),
        "extra": extra or {},
    }
    tmp = p.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, p)
    return p


def load(output_dir: str | Path) -> dict | None:
    p = path_in(output_dir)
    if not p.is_file():
        return None
    return torch.load(p, map_location="cpu", weights_only=False)


def restore(state: dict, *, trainer, sampler, problems) -> tuple[int, int]:
    """Apply a loaded checkpoint; returns (step, version)."""
    trainer.module.load_state_dict(state["model"])
    trainer.opt.load_state_dict(state["optimizer"])
    if trainer.ref is not None and state.get("reference") is not None:
        trainer.ref.load_state_dict(state["reference"])
    trainer.gen.set_state(state["trainer_gen"])
    if state.get("sampler_gen") is not None and hasattr(sampler, "gen"):
        sampler.gen.set_state(state["sampler_gen"])
    problems.load_state(state["problems"])
    torch.set_rng_state(state["torch_rng"])
    random.setstate(state["python_rng"])
    np.random.set_state(state["numpy_rng"])
    return int(state["step"]), int(state["version"])
