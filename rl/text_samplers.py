"""Samplers for a real LM policy (``rl.lm.LMPolicy``): prompt text in, sampled token ids out.

Both answer ``sample_text(prompt, version=None, seed=None) -> (version, TextCompletion)`` and
take ``push(weights, version)`` with ``weights`` a dict of Hugging Face checkpoint names to
tensors (``LMPolicy.hf_weights``), so the trainer does not know which one runs.

- ``VLLMTextSampler``: the vLLM V1 engine of ``rl.vllm_engine`` (in-process on CPU), weights
  pushed into the running engine after every update. One snapshot: asking for an older
  version raises ``SnapshotGone`` (the episode is recorded as interrupted). ``sample_texts``
  draws one completion per seed of one prompt in a single batched call (a group's first turns);
  ``HFTextSampler`` offers it too (one batch through the model, a generator per row).
- ``HFTextSampler``: transformers ``generate()`` on copies of the model, keeping the last
  ``keep`` versions so streaming episodes can finish on their snapshot. The fallback (and the
  sampler on the H200, which has no vLLM).

Log-probabilities are those of the distribution sampled from (after temperature), as the
trainer's importance weights need. Sampling is plain temperature sampling (no top-k/top-p).
"""

from __future__ import annotations

import copy
import tempfile
import threading
from collections import OrderedDict

import torch

from .action_samplers import SnapshotGone
from .vllm_engine import TextCompletion


class VLLMTextSampler:
    def __init__(self, policy, *, max_new_tokens: int, temperature: float = 1.0, seed: int = 0,
                 transport: str = "iterator", weights_dir=None, max_model_len: int = 2048, kv_cache_gib: int = 1):
        from .vllm_engine import VLLMEngine

        self.policy = policy
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.seed = seed
        # transport "path" needs a folder: without one given, a temporary one that close() removes
        self._own_dir = tempfile.TemporaryDirectory(prefix="vllm_push_") if transport == "path" and weights_dir is None else None
        if self._own_dir is not None:
            weights_dir = self._own_dir.name
        self.engine = VLLMEngine(policy.folder, transport=transport, weights_dir=weights_dir,  # type: ignore[arg-type]
                                 max_model_len=max_model_len, seed=seed, kv_cache_gib=kv_cache_gib)
        self.max_model_len = max_model_len

    @property
    def version(self) -> int:
        return self.engine.version

    def push(self, weights: dict, version: int) -> None:
        self.engine.push(weights.items(), version)

    def sample_text(self, prompt: str, version: int | None = None, seed: int | None = None
                    ) -> tuple[int, TextCompletion]:
        if version is not None and version != self.engine.version:
            raise SnapshotGone(f"vLLM holds only version {self.engine.version}, not {version}")
        ids = self.policy.encode(prompt)
        room = self.max_model_len - len(ids)
        if room < 1:
            raise ValueError(f"prompt of {len(ids)} tokens leaves no room in max_model_len = {self.max_model_len}")
        v, out = self.engine.generate([ids], max_tokens=min(self.max_new_tokens, room), temperature=self.temperature,
                                      seed=seed, stop_token_ids=[self.policy.eos_token_id])
        return v, out[0][0]

    def sample_texts(self, prompt: str, seeds) -> tuple[int, list[TextCompletion]]:
        """One completion of ``prompt`` per seed, in one batched engine call (latest version)."""
        ids = self.policy.encode(prompt)
        room = self.max_model_len - len(ids)
        if room < 1:
            raise ValueError(f"prompt of {len(ids)} tokens leaves no room in max_model_len = {self.max_model_len}")
        v, out = self.engine.generate([ids] * len(seeds), max_tokens=min(self.max_new_tokens, room),
                                      temperature=self.temperature, seeds=list(seeds),
                                      stop_token_ids=[self.policy.eos_token_id])
        return v, [o[0] for o in out]

    def close(self) -> None:
        self.engine.close()
        if self._own_dir is not None:
            self._own_dir.cleanup()
            self._own_dir = None


def text_sampler(policy, sc, *, seed: int, temperature: float | None = None, weights_dir=None, keep: int = 2,
                 device: str = "cpu") -> VLLMTextSampler | HFTextSampler:
    """The sampler a run's ``[sampler]`` section (``rl.config.SamplerConfig``) names for ``policy``:
    ``type = "vllm"`` gives ``VLLMTextSampler`` (transport, context length and KV cache from ``sc``),
    anything else ``HFTextSampler`` (``keep`` versions, on ``device``). ``temperature`` overrides
    ``sc.temperature``; ``weights_dir`` is where transport ``path`` writes pushed weights (None: a
    temporary folder the sampler removes when closed)."""
    temp = sc.temperature if temperature is None else temperature
    if sc.type == "vllm":
        return VLLMTextSampler(policy, max_new_tokens=sc.max_new_tokens, temperature=temp, seed=seed,
                               transport=sc.vllm_transport, weights_dir=weights_dir,
                               max_model_len=sc.vllm_max_model_len, kv_cache_gib=sc.vllm_kv_cache_gib)
    return HFTextSampler(policy, max_new_tokens=sc.max_new_tokens, temperature=temp, seed=seed, keep=keep,
                         device=device)


