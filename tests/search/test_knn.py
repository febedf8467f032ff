"""The k-NN tactic source in the search (``prover/search/knn.py``): a tiny index written here,
its filters, the candidate order, a real-Rocq search it finishes, and a missing index."""

from dataclasses import dataclass
from pathlib import Path

import pytest

from lean_tools.rocq.session import RocqSession
from prover.search import SearchBudget, prove_goal
from prover.search.frontier import Node, SessionSearch
from prover.search.knn import KnnSource, KnnUnavailable, load_index, names_absent_hypothesis
from prover.search.knn_index import Goal, KnnIndex, goal_from_text
from prover.search.table import ROCQ

HEADER = "Require Import List."
STATEMENT = "Theorem nodup_seq : NoDup (seq 3 40)."
"""No family proposes ``seq_NoDup`` (the statement has no hypotheses, so ``Search`` is not asked)."""

USEFUL = [  # goal before (as Rocq prints it) -> tactic
    ("  n : nat\n  ============================\n  NoDup (seq 0 n)", "apply seq_NoDup."),
]
INERT = [  # for the statement: a tactic the registry proposes, and tactics naming hypotheses it lacks
    ("  ============================\n  NoDup (seq 0 5)", "lia."),
    ("  H0 : NoDup (seq 1 4)\n  ============================\n  NoDup (seq 1 4)", "exact H0."),
    ("  l : list nat\n  IHl : NoDup l\n  ============================\n  NoDup (0 :: l)", "apply IHl."),
]


@dataclass(frozen=True)
class Row:
    """A step as the index reads it (``knn_index.IndexedStep``)."""

    goals_before: Goal
    tactic: str
    lemma: str
    library: str = "stdlib"
    file: str = "Ev.v"


def _index(folder: Path, rows) -> str:
    KnnIndex.build([Row(goal_from_text(goal), tac, f"l{i}") for i, (goal, tac) in enumerate(rows)]).save(folder)
    return str(folder)


def test_hypothesis_names_absent_from_the_goal_are_detected():
    goal = "  n : nat\n  H : n <= 3\n  ============================\n  forall m, m + n <= m + 3"
    assert names_absent_hypothesis("exact H0", goal)
    assert names_absent_hypothesis("rewrite IHn", goal)
    assert not names_absent_hypothesis("apply H", goal)
    assert not names_absent_hypothesis("intros k Hk; apply Hk", goal)
    assert not names_absent_hypothesis("destruct H as [x [Hx Hy]]", goal)
    assert not names_absent_hypothesis("induction m as [|m IHm]", goal)  # m is bound in the conclusion
    assert not names_absent_hypothesis("apply Nat.add_le_mono_l", goal)


def test_source_dedups_against_the_registry_and_skips_absent_hypotheses(tmp_path):
    src = KnnSource(load_index(_index(tmp_path / "knn", USEFUL + INERT)), k=8)
    goal = "  ============================\n  NoDup (seq 3 40)"
    cands = src.candidates(goal, 0, {"lia"})
    assert [c.tactic for c in cands] == ["apply seq_NoDup"]
    assert {(c.kind, c.tag, c.timeout) for c in cands} == {("step", "knn", 1.0)}
    assert src.skipped == 2 and src.seconds > 0
    assert [c.tactic for c in src.candidates(goal, 0, {"lia"})] == ["apply seq_NoDup"]  # same answer again


def test_candidates_without_knn_are_the_registrys_and_with_it_sit_between_closers_and_steps(tmp_path):
    goal = "  k : nat\n  ============================\n  NoDup (seq 1 k)"
    node = Node(0.0, 0, 1, (goal,), (), (), 1)
    closers, steps = ROCQ.candidates(goal, 1, ctx=SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq").ctx)
    cap = SearchBudget().inner_timeout
    closers = [c if c.timeout <= cap else c.model_copy(update={"timeout": cap}) for c in closers]
    off = list(SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq").candidates(node))
    assert off == closers + steps
    src = KnnSource(load_index(_index(tmp_path / "knn", USEFUL + INERT)))
    on = list(SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq", knn=src).candidates(node))
    added = [c for c in on if c.tag == "knn"]
    assert [c.tactic for c in added] == ["apply seq_NoDup"]
    assert on == closers + added + steps


def test_a_missing_index_is_an_error_naming_the_setup_command(tmp_path):
    with pytest.raises(KnnUnavailable, match="prover-setup model tactics"):
        load_index(str(tmp_path / "none"))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "index.npz").write_bytes(b"")
    (tmp_path / "broken" / "entries.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(KnnUnavailable, match="cannot be read"):
        load_index(str(tmp_path / "broken"))

    def no_session(header):
        raise AssertionError("no session opens without the index")

    res = prove_goal(no_session, HEADER, STATEMENT, "rocq", SearchBudget(knn_index=str(tmp_path / "none")))
    assert not res.proved and res.reason.startswith("NotInstalled: ") and "prover-setup model tactics" in res.reason


def _attempts(header: str, statement: str, budget: SearchBudget):
    seen: list[tuple[str, str, str]] = []
    res = prove_goal(lambda h: RocqSession(h, extra_args=("-w", "-all")), header, statement, "rocq", budget,
                     on_attempt=lambda a: seen.append((a.tactic, a.kind, a.tag)))
    return res, seen


@pytest.mark.rocq
def test_a_suggestion_only_the_index_makes_proves_the_goal_and_inert_ones_change_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # psatz writes .csdp.cache into coqtop's working directory
    budget = SearchBudget(seconds=30, max_expansions=2, hammer="off", retry_factor=0)
    off, off_attempts = _attempts(HEADER, STATEMENT, budget)
    assert not off.proved and off.knn_tried == 0 and off.knn_seconds == 0.0
    inert = budget.model_copy(update={"knn_index": _index(tmp_path / "inert", INERT)})
    res, inert_attempts = _attempts(HEADER, STATEMENT, inert)
    assert not res.proved and inert_attempts == off_attempts
    useful = budget.model_copy(update={"knn_index": _index(tmp_path / "useful", USEFUL + INERT)})
    res, _ = _attempts(HEADER, STATEMENT, useful)
    assert res.proved, res.reason
    assert "knn" in res.tags and res.knn_proved and res.knn_tried >= 1
    assert res.proof is not None and "apply seq_NoDup." in res.proof
