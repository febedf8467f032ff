"""A real pretrained causal LM as the policy: free-form text in, free-form text out.

``LMPolicy`` wraps any Hugging Face causal-LM folder (SmolLM2-135M-Instruct by default, through
``prover.models.ensure_model``) and its tokenizer, trained in full or through LoRA (``peft``).
What the trainer and the samplers need from it:

- ``encode(text)``: the token ids of a rendered prompt (no special tokens added: the chat
  template writes its own). Sampler and trainer call this same function on the same text, so
  both see identical prompt ids.
- ``render(messages)``: the tokenizer's chat template with the generation prompt, or a plain
  ``role: content`` transcript when the tokenizer has no template.
- ``score_tokens(policy, prompts, completions, temperature)``: per-token log-probabilities and
  entropies of given completions, ``[B, T]`` with a mask, with gradient. The logits at
  position ``len(prompt) - 1 + t`` predict completion token ``t``.
- ``hf_weights()``: the weights under the names the Hugging Face / vLLM loaders use
  (``model.layers.0.self_attn.q_proj.weight``, ...). With LoRA each adapted weight is the base
  weight plus the adapter's delta (``get_delta_weight``), computed without touching the model.

Not covered: quantised training, sharded (FSDP) state gathering, vision or encoder-decoder models.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn


@dataclass(frozen=True)
class LoraSettings:
    """LoRA on the named linear modules; ``rank`` 0 means full fine-tuning (no adapter)."""

    rank: int = 0
    alpha: float = 16.0
    targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    dropout: float = 0.0


def resolve_model_path(path: str) -> Path:
    """A model folder from ``path``: an existing folder, or a name ``prover.models.ensure_model``
    knows (e.g. ``"smollm2"``). Raises ``FileNotFoundError`` naming the problem."""
    p = Path(path).expanduser()
    if p.is_dir():
        if not (p / "config.json").is_file():
            raise FileNotFoundError(f"{p} has no config.json: not a Hugging Face model folder")
        return p
    try:
        from prover.models import ModelSetupError, ensure_model
    except ImportError:
        raise FileNotFoundError(f"model {path!r}: no such folder, and prover.models.ensure_model is not available") from None
    try:
        return Path(ensure_model(path))
    except ModelSetupError as err:
        raise FileNotFoundError(f"model {path!r}: {err}") from None


class LMPolicy(nn.Module):
    """A causal LM plus its tokenizer; ``forward(ids, attention_mask) -> logits``."""

    def __init__(self, lm: nn.Module, tokenizer, *, folder: Path, lora: LoraSettings):
        super().__init__()
        self.lm = lm
        self.tokenizer = tokenizer
        self.folder = folder
        self.lora = lora

    @classmethod
    def load(cls, path: str, *, lora: LoraSettings = LoraSettings(), dtype: torch.dtype = torch.float32) -> LMPolicy:
        import transformers

        folder = resolve_model_path(path)
        tok = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        lm = transformers.AutoModelForCausalLM.from_pretrained(folder, local_files_only=True, dtype=dtype)
        if lora.rank > 0:
            import peft

            conf = peft.LoraConfig(r=lora.rank, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                                   target_modules=list(lora.targets), task_type="CAUSAL_LM")
            lm = peft.get_peft_model(lm, conf)
        return cls(lm, tok, folder=folder, lora=lora)

    # -- text <-> tokens ----------------------------------------------------------------------
    @property
    def eos_token_id(self) -> int:
        eos = self.tokenizer.eos_token_id
        return int(eos) if eos is not None else 0

    @property
    def pad_token_id(self) -> int:
        pad = self.tokenizer.pad_token_id
        return int(pad) if pad is not None else self.eos_token_id

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(list(ids), skip_special_tokens=True)

    def render(self, messages: Sequence[dict]) -> str:
        """The prompt text for ``messages`` (``{"role", "content"}`` dicts), ending where the
        assistant's answer starts."""
        if getattr(self.tokenizer, "chat_template", None):
            return self.tokenizer.apply_chat_template(list(messages), tokenize=False, add_generation_prompt=True)
        return "".join(f"{m['role']}: {m['content']}\n" for m in messages) + "assistant: "

    # -- model ----------------------------------------------------------------------------------
    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                positions: torch.Tensor | None = None) -> torch.Tensor:
        """Logits ``[B, L, V]``; with ``positions`` ``[B, T]``, only those positions' logits, ``[B, T, V]``.

        With positions, models of the plain ``body + lm_head`` shape (``.model``, output embeddings,
        no logit soft-capping) apply the vocabulary projection at those positions alone; others
        compute every position and gather."""
        if positions is None:
            return self.lm(input_ids=ids, attention_mask=attention_mask).logits
        base = self.base_model()
        body, head = getattr(base, "model", None), base.get_output_embeddings()
        if body is None or head is None or getattr(base.config, "final_logit_softcapping", None):
            out = self.lm(input_ids=ids, attention_mask=attention_mask).logits
            return out.gather(1, positions.unsqueeze(-1).expand(-1, -1, out.shape[-1]))
        h = body(input_ids=ids, attention_mask=attention_mask).last_hidden_state
        return head(h.gather(1, positions.unsqueeze(-1).expand(-1, -1, h.shape[-1])))

    def base_model(self) -> nn.Module:
        """The plain transformers model (under the LoRA wrapper when there is one)."""
        return self.lm.get_base_model() if self.lora.rank > 0 else self.lm

    @torch.no_grad()
    def hf_weights(self) -> Iterator[tuple[str, torch.Tensor]]:
        """(name, CPU tensor) for every weight, under Hugging Face checkpoint names, LoRA merged."""
        base = self.base_model()
        deltas: dict[str, torch.Tensor] = {}
        if self.lora.rank > 0:
            for mname, mod in base.named_modules():
                if hasattr(mod, "get_delta_weight") and hasattr(mod, "base_layer"):
                    for adapter in getattr(mod, "active_adapters", ["default"]):
                        d = mod.get_delta_weight(adapter)
                        key = f"{mname}.weight"
                        deltas[key] = deltas.get(key, 0) + d
        for name, t in base.state_dict().items():
            if "lora_" in name:
                continue
            clean = name.replace(".base_layer.", ".")
            out = t.detach()
            if clean in deltas:
                out = out + deltas[clean].to(out.dtype)
            yield clean, out.to("cpu").contiguous()

    def trainable_parameters(self) -> list[nn.Parameter]:
        return [p for p in self.parameters() if p.requires_grad]


