"""Policy models over one joint vocabulary: prompt characters, then tactic actions.

Action space (what the policy chooses): one token per whole tactic from ``ACTIONS`` plus an
end token. A completion ``lia. <end>`` becomes the proof script ``lia.``. This is deliberately
small so a randomly initialised policy trained from scratch on CPU visibly learns which
tactic (sequence) closes which kind of goal within minutes; the prompt (statement text plus
checker feedback) is read character by character, so nothing about the goal is hand-coded.
The end token is masked at the first step (an empty proof is never useful) and, at later
steps, gets a fixed prior bias ``end_bias`` (``model.end_bias``, default 3.0: with 14 actions a
fresh policy then stops after each tactic with probability ~0.6 instead of 1/14, so short
scripts, which are most proofs here, are sampled at all). The bias is part of the policy:
sampler and trainer apply the same one, and the learned logits can override it.

Sequence layout: ``[BOS] prompt-chars [SEP] a_1 ... a_T``; the logits at position SEP+t give
the distribution of action t+1, restricted to the action range. Models: a tiny causal
transformer, a tiny GRU, or a transformers GPT-2 (random config, or local weights).
Importing this module imports torch.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .config import ModelConfig

ACTIONS = (
    "<end>",
    "intros.",
    "split.",
    "lia.",
    "nia.",
    "ring.",
    "field.",
    "tauto.",
    "reflexivity.",
    "auto.",
    "trivial.",
    "simpl.",
    "congruence.",
    "left.",
    "right.",
)
END = 0
PAD, BOS, SEP = 0, 1, 2
_CHARS = "\n" + "".join(chr(c) for c in range(32, 127))
CHAR0 = 3
ACT0 = CHAR0 + len(_CHARS) + 1  # +1: unknown char
VOCAB = ACT0 + len(ACTIONS)
_CHAR_ID = {c: CHAR0 + i for i, c in enumerate(_CHARS)}
UNK = CHAR0 + len(_CHARS)


def encode_prompt(text: str, max_chars: int) -> list[int]:
    text = text[-max_chars:]
    return [BOS] + [_CHAR_ID.get(c, UNK) for c in text] + [SEP]


def script_of(actions: list[int] | tuple[int, ...]) -> str:
    return " ".join(ACTIONS[a] for a in actions if a != END)


@dataclass
class Batch:
    """Right-padded training/scoring batch. ``act_pos[b, t]`` indexes the logits that predict action t."""

    ids: torch.Tensor  # [B, L] long
    act_pos: torch.Tensor  # [B, T] long
    actions: torch.Tensor  # [B, T] long (action indices, END allowed)
    mask: torch.Tensor  # [B, T] float, 1 for real action tokens

    def to(self, device) -> Batch:
        return Batch(self.ids.to(device), self.act_pos.to(device), self.actions.to(device), self.mask.to(device))


def make_batch(prompts: list[list[int]], actions: list[list[int]]) -> Batch:
    """Pack encoded prompts (with BOS/SEP) and action index lists (END included if emitted)."""
    T = max([1, *(len(a) for a in actions)])
    L = max(len(p) + len(a) for p, a in zip(prompts, actions))
    B = len(prompts)
    ids = torch.full((B, L), PAD, dtype=torch.long)
    act_pos = torch.zeros((B, T), dtype=torch.long)
    acts = torch.zeros((B, T), dtype=torch.long)
    mask = torch.zeros((B, T))
    for b, (p, a) in enumerate(zip(prompts, actions)):
        ids[b, : len(p)] = torch.tensor(p)
        if a:
            ids[b, len(p) : len(p) + len(a)] = torch.tensor(a) + ACT0
        for t in range(len(a)):
            act_pos[b, t] = len(p) - 1 + t
            acts[b, t] = a[t]
            mask[b, t] = 1.0
    return Batch(ids, act_pos, acts, mask)


def action_logits(model: nn.Module, ids: torch.Tensor, pos: torch.Tensor, temperature: float = 1.0,
                  end_bias: float = 0.0, first_step: bool = True) -> torch.Tensor:
    """Masked action logits [B, T, A] at positions ``pos``; column 0 is the first action when
    ``first_step`` (END masked there), END gets ``end_bias`` everywhere else."""
    logits = model(ids)  # [B, L, V]
    idx = pos.unsqueeze(-1).expand(-1, -1, logits.shape[-1])
    picked = logits.gather(1, idx)[..., ACT0:]  # [B, T, A]
    bias = torch.zeros_like(picked)
    bias[..., END] = end_bias
    picked = (picked + bias) / temperature
    if first_step:
        first = torch.zeros_like(picked, dtype=torch.bool)
        first[:, 0, END] = True
        picked = picked.masked_fill(first, float("-inf"))
    return picked


def score(model: nn.Module, batch: Batch, temperature: float = 1.0, end_bias: float = 0.0
          ) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probabilities of ``batch.actions`` and entropies, both [B, T] (zero where masked)."""
    logits = action_logits(model, batch.ids, batch.act_pos, temperature, end_bias)
    logp_all = F.log_softmax(logits, dim=-1)
    logp = logp_all.gather(-1, batch.actions.unsqueeze(-1)).squeeze(-1)
    p = logp_all.exp()
    ent = -(p * torch.where(p > 0, logp_all, torch.zeros_like(logp_all))).sum(-1)
    return logp * batch.mask, ent * batch.mask


