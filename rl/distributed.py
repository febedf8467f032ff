"""Scale-out: data-parallel training under ``torchrun`` and proof checks on a Ray cluster.

Data parallelism (``World``, ``init_world``, ``wrap_ddp``):
- ``init_world()`` reads torchrun's ``RANK`` / ``WORLD_SIZE`` / ``LOCAL_RANK``. With a world
  size above 1 it calls ``torch.distributed.init_process_group`` (NCCL on CUDA, gloo on CPU)
  and pins each rank to its GPU. Without torchrun it returns the one-process world and
  initialises nothing.
- ``wrap_ddp(model, world)`` wraps the policy in ``DistributedDataParallel``: every rank starts
  from rank 0's parameters (DDP broadcasts them) and gradients are averaged in backward, so all
  ranks hold identical parameters after every step.
- The batch is sharded: each rank generates and checks its own ``batch_groups / world`` groups
  (its problem sampler seeded by rank) and trains on them. The trainer normalises the loss by
  the *global* counts (sequences, tokens, positive tokens summed with ``all_reduce``) and
  multiplies by the world size to undo DDP's averaging, so a step equals one process trained
  on the union of the ranks' samples (tested to 1e-5 with ``torchrun --nproc_per_node 2``).
- Rank 0 alone writes outputs (metrics, rollouts, evaluations, checkpoints) and runs the
  held-out evaluation.

Ray (``remote_verdict``): the full verdict of a candidate, ``rl.verifier.full_verdict`` (the very
function the local path calls: ``lean_tools.soundness.verify``, static screen included), run as
a Ray task. The ``Verifier`` uses it for its final step, so checking spreads over the cluster
while generation and training stay on the trainer node. Needs the ``ray`` extra and Rocq on
every worker node.

Not covered: FSDP2 sharding (the policies here fit on one device; DDP replicates them),
multi-node rendezvous beyond what torchrun's environment variables describe, Ray-placed
rollout workers inside the training loop (rollouts stay threads on each rank; the test runs
rollout and checking workers as Ray tasks, see ``tests/rl/test_ray.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class World:
    rank: int = 0
    size: int = 1
    local_rank: int = 0
    device: str = "cpu"
    backend: str | None = None
    """"gloo" or "nccl" when a process group is up; None for one process."""

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.size > 1


def init_world(device: str = "auto") -> World:
    """The process group torchrun describes (``WORLD_SIZE`` > 1), or the one-process world.

    ``device``: "cpu", "cuda" or "auto" (CUDA when available). Idempotent."""
    import torch
    import torch.distributed as dist

    size = int(os.environ.get("WORLD_SIZE", "1"))
    use_cuda = device == "cuda" or (device == "auto" and torch.cuda.is_available())
    if size <= 1:
        return World(device="cuda" if use_cuda else "cpu")
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    backend = "nccl" if use_cuda else "gloo"
    if use_cuda:
        torch.cuda.set_device(local)
    if not dist.is_initialized():
        dist.init_process_group(backend=backend)
    return World(rank=rank, size=size, local_rank=local, device=f"cuda:{local}" if use_cuda else "cpu",
                 backend=backend)


def world() -> tuple[int, int]:
    """(rank, world size); (0, 1) when torch.distributed is not initialised."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def wrap_ddp(model, w: World):
    """``DistributedDataParallel(model)`` when ``w`` has more than one rank, else ``model``."""
    if not w.distributed:
        return model
    from torch.nn.parallel import DistributedDataParallel as DDP

    model = model.to(w.device)
    ids = [w.local_rank] if w.device.startswith("cuda") else None
    return DDP(model, device_ids=ids)


def all_sum(values: list[float], w: World) -> list[float]:
    """Element-wise sum of ``values`` over all ranks (the values themselves for one process)."""
    if not w.distributed:
        return list(values)
    import torch
    import torch.distributed as dist

    t = torch.tensor(values, dtype=torch.float64, device=w.device if w.backend == "nccl" else "cpu")
    dist.all_reduce(t)
    return [float(x) for x in t.cpu()]


def shard(items: list, w: World) -> list:
    """This rank's contiguous share of ``items`` (sizes differ by at most one)."""
    n, k, r = len(items), w.size, w.rank
    lo = r * n // k
    hi = (r + 1) * n // k
    return items[lo:hi]


def shutdown(w: World) -> None:
    if w.distributed:
        import torch.distributed as dist

        if dist.is_initialized():
            dist.destroy_process_group()


# -- Ray -------------------------------------------------------------------------------------------
def _import_ray():
    try:
        import ray
    except ImportError as err:
        raise ImportError("async.ray_address is set but the `ray` extra is not installed (pip install 'ray>=2.9')") from err
    return ray


def _verdict_task(problem_text: str, candidate_text: str, timeout: float) -> tuple[bool, str]:
    from .verifier import full_verdict

    return full_verdict(problem_text, candidate_text, timeout)


def remote_verdict(address: str | None = None, *, num_cpus: float = 1.0
                   ) -> Callable[[str, str, float], tuple[bool, str]]:
    """A ``(problem_text, candidate_text, timeout) -> (accepted, reason)`` callable whose calls run
    ``rl.verifier.full_verdict`` as Ray tasks. ``address``: a cluster ("auto", "ray://...") or None
    for the Ray instance already initialised in this process (else a new local one)."""
    ray = _import_ray()
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    task = ray.remote(num_cpus=num_cpus, max_retries=0)(_verdict_task)

    def check(problem_text: str, candidate_text: str, timeout: float) -> tuple[bool, str]:
        return tuple(ray.get(task.remote(problem_text, candidate_text, timeout)))

    return check


ray_remote_check = remote_verdict
"""The name the training loop used before; the same callable."""
