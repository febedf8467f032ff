"""Named search settings for ``prove --preset NAME`` and where the k-NN tactic index lives.

- ``default``: the plain ``prove`` (the config as given).
- ``hammer``: CoqHammer's ``hammer`` alone on the whole theorem (``search.hammer = "only"``).
- ``knn``: the default search plus tactics proposed by the nearest-neighbour index
  (``search.knn_index``, ``prover.search.knn``) at ``default_knn_index()``; the index is built by
  ``prover-setup model tactics``.

``benchmarks/presets.py`` takes the index location and the setup command from here.
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


def default_knn_index() -> Path:
    """``$PROVER_KNN_INDEX`` when set, else ``~/.cache/agentic-prover/tactics/knn``."""
    return Path(os.environ.get(KNN_ENV) or KNN_HOME).expanduser()


def knn_index_installed(folder: Path) -> bool:
    """Both files of a saved index are in ``folder`` (``prover.search.knn_index.KnnIndex.save``)."""
    return (folder / "index.npz").is_file() and (folder / "entries.jsonl").is_file()


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


PROVE_PRESETS: dict[str, ProvePreset] = {
    p.name: p
    for p in (
        ProvePreset("default", "the plain prove: the config as given"),
        ProvePreset("hammer", "CoqHammer's hammer alone on the whole theorem", {"hammer": "only"}),
        ProvePreset("knn", "the default search plus the k-NN tactic index's suggestions", knn=True),
    )
}


def search_overrides(name: str) -> dict[str, object]:
    """The ``search`` settings of preset ``name`` (``PresetError`` for an unknown name, or for
    ``knn`` without an installed index, naming the command that builds it)."""
    if name not in PROVE_PRESETS:
        raise PresetError(f"unknown preset {name!r} (known: {', '.join(PROVE_PRESETS)})")
    preset = PROVE_PRESETS[name]
    out = dict(preset.search)
    if preset.knn:
        folder = default_knn_index()
        if not knn_index_installed(folder):
            raise PresetError(KNN_MISSING)
        out["knn_index"] = str(folder)
    return out