class TinyTransformer(nn.Module):
    def __init__(self, cfg: ModelConfig, max_len: int):
        super().__init__()
        self.max_len = max_len
        self.emb = nn.Embedding(VOCAB, cfg.d_model)
        self.pos = nn.Embedding(max_len, cfg.d_model)
        layer = nn.TransformerEncoderLayer(
            cfg.d_model, cfg.n_heads, 4 * cfg.d_model, cfg.dropout, batch_first=True, norm_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, cfg.n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, VOCAB)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        L = ids.shape[1]
        x = self.emb(ids) + self.pos(torch.arange(L, device=ids.device))
        causal = torch.triu(torch.full((L, L), float("-inf"), device=ids.device), diagonal=1)
        x = self.blocks(x, mask=causal, is_causal=True)
        return self.head(self.norm(x))


class TinyGRU(nn.Module):
    def __init__(self, cfg: ModelConfig, max_len: int):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, cfg.d_model)
        self.rnn = nn.GRU(cfg.d_model, cfg.d_model, num_layers=cfg.n_layers, batch_first=True)
        self.head = nn.Linear(cfg.d_model, VOCAB)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(self.emb(ids))
        return self.head(out)


class HFPolicy(nn.Module):
    """A transformers causal LM used through the same ``forward(ids) -> logits`` interface."""

    def __init__(self, cfg: ModelConfig, max_len: int):
        super().__init__()
        import transformers

        if cfg.type == "hf_path":
            self.lm = transformers.AutoModelForCausalLM.from_pretrained(cfg.path, local_files_only=True)
            if self.lm.config.vocab_size < VOCAB:
                raise ValueError(f"model at {cfg.path} has vocab {self.lm.config.vocab_size} < {VOCAB}")
        else:
            conf = transformers.GPT2Config(
                vocab_size=VOCAB,
                n_positions=max_len,
                n_embd=cfg.d_model,
                n_layer=cfg.n_layers,
                n_head=cfg.n_heads,
                resid_pdrop=cfg.dropout,
                embd_pdrop=cfg.dropout,
                attn_pdrop=cfg.dropout,
                bos_token_id=BOS,
                eos_token_id=ACT0 + END,
                pad_token_id=PAD,
            )
            self.lm = transformers.GPT2LMHeadModel(conf)

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        return self.lm(input_ids=ids, attention_mask=attention_mask).logits[..., :VOCAB]


def build_model(cfg: ModelConfig, max_new_tokens: int) -> nn.Module:
    """Random initialisation from the config (seed torch first for reproducibility)."""
    max_len = cfg.max_prompt_chars + max_new_tokens + 4
    if cfg.type == "tiny_transformer":
        return TinyTransformer(cfg, max_len)
    if cfg.type == "tiny_gru":
        return TinyGRU(cfg, max_len)
    return HFPolicy(cfg, max_len)
