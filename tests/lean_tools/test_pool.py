"""The pool's reuse of a session whose header is a prefix of the one asked for, with strict fake
sessions (no proof assistant): every process start, header move and close is recorded, and a
session used or started again after it was closed fails the test."""

from __future__ import annotations

import threading

import pytest

from lean_tools.pool import SessionPool
from lean_tools.types import CommandOutcome, SessionCrashed


class FakeSession:
    """A session that cannot move its header (like Lean's)."""

    language = "rocq"

    def __init__(self, header: str, log: list[str]):
        self.header = header
        self.uses = 0
        self.log = log
        self.running = False
        self.closed = False

    def start(self) -> None:
        assert not self.closed, "a closed session was started again"
        if not self.running:
            self.running = True
            self.log.append(f"start {self.header!r}")

    def run_command(self, code: str, *, timeout: float | None = None) -> CommandOutcome:
        assert self.running and not self.closed, "a session was used while not running"
        self.uses += 1
        return CommandOutcome(env=self.uses)

    def run_tactic(self, state, tactic, *, timeout=None):
        raise AssertionError("not used here")

    def alive(self) -> bool:
        return self.running and not self.closed

    def close(self) -> None:
        if not self.closed:
            self.log.append(f"close {self.header!r}")
        self.closed, self.running = True, False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ExtendingSession(FakeSession):
    """A session that moves its header forward when the new one extends it; ``fail_on`` text in
    the added part makes the move fail, and the session closes itself as ``RocqSession`` does."""

    fail_on = "BAD"

    def can_extend(self, header: str) -> bool:
        return self.alive() and header.startswith(self.header)

    def extend_header(self, header: str) -> None:
        assert self.can_extend(header), f"asked to extend {self.header!r} to {header!r}"
        added = header[len(self.header) :]
        if self.fail_on in added:
            self.close()
            raise SessionCrashed(f"header failed: {added!r}")
        self.log.append(f"extend {self.header!r} -> {header!r}")
        self.header = header


def _pool(cls, log: list[str], **kw) -> SessionPool:
    return SessionPool(lambda language, header: cls(header, log), **kw)


def _use(pool: SessionPool, header: str, language: str = "rocq") -> FakeSession:
    with pool.session(language, header) as s:  # type: ignore[arg-type]
        assert s.header == header
        s.run_command("Check 1.")
        return s  # type: ignore[return-value]


def test_a_longer_header_moves_the_idle_session_forward_instead_of_starting_one():
    log: list[str] = []
    with _pool(ExtendingSession, log, max_sessions=2) as pool:
        first = _use(pool, "A.")
        second = _use(pool, "A. B.")
        third = _use(pool, "A. B. C.")
        assert first is second is third
        assert log == ["start 'A.'", "extend 'A.' -> 'A. B.'", "extend 'A. B.' -> 'A. B. C.'"]
        assert (pool.stats.created, pool.stats.extended, pool.stats.reused) == (1, 2, 0)
        _use(pool, "A. B. C.")  # the same header again: plain reuse
        assert pool.stats.reused == 1 and pool.size() == 1


def test_the_longest_prefix_is_moved_and_other_sessions_are_left_alone():
    log: list[str] = []
    with _pool(ExtendingSession, log, max_sessions=3) as pool:
        with pool.session("rocq", "A."), pool.session("rocq", "A. B."), pool.session("rocq", "X."):
            pass  # three sessions, all idle afterwards
        log.clear()
        _use(pool, "A. B. C.")
        assert log == ["extend 'A. B.' -> 'A. B. C.'"]
        _use(pool, "A.")  # still there, untouched
        assert pool.stats.extended == 1 and pool.stats.reused == 1 and pool.size() == 3


def test_a_busy_session_or_another_language_is_not_moved():
    log: list[str] = []
    with _pool(ExtendingSession, log, max_sessions=3) as pool:
        with pool.session("rocq", "A."):
            _use(pool, "A. B.")  # "A." is held: a new process
        _use(pool, "A. B. C.", language="lean")
        assert [line.split()[0] for line in log] == ["start", "start", "start"]
        assert pool.stats.extended == 0


def test_a_failing_move_closes_that_session_and_starts_a_fresh_one():
    log: list[str] = []
    with _pool(ExtendingSession, log, max_sessions=1) as pool:
        old = _use(pool, "A.")
        new = _use(pool, "A. BAD.")
        assert new is not old and old.closed and new.alive()
        assert log == ["start 'A.'", "close 'A.'", "start 'A. BAD.'"]
        assert (pool.stats.extend_failed, pool.stats.extended, pool.stats.created, pool.size()) == (1, 0, 2, 1)


