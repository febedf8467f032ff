"""Samplers: turn prompts into action completions with the sampler's own log-probabilities.

Every sampler holds its own copy of the policy weights, updated by ``push(state_dict, version)``
from the trainer (the same hand-off a vLLM server gets), and keeps the last ``keep`` versions so
that streaming episodes can finish on the snapshot they started with (``sample(..., version=v)``;
``SnapshotGone`` when it was evicted).

- ``TorchSampler``: a plain loop over any ``rl.policy`` model, batched, deterministic given its
  ``torch.Generator`` seed. Covered by the tests.
- ``TransformersSampler``: ``generate()`` of an HF model with a logits processor that restricts
  tokens to the action range. Covered by a test with a tiny random GPT-2.
- ``VLLMSampler``: a vLLM V1 engine with ``allowed_token_ids``; weights pushed through the
  workers' ``reload_weights`` (``rl.vllm_engine``). Single snapshot (no streaming on old
  versions). The weight push itself is tested in the ``llm`` tier (``tests/rl/test_vllm_push.py``,
  on a real Llama folder); the real-LM sampler is ``rl.text_samplers``.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass

import torch

from .policy import ACT0, ACTIONS, BOS, END, PAD, action_logits, encode_prompt


class SnapshotGone(RuntimeError):
    """The policy version an episode pinned is no longer held by the sampler."""


@dataclass(frozen=True)
class Completion:
    actions: tuple[int, ...]
    """Emitted action indices, without END."""
    logprobs: tuple[float, ...]
    """One per emitted token, END included when ``ended``."""
    ended: bool


class _Snapshots:
    def __init__(self, model: torch.nn.Module, keep: int):
        self.base = model
        self.keep = max(1, keep)
        self.models: OrderedDict[int, torch.nn.Module] = OrderedDict()
        self.latest = -1
        self.lock = threading.Lock()

    def push(self, state_dict: dict, version: int) -> None:
        with self.lock:
            if len(self.models) >= self.keep:
                _, m = self.models.popitem(last=False)
            else:
                m = copy.deepcopy(self.base)
            m.load_state_dict(state_dict)
            m.eval()
            self.models[version] = m
            self.latest = version

    def get(self, version: int | None) -> tuple[int, torch.nn.Module]:
        with self.lock:
            v = self.latest if version is None else version
            if v not in self.models:
                raise SnapshotGone(f"policy version {v} no longer held (latest {self.latest})")
            return v, self.models[v]


class _SamplerBase:
    """What every sampler holds: policy snapshots by version and the sampling settings."""

    def __init__(self, model: torch.nn.Module, *, max_prompt_chars: int, max_new_tokens: int,
                 temperature: float = 1.0, keep: int = 2, seed: int = 0, device: str = "cpu",
                 end_bias: float = 0.0):
        self.snapshots = _Snapshots(copy.deepcopy(model).to(device), keep)
        self.max_prompt_chars = max_prompt_chars
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.end_bias = end_bias
        self.device = device
        self.seed = seed
        self._gen_lock = threading.Lock()


class TorchSampler(_SamplerBase):
    def __init__(self, model: torch.nn.Module, **kwargs):
        super().__init__(model, **kwargs)
        self.gen = torch.Generator(device="cpu").manual_seed(self.seed)

    @property
    def version(self) -> int:
        return self.snapshots.latest

    def push(self, state_dict: dict, version: int) -> None:
        self.snapshots.push(state_dict, version)

    def rng_state(self) -> torch.Tensor:
        return self.gen.get_state()

    def set_rng_state(self, state: torch.Tensor) -> None:
        self.gen.set_state(state)

    @torch.no_grad()
    def sample(self, prompts: list[str], version: int | None = None, seed: int | None = None
               ) -> tuple[int, list[Completion]]:
        """Sample one completion per prompt from snapshot ``version`` (latest if None).

        With ``seed`` the draw uses its own generator, so results do not depend on which
        thread sampled first (the loop seeds each group by its draw index)."""
        v, model = self.snapshots.get(version)
        gen = torch.Generator().manual_seed(seed) if seed is not None else self.gen
        enc = [encode_prompt(p, self.max_prompt_chars) for p in prompts]
        B = len(enc)
        L = max(len(e) for e in enc) + self.max_new_tokens + 1
        ids = torch.full((B, L), PAD, dtype=torch.long)
        for b, e in enumerate(enc):
            ids[b, : len(e)] = torch.tensor(e)
        base = torch.tensor([len(e) - 1 for e in enc])
        done = torch.zeros(B, dtype=torch.bool)
        acts: list[list[int]] = [[] for _ in range(B)]
        lps: list[list[float]] = [[] for _ in range(B)]
        ended = [False] * B
        with self._gen_lock:
            for t in range(self.max_new_tokens):  # rows still open afterwards were cut (ended=False)
                pos = (base + t).unsqueeze(1)
                logits = action_logits(model, ids.to(self.device), pos.to(self.device), self.temperature,
                                       self.end_bias, first_step=(t == 0))[:, 0].float().cpu()
                logp = torch.log_softmax(logits, -1)
                a = torch.multinomial(logp.exp(), 1, generator=gen).squeeze(1)
                for b in range(B):
                    if done[b]:
                        continue
                    ai = int(a[b])
                    lps[b].append(float(logp[b, ai]))
                    if ai == END:
                        ended[b] = True
                        done[b] = True
                    else:
                        acts[b].append(ai)
                        ids[b, base[b] + t + 1] = ACT0 + ai
                if bool(done.all()):
                    break
        return v, [Completion(tuple(acts[b]), tuple(lps[b]), ended[b]) for b in range(B)]


class TransformersSampler(_SamplerBase):
    """``generate()`` on an ``rl.policy.HFPolicy``; tokens restricted to actions by a logits processor."""

    @property
    def version(self) -> int:
        return self.snapshots.latest

    def push(self, state_dict: dict, version: int) -> None:
        self.snapshots.push(state_dict, version)

    @torch.no_grad()
    def sample(self, prompts: list[str], version: int | None = None, seed: int | None = None
               ) -> tuple[int, list[Completion]]:
        import transformers

        v, model = self.snapshots.get(version)
        enc = [encode_prompt(p, self.max_prompt_chars) for p in prompts]
        P = max(len(e) for e in enc)
        ids = torch.full((len(enc), P), PAD, dtype=torch.long)
        att = torch.zeros((len(enc), P), dtype=torch.long)
        for b, e in enumerate(enc):  # left padding for decoder-only generation
            ids[b, P - len(e):] = torch.tensor(e)
            att[b, P - len(e):] = 1
        n_actions = len(ACTIONS)
        budget = self.max_new_tokens
        end_bias = self.end_bias

        class _ActionsOnly(transformers.LogitsProcessor):
            def __call__(self, input_ids, scores):
                step = input_ids.shape[1] - P
                out = torch.full_like(scores, float("-inf"))
                out[:, ACT0 : ACT0 + n_actions] = scores[:, ACT0 : ACT0 + n_actions]
                out[:, ACT0 + END] += end_bias  # the temperature warper divides after this, as the trainer does
                if step == 0:
                    out[:, ACT0 + END] = float("-inf")
                if step >= budget:
                    keep = out[:, ACT0 + END].clone()
                    out[:] = float("-inf")
                    out[:, ACT0 + END] = torch.where(torch.isfinite(keep), keep, torch.zeros_like(keep))
                return out

        with self._gen_lock:
            if seed is None:
                seed, self.seed = self.seed, self.seed + 1
            torch.manual_seed(seed)
            out = model.lm.generate(
                input_ids=ids.to(self.device),
                attention_mask=att.to(self.device),
                do_sample=True,
                temperature=self.temperature,
                top_k=0,
                max_new_tokens=budget + 1,
                logits_processor=transformers.LogitsProcessorList([_ActionsOnly()]),
                eos_token_id=ACT0 + END,
                pad_token_id=PAD,
                bos_token_id=BOS,
                output_scores=True,
                return_dict_in_generate=True,
            )
        seqs = out.sequences[:, P:].cpu()
        steps = torch.stack([torch.log_softmax(s.float(), -1) for s in out.scores], 1).cpu()  # [B, S, V]
        comps = []
        for b in range(len(enc)):
            acts, lps, ended = [], [], False
            for t in range(seqs.shape[1]):
                tok = int(seqs[b, t])
                if t == budget:  # forced END after the budget: not a policy choice
                    break
                lps.append(float(steps[b, t, tok]))
                if tok == ACT0 + END:
                    ended = True
                    break
                acts.append(tok - ACT0)
            comps.append(Completion(tuple(acts), tuple(lps), ended))
        return v, comps


class VLLMSampler:
    """A vLLM V1 engine over a saved ``HFPolicy`` folder (``rl.vllm_engine.VLLMEngine``).

    ``push`` hands the trainer's state dict to the running engine under the checkpoint names
    its loader expects (the ``HFPolicy`` wrapper's ``lm.`` prefix removed). One snapshot only:
    ``sample(version=v)`` for an older ``v`` raises ``SnapshotGone``. Actions are sampled in
    two calls (the first token may not be END, as in the other samplers); the END bias of
    ``model.end_bias`` has no vLLM counterpart, so this sampler needs ``end_bias = 0``."""

    def __init__(self, model_dir: str, *, max_prompt_chars: int, max_new_tokens: int,
                 temperature: float = 1.0, seed: int = 0, end_bias: float = 0.0, weights_dir=None):
        from .vllm_engine import VLLMEngine

        if end_bias:
            raise ValueError("sampler.type = 'vllm' with the tactic-token policy needs model.end_bias = 0")
        self.engine = VLLMEngine(model_dir, transport="iterator", weights_dir=weights_dir, seed=seed,
                                 max_model_len=max_prompt_chars + max_new_tokens + 4, tokenizer=False)
        self.max_prompt_chars = max_prompt_chars
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature

    @property
    def version(self) -> int:
        return self.engine.version

    def push(self, state_dict: dict, version: int) -> None:
        self.engine.push(((k.removeprefix("lm."), v) for k, v in state_dict.items()), version)

    def close(self) -> None:
        self.engine.close()

    def sample(self, prompts: list[str], version: int | None = None, seed: int | None = None
               ) -> tuple[int, list[Completion]]:
        if version is not None and version != self.engine.version:
            raise SnapshotGone(f"vLLM holds only version {self.engine.version}")
        allowed = list(range(ACT0 + 1, ACT0 + len(ACTIONS)))
        enc = [encode_prompt(p, self.max_prompt_chars) for p in prompts]
        v1, o1 = self.engine.generate(enc, max_tokens=1, temperature=self.temperature, seed=seed,
                                      allowed_token_ids=allowed)
        enc2 = [e + list(o[0].token_ids) for e, o in zip(enc, o1)]
        comps: list[Completion] = []
        rest: list = [[None]] * len(enc)
        if self.max_new_tokens > 1:
            v2, rest = self.engine.generate(enc2, max_tokens=self.max_new_tokens - 1, temperature=self.temperature,
                                            seed=seed, allowed_token_ids=[ACT0 + END, *allowed],
                                            stop_token_ids=[ACT0 + END])
            if v2 != v1:
                raise SnapshotGone(f"weights moved from {v1} to {v2} while sampling")
        for a, b in zip(o1, rest):
            toks = list(a[0].token_ids) + (list(b[0].token_ids) if b[0] is not None else [])
            lps = list(a[0].logprobs) + (list(b[0].logprobs) if b[0] is not None else [])
            ended = bool(toks) and toks[-1] == ACT0 + END
            acts = tuple(t - ACT0 for t in toks if t != ACT0 + END)
            comps.append(Completion(acts, tuple(lps[: len(acts) + int(ended)]), ended))
        return v1, comps
