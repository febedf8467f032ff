"""A small random-initialised Llama saved as a Hugging Face folder: a real model for vLLM / DDP mechanics.

head_dim is 64 (vLLM's CPU attention kernels reject 16); no tokenizer (callers pass token ids)."""

from __future__ import annotations

from pathlib import Path


def tiny_llama(folder: Path, *, seed: int = 0, vocab: int = 384, tie: bool = False) -> Path:
    import torch
    import transformers

    torch.manual_seed(seed)
    conf = transformers.LlamaConfig(vocab_size=vocab, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                                    num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=256,
                                    tie_word_embeddings=tie, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    transformers.LlamaForCausalLM(conf).save_pretrained(folder, safe_serialization=True)
    return folder


def word_tokenizer(vocab: int = 384):
    """A real (tiny) word-level tokenizer whose ids fit ``tiny_llama``'s vocabulary: ids 0-2 are
    <pad>, <s>, </s>; words and punctuation get ids from 3 in order of first sight up to ``vocab``."""
    import tokenizers
    import transformers
    from tokenizers import models, pre_tokenizers

    words = ["<pad>", "<s>", "</s>", "<unk>"] + [chr(c) for c in range(33, 127)] + \
        ["Theorem", "goal", "forall", "nat", "Proof", "Qed", "lia", "auto", "intros", "tauto", "coq", "```"]
    tok = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(words[:vocab])}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()])
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", bos_token="<s>",
                                                eos_token="</s>", unk_token="<unk>")