class HFTextSampler:
    def __init__(self, policy, *, max_new_tokens: int, temperature: float = 1.0, seed: int = 0, keep: int = 2,
                 device: str = "cpu"):
        self.policy = policy
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.seed = seed
        self.keep = max(1, keep)
        self.device = device
        self.models: OrderedDict[int, torch.nn.Module] = OrderedDict()
        self.latest = -1
        self._lock = threading.Lock()

    @property
    def version(self) -> int:
        return self.latest

    def push(self, weights: dict, version: int) -> None:
        with self._lock:
            if len(self.models) >= self.keep:
                _, m = self.models.popitem(last=False)
            elif self.policy.lora.rank > 0:  # the trained model carries LoRA layers: sample from a plain one
                import transformers

                m = transformers.AutoModelForCausalLM.from_config(self.policy.base_model().config).to(self.device)
            else:
                m = copy.deepcopy(self.policy.base_model()).to(self.device)
            m.load_state_dict(weights, strict=True)
            m.eval()
            self.models[version] = m
            self.latest = version

    @torch.no_grad()
    def sample_text(self, prompt: str, version: int | None = None, seed: int | None = None
                    ) -> tuple[int, TextCompletion]:
        with self._lock:
            v = self.latest if version is None else version
            if v not in self.models:
                raise SnapshotGone(f"policy version {v} no longer held (latest {self.latest})")
            model = self.models[v]
        ids = torch.tensor([self.policy.encode(prompt)], device=self.device)
        gen = torch.Generator(device=self.device).manual_seed(self.seed if seed is None else seed)
        eos = self.policy.eos_token_id
        out: list[int] = []
        lps: list[float] = []
        past = None
        x = ids
        for _ in range(self.max_new_tokens):  # explicit loop: seeded per call and thread-safe, unlike generate()
            res = model(input_ids=x, past_key_values=past, use_cache=True)
            past = res.past_key_values
            logp = torch.log_softmax(res.logits[0, -1].float() / self.temperature, -1)
            tok = int(torch.multinomial(logp.exp(), 1, generator=gen))
            out.append(tok)
            lps.append(float(logp[tok]))
            if tok == eos:
                break
            x = torch.tensor([[tok]], device=self.device)
        return v, TextCompletion(tuple(out), tuple(lps), bool(out) and out[-1] == eos)

    @torch.no_grad()
    def sample_texts(self, prompt: str, seeds) -> tuple[int, list[TextCompletion]]:
        """One completion of ``prompt`` per seed, as one batch through the latest model (a group's
        first turns). Row i draws from its own generator seeded like ``sample_text(prompt, seed=
        seeds[i])``, so it gets the same tokens (up to batched floating-point rounding); a row stops
        at EOS while the others go on. The prompt is shared, so no padding is needed."""
        with self._lock:
            v = self.latest
            if v not in self.models:
                raise SnapshotGone(f"policy version {v} no longer held (latest {self.latest})")
            model = self.models[v]
        n = len(seeds)
        gens = [torch.Generator(device=self.device).manual_seed(self.seed if s is None else s) for s in seeds]
        x = torch.tensor([self.policy.encode(prompt)] * n, device=self.device)
        eos = self.policy.eos_token_id
        outs: list[list[int]] = [[] for _ in range(n)]
        lps: list[list[float]] = [[] for _ in range(n)]
        live = list(range(n))
        past = None
        for _ in range(self.max_new_tokens):
            res = model(input_ids=x, past_key_values=past, use_cache=True)
            past = res.past_key_values
            logp = torch.log_softmax(res.logits[:, -1].float() / self.temperature, -1)
            toks = [int(torch.multinomial(logp[i].exp(), 1, generator=gens[i])) for i in range(n)]
            for i in live:
                outs[i].append(toks[i])
                lps[i].append(float(logp[i, toks[i]]))
            live = [i for i in live if toks[i] != eos]
            if not live:
                break
            x = torch.tensor([[t] for t in toks], device=self.device)
        return v, [TextCompletion(tuple(o), tuple(lp), bool(o) and o[-1] == eos) for o, lp in zip(outs, lps)]

    def close(self) -> None:
        with self._lock:
            self.models.clear()
