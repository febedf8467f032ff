"""The tactic model source in the search (``prover/search/lm_source.py``) driven by a strict fake
model: the prompt it is asked with, its filters and cache, the call bound, the time charged, the
candidate order, a real-Rocq search only the model's tactic finishes, and a missing model. A served
model's requests are in ``test_lm_served.py``."""

import time
from dataclasses import dataclass, field

import pytest

from lean_tools.rocq.session import RocqSession
from prover.search import SearchBudget, prove_goal
from prover.search.frontier import Node, SessionSearch
from prover.search.knn import KnnSource
from prover.search.lm_card import TacticModelCard, write_card
from prover.search.lm_prompt import tactic_prompt
from prover.search.lm_source import (
    LM_COST,
    LM_MAX_CALL_SHARE,
    Completion,
    LmSource,
    LmUnavailable,
    Proposal,
    call_history,
    load_model,
    proposals,
)
from prover.search.table import ROCQ

HEADER = "Require Import List."
STATEMENT = "Theorem nodup_seq : NoDup (seq 3 40)."
"""No family proposes ``seq_NoDup`` (``tests/search/test_knn.py`` shows the search without it fails)."""
ROOT = "  ============================\n  NoDup (seq 3 40)"
ANSWER = [  # what the fake model writes for the root goal, in its own (log-probability) order
    Proposal("lia.", -0.4, 3),  # the registry proposes it: dropped
    Proposal("exact H0.", -0.9, 4),  # no H0 in the goal: skipped
    Proposal("admit.", -1.0, 3),  # never proposed
    Proposal("auto...", -1.1, 3),  # ``Proof with`` shorthand: never proposed
    Proposal("apply   seq_NoDup.", -1.3, 6),
    Proposal("apply seq_NoDup.", -1.8, 5),  # the same tactic once normalised
]


@dataclass
class StrictModel:
    """A ``TacticModel`` that answers only the prompts ``lm_prompt.tactic_prompt`` makes of the goals
    it was given; any other prompt, or another ``k``, fails the test."""

    answers: dict[tuple[str, int], list[Proposal]]
    """(goal text as Rocq prints it, other goals) -> the proposals returned."""
    k: int = 8
    delay: float = 0.0
    """CPU seconds each call spends (busy)."""
    idle: float = 0.0
    """Wall seconds each call waits (asleep)."""
    prompts: list[str] = field(default_factory=list)

    def propose(self, prompt: str, k: int) -> list[Proposal]:
        self.prompts.append(prompt)
        known = {tactic_prompt(goal, others): found for (goal, others), found in self.answers.items()}
        assert prompt in known, f"a prompt the trained format does not make: {prompt!r}"
        assert k == self.k
        time.sleep(self.idle)
        end = time.thread_time() + self.delay
        while time.thread_time() < end:  # busy: a model call spends CPU, which a CPU clock charges
            pass
        return known[prompt]


def test_completions_become_distinct_parsed_proposals_best_first():
    out = proposals([
        Completion(" lia.\n", -2.0, 3),
        Completion("\n", -0.1, 1),  # empty line: no tactic
        Completion(" intros n\n", -0.5, 3),  # no final period: not one sentence
        Completion(" auto.\n", -1.5, 3),
        Completion(" lia.\n", -0.7, 3),  # a better beam for the same tactic
    ])
    assert out == [Proposal("lia.", -0.7, 3), Proposal("auto.", -1.5, 3)]


def test_source_asks_with_the_trained_prompt_filters_and_caches():
    model = StrictModel({(ROOT, 0): ANSWER})
    src = LmSource(model, k=8, timeout=1.0)
    taken = {"lia"}
    cands = src.candidates(ROOT, 0, taken)
    assert model.prompts == [tactic_prompt(ROOT, 0)]
    assert [c.tactic for c in cands] == ["apply seq_NoDup"]
    assert {(c.kind, c.tag, c.timeout, c.cost) for c in cands} == {("step", "lm", 1.0, 1.5)}
    assert src.calls == 1 and src.tokens == sum(p.tokens for p in ANSWER) and src.skipped == 1 and src.seconds > 0
    assert "apply seq_NoDup" in taken and "exact H0" in taken
    again = src.candidates(ROOT, 0, {"lia"})
    assert [c.tactic for c in again] == ["apply seq_NoDup"] and src.calls == 1 and len(model.prompts) == 1
    assert [c.tactic for c in src.candidates(ROOT, 0, {"apply seq_NoDup"})] == ["lia"]  # an earlier source had it


