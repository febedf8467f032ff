"""The step record: one tactic of a human (or search-made) Rocq proof with the goals around it.

A ``Step`` is one line of a JSONL file. ``Goal`` (``prover.search.knn_index``, where the search's
k-NN index reads goals the same way) keeps what the model sees: the focused goal
(hypotheses and conclusion as Rocq prints them) and how many other goals are in focus.
The dedup key of a step is its normalised goal plus its tactic, so the same step written in two
files (or two lemmas) counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from prover.search.knn_index import Goal as Goal
from prover.search.knn_index import goal_from_text as goal_from_text

Library = Literal["stdlib", "stdpp"]
Split = Literal["train", "valid"]
Source = Literal["human", "search"]

LICENCES: dict[str, str] = {"stdlib": "LGPL-2.1-only", "stdpp": "BSD-3-Clause"}
"""SPDX licence of each library's proofs, read from the Debian ``copyright`` files
(``/usr/share/doc/coq/copyright``: "version 2.1", no "or later";
``/usr/share/doc/libcoq-stdpp/copyright``: BSD-3-clause)."""

class Step(BaseModel):
    """One tactic sentence of a proof with the goals before and after it."""

    model_config = ConfigDict(frozen=True)

    library: Library
    licence: str = Field(description="SPDX identifier of the library's licence")
    file: str = Field(description="path of the .v file relative to the library's root (POSIX)")
    lemma: str = Field(description="name of the proof the step belongs to, as coqtop names it")
    index: int = Field(ge=0, description="0-based position of the step among its proof's steps")
    goals_before: Goal
    tactic: str = Field(min_length=1, description="the sentence as written, comments removed, whitespace collapsed")
    goals_after: Goal
    source: Source = "human"
    split: Split

    def dedup_key(self) -> str:
        """Normalised goal before the step plus the tactic: equal keys are one training example."""
        return self.goals_before.normalised() + "\n>>> " + self.tactic


def write_jsonl(path: Path, steps: Iterable[Step]) -> int:
    """Write ``steps`` to ``path`` (one JSON object a line); returns how many were written."""
    n = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for s in steps:
            f.write(s.model_dump_json() + "\n")
            n += 1
    return n


def read_jsonl(path: Path) -> Iterator[Step]:
    """Steps of a JSONL file; a malformed line raises ``ValueError`` naming the file and line."""
    with path.open(encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield Step.model_validate_json(line)
            except ValueError as e:
                raise ValueError(f"{path}:{k}: not a step record: {e}") from None


def dedup(steps: Iterable[Step]) -> list[Step]:
    """``steps`` without repeats of the same ``dedup_key`` (the first one is kept, order kept)."""
    seen: set[str] = set()
    out: list[Step] = []
    for s in steps:
        key = s.dedup_key()
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out
