"""Best-first search against a scripted in-memory proof assistant (no Rocq needed).

The scripted session knows a small rewrite system on goal tuples: each (goal, tactic)
pair either maps to new goals or fails. It counts calls so that caching and budgets
can be checked exactly.
"""

import contextlib
import re
from dataclasses import dataclass

import pytest

from lean_tools.types import (
    CommandOutcome,
    FileCheck,
    Hole,
    Message,
    ProofStatus,
    SessionCrashed,
    SessionOutOfMemory,
    Severity,
    TacticOutcome,
)
from prover.search import Candidate, SearchBudget, prove_goal, render_file
from prover.search.table import TacticTable

_UNWRAP = re.compile(r"^Timeout \d+ \((?P<tac>.*)\)\.$", re.DOTALL)


class ScriptedSession:
    language = "rocq"

    def __init__(self, header: str, rules: dict, start_goals: tuple[str, ...], statement_ok: bool = True,
                 killers: tuple[str, ...] = ()):
        self.header = header
        self.killers = killers
        """Tactics that kill the process, as a real coqtop dies under a runaway ``sauto``."""
        self.rules = rules
        self.start_goals = start_goals
        self.statement_ok = statement_ok
        self.states: dict[int, tuple[str, ...]] = {}
        self.calls: list[tuple[tuple[str, ...], str]] = []
        self.uses = 0
        self.closed = False

    def start(self):
        pass

    def alive(self):
        return not self.closed

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def run_command(self, code, *, timeout=None):
        self.commands = [*getattr(self, "commands", []), code]
        if not self.statement_ok:
            return CommandOutcome(env=0, messages=(Message(severity=Severity.ERROR, text="syntax error"),))
        self.states[1] = self.start_goals
        return CommandOutcome(env=1, holes=(Hole(goal=self.start_goals[0], state=1),), goals=self.start_goals)

    def run_tactic(self, state, tactic, *, timeout=None):
        if self.closed:  # a dead session answers nothing, as RocqSession after a crash
            raise SessionCrashed("coqtop died (exit -9)", "")
        self.uses += 1
        m = _UNWRAP.match(tactic)
        tac = m.group("tac") if m else tactic
        if tac in self.killers:
            self.calls.append((self.states[state], tac))
            self.closed = True
            raise SessionOutOfMemory("coqtop was killed (exit -9), likely out of memory")
        goals = self.states[state]
        self.calls.append((goals, tac))
        new_first = self.rules.get((goals[0], tac))
        sid = len(self.states) + 1
        if new_first is None:
            self.states[sid] = goals
            msg = Message(severity=Severity.ERROR, text=f"{tac} failed")
            return TacticOutcome(state=sid, goals=goals, messages=(msg,), status=ProofStatus.ERROR)
        new_goals = tuple(new_first) + goals[1:]
        self.states[sid] = new_goals
        status = ProofStatus.OPEN_GOALS if new_goals else ProofStatus.COMPLETED
        return TacticOutcome(state=sid, goals=new_goals, status=status)


@dataclass(frozen=True)
class TinyTable(TacticTable):
    closers: tuple[str, ...] = ("lia",)
    steps: tuple[str, ...] = ("intros", "split")

    def candidates(self, goal_text, depth, *, others=0, ctx=None, facts=()):
        return (
            [Candidate(tactic=t, kind="close", timeout=1, tag=t) for t in self.closers],
            [Candidate(tactic=t, kind="step", timeout=1, cost=0.5, tag=t) for t in self.steps],
        )


def tiny(**kw) -> TinyTable:
    return TinyTable(language="rocq", imports="", intro=("intros",), **kw)


class AcceptAll:
    language = "rocq"

    def __init__(self, accept=lambda text: True):
        self.accept = accept
        self.texts: list[str] = []

    def check_file(self, text, *, timeout=60.0):
        self.texts.append(text)
        ok = self.accept(text)
        return FileCheck(returncode=0 if ok else 1, cpu_seconds=0.1, messages=() if ok else (Message(severity=Severity.ERROR, text="no"),))


RULES = {
    ("forall n, A /\\ B", "intros"): ("A /\\ B",),
    ("A /\\ B", "split"): ("A", "B"),
    ("A", "lia"): (),
    ("B", "lia"): (),
}


def run(rules=RULES, start=("forall n, A /\\ B",), budget=None, checker=None, table=None, **kw):
    budget = budget or SearchBudget(seconds=10)
    sessions = []

    def factory(header):
        s = ScriptedSession(header, rules, start, **kw)
        sessions.append(s)
        return s

    checker = checker or AcceptAll()
    res = prove_goal(
        factory, "Require Import Arith.", "Theorem t : forall n, A /\\ B.", "rocq", budget, checker=checker, table=table or tiny()
    )
    return res, sessions[0], checker


