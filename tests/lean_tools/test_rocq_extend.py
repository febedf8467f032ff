"""Real coqtop tests of moving a Rocq session's header forward (``RocqSession.extend_header``)
and of the pool reaching a longer header through it."""

from __future__ import annotations

import pytest

from lean_tools.pool import SessionPool
from lean_tools.rocq.session import RocqSession, header_extension
from lean_tools.types import InvalidRequest, SessionCrashed

pytestmark = pytest.mark.rocq

BASE = "From Coq Require Import Arith Lia.\n"


def _proves(session: RocqSession, statement: str, tactic: str) -> bool:
    out = session.run_command(statement)
    assert out.ok, out.errors
    return session.run_tactic(out.holes[0].state, tactic).proved


def test_extended_header_proves_a_goal_and_defines_its_lemmas():
    added = (
        "\nDefinition double (n : nat) := n + n.\n"
        "Lemma double_2 : forall n, double n = 2 * n.\nProof. intros; unfold double; lia. Qed.\n"
    )
    with RocqSession(BASE, header_timeout=60) as s:
        pid = s._proc.pid
        assert _proves(s, "Theorem t : 2 + 2 = 4.", "reflexivity.")
        s.extend_header(BASE + added)
        assert s.header == BASE + added and s._proc.pid == pid, "the same process, not a new one"
        # the lemma of the added text is usable, and the goal is proved there
        assert _proves(s, "Theorem u : forall k, double k = k * 2.", "intros k; rewrite double_2; lia.")
        # the header's own definitions are not redefined by a command run afterwards
        assert not s.run_command("Definition double := 0.").ok


def test_an_old_proof_state_is_refused_after_extension():
    with RocqSession(BASE, header_timeout=60) as s:
        out = s.run_command("Theorem t : 1 = 1.")
        old = out.holes[0].state
        s.extend_header(BASE + "\nDefinition one := 1.\n")
        with pytest.raises(InvalidRequest, match="before the session's header was extended"):
            s.run_tactic(old, "reflexivity.")
        assert _proves(s, "Theorem t : one = 1.", "reflexivity.")


def test_extension_discards_search_states_and_runs_only_the_added_text():
    with RocqSession(BASE, header_timeout=60) as s:
        out = s.run_command("Theorem t : 1 = 1.")
        s.run_tactic(out.holes[0].state, "idtac.")  # coqtop is inside a proof now
        s.extend_header(BASE + "\nDefinition one := 1.\n")
        # had the proof stayed open, the definition would be refused or land inside it
        assert s.run_command("Check one.").ok
        assert not s.run_command("Check t.").ok, "the search's theorem t never reached the header"


def test_extension_across_section_end_and_module():
    head = BASE + "\nSection S.\nVariable x : nat.\nDefinition addx n := n + x.\n"
    with RocqSession(head, header_timeout=60) as s:
        assert _proves(s, "Lemma in_section : addx 0 = x.", "unfold addx; simpl; reflexivity.")
        more = head + "End S.\nModule M.\nDefinition two := 2.\nModule N.\nLemma two_eq : two = 2.\nProof. reflexivity. Qed.\n"
        s.extend_header(more)
        # the section is closed (addx takes x as an argument now) and the walk is inside M.N
        assert _proves(s, "Lemma closed : forall y, addx y 0 = y.", "intros; reflexivity.")
        assert _proves(s, "Lemma inner : two = 2.", "exact two_eq.")
        s.extend_header(more + "End N.\nEnd M.\n")
        assert _proves(s, "Lemma outer : M.two = 2.", "exact M.N.two_eq.")


def test_a_failing_extension_closes_the_session():
    with RocqSession(BASE, header_timeout=60) as s:
        with pytest.raises(SessionCrashed, match="header failed"):
            s.extend_header(BASE + "\nLemma bad : 1 = 2.\nProof. reflexivity. Qed.\n")
        assert not s.alive()


def test_a_header_that_does_not_extend_is_refused_and_nothing_changes():
    with RocqSession(BASE, header_timeout=60) as s:
        with pytest.raises(InvalidRequest, match="does not extend"):
            s.extend_header("From Coq Require Import Arith.\n")
        assert s.alive() and s.header == BASE and s.run_command("Check 1.").ok


def test_pool_walks_longer_headers_in_one_process_and_recovers_from_a_failing_one():
    def factory(language, header):
        return RocqSession(header, header_timeout=60)

    h1 = BASE + "\nDefinition a := 1.\n"
    h2 = h1 + "Lemma a_eq : a = 1.\nProof. reflexivity. Qed.\n"
    bad = h2 + "Lemma b : a = 2.\nProof. reflexivity. Qed.\n"
    with SessionPool(factory, max_sessions=1) as pool:
        with pool.session("rocq", h1) as s:
            pid = s._proc.pid
            assert _proves(s, "Theorem t : a = 1.", "reflexivity.")
        with pool.session("rocq", h2) as s:
            assert s._proc.pid == pid
            assert _proves(s, "Theorem t : a + a = 2.", "rewrite a_eq; reflexivity.")
        assert (pool.stats.created, pool.stats.extended) == (1, 1)
        # the added text fails: that session is closed, and a fresh one loads the header, which
        # fails in the same way: the caller sees the header's error, the pool keeps serving
        with pytest.raises(SessionCrashed, match="header failed"), pool.session("rocq", bad):
            pass
        assert pool.stats.extend_failed == 1 and pool.size() == 0
        with pool.session("rocq", h2) as s:
            assert _proves(s, "Theorem t : a = 1.", "exact a_eq.")
        assert pool.stats.created == 2


def test_header_extension_needs_a_sentence_boundary():
    assert header_extension("Require A.", "Require A.\nRequire B.") == "\nRequire B."
    assert header_extension("Require A.", "Require A.B.") is None
    assert header_extension("", "Require A.") == "Require A."
    assert header_extension("Require A. (* c *)", "Require A. (* c *)Require B.") == "Require B."
    assert header_extension("Require A.", "Require B.") is None
