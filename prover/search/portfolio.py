"""Running candidate tactics on one proof state: the automation portfolio.

``try_candidate`` runs one candidate (wrapped in the language's timeout) and turns every
outcome into an ``Attempt`` value: an error, a timeout or a crash of the tactic is data, not
an exception. Only a session that can no longer answer (``SessionCrashed``) propagates.

``run_portfolio`` tries a list of candidates in order on one state until one proves the
goal, the deadline passes or the list ends; ``BASELINE_ROCQ`` is the fixed 16-tactic
portfolio the default prover is compared against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from lean_tools.types import InvalidRequest, SessionTimeout

from .goal import Candidate
from .hammer import TACTICS_IMPORT, HammerSettings, replay, run_hammer
from .table import ROCQ_IMPORTS, TacticTable


class Attempt(BaseModel):
    """What one candidate did on one state."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tactic: str
    tag: str
    kind: str
    ok: bool
    """The tactic ran without error (it may still have changed nothing)."""
    proved: bool = False
    """No goals remain in the whole proof (tactic mode; the fresh re-check comes later)."""
    state: int | None = None
    goals: tuple[str, ...] = ()
    seconds: float = 0.0
    timed_out: bool = False
    error: str = ""
    replacement: Candidate | None = None
    """What the kept proof says in place of ``tactic`` (CoqHammer: its replayed reconstruction)."""


def try_candidate(session, state: int, cand: Candidate, table: TacticTable, *, pad: float = 3.0, goals_before: int = 1) -> Attempt:
    """Run ``cand`` on ``state``. The proof assistant's own timeout is ``cand.timeout``; the
    session's wall-clock limit is ``cand.timeout + pad`` (a safety net, it interrupts coqtop).
    A ``hammer`` candidate runs CoqHammer instead; its attempt carries the reconstruction as
    ``replacement`` (``goals_before``: how many goals ``state`` has, to tell that it closed one)."""
    if cand.runner == "hammer":
        return _try_hammer(session, state, cand, goals_before=goals_before)
    if cand.runner == "replay":
        return _try_replay(session, state, cand, goals_before=goals_before)
    block = table.block(cand)
    base: dict[str, Any] = {"tactic": cand.tactic, "tag": cand.tag, "kind": cand.kind}
    t0 = time.monotonic()
    try:
        out = session.run_tactic(state, block, timeout=cand.timeout + pad)
    except SessionTimeout:
        return Attempt(**base, ok=False, timed_out=True, seconds=time.monotonic() - t0, error="session timeout")
    except InvalidRequest as e:
        return Attempt(**base, ok=False, seconds=time.monotonic() - t0, error=f"invalid: {e}")
    dt = time.monotonic() - t0
    if not out.ok:
        err = out.errors[0].text if out.errors else "error"
        return Attempt(**base, ok=False, seconds=dt, timed_out="Timeout!" in err, error=err[:300])
    return Attempt(**base, ok=True, proved=out.proved, state=out.state, goals=tuple(out.goals), seconds=dt)


def hammer_candidate(settings: HammerSettings | None = None, *, cost: float = 5.0) -> Candidate:
    """The search candidate that runs ``hammer`` with ``settings`` (its timeout: the whole call)."""
    settings = settings or HammerSettings()
    return Candidate(tactic="hammer", kind="close", timeout=settings.seconds, cost=cost, tag="hammer", runner="hammer")


def _try_hammer(session, state: int, cand: Candidate, *, goals_before: int) -> Attempt:
    """``hammer`` on ``state`` under ``cand.timeout`` (the ATP limit scaled down to fit it),
    as an ``Attempt`` whose ``replacement`` is the reconstruction that replayed."""
    seconds = max(5.0, cand.timeout)
    settings = HammerSettings(seconds=seconds, atp_seconds=max(2, min(20, int(seconds / 3))))
    out = run_hammer(session, state, settings, goals_before=goals_before)
    base: dict[str, Any] = {"tactic": cand.tactic, "tag": cand.tag, "kind": cand.kind, "seconds": out.seconds}
    if not out.proved or out.reconstruction is None:
        return Attempt(**base, ok=False, timed_out=out.reason == "timeout", error=f"hammer: {out.reason}")
    keep = Candidate(tactic=out.reconstruction, kind="close", prelude=TACTICS_IMPORT, tag="hammer")
    return Attempt(**base, ok=True, proved=not out.goals, state=out.state, goals=out.goals, replacement=keep)


def _try_replay(session, state: int, cand: Candidate, *, goals_before: int) -> Attempt:
    """A stored reconstruction (``cand.tactic``) replayed on ``state``."""
    out = replay(session, state, cand.tactic, HammerSettings(replay_seconds=cand.timeout), goals_before=goals_before, reason="cached")
    base: dict[str, Any] = {"tactic": cand.tactic, "tag": cand.tag, "kind": cand.kind, "seconds": out.seconds}
    if not out.proved:
        return Attempt(**base, ok=False, error=f"replay: {out.reason}")
    return Attempt(**base, ok=True, proved=not out.goals, state=out.state, goals=out.goals)


def run_portfolio(
    session,
    state: int,
    candidates: Iterable[Candidate],
    table: TacticTable,
    *,
    deadline: float | None = None,
    skip: Callable[[Candidate], bool] | None = None,
) -> Iterator[Attempt]:
    """Yield an ``Attempt`` per candidate tried on ``state``, stopping after the first proof
    or once ``time.monotonic()`` passes ``deadline``. ``skip`` filters candidates known to fail."""
    for cand in candidates:
        if deadline is not None and time.monotonic() >= deadline:
            return
        if skip is not None and skip(cand):
            continue
        att = try_candidate(session, state, cand, table)
        yield att
        if att.proved:
            return


def _baseline(tacs: list[str], timeout: float) -> tuple[Candidate, ...]:
    return tuple(Candidate(tactic=t, kind="close", timeout=timeout, tag=t) for t in tacs)


BASELINE_ROCQ = _baseline(
    [
        "lia", "nia", "lra", "nra", "field", "ring", "auto", "eauto", "intuition", "firstorder",
        "sauto", "hauto", "reflexivity", "vm_compute; reflexivity", "simpl; lia", "simpl; nra",
    ],
    5.0,
)
"""The fixed comparison portfolio: 16 closing tactics, 5 s each, after ``intros``.
``sauto``/``hauto`` need ``From Hammer Require Import Tactics.`` in the header."""


@dataclass(frozen=True)
class FixedPortfolio(TacticTable):
    """A table that proposes the same closers on every goal and no steps (search depth 0)."""

    fixed: tuple[Candidate, ...] = ()

    def candidates(self, goal_text: str, depth: int, *, others: int = 0, ctx=None, facts=()):
        return list(self.fixed), []


def baseline_table() -> FixedPortfolio:
    """The comparison portfolio as a table: use with ``SearchBudget(max_expansions=1, seconds=100)``."""
    return FixedPortfolio(
        language="rocq",
        imports=ROCQ_IMPORTS + " From Hammer Require Import Tactics.",
        intro=("intros",),
        fixed=BASELINE_ROCQ,
    )
