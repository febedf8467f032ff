"""Tactics proposed by a nearest-neighbour index over library proofs, as search candidates.

``SearchBudget.knn_index`` names a folder saved by ``knn_index.KnnIndex`` (``prover-setup model
tactics`` builds one from library proofs, through ``prover-data``). ``load_index`` loads it once per process (cached by resolved path; an
index rebuilt while the process runs is not reloaded). For each expanded node ``KnnSource`` asks
the index for ``knn_k`` tactics on the node's first goal (the goal text exactly as ``RocqSession``
prints it) and turns them into ``step`` candidates tagged ``knn`` with a short timeout: a
suggestion that closes the goal proves it, one that changes it makes a child like any step.

Order (``SessionSearch.candidates``): the registry's closers, then the suggestions, then the
registry's steps. The closers are the decision procedures the registry was tuned with, so every
proof they find is found with the index on as well; a suggestion is a single library tactic
(``apply lemma``, ``auto with ...``, a ``rewrite``), cheap to run and often the one that finishes
a goal shaped like a library lemma, so it goes before the steps, whose children are only looked
at later. Interleaving by score was not chosen: a similarity and a family's prior cost are not
on one scale. The order is deterministic: the index ranks ties by the nearer goal, then by its
own document order, and the filters below keep that order.

Filters, in order: a suggestion whose text equals (whitespace-normalised, final period dropped)
a registry candidate of the node, or an earlier suggestion, is dropped; one that names a
hypothesis absent from the goal is skipped (``names_absent_hypothesis``); ``admit``/``give_up``
and ``...``-terminated tactics (``Proof with`` shorthand) are never proposed.

The time spent in ``suggest`` is charged to the search's budget (``SessionSearch.used``) and
reported (``SearchResult.knn_seconds``); loading the index is paid once per process, outside any
search's budget. Rocq only: the index holds Rocq goals.
"""

from __future__ import annotations

import re
import time
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..presets import KNN_SETUP
from .goal import Candidate

if TYPE_CHECKING:
    from .knn_index import KnnIndex

KNN_TAG = "knn"
"""The tag of every k-NN candidate (``SearchResult.tags`` holds it when one is on the proof path)."""
KNN_COST = 1.5
"""Prior cost of a k-NN step's child: above a registry step's usual 1.0, whose tactic was chosen
for the goal's shape rather than for a similar goal elsewhere."""


class KnnUnavailable(Exception):
    """The index cannot be loaded; the message names the command that builds it."""


_LOADED: dict[Path, KnnIndex] = {}


def load_index(path: str) -> KnnIndex:
    """The ``knn_index.KnnIndex`` saved in folder ``path``, loaded once per process."""
    key = Path(path).expanduser().resolve()
    if key not in _LOADED:
        from .knn_index import KnnIndex  # numpy: only when an index is used

        try:
            _LOADED[key] = KnnIndex.load(key)
        except FileNotFoundError:
            raise KnnUnavailable(f"the k-NN tactic index is not installed at {key}: run `{KNN_SETUP}`") from None
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as e:  # a truncated or foreign file
            raise KnnUnavailable(f"the k-NN tactic index at {key} cannot be read ({e}): run `{KNN_SETUP}` again") from None
    return _LOADED[key]


_IDENT = re.compile(r"[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*")
_HYP_LIKE = re.compile(r"(?:H|IH)[\w']*|[a-z][0-9']*")
"""Names the library's proofs give hypotheses and variables (``H``, ``H0``, ``IHn``, ``Hlt``,
``n``, ``m'``, ``x1``): a lemma name rarely looks like this, a qualified name never."""
_BINDERS = (
    re.compile(r"\bintros?\b([^;]*)"),
    re.compile(r"\bas\b([^;]*)"),
    re.compile(r"\beqn\s*:\s*([\w']+)"),
    re.compile(r"\binto\s+([\w']+)"),
    re.compile(r"\bfun\b(.*?)=>"),
    re.compile(r"\b(?:forall|exists)\b([^,;]*),"),
    re.compile(r"\b(?:assert|enough|pose proof|pose|set|remember|cut)\s*\(\s*([\w']+)\s*:"),
    re.compile(r"=>([^;]*)"),
)
"""Where a tactic introduces names rather than refers to them (intro patterns, ``as``,
``eqn:``, ``rename .. into``, binders of terms, ``assert (H : ..)``, ssreflect's ``=>``)."""
_REFUSED = re.compile(r"\b(?:admit|give_up)\b")


