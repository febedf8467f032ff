"""The interactive tools: ``check`` (compile a proof), ``goals`` (the state after a prefix)
and ``run_tactic`` (one step from a state), with the ``StateTable`` of the states they hand out.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from ..workspace import join_code
from .reports import CheckReport, Diagnostic, GoalsReport, TacticReport
from .target import Target, ToolInputError, screen_input, split_proof

if TYPE_CHECKING:
    from ..workspace import CheckResult, Workspace


def check(target: Target, proof: str, *, budget_s: float | None = None, holes: bool = True) -> CheckReport:
    """Compile ``proof`` (whole file or body) for the target; errors with lines, goals left.

    ``holes`` false (lemma agents): a proof with a hole is refused without checking."""
    t0 = time.monotonic()
    sp = split_proof(target, proof)
    if not sp.body.strip():
        raise ToolInputError("`proof` is empty")
    ws = target.ws
    if not holes and ws.lang.has_hole(sp.body):
        return CheckReport(ok=False, complete=False, refused="the proof contains a hole (sorry/admit/Admitted); give a complete proof")
    refused = screen_input(target, sp.helpers, sp.body, holes=holes)
    if refused:
        return CheckReport(ok=False, complete=False, refused=refused)
    if sp.code is not None:
        res = ws.check(join_code(target.context, sp.code), timeout=budget_s, final_decl=sp.body)
        errors = _diagnostics(res.errors, sp.line_offset - _lines(target.context))
    else:
        res = ws.check_decl(join_code(target.context, sp.helpers), target.declaration, sp.body, timeout=budget_s)
        errors = _diagnostics(res.errors, 0)
    goals = res.goals or res.hole_goals
    return CheckReport(
        ok=res.ok,
        complete=res.complete,
        errors=errors,
        goals=tuple(goals),
        messages=tuple(res.infos),
        timed_out=res.timed_out,
        cpu_seconds=round(res.cpu_s, 3),
        seconds=round(time.monotonic() - t0, 3),
    )


def goals(target: Target, proof: str = "", *, states: StateTable | None = None, budget_s: float | None = None) -> GoalsReport:
    """The goals after ``proof`` (a tactic prefix or a partial file; empty: the statement)."""
    sp = split_proof(target, proof or "")
    prefix = _open_prefix(sp.body)
    refused = screen_input(target, sp.helpers, prefix) if (prefix.strip() or sp.helpers.strip()) else None
    if refused:
        raise ToolInputError(f"refused: {refused}")
    res = _goals_after(target, sp.helpers, prefix, budget_s)
    if res.errors:
        return GoalsReport(errors=_diagnostics(res.errors, 0), timed_out=res.timed_out)
    state = states.add(target, sp.helpers, prefix) if states is not None else None
    return GoalsReport(state=state, goals=tuple(res.goals), proved=not res.goals)


def run_tactic(target: Target, states: StateTable, state: int, tactic: str, *, budget_s: float | None = None) -> TacticReport:
    """Run ``tactic`` from ``state`` (from ``goals`` or an earlier ``run_tactic``)."""
    if not isinstance(tactic, str) or not tactic.strip():
        raise ToolInputError("`tactic` is empty")
    helpers, prefix = states.get(target, state)
    refused = screen_input(target, helpers, tactic)
    if refused:
        raise ToolInputError(f"refused: {refused}")
    joined = (prefix.rstrip() + "\n" + tactic.strip()).strip()
    res = _goals_after(target, helpers, joined, budget_s)
    if res.errors:
        return TacticReport(state=state, messages=tuple(res.errors), timed_out=res.timed_out)
    new = states.add(target, helpers, joined)
    proved = not res.goals
    return TacticReport(
        state=new,
        goals=tuple(res.goals),
        proved=proved,
        messages=tuple(res.infos),
        proof=target.candidate(joined, helpers) if proved else None,
    )


class StateTable:
    """Proof states as (target, helpers, tactic prefix), by integer id. A state is replayed
    from the statement on every step, so it needs no live process: it survives session
    recycling and crashes. Bounded (oldest dropped past ``capacity``). Thread-safe."""

    def __init__(self, capacity: int = 20_000):
        self.capacity = capacity
        self._ids = itertools.count(1)
        self._states: OrderedDict[int, tuple[tuple, str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, target: Target, helpers: str, prefix: str) -> int:
        with self._lock:
            sid = next(self._ids)
            self._states[sid] = (target.key, helpers, prefix)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)
            return sid

    def get(self, target: Target, state: int) -> tuple[str, str]:
        if isinstance(state, bool) or not isinstance(state, int):
            raise ToolInputError("`state` must be an integer state id from goals or run_tactic")
        with self._lock:
            entry = self._states.get(state)
        if entry is None:
            raise ToolInputError(f"unknown state {state}: get one from goals (a state id is valid only in the MCP session that made it)")
        key, helpers, prefix = entry
        if key != target.key:
            raise ToolInputError(f"state {state} belongs to another problem or theorem")
        return helpers, prefix


_LINE = re.compile(r"^(?:proof )?line (\d+): ")


def _diagnostics(errors: tuple[str, ...], shift: int) -> tuple[Diagnostic, ...]:
    out = []
    for e in errors:
        m = _LINE.match(e)
        if m:
            out.append(Diagnostic(line=max(1, int(m.group(1)) + shift), message=e[m.end() :]))
        else:
            out.append(Diagnostic(message=re.sub(r"^in the statement or context: ", "", e)))
    return tuple(out)


def _lines(text: str) -> int:
    """Lines that ``join_code(text, ...)`` puts before the joined code."""
    text = text.strip("\n")
    return text.count("\n") + 2 if text else 0


def _open_prefix(body: str) -> str:
    """A proof body without its closing ``Qed.``/``Defined.`` (Rocq) and a leading ``Proof.``."""
    b = re.sub(r"^\s*Proof\s*\.", "", body, count=1)
    return re.sub(r"(Qed|Defined|Admitted)\s*\.\s*$", "", b).strip("\n")


def _goals_after(target: Target, helpers: str, prefix: str, budget_s: float | None) -> CheckResult:
    ws = target.ws if budget_s is None else with_check_timeout(target.ws, budget_s)
    return ws.goals_after(join_code(target.context, helpers), target.declaration, prefix)


def with_check_timeout(ws: Workspace, seconds: float) -> Workspace:
    """The same workspace (problem, pool, budget, trace) with another per-check time limit."""
    from ..workspace import Workspace

    prover = ws.config.prover.model_copy(update={"check_timeout_s": float(seconds)})
    return Workspace(ws.problem, ws.config.model_copy(update={"prover": prover}), ws.budget, ws.trace, ws.pool)