def test_finds_multi_goal_proof_and_rechecks_it():
    res, sess, checker = run()
    assert res.proved and res.reason == "proved"
    assert res.proof.splitlines() == ["intros.", "split.", "lia.", "lia."]
    assert len(checker.texts) == 1
    text = checker.texts[0]
    assert text.startswith("Require Import Arith.\n\nTheorem t") and text.rstrip().endswith("Qed.")
    assert sess.closed  # a session opened by a factory is closed afterwards


def test_closing_one_goal_of_several_does_not_spend_depth():
    rules = {("forall n, A /\\ B", "intros"): ("P",), ("P", "split"): ("A", "B", "C", "D")}
    rules |= {(g, "lia"): () for g in "ABCD"}
    res, _, _ = run(rules=rules, budget=SearchBudget(seconds=10, max_depth=2))
    assert res.proved, res.reason
    assert res.proof.splitlines() == ["intros.", "split.", "lia.", "lia.", "lia.", "lia."]


def test_failing_goal_tactic_pairs_are_tried_once():
    rules = {("forall n, A /\\ B", "intros"): ("A /\\ B",), ("A /\\ B", "split"): ("A", "B"), ("A", "lia"): ()}
    res, sess, _ = run(rules=rules)
    assert not res.proved
    assert len(sess.calls) == len(set(sess.calls))


def test_attempt_budget_is_respected():
    res, sess, _ = run(budget=SearchBudget(seconds=10, max_attempts=2))
    assert not res.proved and res.reason == "budget"
    assert res.attempts == 2 and len(sess.calls) == 2


def test_rejected_proof_is_counted_and_search_continues():
    rules = dict(RULES)
    rules[("A /\\ B", "lia")] = ()  # a shortcut the fresh checker will refuse
    checker = AcceptAll(accept=lambda text: "split." in text)
    res, _, checker = run(rules=rules, checker=checker, table=tiny(closers=("lia",), steps=("split",)))
    assert res.proved and res.rejected == 1
    assert "split." in res.proof
    assert len(checker.texts) == 2


def test_statement_error_is_a_reason_not_an_exception():
    res, _, _ = run(statement_ok=False)
    assert not res.proved and res.reason.startswith("statement error")


def test_pool_interface_is_used_when_present():
    opened = []

    class Pool:
        @contextlib.contextmanager
        def session(self, language, header):
            s = ScriptedSession(header, RULES, ("forall n, A /\\ B",))
            opened.append((language, header))
            yield s

    res = prove_goal(
        Pool(),
        "Require Import Arith.",
        "Theorem t : forall n, A /\\ B.",
        "rocq",
        SearchBudget(seconds=10),
        checker=AcceptAll(),
        table=tiny(),
    )
    assert res.proved
    assert opened == [("rocq", "Require Import Arith.")]


def test_render_file_for_both_languages():
    rocq = render_file("Require Import Arith.\n", "Theorem t : True.", "exact I.", "rocq")
    assert rocq == "Require Import Arith.\n\nTheorem t : True.\nProof.\nexact I.\nQed.\n"
    lean = render_file("import Mathlib", "theorem t : True := by", "trivial\nsimp", "lean")
    assert lean == "import Mathlib\n\ntheorem t : True := by\n  trivial\n  simp\n"


def test_lean_goes_through_the_same_search_with_a_sorry_hole():
    rules = {
        ("⊢ ∀ n, A ∧ B", "intros"): ("⊢ A ∧ B",),
        ("⊢ A ∧ B", "constructor"): ("⊢ A", "⊢ B"),
        ("⊢ A", "omega"): (),
        ("⊢ B", "omega"): (),
    }
    sessions = []

    def factory(header):
        s = ScriptedSession(header, rules, ("⊢ ∀ n, A ∧ B",))
        s.language = "lean"
        sessions.append(s)
        return s

    table = TinyTable(language="lean", imports="", intro=("intros",), closers=("omega",), steps=("constructor",))
    checker = AcceptAll()
    res = prove_goal(factory, "import Mathlib", "theorem t : ∀ n, A ∧ B", "lean", SearchBudget(seconds=10), checker=checker, table=table)
    assert res.proved
    assert sessions[0].commands == ["theorem t : ∀ n, A ∧ B := by\n  sorry"]
    assert res.proof.splitlines() == ["intros", "constructor", "omega", "omega"]
    assert checker.texts[0] == "import Mathlib\n\ntheorem t : ∀ n, A ∧ B := by\n  intros\n  constructor\n  omega\n  omega\n"


def test_hoist_requires_splits_imports_from_tactics():
    from prover.search.search import hoist_requires

    proof = (
        "From Coq Require Import Lia Lra Psatz.\nintros.\nFrom Coq Require Import ZArith. change 41000 with (Z.to_nat 41000%Z) in *.\nlia."
    )
    imports, rest = hoist_requires(proof)
    assert imports == "From Coq Require Import Lia Lra Psatz.\nFrom Coq Require Import ZArith."
    assert rest == "intros.\nchange 41000 with (Z.to_nat 41000%Z) in *.\nlia."