def test_the_call_bound_stops_new_goals_but_not_cached_ones():
    other = "  n : nat\n  ============================\n  n + 0 = n"
    model = StrictModel({(ROOT, 0): ANSWER, (other, 0): [Proposal("lia.", -0.1, 3)]})
    src = LmSource(model, max_calls=1)
    assert len(src.candidates(ROOT, 0, set())) == 2  # lia, apply seq_NoDup; exact H0 skipped
    assert src.candidates(other, 0, set()) == [] and len(model.prompts) == 1
    assert len(src.candidates(ROOT, 0, set())) == 2 and src.calls == 1
    assert LmSource(StrictModel({}), max_calls=0).candidates(ROOT, 0, set()) == []


def test_other_goals_are_in_the_prompt():
    model = StrictModel({(ROOT, 2): [Proposal("constructor.", -0.2, 3)]})
    assert [c.tactic for c in LmSource(model).candidates(ROOT, 2, set())] == ["constructor"]
    assert model.prompts[0].endswith("(+2 other goals)\nNext tactic:")


@dataclass
class _Suggestion:
    tactic: str


class _Index:
    """A stand-in for ``KnnIndex``: a fixed list of suggestions."""

    def suggest(self, goal_text: str, k: int, others: int = 0) -> list[_Suggestion]:
        return [_Suggestion("apply seq_NoDup."), _Suggestion("apply NoDup_cons.")]


def _with_turn(search: SessionSearch, node: Node) -> list:
    """The node's candidates, then those of the model's turn it queued (if it queued one)."""
    out = list(search.candidates(node))
    turns = [n for n in search.heap if n.taken is not None]
    for turn in turns:
        search.heap.remove(turn)
        out += list(search.candidates(turn))
    return out


def test_the_model_is_asked_in_a_queued_turn_of_its_own():
    node = Node(0.0, 0, 1, (ROOT,), (), (), 1)
    plain = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq")
    base = list(plain.candidates(node))
    assert plain.heap == []  # no model: nothing queued
    model = StrictModel({(ROOT, 0): ANSWER})
    search = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq", lm=LmSource(model))
    assert list(search.candidates(node)) == base and model.prompts == []  # the node's own candidates only
    [turn] = search.heap
    search.heap.clear()
    assert turn.taken is not None and turn.priority == node.priority + LM_COST and turn.goals == node.goals
    assert turn.state == node.state and turn.script == node.script and turn.depth == node.depth
    proposed = list(search.candidates(turn))
    assert [c.tactic for c in proposed] == ["apply seq_NoDup"] and {c.tag for c in proposed} == {"lm"}
    assert len(model.prompts) == 1 and search.heap == []  # a turn queues no further turn
    both = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq", knn=KnnSource(_Index()),
                         lm=LmSource(StrictModel({(ROOT, 0): ANSWER})))
    # the model's only tactic came from the index: its turn proposes nothing new
    assert [c.tag for c in _with_turn(both, node) if c.tag in ("knn", "lm")] == ["knn", "knn"]


def test_a_node_whose_candidates_finish_it_queues_no_model_turn():
    node = Node(0.0, 0, 1, (ROOT,), (), (), 1)
    model = StrictModel({(ROOT, 0): ANSWER})
    search = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq", knn=KnnSource(_Index()), lm=LmSource(model))
    lazy = search.candidates(node)
    next(lazy)  # the caller stops here: the first closer proved the node
    lazy.close()
    assert search.heap == [] and model.prompts == []


def test_past_the_expansion_cap_only_model_turns_are_taken_and_the_nodes_stay_queued():
    import heapq

    from prover.search.search import _next_entry

    search = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq")
    nodes = [Node(p, k, 1, (ROOT,), (), (), 0) for k, p in enumerate((1.0, 2.0))]
    turns = [Node(p, 10 + k, 1, (ROOT,), (), (), 0, taken=frozenset()) for k, p in enumerate((3.0, 1.5))]
    for n in (*nodes, *turns):
        heapq.heappush(search.heap, n)
    assert _next_entry(search, cap=5) is nodes[0]  # under the cap: the cheapest entry, whatever it is
    assert _next_entry(search, cap=5) is turns[1]
    search.expansions = 5
    assert _next_entry(search, cap=5) is turns[0]  # the cap is hit: the node at 2.0 waits, the turn runs
    assert _next_entry(search, cap=5) is None and search.heap == [nodes[1]]  # kept: the search ends on `budget`


