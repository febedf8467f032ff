"""Real coqtop/coqc tests of the Rocq session, checker and pool (default tier)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from lean_tools import sandbox
from lean_tools.assistant import assistant, assistant_for_path
from lean_tools.pool import SessionPool
from lean_tools.rocq.checker import RocqChecker, parse_coq_messages
from lean_tools.rocq.session import RocqSession, strip_comments, validate_block
from lean_tools.types import (
    InvalidRequest,
    ProofStatus,
    SessionCrashed,
    SessionOutOfMemory,
    SessionTimeout,
    Severity,
)

pytestmark = pytest.mark.rocq

HEADER = "Require Import Arith Lia."


@pytest.fixture(scope="module")
def session():
    with RocqSession(HEADER, header_timeout=60) as s:
        yield s


def test_command_reports_open_goal_as_hole(session):
    out = session.run_command("Theorem t : forall n m : nat, n + m = m + n.")
    assert out.ok and not out.complete
    assert len(out.holes) == 1 and out.holes[0].state is not None
    assert "n + m = m + n" in out.holes[0].goal


def test_tactics_branch_from_old_states(session):
    out = session.run_command("Theorem t : forall n m : nat, n + m = m + n /\\ True.")
    s0 = out.holes[0].state
    a = session.run_tactic(s0, "intros n m.")
    b = session.run_tactic(a.state, "split.")
    assert b.status is ProofStatus.OPEN_GOALS and len(b.goals) == 2
    # go back to an older state (forces BackTo + replay), then forward again
    c = session.run_tactic(a.state, "exact I.")
    assert c.status is ProofStatus.ERROR and c.errors
    d = session.run_tactic(b.state, "- lia.\n- exact I.")
    assert d.proved and d.status is ProofStatus.COMPLETED
    e = session.run_tactic(s0, "intros; split; [lia | exact I].")
    assert e.proved


def test_error_positions_relative_to_code(session):
    code = "Lemma q : 1 = 2.\nProof.\n  lia.\nQed."
    out = session.run_command(code)
    assert not out.ok
    first = out.errors[0]
    assert first.pos is not None and first.pos.line == 3 and first.pos.column == 2
    assert "Cannot find witness" in first.text


def test_unknown_reference_in_a_tactic_is_an_error_not_a_hang(session):
    # After this failure coqtop calls the end-of-block marker a "variable", not a "reference"; a
    # reader waiting for the other wording would hang until its timeout and lose the session.
    out = session.run_command("Theorem t : forall x : nat, x mod 47 = 42 -> 39 <= x.")
    s0 = out.holes[0].state
    bad = session.run_tactic(s0, "Timeout 2 (pose proof (Nat.no_such_lemma 3)).", timeout=8)
    assert bad.status is ProofStatus.ERROR and "no_such_lemma" in bad.errors[0].text
    again = session.run_tactic(s0, "intros x H. lia.", timeout=20)
    assert again.status is not ProofStatus.ERROR or "Cannot find witness" in again.errors[0].text
    assert session.alive()


def test_commands_do_not_chain(session):
    ok = session.run_command("Definition my_const := 3.")
    assert ok.ok
    out = session.run_command("Check my_const.")
    assert not out.ok, "each command must run against the header environment only"


def test_admit_is_a_hole(session):
    out = session.run_command("Lemma h : 2 = 2.\nProof.\n  admit.\nAdmitted.")
    assert out.ok and out.holes and not out.complete


def test_unterminated_comment_refused_before_sending(session):
    with pytest.raises(InvalidRequest):
        session.run_command("Lemma x : True. (* oops")
    with pytest.raises(InvalidRequest):
        session.run_command("   ")
    assert session.alive()


def test_strip_comments_keeps_offsets():
    code = 'a (* b (* c *) d *) "e (* f" g.'
    bare = strip_comments(code)
    assert len(bare) == len(code) and "b" not in bare and "f" not in bare and bare.endswith("g.")
    assert validate_block("intros. { lia. }")


def test_runaway_tactic_times_out_and_session_survives(session):
    out = session.run_command("Ltac loop := idtac; loop.\nTheorem t : 1 = 1.")
    t0 = time.monotonic()
    with pytest.raises(SessionTimeout):
        session.run_tactic(out.holes[0].state, "loop.", timeout=1.0)
    assert time.monotonic() - t0 < 10
    again = session.run_command("Theorem t : 1 = 1.")
    assert session.run_tactic(again.holes[0].state, "reflexivity.").proved


def test_killed_session_is_typed_and_restarts():
    s = RocqSession(HEADER, header_timeout=60)
    s.start()
    out = s.run_command("Theorem t : 1 = 1.")
    os.kill(s._proc.pid, signal.SIGKILL)
    time.sleep(0.2)
    with pytest.raises((SessionCrashed, SessionOutOfMemory)):
        s.run_tactic(out.holes[0].state, "reflexivity.")
    fresh = s.run_command("Theorem t : 1 = 1.")  # a command restarts the process
    assert s.run_tactic(fresh.holes[0].state, "reflexivity.").proved
    s.close()
    assert not s.alive()


def test_memory_bomb_is_contained():
    s = RocqSession("", limits=sandbox.Limits(cpu_seconds=None, memory_bytes=600 * 1024**2), header_timeout=60)
    s.start()
    try:
        out = s.run_command("Eval vm_compute in List.length (List.repeat 0 100000000).", timeout=60)
        assert not out.ok  # "Out of memory" reported as an error value
    except (SessionCrashed, SessionOutOfMemory, SessionTimeout):
        pass  # or the process died: a typed failure
    s.close()


def test_checker_parses_coqc_errors():
    res = RocqChecker().check_file("Require Import Lia.\nTheorem t : 1 = 2.\nProof. lia. Qed.\n")
    assert not res.ok and res.errors[0].pos.line == 3
    good = RocqChecker().check_file("Theorem t : 1 = 1.\nProof. reflexivity. Qed.\n")
    assert good.ok and good.cpu_seconds > 0


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty file compiles to nothing: ok, no theorem (the soundness layer rejects it)
        "\x00\x01\x02garbage\xff\xfe" * 10,
        "Theorem t : True.\nProof.\n" + "(* padding *)\n" * 700_000,  # ~10 MB, never closed
    ],
    ids=["empty", "binary", "10MB"],
)
def test_checker_bad_files_give_typed_outcomes(text):
    res = RocqChecker().check_file(text, timeout=60)
    if text:
        assert not res.ok and res.errors
    else:
        assert res.ok


def test_checker_timeout():
    # a long run of cheap steps, not a recursive Ltac: that one can end in "Stack overflow" first
    res = RocqChecker().check_file("Goal True. do 1000000000 idtac. Qed.\n", timeout=2)
    assert res.timed_out and not res.ok


def test_parse_messages_warning_and_error():
    out = 'File "./x.v", line 2, characters 0-5:\nWarning: foo\n[bar]\nFile "./x.v", line 3, characters 1-2:\nError: boom\n'
    msgs = parse_coq_messages(out)
    assert [m.severity for m in msgs] == [Severity.WARNING, Severity.ERROR]
    assert msgs[1].text == "boom" and msgs[1].pos.line == 3


def test_assistant_lookup():
    assert assistant("rocq").hole == "admit" and assistant("rocq").suffix == ".v"
    assert assistant_for_path("x.lean").name == "lean" and assistant_for_path("dir/y.v") is assistant("rocq")
    with pytest.raises(ValueError, match="unknown file type"):
        assistant_for_path("x.txt")
    with pytest.raises(ValueError, match="unknown proof assistant 'coq'"):
        assistant("coq")


def test_pool_reuses_recycles_and_replaces_dead_sessions():
    with SessionPool(max_sessions=2, max_uses=5) as pool:
        for _ in range(3):
            with pool.session("rocq", HEADER) as s:
                out = s.run_command("Theorem t : 1 + 1 = 2.")
                assert s.run_tactic(out.holes[0].state, "reflexivity.").proved
        assert pool.stats.created == 1 and pool.stats.reused == 2
        # a crash inside the context: the pool discards the dead session and keeps serving
        with pytest.raises((SessionCrashed, SessionOutOfMemory)), pool.session("rocq", HEADER) as s:
            out = s.run_command("Theorem t : 1 = 1.")
            os.kill(s._proc.pid, signal.SIGKILL)
            time.sleep(0.2)
            s.run_tactic(out.holes[0].state, "reflexivity.")
        assert pool.stats.discarded == 1
        with pool.session("rocq", HEADER) as s:
            assert s.run_command("Check 1.").ok
        # another header evicts the idle session when the pool is full
        with pool.session("rocq", "Require Import ZArith."), pool.session("rocq", "Require Import Bool."):
            pass
        assert pool.size() <= 2 and pool.stats.evicted >= 1
    assert pool.size() == 0


def test_session_killed_mid_request_is_typed_and_pool_keeps_serving():
    import threading

    with SessionPool(max_sessions=1) as pool:
        with pytest.raises((SessionCrashed, SessionOutOfMemory)), pool.session("rocq", HEADER) as s:
            out = s.run_command("Ltac loop := idtac; loop.\nTheorem t : 1 = 1.")
            killer = threading.Timer(0.5, os.kill, (s._proc.pid, signal.SIGKILL))
            killer.start()
            t0 = time.monotonic()
            try:
                s.run_tactic(out.holes[0].state, "loop.", timeout=20)
            finally:
                killer.cancel()
                assert time.monotonic() - t0 < 10, "a dead process must be noticed at once, not at the timeout"
        with pool.session("rocq", HEADER) as s:
            out = s.run_command("Theorem t : 2 + 2 = 4.")
            assert s.run_tactic(out.holes[0].state, "reflexivity.").proved


def test_warnings_are_not_errors(session):
    out = session.run_command("Check 6000.\nLemma big : 6000 = 6000.\nProof. reflexivity. Qed.")
    assert out.ok, out.errors
    warnings = [m for m in out.messages if m.severity is Severity.WARNING]
    assert warnings and "large numbers" in warnings[0].text and warnings[0].pos.line == 1


def test_pool_recycles_a_session_over_its_memory_watch():
    def factory(language, header):
        return RocqSession(header, max_rss_bytes=1, header_timeout=60)  # every answer is "too big"

    with SessionPool(factory, max_sessions=1) as pool:
        with pool.session("rocq", HEADER) as s:
            out = s.run_command("Theorem t : 1 = 1.")
            assert s.needs_recycle and s.alive(), "the current user keeps a working session"
            assert s.run_tactic(out.holes[0].state, "reflexivity.").proved
        assert pool.stats.recycled == 1 and pool.size() == 0


def test_session_process_is_limited_and_its_cpu_accounted():
    import psutil

    from lean_tools.sandbox import finished_cpu_seconds

    lim = sandbox.Limits(cpu_seconds=None, memory_bytes=3 * 1024**3)
    s = RocqSession(HEADER, limits=lim, header_timeout=60)
    s.start()
    try:
        pid = s._proc.pid
        assert os.getpgid(pid) == pid and os.getsid(pid) == pid
        assert psutil.Process(pid).rlimit(psutil.RLIMIT_AS) == (3 * 1024**3, 3 * 1024**3)
        s.run_command("Lemma cpu_probe : forall n : nat, n + 0 = n.\nProof. intros; lia. Qed.")
        assert s.process_cpu_seconds > 0.05  # the header import alone costs this much
        assert 0 <= s.cpu_seconds <= s.process_cpu_seconds  # clock-tick resolution: a quick lia may read 0
    finally:
        before = finished_cpu_seconds()
        s.close()
    assert finished_cpu_seconds() - before >= s.process_cpu_seconds - 1e-9 > 0


def _transcript(s: RocqSession) -> list:
    out = s.run_command("Theorem tr : forall n m : nat, n + m = m + n /\\ True.")
    a = s.run_tactic(out.holes[0].state, "intros n m.")
    b = s.run_tactic(a.state, "split.")
    c = s.run_tactic(a.state, "exact I.")
    d = s.run_tactic(b.state, "- lia.\n- exact I.")
    return [(o.status, o.goals, tuple(m.text for m in o.messages)) for o in (a, b, c, d)] + [out.goals]


def test_pexpect_transport_gives_the_same_answers_and_survives_a_timeout():
    pytest.importorskip("pexpect")  # the optional extra `pexpect`
    with RocqSession(HEADER, header_timeout=60, transport="pipes") as p, \
            RocqSession(HEADER, header_timeout=60, transport="pexpect") as x:
        assert x._child is not None and os.getpgid(x._proc.pid) == x._proc.pid
        assert _transcript(x) == _transcript(p)
        out = x.run_command("Theorem slow : True.")
        with pytest.raises(SessionTimeout):
            x.run_tactic(out.holes[0].state, "Fail (do 100000000 (assert True by exact I)).", timeout=2)
        assert x.run_tactic(out.holes[0].state, "exact I.").proved


def test_unknown_transport_is_refused():
    with pytest.raises(ValueError, match="unknown transport"):
        RocqSession(HEADER, transport="pty")
