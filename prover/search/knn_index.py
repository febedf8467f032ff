"""The k-NN tactic index as the search reads it: goals as Rocq prints them, their features, and
a saved TF-IDF index of library steps that proposes tactics for a goal (the idea of Tactician).

Each indexed step is a document: the TF-IDF vector of the tokens of its goal before (identifiers
and symbol runs; conclusion tokens and conclusion bigrams weigh apart from hypothesis tokens).
``suggest(goal_text, k)`` finds the indexed goals of highest cosine similarity (an inverted
index, numpy only: no GPU, no network) and returns their tactics, each once, best first.
Files: ``index.npz`` (postings, idf, vocabulary) and ``entries.jsonl`` (tactic, lemma, file of
each document) in one folder, written by ``KnnIndex.save``.

What is covered here: reading, querying and building an index from step records (any objects
with ``goals_before``, ``tactic``, ``lemma``, ``library`` and ``file``). The step data and its
evaluation are ``rl.stepdata`` (``prover-data``); the search's use of suggestions is ``knn.py``.
What is not covered: the tactics are returned as written in the library, so hypothesis names
they mention (``exact H0``) fit the neighbour's goal, not necessarily the query's.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, Protocol, Self

import numpy as np
from pydantic import BaseModel, ConfigDict

_SPACE = re.compile(r"\s+")


class Goal(BaseModel):
    """One proof state as the model sees it: the first focused goal and the count of the others."""

    model_config = ConfigDict(frozen=True)

    hypotheses: tuple[str, ...] = ()
    """Hypotheses of the focused goal, one entry each (``n, m : nat``), as Rocq prints them."""
    conclusion: str = ""
    """Conclusion of the focused goal; empty when no goal is focused."""
    others: int = 0
    """How many more goals are focused besides this one (``split`` on ``A /\\ B`` leaves 1)."""

    @property
    def closed(self) -> bool:
        """True when no goal is focused (the proof or the current bullet is finished)."""
        return not self.conclusion

    def text(self) -> str:
        """The goal as Rocq prints it: hypotheses, the ``====`` bar, the conclusion."""
        if self.closed:
            return "No more goals."
        return "\n".join([*self.hypotheses, "============================", self.conclusion])

    def normalised(self) -> str:
        """``text()`` with whitespace runs collapsed (the dedup key's goal part)."""
        return _SPACE.sub(" ", self.text()).strip() + f" |others={self.others}"


def goal_from_text(text: str, others: int = 0) -> Goal:
    """Parse one goal printed by Rocq (hypotheses, a ``====`` bar, the conclusion; the two-space
    indentation of ``coqtop`` is removed). Text without a bar is taken as a bare conclusion."""
    lines = text.strip("\n").splitlines()
    indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    lines = [ln[indent:].rstrip() for ln in lines]
    bar = next((i for i, ln in enumerate(lines) if ln.startswith("====")), None)
    if bar is None:
        return Goal(conclusion="\n".join(ln for ln in lines if ln).strip(), others=others)
    hyps: list[str] = []
    for ln in lines[:bar]:
        if not ln.strip():
            continue
        if ln.startswith(" ") and hyps:  # continuation of a long hypothesis
            hyps[-1] += "\n" + ln
        else:
            hyps.append(ln)
    conclusion = "\n".join(lines[bar + 1 :]).strip()
    return Goal(hypotheses=tuple(hyps), conclusion=conclusion, others=others)


TOKEN = re.compile(r"[A-Za-z_][\w'.]*[\w']|[A-Za-z_]|\d+|[^\w\s]+")
"""A token of a goal or tactic: an identifier (qualified names whole), a number or a symbol run."""
_HYP_NAME = re.compile(r"^[^:]*?:(?!=)")


Vote = Literal["nearest", "sum"]
"""How the neighbours' tactics are ranked (``KnnIndex.suggest_goal``)."""


class Suggestion(BaseModel):
    """One tactic proposed for a goal."""

    model_config = ConfigDict(frozen=True)

    tactic: str
    score: float
    """``vote="nearest"``: cosine similarity (0..1) of the query to the nearest train goal that
    used ``tactic``; ``vote="sum"``: the sum of the similarities of the neighbours that used it."""
    source_lemma: str
    """The lemma of the nearest train goal that used ``tactic``."""
    source_file: str = ""


class Entry(BaseModel):
    """What the index keeps of one train step besides its vector."""

    model_config = ConfigDict(frozen=True)

    tactic: str
    lemma: str
    file: str


def features(goal: Goal) -> Counter[str]:
    """Token counts of a goal: ``c:`` conclusion tokens, ``b:`` conclusion bigrams, ``h:``
    hypothesis tokens (the hypothesis' names are left out: they are arbitrary)."""
    feats: Counter[str] = Counter()
    ctoks = TOKEN.findall(goal.conclusion)
    feats.update("c:" + t for t in ctoks)
    feats.update(f"b:{a} {b}" for a, b in itertools.pairwise(ctoks))
    for h in goal.hypotheses:
        feats.update("h:" + t for t in TOKEN.findall(_HYP_NAME.sub("", h, count=1)))
    if goal.others:
        feats["o:others"] += 1
    return feats


class IndexedStep(Protocol):
    """What ``KnnIndex.build`` reads of a step (``rl.stepdata.schema.Step`` has it)."""

    @property
    def goals_before(self) -> Goal: ...
    @property
    def tactic(self) -> str: ...
    @property
    def lemma(self) -> str: ...
    @property
    def library(self) -> str: ...
    @property
    def file(self) -> str: ...


class KnnIndex:
    """TF-IDF vectors of train goals as an inverted index (token -> documents, weights)."""

    def __init__(self, vocab: Sequence[str], idf: np.ndarray, ptr: np.ndarray, docs: np.ndarray,
                 weights: np.ndarray, entries: Sequence[Entry]):
        if len(ptr) != len(vocab) + 1 or len(idf) != len(vocab) or len(docs) != len(weights):
            raise ValueError("inconsistent k-NN index arrays")
        self.vocab = {t: i for i, t in enumerate(vocab)}
        self.idf, self.ptr, self.docs, self.weights = idf, ptr, docs, weights
        self.entries = list(entries)

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def build(cls, steps: Iterable[IndexedStep]) -> Self:
        """The index of ``steps`` (their goals before and tactics)."""
        entries: list[Entry] = []
        bags: list[Counter[str]] = []
        for s in steps:
            if s.goals_before.closed:
                continue
            entries.append(Entry(tactic=s.tactic, lemma=s.lemma, file=f"{s.library}/{s.file}"))
            bags.append(features(s.goals_before))
        df: Counter[str] = Counter()
        for bag in bags:
            df.update(bag.keys())
        vocab = sorted(df)
        tid = {t: i for i, t in enumerate(vocab)}
        n = len(bags)
        idf = np.array([math.log((n + 1) / (df[t] + 1)) + 1.0 for t in vocab], dtype=np.float32)
        postings: list[list[tuple[int, float]]] = [[] for _ in vocab]
        for d, bag in enumerate(bags):
            ws = {tid[t]: (1.0 + math.log(c)) * float(idf[tid[t]]) for t, c in bag.items()}
            norm = math.sqrt(sum(w * w for w in ws.values())) or 1.0
            for i, w in ws.items():
                postings[i].append((d, w / norm))
        ptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        ptr[1:] = np.cumsum([len(p) for p in postings])
        docs = np.array([d for p in postings for d, _ in p], dtype=np.int32)
        weights = np.array([w for p in postings for _, w in p], dtype=np.float32)
        return cls(vocab, idf, ptr, docs, weights, entries)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        vocab = np.array(sorted(self.vocab, key=self.vocab.__getitem__), dtype=np.str_)
        np.savez_compressed(folder / "index.npz", vocab=vocab, idf=self.idf, ptr=self.ptr,
                            docs=self.docs, weights=self.weights)
        with (folder / "entries.jsonl").open("w", encoding="utf-8") as f:
            for e in self.entries:
                f.write(e.model_dump_json() + "\n")

    @classmethod
    def load(cls, folder: Path) -> Self:
        """The index saved in ``folder``; ``FileNotFoundError`` with the command that makes it."""
        if not (folder / "index.npz").exists():
            raise FileNotFoundError(f"no k-NN index in {folder} (run `prover-data index`)")
        with np.load(folder / "index.npz", allow_pickle=False) as z:
            arrays = {k: z[k] for k in ("vocab", "idf", "ptr", "docs", "weights")}
        with (folder / "entries.jsonl").open(encoding="utf-8") as f:
            entries = [Entry.model_validate_json(line) for line in f if line.strip()]
        return cls([str(t) for t in arrays["vocab"]], arrays["idf"], arrays["ptr"], arrays["docs"],
                   arrays["weights"], entries)

    def scores(self, goal: Goal) -> np.ndarray:
        """Cosine similarity of ``goal`` to every indexed goal."""
        out = np.zeros(len(self.entries), dtype=np.float32)
        q = {self.vocab[t]: (1.0 + math.log(c)) for t, c in features(goal).items() if t in self.vocab}
        if not q:
            return out
        q = {i: w * float(self.idf[i]) for i, w in q.items()}
        norm = math.sqrt(sum(w * w for w in q.values()))
        for i, w in q.items():
            a, b = self.ptr[i], self.ptr[i + 1]
            out[self.docs[a:b]] += (w / norm) * self.weights[a:b]
        return out

    def suggest_goal(self, goal: Goal, k: int, *, vote: Vote = "sum", neighbours: int = 256) -> list[Suggestion]:
        """Up to ``k`` distinct tactics of the ``max(neighbours, 4k)`` nearest train goals.

        ``vote="nearest"``: a tactic scores the similarity of the nearest goal that used it, so
        the nearest goal's tactic comes first. ``vote="sum"``: it scores the sum of the
        similarities of all the neighbours that used it (a weighted vote; better held-out
        accuracy, see ``docs/data.md``). ``score`` is that value; ties go to the nearer goal."""
        sims = self.scores(goal)
        m = min(len(sims), max(neighbours, 4 * k))
        if m == 0 or k < 1:
            return []
        top = np.argpartition(-sims, m - 1)[:m]
        top = top[np.argsort(-sims[top], kind="stable")]
        best: dict[str, tuple[float, int]] = {}  # tactic -> (score, nearest neighbour using it)
        for d in top:
            sim = float(sims[d])
            if sim <= 0:
                break
            tac = self.entries[d].tactic
            if tac not in best:
                best[tac] = (sim, int(d))
            elif vote == "sum":
                best[tac] = (best[tac][0] + sim, best[tac][1])
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], -sims[kv[1][1]]))[:k]
        return [Suggestion(tactic=t, score=round(s, 4), source_lemma=self.entries[f].lemma,
                           source_file=self.entries[f].file) for t, (s, f) in ranked]

    def suggest(self, goal_text: str, k: int = 5, others: int = 0, *, vote: Vote = "sum") -> list[Suggestion]:
        """Tactics for a goal as Rocq prints it (hypotheses, ``====``, conclusion; the first entry
        of ``TacticOutcome.goals``), ``others`` being how many more goals are focused."""
        return self.suggest_goal(goal_from_text(goal_text, others=others), k, vote=vote)
