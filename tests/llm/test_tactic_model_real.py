"""The search's tactic model (``prover/search/lm_source.py``) on the real SmolLM2 base, with no
adapter and with a fresh LoRA adapter (its initial update is zero, so it must change nothing), and
served by the real vLLM server of this tier (``conftest.server``) through a card with an ``endpoint``.

What is checked: the card loads through ``load_model``, a beam search returns ``k`` completions
ordered by log-probability, each ended by its newline or the token bound, the proposals are the
parsed ones among them, and ``LmSource`` counts the call. The base model is not trained on tactics:
whether it proposes anything useful is not asserted. No timed assertions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prover.search.lm_card import TacticModelCard, write_card
from prover.search.lm_prompt import parse_completion, tactic_prompt
from prover.search.lm_source import LmSource, LmUnavailable, OpenAITacticModel, load_model, proposals

pytestmark = pytest.mark.llm

GOAL = "  n, m : nat\n  H : n <= m\n  ============================\n  n + 0 <= m + 1"


def test_the_base_model_proposes_parsed_tactics_best_first(model_dir: Path, tmp_path: Path):
    write_card(tmp_path / "lm", TacticModelCard(base=str(model_dir), max_new_tokens=16))
    model = load_model(str(tmp_path / "lm"))
    assert load_model(str(tmp_path / "lm")) is model  # once per process
    prompt = tactic_prompt(GOAL)
    done = model.complete(prompt, 4)
    assert len(done) == 4 and [c.logprob for c in done] == sorted((c.logprob for c in done), reverse=True)
    for c in done:
        assert c.logprob <= 0 and 1 <= c.tokens <= 16
        assert c.text.count("\n") <= 2  # one stop token, which may hold a blank line
    props = model.propose(prompt, 4)
    assert props == proposals(done)  # deterministic beams: the same search again
    assert all(p.tactic == parse_completion(" " + p.tactic + "\n") for p in props)
    src = LmSource(model, k=4)
    src.candidates(GOAL, 0, set())
    assert src.calls == 1 and src.tokens == sum(p.tokens for p in props)


def test_a_fresh_lora_adapter_is_merged_and_changes_nothing(model_dir: Path, tmp_path: Path):
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(model_dir)
    get_peft_model(base, LoraConfig(r=4, target_modules=["q_proj", "v_proj"])).save_pretrained(tmp_path / "with" / "adapter")
    write_card(tmp_path / "with", TacticModelCard(base=str(model_dir), adapter="adapter", max_new_tokens=8))
    write_card(tmp_path / "without", TacticModelCard(base=str(model_dir), max_new_tokens=8))
    prompt = tactic_prompt(GOAL)
    adapted = load_model(str(tmp_path / "with")).complete(prompt, 3)
    plain = load_model(str(tmp_path / "without")).complete(prompt, 3)
    assert [c.text for c in adapted] == [c.text for c in plain]
    assert [c.logprob for c in adapted] == pytest.approx([c.logprob for c in plain], abs=1e-3)


def test_the_served_model_answers_the_search_s_completions_request(server, tmp_path: Path):
    """The request ``OpenAITacticModel`` sends (``n`` samples, ``logprobs=0``, stop at the newline)
    is accepted by vLLM, and its choices read as the search reads them: texts without the newline,
    each with its tokens' log-probabilities and at most ``max_new_tokens`` tokens. Samples: which
    tactics come back is not asserted. A card naming a model the server does not serve is refused
    on load, with the served names."""
    write_card(tmp_path / "served", TacticModelCard(base=server.name, endpoint=server.url, max_new_tokens=16))
    model = load_model(str(tmp_path / "served"))
    assert isinstance(model, OpenAITacticModel) and model.model == server.name
    done = model.complete(tactic_prompt(GOAL), 4)
    assert len(done) == 4 and [c.logprob for c in done] == sorted((c.logprob for c in done), reverse=True)
    for c in done:
        assert c.logprob <= 0 and 1 <= c.tokens <= 16 and "\n" not in c.text
    src = LmSource(model, k=4)
    src.candidates(GOAL, 0, set())
    assert src.calls == 1 and src.failed == 0
    write_card(tmp_path / "misnamed", TacticModelCard(base="no-such-model", endpoint=server.url))
    with pytest.raises(LmUnavailable, match=f"serves '{server.name}'"):
        load_model(str(tmp_path / "misnamed"))
