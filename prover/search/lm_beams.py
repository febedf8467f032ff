"""Beam search over a causal language model, shared by the search's in-process tactic model
(``lm_source.TransformersTacticModel``) and the trainer's evaluation (``rl.tactic_sft``), so that
what the trainer measures is what the search asks.

The prompt is encoded once and its key/value cache is reordered among the live beams; a beam's
score is the sum of its tokens' log-probabilities (no length penalty). ``transformers``'
``generate`` beam search encodes the prompt once per beam, which on a CPU is most of a call's
work for a short tactic. torch is imported on first use: the search imports this module without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Beam:
    """A decoded continuation: its token ids (the stop token last, when it stopped) and their
    summed log-probability."""

    tokens: tuple[int, ...]
    score: float


def beam_search(lm: Any, prompt: Sequence[int], *, beams: int, max_new_tokens: int, stop_ids: Sequence[int]) -> list[Beam]:
    """The ``beams`` best continuations of ``prompt`` (token ids) under the causal LM ``lm`` (a
    ``transformers`` model called with ``input_ids``/``past_key_values``) that end on a token of
    ``stop_ids`` or run out of ``max_new_tokens``, best first, at most ``beams``."""
    import torch
    import torch.nn.functional as F

    if beams < 1 or max_new_tokens < 1:
        raise ValueError("beam_search needs at least one beam and one new token")
    with torch.inference_mode():
        device = next(lm.parameters()).device
        stops = torch.tensor(sorted(set(stop_ids)), device=device)
        out = lm(input_ids=torch.tensor([list(prompt)], device=device), use_cache=True)
        cache, logp = out.past_key_values, F.log_softmax(out.logits[0, -1].float(), dim=-1)
        alive: list[Beam] = [Beam((), 0.0)]
        done: list[Beam] = []
        for t in range(max_new_tokens):
            scores = torch.tensor([b.score for b in alive], device=device)[:, None] + logp
            top = scores.flatten().topk(min(2 * beams, scores.numel()))
            keep_rows: list[int] = []
            nxt: list[Beam] = []
            for value, flat in zip(top.values.tolist(), top.indices.tolist(), strict=True):
                row, tok = divmod(flat, logp.shape[-1])
                beam = Beam((*alive[row].tokens, tok), value)
                if bool((stops == tok).any()) or t == max_new_tokens - 1:
                    done.append(beam)
                elif len(nxt) < beams:
                    nxt.append(beam)
                    keep_rows.append(row)
            done = sorted(done, key=lambda b: -b.score)[:beams]
            if not nxt or (len(done) >= beams and nxt[0].score < done[-1].score):
                break  # scores only fall: no live beam can enter the finished top ``beams``
            cache.reorder_cache(torch.tensor(keep_rows, device=device))
            step_ids = torch.tensor([[b.tokens[-1]] for b in nxt], device=device)
            logits = lm(input_ids=step_ids, past_key_values=cache, use_cache=True).logits
            logp, alive = F.log_softmax(logits[:, -1].float(), dim=-1), nxt
    return done
