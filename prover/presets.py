"""Named search settings for ``prove --preset NAME`` and where the k-NN tactic index lives.

- ``default``: the plain ``prove`` (the config as given).
- ``hammer``: CoqHammer's ``hammer`` alone on the whole theorem (``search.hammer = "only"``).
- ``knn``: the default search plus tactics proposed by the nearest-neighbour index
  (``search.knn_index``, ``prover.search.knn``) at ``default_knn_index()``; the index is built by
  ``prover-setup model tactics``.
- ``lm``: the default search plus tactics proposed by the tactic language model
  (``search.lm_model``, ``prover.search.lm_source``) at ``default_tactic_model()``; the same
  command installs it (from the adapter the repository ships in ``rl/tactic_model/``).
- ``learned``: the default search plus both, the index's suggestions first. Whether this is the
  combination to recommend is settled by the development measurements, not here.

``benchmarks/presets.py`` takes the locations and the setup command from here.
This module imports nothing heavy.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

KNN_SETUP = "prover-setup model tactics"
"""The command that builds the k-NN tactic index at its default location."""
KNN_ENV = "PROVER_KNN_INDEX"
"""Environment variable that moves the index (a folder holding ``index.npz`` and ``entries.jsonl``)."""
KNN_HOME = "~/.cache/agentic-prover/tactics/knn"
KNN_MISSING = f"the k-NN tactic index is not installed: run `{KNN_SETUP}`"
LM_ENV = "PROVER_TACTIC_MODEL"
"""Environment variable that moves the tactic language model (a folder holding ``tactic-model.json``)."""
LM_HOME = "~/.cache/agentic-prover/tactics/lm"
LM_MISSING = f"the tactic language model is not installed: run `{KNN_SETUP}`"


def default_knn_index() -> Path:
    """``$PROVER_KNN_INDEX`` when set, else ``~/.cache/agentic-prover/tactics/knn``."""
    return Path(os.environ.get(KNN_ENV) or KNN_HOME).expanduser()


def knn_index_installed(folder: Path) -> bool:
    """Both files of a saved index are in ``folder`` (``prover.search.knn_index.KnnIndex.save``)."""
    return (folder / "index.npz").is_file() and (folder / "entries.jsonl").is_file()


def default_tactic_model() -> Path:
    """``$PROVER_TACTIC_MODEL`` when set, else ``~/.cache/agentic-prover/tactics/lm``."""
    return Path(os.environ.get(LM_ENV) or LM_HOME).expanduser()


def tactic_model_installed(folder: Path) -> bool:
    """``folder`` holds a tactic model card (``prover.search.lm_card.CARD_FILE``); whether the
    model it names loads is found when a search loads it."""
    return (folder / "tactic-model.json").is_file()


class PresetError(ValueError):
    """A preset cannot run here; the message says what to do."""


@dataclass(frozen=True)
class ProvePreset:
    """A named set of ``search`` settings laid over the config."""

    name: str
    description: str
    search: dict[str, object] = field(default_factory=dict)
    """``SearchSettings`` fields this preset sets."""
    knn: bool = False
    """Sets ``search.knn_index`` to the installed index (``default_knn_index()``)."""
    lm: bool = False
    """Sets ``search.lm_model`` to the installed tactic model (``default_tactic_model()``)."""


PROVE_PRESETS: dict[str, ProvePreset] = {
    p.name: p
    for p in (
        ProvePreset("default", "the plain prove: the config as given"),
        ProvePreset("hammer", "CoqHammer's hammer alone on the whole theorem", {"hammer": "only"}),
        ProvePreset("knn", "the default search plus the k-NN tactic index's suggestions", knn=True),
        ProvePreset("lm", "the default search plus the tactic language model's proposals", lm=True),
        # both sources: kept as the recommended combination only if the development measurements confirm it
        ProvePreset("learned", "the default search plus the k-NN index's and the tactic model's tactics", knn=True, lm=True),
    )
}


def search_overrides(name: str) -> dict[str, object]:
    """The ``search`` settings of preset ``name`` (``PresetError`` for an unknown name, or for a
    preset whose index or tactic model is not installed, naming the command that installs it)."""
    if name not in PROVE_PRESETS:
        raise PresetError(f"unknown preset {name!r} (known: {', '.join(PROVE_PRESETS)})")
    preset = PROVE_PRESETS[name]
    out = dict(preset.search)
    if preset.knn:
        folder = default_knn_index()
        if not knn_index_installed(folder):
            raise PresetError(KNN_MISSING)
        out["knn_index"] = str(folder)
    if preset.lm:
        model = default_tactic_model()
        if not tactic_model_installed(model):
            raise PresetError(LM_MISSING)
        out["lm_model"] = str(model)
    return out