def test_children_of_a_model_turn_rank_from_the_node_itself():
    from prover.search.goal import Candidate
    from prover.search.portfolio import Attempt

    node = Node(2.0, 0, 1, (ROOT,), (), (), 1)
    search = SessionSearch(None, ROCQ, SearchBudget(), HEADER, STATEMENT, "rocq", lm=LmSource(StrictModel({})))
    list(search.candidates(node))
    [turn] = search.heap
    search.heap.clear()
    cand = Candidate(tactic="apply seq_NoDup.", kind="step", cost=LM_COST, tag="lm")
    for parent, goal in ((node, "G1"), (turn, "G2")):
        search.push(parent, cand, Attempt(tactic=cand.tactic, tag="lm", kind="step", ok=True, state=2, goals=(goal,)))
    first, second = sorted(search.heap)
    assert first.priority == second.priority  # same cost from the same node, whichever entry asked
    assert first.priority == node.priority + LM_COST + 0.3 + 2 / 4000.0 and {first.taken, second.taken} == {None}


class _CpuSession:
    """A session whose CPU clock never moves: what the budget charges is the sources' time."""

    cpu_seconds = 0.0


def test_model_time_is_charged_to_the_budget_and_a_spent_budget_asks_nothing():
    budget = SearchBudget(clock="cpu", seconds=5.0)
    model = StrictModel({(ROOT, 0): ANSWER}, delay=0.3)
    search = SessionSearch(_CpuSession(), ROCQ, budget, HEADER, STATEMENT, "rocq", lm=LmSource(model))
    assert search.used() < 0.1
    _with_turn(search, Node(0.0, 0, 1, (ROOT,), (), (), 0))
    assert search.used() >= 0.3 and search.lm is not None and search.lm.cpu_seconds >= 0.3
    tight = SessionSearch(_CpuSession(), ROCQ, budget.model_copy(update={"seconds": 0.5}), HEADER, STATEMENT, "rocq",
                          lm=LmSource(StrictModel({})))
    assert [c for c in _with_turn(tight, Node(0.0, 0, 1, (ROOT,), (), (), 0)) if c.tag == "lm"] == []
    slow = LmSource(StrictModel({}))
    assert not slow.affordable(0.9) and slow.affordable(1.0)
    call_history(slow.model).add(wall=6.0, cpu=1.0)  # an earlier search's call of 6 s wall, 1 s CPU
    call_history(slow.model).add(wall=6.0, cpu=1.0)
    assert not slow.affordable(5.9) and slow.affordable(6.0)  # on a wall clock: the mean wall call
    assert slow.affordable(1.0, cpu=True) and not slow.affordable(0.9, cpu=True)
    again = LmSource(slow.model)  # a later search of the same model in this process knows its calls
    assert not again.affordable(5.9)


def test_a_model_whose_call_costs_more_than_its_share_of_the_budget_is_not_asked():
    source = LmSource(StrictModel({}))
    assert source.affordable(5.0, total=5.0)  # no call yet: nothing known against it
    call_history(source.model).add(wall=1.0, cpu=1.0)
    assert source.affordable(5.0) and not source.affordable(5.0, total=5.0)
    assert source.affordable(5.0, total=1.0 / LM_MAX_CALL_SHARE)
    assert not source.affordable(5.0, total=0.99 / LM_MAX_CALL_SHARE)
    budget = SearchBudget(clock="cpu", seconds=5.0)
    search = SessionSearch(_CpuSession(), ROCQ, budget, HEADER, STATEMENT, "rocq", lm=source)
    assert [c for c in _with_turn(search, Node(0.0, 0, 1, (ROOT,), (), (), 0)) if c.tag == "lm"] == []
    roomy = SessionSearch(_CpuSession(), ROCQ, budget.model_copy(update={"seconds": 10.0}), HEADER, STATEMENT, "rocq",
                          lm=LmSource(StrictModel({(ROOT, 0): ANSWER})))
    call_history(roomy.lm.model).add(wall=1.0, cpu=1.0)
    assert [c.tactic for c in _with_turn(roomy, Node(0.0, 0, 1, (ROOT,), (), (), 0)) if c.tag == "lm"]