def names_absent_hypothesis(tactic: str, goal_text: str) -> bool:
    """``tactic`` refers to a hypothesis-like name (``_HYP_LIKE``) that occurs nowhere in the goal
    (its hypotheses or its conclusion) and that the tactic does not introduce itself. Heuristic:
    a missed case costs one failed attempt, never a wrong proof."""
    bound = {n for rx in _BINDERS for m in rx.finditer(tactic) for n in _IDENT.findall(m.group(1))}
    present = set(_IDENT.findall(goal_text)) | {p for n in _IDENT.findall(goal_text) for p in n.split(".")}
    return any(_HYP_LIKE.fullmatch(n) and n not in bound and n not in present for n in _IDENT.findall(tactic))


def normalise(tactic: str) -> str:
    """A tactic's text with whitespace runs collapsed and one final period dropped."""
    text = " ".join(tactic.split())
    return text[:-1].rstrip() if text.endswith(".") else text


def usable_tactics(tactics: Iterable[str]) -> list[str]:
    """A source's tactics, normalised (``normalise``), in order, each once: empty ones,
    ``admit``/``give_up`` and ``...``-terminated ones (``Proof with`` shorthand) left out."""
    seen: list[str] = []
    for raw in tactics:
        tac = normalise(raw)
        if tac and not tac.endswith(".") and not _REFUSED.search(tac) and tac not in seen:
            seen.append(tac)
    return seen


def step_candidates(tactics: list[str], goal_text: str, taken: set[str], *, timeout: float, cost: float,
                    tag: str) -> tuple[list[Candidate], int]:
    """A data-driven source's tactics as step candidates, in order: those already in ``taken``
    are dropped, the rest added to it; one naming a hypothesis absent from the goal is skipped.
    Returns (the candidates, how many were skipped)."""
    out: list[Candidate] = []
    skipped = 0
    for tac in tactics:
        if tac in taken:
            continue
        taken.add(tac)
        if names_absent_hypothesis(tac, goal_text):
            skipped += 1
            continue
        out.append(Candidate(tactic=tac, kind="step", timeout=timeout, cost=cost, tag=tag))
    return out, skipped


@dataclass
class KnnSource:
    """The index of one search, with what it cost and proposed so far (shared by the sessions of
    one ``prove_goal`` call, so a restart after a lost session keeps the counts)."""

    index: KnnIndex
    """A ``knn_index.KnnIndex`` (``suggest(goal_text, k, others=N)``)."""
    k: int = 8
    timeout: float = 1.0
    seconds: float = 0.0
    """Wall seconds spent in ``suggest`` and the filters."""
    tried: int = 0
    """Suggestions run as attempts (``SessionSearch.run`` counts them)."""
    skipped: int = 0
    """Suggestions skipped for naming a hypothesis absent from the goal."""
    _asked: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    def candidates(self, goal_text: str, others: int, taken: set[str]) -> list[Candidate]:
        """Step candidates for the first goal ``goal_text`` (``others``: how many more goals are
        focused), without the tactics in ``taken`` (normalised registry tactics of the node)."""
        t0 = time.monotonic()
        try:
            out, skipped = step_candidates(self._tactics(goal_text, others), goal_text, taken,
                                           timeout=self.timeout, cost=KNN_COST, tag=KNN_TAG)
            self.skipped += skipped
            return out
        finally:
            self.seconds += time.monotonic() - t0

    def _tactics(self, goal_text: str, others: int) -> list[str]:
        """The index's distinct usable tactics for the goal, best first (asked once per goal)."""
        key = (goal_text, others)
        if key not in self._asked:
            self._asked[key] = usable_tactics(s.tactic for s in self.index.suggest(goal_text, self.k, others=others))
        return self._asked[key]