def test_sessions_that_cannot_move_their_header_behave_as_before():
    log: list[str] = []
    with _pool(FakeSession, log, max_sessions=1) as pool:
        _use(pool, "A.")
        _use(pool, "A. B.")  # the pool is full: the idle "A." is evicted
        assert log == ["start 'A.'", "close 'A.'", "start 'A. B.'"]
        assert (pool.stats.created, pool.stats.evicted, pool.stats.extended) == (2, 1, 0)


def test_a_shorter_header_never_reuses_a_longer_session():
    log: list[str] = []
    with _pool(ExtendingSession, log, max_sessions=2) as pool:
        _use(pool, "A. B.")
        _use(pool, "A.")
        assert [line.split()[0] for line in log] == ["start", "start"] and pool.stats.extended == 0


def test_an_unexpected_error_while_moving_frees_the_slot():
    class Broken(ExtendingSession):
        def extend_header(self, header: str) -> None:
            raise KeyboardInterrupt

    log: list[str] = []
    with _pool(Broken, log, max_sessions=1) as pool:
        _use(pool, "A.")
        with pytest.raises(KeyboardInterrupt):
            _use(pool, "A. B.")
        assert pool.size() == 0 and log[-1] == "close 'A.'"
        _use(pool, "A. B.")  # the pool still serves
    assert log[-1] == "close 'A. B.'"


def test_a_session_that_says_it_cannot_move_is_not_moved():
    class Refusing(ExtendingSession):
        def can_extend(self, header: str) -> bool:
            return False  # e.g. the active project's load path changed

        def extend_header(self, header: str) -> None:
            raise AssertionError("extend_header called although can_extend said no")

    log: list[str] = []
    with _pool(Refusing, log, max_sessions=2) as pool:
        _use(pool, "A.")
        _use(pool, "A. B.")
        assert [line.split()[0] for line in log] == ["start", "start"] and pool.stats.extended == 0


def test_a_session_started_while_the_pool_closes_is_closed_and_not_handed_out():
    started, go_on = threading.Event(), threading.Event()

    class Slow(FakeSession):
        def start(self) -> None:
            started.set()
            assert go_on.wait(10)
            super().start()

    log: list[str] = []
    pool = _pool(Slow, log, max_sessions=1)
    errors: list[BaseException] = []

    def borrow() -> None:
        try:
            _use(pool, "A.")
        except BaseException as e:  # noqa: BLE001 - whatever the borrower sees is recorded
            errors.append(e)

    worker = threading.Thread(target=borrow)
    worker.start()
    assert started.wait(10)
    pool.close()  # while the process starts
    go_on.set()
    worker.join(10)
    assert [type(e) for e in errors] == [RuntimeError] and "closed" in str(errors[0])
    assert log == ["start 'A.'", "close 'A.'"] and pool.size() == 0


def test_a_session_borrowed_when_the_pool_closes_is_released_without_error():
    log: list[str] = []
    pool = _pool(FakeSession, log, max_sessions=1)
    with pool.session("rocq", "A.") as s:  # type: ignore[arg-type]
        pool.close()
        assert s.closed
    assert log == ["start 'A.'", "close 'A.'"] and pool.size() == 0


def test_a_close_during_a_header_move_hands_out_nothing_and_starts_nothing():
    holder: list[SessionPool] = []

    class ClosedAfterMove(ExtendingSession):
        def extend_header(self, header: str) -> None:
            super().extend_header(header)
            holder[0].close()  # another thread closes the pool as the move ends

    class ClosedBeforeMove(ExtendingSession):
        def extend_header(self, header: str) -> None:
            holder[0].close()  # another thread closes the pool first: the move finds a dead process
            raise SessionCrashed("Rocq session is not running")

    for cls in (ClosedAfterMove, ClosedBeforeMove):
        log: list[str] = []
        pool = _pool(cls, log, max_sessions=1)
        holder[:] = [pool]
        _use(pool, "A.")
        with pytest.raises(RuntimeError, match="closed"):
            _use(pool, "A. B.")
        assert [line for line in log if line.startswith("start")] == ["start 'A.'"]  # no process for the move
        assert log[-1] == "close 'A.'" or log[-1] == "close 'A. B.'"
        assert pool.size() == 0