def test_a_cpu_clock_is_charged_the_models_cpu_not_the_time_it_waited():
    budget = SearchBudget(clock="cpu", seconds=5.0)
    model = StrictModel({(ROOT, 0): ANSWER}, idle=0.3)  # waits (a busy machine), spends little CPU
    search = SessionSearch(_CpuSession(), ROCQ, budget, HEADER, STATEMENT, "rocq", lm=LmSource(model))
    _with_turn(search, Node(0.0, 0, 1, (ROOT,), (), (), 0))
    assert search.lm is not None and search.lm.seconds >= 0.3 and search.lm.cpu_seconds < 0.2
    assert search.used() < 0.2
    assert call_history(model).calls == 1 and call_history(model).wall >= 0.3
    served = StrictModel({(ROOT, 0): ANSWER}, idle=0.3)
    served.in_process = False  # a server computes: the wait is the cost
    search = SessionSearch(_CpuSession(), ROCQ, budget, HEADER, STATEMENT, "rocq", lm=LmSource(served))
    _with_turn(search, Node(0.0, 0, 1, (ROOT,), (), (), 0))
    assert search.lm is not None and search.lm.cpu_seconds >= 0.3 and search.used() >= 0.3


def test_a_missing_or_broken_model_is_an_error_naming_the_setup_command(tmp_path):
    with pytest.raises(LmUnavailable, match=r"not installed.*prover-setup model tactics"):
        load_model(str(tmp_path / "none"))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tactic-model.json").write_text('{"adapter": 3}', encoding="utf-8")
    with pytest.raises(LmUnavailable, match="not a tactic model card"):
        load_model(str(tmp_path / "bad"))
    write_card(tmp_path / "nobase", TacticModelCard(base="weights"))
    with pytest.raises(LmUnavailable, match="base model is missing"):
        load_model(str(tmp_path / "nobase"))
    (tmp_path / "noadapter" / "weights").mkdir(parents=True)
    (tmp_path / "noadapter" / "weights" / "config.json").write_text("{}", encoding="utf-8")
    write_card(tmp_path / "noadapter", TacticModelCard(base="weights", adapter="adapter"))
    with pytest.raises(LmUnavailable, match="adapter is missing"):
        load_model(str(tmp_path / "noadapter"))

    def no_session(header):
        raise AssertionError("no session opens without the model")

    res = prove_goal(no_session, HEADER, STATEMENT, "rocq", SearchBudget(lm_model=str(tmp_path / "none")))
    assert not res.proved and res.reason.startswith("NotInstalled: ") and "prover-setup model tactics" in res.reason


@pytest.mark.rocq
def test_a_tactic_only_the_model_proposes_proves_the_goal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # psatz writes .csdp.cache into coqtop's working directory
    model = StrictModel({(ROOT, 0): ANSWER}, delay=0.2)
    monkeypatch.setattr("prover.search.search.load_model", lambda path: model)
    seen: list[tuple[str, str]] = []
    budget = SearchBudget(seconds=30, max_expansions=1, hammer="off", retry_factor=0, lm_model="fake")
    res = prove_goal(lambda h: RocqSession(h, extra_args=("-w", "-all")), HEADER, STATEMENT, "rocq", budget,
                     on_attempt=lambda a: seen.append((a.tactic, a.tag)))
    assert res.proved, res.reason
    assert res.tags[-1] == "lm" and res.lm_proved and res.proof is not None and "apply seq_NoDup." in res.proof
    assert model.prompts == [tactic_prompt(ROOT, 0)] and res.lm_calls == 1
    assert res.lm_tried == sum(tag == "lm" for _, tag in seen) >= 1
    assert not any("seq_NoDup" in tac for tac, tag in seen if tag != "lm")
    assert res.lm_seconds >= 0.2 and res.checker_seconds >= res.lm_seconds and res.lm_tokens == sum(p.tokens for p in ANSWER)
    assert res.knn_tried == 0 and not res.knn_proved


def test_a_deadline_stops_the_search_whatever_its_budget_says():
    import time as clock

    budget = SearchBudget(clock="cpu", seconds=30.0, deadline=clock.monotonic() - 1.0)
    search = SessionSearch(_CpuSession(), ROCQ, budget, HEADER, STATEMENT, "rocq")
    assert search.left() < 0 and search.out_of_budget()
    roomy = SessionSearch(_CpuSession(), ROCQ, budget.model_copy(update={"deadline": None}), HEADER, STATEMENT, "rocq")
    assert roomy.left() > 29.0