class SlowCloserSession(ScriptedSession):
    """``slow`` closes ``A`` only when given at least 4 seconds (``Timeout N``); less times out."""

    def run_tactic(self, state, tactic, *, timeout=None):
        m = re.match(r"^Timeout (\d+) \(slow\)\.$", tactic)
        if m and int(m.group(1)) < 4:
            self.uses += 1
            self.calls.append((self.states[state], "slow"))
            sid = len(self.states) + 1
            self.states[sid] = self.states[state]
            msg = Message(severity=Severity.ERROR, text="Timeout!")
            return TacticOutcome(state=sid, goals=self.states[state], messages=(msg,), status=ProofStatus.ERROR)
        return super().run_tactic(state, tactic, timeout=timeout)


def _slow_run(budget):
    rules = {("forall n, A /\\ B", "intros"): ("A",), ("A", "slow"): ()}

    def factory(header):
        return SlowCloserSession(header, rules, ("forall n, A /\\ B",))

    return prove_goal(
        factory, "", "Theorem t : forall n, A /\\ B.", "rocq", budget, checker=AcceptAll(), table=tiny(closers=("slow",), steps=())
    )


def test_timed_out_closers_get_a_second_pass_with_more_time():
    res = _slow_run(SearchBudget(seconds=30))
    assert res.proved and res.proof.splitlines() == ["intros.", "slow."]
    assert res.attempts == 3  # intros, slow (1 s: timeout), slow again (4 s)
    off = _slow_run(SearchBudget(seconds=30, retry_factor=0))
    assert not off.proved and off.reason == "exhausted"


def _killed_run(budget):
    """The search on RULES where ``sauto`` (tried before ``lia``) kills every session it runs in."""
    sessions = []

    def factory(header):
        sessions.append(ScriptedSession(header, RULES, ("forall n, A /\\ B",), killers=("sauto",)))
        return sessions[-1]

    res = prove_goal(factory, "Require Import Arith.", "Theorem t : forall n, A /\\ B.", "rocq", budget,
                     checker=AcceptAll(), table=tiny(closers=("sauto", "lia")))
    return res, sessions


def test_a_candidate_that_kills_the_session_is_dropped_and_the_search_goes_on_in_a_new_one():
    res, sessions = _killed_run(SearchBudget(seconds=10))
    assert res.proved and res.reason == "proved" and "split." in res.proof
    assert len(sessions) == 2 and all(s.closed for s in sessions)
    killed = [c for s in sessions for c in s.calls if c[1] == "sauto"]
    assert killed == [(("A /\\ B",), "sauto")]  # tried once, never again on any goal
    assert res.attempts == sum(len(s.calls) for s in sessions)  # the fatal call and the first session's count


def test_lost_sessions_beyond_the_restart_limit_end_the_search_with_the_cause():
    res, sessions = _killed_run(SearchBudget(seconds=10, session_restarts=0))
    assert not res.proved and len(sessions) == 1
    assert res.reason.startswith("SessionOutOfMemory: coqtop was killed")
    assert "1 session(s) lost to candidates: SessionOutOfMemory on 'sauto'" in res.reason


def test_a_restarted_search_expands_its_root_again_under_an_expansion_cap_of_one():
    """The baseline portfolio's shape (one expansion, the root): after the lost session the rest of
    the portfolio still runs in the new one."""
    sessions = []
    rules = {("forall n, A", "intros"): ("A",), ("A", "lia"): ()}

    def factory(header):
        sessions.append(ScriptedSession(header, rules, ("forall n, A",), killers=("sauto",)))
        return sessions[-1]

    res = prove_goal(factory, "Require Import Arith.", "Theorem t : forall n, A.", "rocq",
                     SearchBudget(seconds=10, max_expansions=1), checker=AcceptAll(), table=tiny(closers=("sauto", "lia")))
    assert res.proved and len(sessions) == 2 and res.expansions == 2


def test_a_prelude_runs_with_the_statement_and_stays_out_of_the_session_header():
    sessions = []

    def factory(header):
        sessions.append(ScriptedSession(header, RULES, ("forall n, A /\\ B",)))
        return sessions[-1]

    checker = AcceptAll()
    header = "Require Import Arith.\nDefinition d := 1.\n\nFrom Coq Require Import Lia.\n"
    res = prove_goal(factory, header, "Theorem t : forall n, A /\\ B.", "rocq", SearchBudget(seconds=10, own_imports=True),
                     checker=checker, table=tiny(), prelude="From Coq Require Import Lia.")
    assert res.proved, res.reason
    # the session loads the text before the prelude only (what the next lemma's header extends)
    assert sessions[0].header == "Require Import Arith.\nDefinition d := 1."
    assert sessions[0].commands[0].startswith("From Coq Require Import Lia.\nTheorem t")
    assert checker.texts[0].startswith(header.rstrip() + "\n\nTheorem t")  # the fresh checker gets the whole header


def test_a_prelude_that_does_not_end_the_header_is_refused():
    with pytest.raises(ValueError, match="prelude"):
        prove_goal(lambda header: None, "Require Import Arith.", "Theorem t : True.", "rocq", prelude="From Coq Require Import Lia.")
