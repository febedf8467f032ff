"""The multi-process trainer for real: ``torchrun --nproc_per_node 2`` (gloo, DDP) for two steps.

Both ranks hold identical parameters after each step, and they equal (within 1e-5) one
process trained on the same total batch, the loss normalised by the global counts. In the
``llm`` tier (``make test-llm``): a tiny model, but ~50 s per case on 2 shared cores, most of
it starting processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

pytestmark = pytest.mark.llm
ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("ddp_worker.py")


def _run(args: list[str], tmp: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    env.pop("WORLD_SIZE", None)
    proc = subprocess.run(args, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("algorithm", ["grpo", "dapo"])
def test_two_ranks_equal_one_process_on_the_total_batch(tmp_path, algorithm):
    _run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", str(WORKER),
          str(tmp_path), algorithm], tmp_path)
    _run([sys.executable, str(WORKER), str(tmp_path), algorithm], tmp_path)
    start = None
    for step in range(2):
        r0 = torch.load(tmp_path / f"{algorithm}_ddp_rank0_step{step}.pt")
        r1 = torch.load(tmp_path / f"{algorithm}_ddp_rank1_step{step}.pt")
        ref = torch.load(tmp_path / f"{algorithm}_ref_rank0_step{step}.pt")
        assert torch.equal(r0, r1) or (r0 - r1).abs().max() < 1e-7
        assert (r0 - ref).abs().max() < 1e-5
        if start is None:
            start = ref
    assert (torch.load(tmp_path / f"{algorithm}_ref_rank0_step1.pt") - start).abs().max() > 1e-3  # it trained
