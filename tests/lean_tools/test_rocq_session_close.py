"""``RocqSession.close`` from two threads at once (a pool closed while a borrower closes the same
session): the process is killed and its CPU charged once, and neither caller fails. No coqtop:
the process is a stand-in and killing it is recorded."""

from __future__ import annotations

import threading
import time

from lean_tools import sandbox
from lean_tools.rocq import session as rocq_session
from lean_tools.rocq.session import RocqSession


class _Proc:
    stdin = None
    stdout = None


def test_two_threads_closing_one_session_kill_and_charge_it_once(monkeypatch, tmp_path):
    kills: list[object] = []
    charges: list[float] = []

    def slow_kill(proc: object) -> None:
        kills.append(proc)
        time.sleep(0.2)  # kill_group waits for the process to exit

    monkeypatch.setattr(sandbox, "kill_group", slow_kill)
    monkeypatch.setattr(sandbox, "charge_cpu", charges.append)
    assert rocq_session.sandbox is sandbox
    s = RocqSession("")
    s._proc = _Proc()  # type: ignore[assignment]
    s._tmp = str(tmp_path / "coqtop-tmp")
    (tmp_path / "coqtop-tmp").mkdir()
    errors: list[BaseException] = []

    def close() -> None:
        try:
            s.close()
        except BaseException as e:  # noqa: BLE001 - whatever either caller sees is recorded
            errors.append(e)

    threads = [threading.Thread(target=close) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert errors == [] and len(kills) == 1 and len(charges) == 1 and not s.alive()
    assert s._tmp is None and not (tmp_path / "coqtop-tmp").exists()
