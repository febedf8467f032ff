"""``tactic-model.json``: what a saved tactic language model folder holds, one typed record.

The trainer (``rl.tactic_sft``) writes a ``TacticModelCard`` beside the LoRA adapter it trained;
``prover-setup model tactics`` installs the adapter and rewrites the card so that ``base`` names
the installed base folder; the search's model source (``lm_source.py``) reads it. Imports
nothing heavy (no torch), so the trainer, the setup command and the presets can all use it.

A folder is a tactic model when it holds ``CARD_FILE``; the adapter, when there is one, lies at
``adapter`` relative to the folder. The model is asked with ``lm_prompt.tactic_prompt`` and its
completion read with ``lm_prompt.parse_completion`` (the prompt format is not recorded here:
there is one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, model_validator

from lean_tools.types import Record

CARD_FILE = "tactic-model.json"


class CardError(ValueError):
    """A tactic model folder has no card, or a card that does not parse (the message says which)."""


class TacticModelCard(Record):
    """How to load one tactic model (frozen; written as ``tactic-model.json``)."""

    base: str
    """The causal language model under the adapter: a bundled name that ``prover.models.ensure_model``
    prepares (``smollm2``), or a Hugging Face folder (absolute, or relative to the card's folder).
    A card committed in the repository names a bundled model; an installed card names a folder."""
    adapter: str | None = None
    """Folder of a ``peft`` LoRA adapter, relative to the card's folder; None: the base model alone."""
    max_new_tokens: int = Field(48, ge=1, le=512)
    """Most tokens generated for one tactic (the completion ends at its first newline before that)."""
    trained: dict[str, Any] = Field(default_factory=dict)
    """Free-form metadata from the trainer (data, steps, loss, code version); never read by the search."""
    endpoint: str | None = None
    """An OpenAI-compatible server (``http://host:port/v1``) serving the model under the name
    ``base``: the search asks its completions endpoint instead of loading weights (``adapter`` must
    then be None; the server holds the trained model). The API key, if any, is read from
    ``$OPENAI_API_KEY`` when the model is first used."""

    @model_validator(mode="after")
    def _served_or_local(self) -> TacticModelCard:
        if self.endpoint is not None and self.adapter is not None:
            raise ValueError("a served model (endpoint) takes no adapter: the server holds the trained model")
        return self

    def adapter_path(self, folder: Path) -> Path | None:
        """The adapter folder of the card saved in ``folder``, or None."""
        return None if self.adapter is None else folder / self.adapter


def read_card(folder: str | Path) -> TacticModelCard:
    """The card saved in ``folder`` (``CardError`` when absent or invalid; ``FileNotFoundError``
    is kept apart as the usual "not installed" case)."""
    path = Path(folder) / CARD_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as e:
        raise CardError(f"cannot read {path}: {e}") from None
    try:
        return TacticModelCard.model_validate_json(text)
    except ValidationError as e:
        raise CardError(f"{path} is not a tactic model card: {' '.join(str(e).split())[:300]}") from None


def write_card(folder: str | Path, card: TacticModelCard) -> Path:
    """Write ``card`` into ``folder`` (created when missing); returns the file's path. Written
    through a temporary file, so a reader never sees half a card."""
    path = Path(folder) / CARD_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(card.model_dump_json(indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
