"""A vLLM V1 engine (``vllm.LLM``) whose weights the trainer replaces after every update.

The push goes through vLLM's supported V1 interface: every worker offers
``reload_weights(weights_iterator=... | weights_path=..., is_checkpoint_format=True)``
(``vllm.v1.worker.gpu_worker.Worker.reload_weights``; the CPU worker inherits it), reached with
``LLM.collective_rpc("reload_weights", kwargs=...)``. The weights are loaded by the model's own
``load_weights``, so they must carry Hugging Face checkpoint names (``model.layers.0...``; no
``lm.`` prefix). Two transports:

- ``"iterator"``: the (name, tensor) pairs are handed to the worker as a Python iterator. Only
  possible when the engine core and its worker live in this process: the engine is then built
  with ``VLLM_ENABLE_V1_MULTIPROCESSING=0`` (``InprocClient`` + ``UniProcExecutor``). This is
  the default on CPU: no copy goes through the disk.
- ``"path"``: the weights are written as one safetensors file (plus the model's
  ``config.json``) into ``weights_dir`` and the worker reloads from that folder. Works across
  the engine's process boundary (the RPC carries only the path), so it is the transport for a
  multi-process engine.

Every push stamps a policy version; ``generate`` returns it with the completions, so every
sample says which weights produced it. Sampling log-probabilities are vLLM's
``processed_logprobs`` (after temperature), i.e. of the distribution actually sampled.

Not covered: tensor-parallel engines (each rank would need its shard), LoRA adapters served as
adapters (LoRA policies push merged weights), GPU-only transports (``update_weights``/NCCL).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

Transport = Literal["iterator", "path"]


@dataclass(frozen=True)
class TextCompletion:
    token_ids: tuple[int, ...]
    """Sampled token ids, the stop token (EOS) included when generation stopped on it."""
    logprobs: tuple[float, ...]
    """Sampling log-probability of each token in ``token_ids``."""
    finished: bool
    """Stopped on EOS / a stop token (False: cut at ``max_tokens``)."""


class VLLMEngine:
    """An in-process ``vllm.LLM`` over one model folder; ``push`` replaces its weights in place.

    Thread-safe: one lock serialises ``generate``, ``prompt_logprobs`` and ``push``. ``close()``
    shuts the engine down (its worker processes too, when it has any)."""

    def __init__(self, model_dir: str | Path, *, transport: Transport = "iterator", weights_dir: str | Path | None = None,
                 max_model_len: int = 2048, dtype: str = "float32", seed: int = 0, kv_cache_gib: int = 1,
                 gpu_memory_utilization: float = 0.3, tokenizer: bool = True):
        if transport == "path" and weights_dir is None:
            raise ValueError("transport 'path' needs weights_dir")
        self.model_dir = Path(model_dir)
        self.transport = transport
        self.weights_dir = Path(weights_dir) if weights_dir is not None else None
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", str(kv_cache_gib))
        saved = os.environ.get("VLLM_ENABLE_V1_MULTIPROCESSING")
        if transport == "iterator":  # the worker must live in this process to take a Python iterator
            os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
        try:
            import vllm

            kwargs = {"gpu_memory_utilization": gpu_memory_utilization} if torch.cuda.is_available() else {}
            self.llm = vllm.LLM(model=str(self.model_dir), dtype=dtype, enforce_eager=True,
                                max_model_len=max_model_len, seed=seed, skip_tokenizer_init=not tokenizer,
                                logprobs_mode="processed_logprobs", **kwargs)
        finally:
            if saved is None:
                os.environ.pop("VLLM_ENABLE_V1_MULTIPROCESSING", None)
            else:
                os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = saved
        self._version = -1
        self._lock = threading.Lock()

    @property
    def version(self) -> int:
        return self._version

    @property
    def in_process(self) -> bool:
        """The engine core (and its worker) run in this process."""
        return type(self.llm.llm_engine.engine_core).__name__ == "InprocClient"

    # -- weight push ------------------------------------------------------------------------------
    def push(self, weights: Iterable[tuple[str, torch.Tensor]], version: int) -> None:
        """Load ``weights`` (Hugging Face names, CPU tensors) into the running engine; stamp ``version``."""
        with self._lock:
            if self.transport == "iterator":
                self.llm.collective_rpc("reload_weights", kwargs={"weights_iterator": iter(weights),
                                                                  "is_checkpoint_format": True})
            else:
                folder = self._write(weights, version)
                self.llm.collective_rpc("reload_weights", kwargs={"weights_path": str(folder),
                                                                  "is_checkpoint_format": True})
            self.llm.reset_prefix_cache()
            self._version = version

    def _write(self, weights: Iterable[tuple[str, torch.Tensor]], version: int) -> Path:
        from safetensors.torch import save_file

        if self.weights_dir is None:
            raise ValueError("transport 'path' needs weights_dir")
        folder = self.weights_dir / f"v{version}"
        tmp = self.weights_dir / f".v{version}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copy(self.model_dir / "config.json", tmp / "config.json")
        save_file({k: v.contiguous() for k, v in weights}, str(tmp / "model.safetensors"))
        shutil.rmtree(folder, ignore_errors=True)
        tmp.rename(folder)
        for old in self.weights_dir.glob("v*"):  # keep the newest two folders
            if old.is_dir() and old.name[1:].isdigit() and int(old.name[1:]) < version - 1:
                shutil.rmtree(old, ignore_errors=True)
        return folder

    # -- sampling ---------------------------------------------------------------------------------
    def generate(self, prompts: Sequence[Sequence[int]], *, max_tokens: int, temperature: float = 1.0,
                 seed: int | None = None, stop_token_ids: Sequence[int] = (), n: int = 1,
                 allowed_token_ids: Sequence[int] | None = None, seeds: Sequence[int | None] | None = None,
                 ) -> tuple[int, list[list[TextCompletion]]]:
        """``n`` completions per prompt (token ids in, token ids out) and the policy version that made
        them, in one batched engine call. ``seeds``: one seed per prompt (overrides ``seed``)."""
        import vllm

        if seeds is not None and len(seeds) != len(prompts):
            raise ValueError(f"{len(seeds)} seeds for {len(prompts)} prompts")

        def params(s: int | None):
            return vllm.SamplingParams(n=n, temperature=temperature, max_tokens=max_tokens, logprobs=0, seed=s,
                                       stop_token_ids=list(stop_token_ids) or None,
                                       allowed_token_ids=list(allowed_token_ids) if allowed_token_ids else None,
                                       detokenize=False)

        sp = params(seed) if seeds is None else [params(s) for s in seeds]
        with self._lock:
            outs = self.llm.generate([{"prompt_token_ids": list(p)} for p in prompts], sp, use_tqdm=False)
            version = self._version
        result = []
        for o in outs:
            comps = []
            for c in o.outputs:
                ids = tuple(int(t) for t in c.token_ids)
                lps = tuple(float(d[t].logprob) for t, d in zip(ids, c.logprobs or []))
                comps.append(TextCompletion(ids, lps, c.finish_reason == "stop"))
            result.append(comps)
        return version, result

    def prompt_logprobs(self, ids: Sequence[int]) -> list[float]:
        """log p(ids[i] | ids[:i]) for i >= 1 under the engine's current weights (temperature 1)."""
        import vllm

        sp = vllm.SamplingParams(max_tokens=1, temperature=1.0, prompt_logprobs=0, detokenize=False)
        with self._lock:
            out = self.llm.generate([{"prompt_token_ids": list(ids)}], sp, use_tqdm=False)[0]
        return [float(d[t].logprob) for t, d in zip(ids[1:], out.prompt_logprobs[1:])]

    def close(self) -> None:
        llm, self.llm = getattr(self, "llm", None), None
        if llm is not None:
            shutdown = getattr(llm.llm_engine.engine_core, "shutdown", None)
            if shutdown is not None:
                shutdown()
