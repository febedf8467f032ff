"""A nearest-neighbour tactic source over the train steps (the idea of Tactician): the index
itself (goal features, TF-IDF postings, ``suggest``, the two votes) is
``prover.search.knn_index``, which the search reads at run time; this module builds it from a
step file (``prover-data index``) and measures it on the held-out split (``prover-data eval``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Self

from prover.search.knn_index import TOKEN, Entry, Suggestion, Vote, features
from prover.search.knn_index import KnnIndex as _SavedIndex

from .schema import read_jsonl

__all__ = ["Entry", "KnnIndex", "Suggestion", "Vote", "evaluate", "features"]


class KnnIndex(_SavedIndex):
    """``prover.search.knn_index.KnnIndex`` plus building from a JSONL step file."""

    @classmethod
    def from_jsonl(cls, path: Path) -> Self:
        return cls.build(read_jsonl(path))


def evaluate(index: KnnIndex, valid: Path, k: int = 5) -> dict:
    """Held-out exact-match accuracy (top-1, top-k) of ``index`` on the steps of ``valid`` under
    both votes, and of the baseline that always proposes the ``k`` most frequent train tactics.
    ``*_top1_name``: the first suggestion has the right tactic name (first word) only."""
    steps = [s for s in read_jsonl(valid) if not s.goals_before.closed]
    frequent = [t for t, _ in Counter(e.tactic for e in index.entries).most_common(k)]
    hits: Counter[str] = Counter()
    for s in steps:
        got: dict[str, bool] = {}  # one verdict per key (``top1`` and ``top{k}`` are one key when k == 1)
        for vote in ("nearest", "sum"):
            tacs = [x.tactic for x in index.suggest_goal(s.goals_before, k, vote=vote)]
            got[f"knn_{vote}_top1"] = bool(tacs) and tacs[0] == s.tactic
            got[f"knn_{vote}_top{k}"] = s.tactic in tacs
            got[f"knn_{vote}_top1_name"] = bool(tacs) and _head(tacs[0]) == _head(s.tactic)
        got["frequent_top1"] = bool(frequent) and frequent[0] == s.tactic
        got[f"frequent_top{k}"] = s.tactic in frequent
        got["frequent_top1_name"] = bool(frequent) and _head(frequent[0]) == _head(s.tactic)
        hits.update(key for key, hit in got.items() if hit)
    n = len(steps) or 1
    keys = dict.fromkeys([f"knn_{v}_{m}" for v in ("nearest", "sum") for m in ("top1", f"top{k}", "top1_name")]
                         + ["frequent_top1", f"frequent_top{k}", "frequent_top1_name"])
    return {"valid_steps": len(steps), "train_steps": len(index), "k": k,
            **{key: round(hits[key] / n, 4) for key in keys}, "frequent_tactics": frequent}


def _head(tactic: str) -> str:
    """The first word of a tactic (``rewrite`` of ``rewrite H.``)."""
    m = TOKEN.match(tactic)
    return m.group(0) if m else tactic
