"""Scale-out hooks, all imported lazily so the default install needs neither Ray nor NCCL.

- ``maybe_fsdp(model)``: wraps the policy in FSDP only when ``torch.distributed`` is
  initialised with world size > 1 on CUDA (e.g. under ``torchrun``); otherwise returns it as is.
  One process per GPU; each rank runs its own rollout workers on its share of the batch.
  Not exercised here (no GPUs); the single-process path is what the tests cover.
- ``ray_remote_check(address)``: returns a ``(candidate_text, timeout) -> (accepted, reason)``
  callable whose checks run as Ray tasks (``num_cpus=1`` each) on the cluster at ``address``;
  the ``Verifier`` uses it for the full verdict, so proof checking spreads over the cluster
  while generation and training stay on the trainer node. Needs the ``ray`` extra and a Rocq
  install on every worker node.
"""

from __future__ import annotations

from collections.abc import Callable


def world() -> tuple[int, int]:
    """(rank, world size); (0, 1) when torch.distributed is not initialised."""
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def maybe_fsdp(model):
    import torch

    rank, size = world()
    if size <= 1 or not torch.cuda.is_available():
        return model
    from torch.distributed.fsdp import (
        FullyShardedDataParallel as FSDP,  # pragma: no cover
    )

    return FSDP(model.to(f"cuda:{rank % torch.cuda.device_count()}"), use_orig_params=True)  # pragma: no cover


def ray_remote_check(address: str) -> Callable[[str, float], tuple[bool, str]]:  # pragma: no cover - needs ray
    try:
        import ray
    except ImportError as err:
        raise ImportError("async.ray_address is set but the `ray` extra is not installed (pip install 'ray>=2.9')") from err
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)

    @ray.remote(num_cpus=1)
    def _check(text: str, timeout: float) -> tuple[bool, str]:
        from lean_tools.rocq.checker import RocqChecker

        fc = RocqChecker().check_file(text, timeout=timeout)
        if fc.ok:
            return True, "compiled in a fresh coqc (ray worker)"
        return False, fc.errors[0].text if fc.errors else ("timed out" if fc.timed_out else f"rc={fc.returncode}")

    def check(text: str, timeout: float) -> tuple[bool, str]:
        return ray.get(_check.remote(text, timeout))

    return check