@dataclass
class TokenBatch:
    """Right-padded prompt + completion batch. ``pos[b, t]`` indexes the logits predicting ``targets[b, t]``."""

    ids: torch.Tensor  # [B, L]
    attention: torch.Tensor  # [B, L]
    pos: torch.Tensor  # [B, T]
    targets: torch.Tensor  # [B, T]
    mask: torch.Tensor  # [B, T] float

    def to(self, device) -> TokenBatch:
        return TokenBatch(*(x.to(device) for x in (self.ids, self.attention, self.pos, self.targets, self.mask)))

    def select(self, ix: torch.Tensor) -> TokenBatch:
        return TokenBatch(self.ids[ix], self.attention[ix], self.pos[ix], self.targets[ix], self.mask[ix])


def make_token_batch(prompts: Sequence[Sequence[int]], completions: Sequence[Sequence[int]], pad: int) -> TokenBatch:
    """Pack prompt ids and completion ids (each prompt at least one token) into a ``TokenBatch``."""
    if any(len(p) == 0 for p in prompts):
        raise ValueError("every prompt needs at least one token")
    B = len(prompts)
    T = max([1, *(len(c) for c in completions)])
    L = max(len(p) + len(c) for p, c in zip(prompts, completions))
    ids = torch.full((B, L), pad, dtype=torch.long)
    att = torch.zeros((B, L), dtype=torch.long)
    pos = torch.zeros((B, T), dtype=torch.long)
    tgt = torch.zeros((B, T), dtype=torch.long)
    mask = torch.zeros((B, T))
    for b, (p, c) in enumerate(zip(prompts, completions)):
        n = len(p) + len(c)
        ids[b, :n] = torch.tensor(list(p) + list(c), dtype=torch.long)
        att[b, :n] = 1
        for t, tok in enumerate(c):
            pos[b, t] = len(p) - 1 + t
            tgt[b, t] = tok
            mask[b, t] = 1.0
    return TokenBatch(ids, att, pos, tgt, mask)


def score_tokens(model: nn.Module, batch: TokenBatch, temperature: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probabilities of ``batch.targets`` and entropies, both ``[B, T]``, zero where masked.

    Only the logits at completion positions are normalised (the prompt's are never materialised
    over the vocabulary), which keeps a 49k-token vocabulary affordable on CPU."""
    logits = model(batch.ids, batch.attention, batch.pos).float() / temperature
    logp_all = F.log_softmax(logits, dim=-1)
    logp = logp_all.gather(-1, batch.targets.unsqueeze(-1)).squeeze(-1)
    ent = -(logp_all.exp() * logp_all).sum(-1)
    return logp * batch.mask, ent * batch.mask


class TokenCodec:
    """How the trainer turns ``TrainSample``s of an ``LMPolicy`` into a batch and scores it.

    ``TrainSample.prompt`` is the rendered prompt text, ``TrainSample.actions`` the completion's
    token ids (EOS included when the sampler stopped on it)."""

    def __init__(self, policy: LMPolicy):
        self.policy = policy

    def batch(self, samples) -> TokenBatch:
        return make_token_batch([self.policy.encode(s.prompt) for s in samples], [list(s.actions) for s in samples],
                                self.policy.pad_token_id)

    def score(self, model: nn.Module, batch: TokenBatch, temperature: float) -> tuple[torch.Tensor, torch.Tensor]:
        return score_tokens(model, batch, temperature)

    def select(self, batch: TokenBatch, ix: torch.Tensor) -> TokenBatch:
        return batch.select(ix)

    def seq_tokens(self, batch: TokenBatch) -> float:
        return float(batch.attention.sum())
