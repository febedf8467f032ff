"""The automation tools: ``auto_close`` (the built-in search and portfolio) and ``hammer``
(CoqHammer alone). A proof they find is a hint until ``verify`` accepts it.
"""

from __future__ import annotations

from ..workspace import join_code
from .reports import AutoCloseReport, HammerReport
from .target import Target, ToolInputError


def auto_close(target: Target, *, budget_s: float | None = None) -> AutoCloseReport:
    """The built-in search plus portfolio on the target, within ``budget_s``."""
    ws = target.ws
    seconds = float(budget_s) if budget_s is not None else ws.config.search.lemma_timeout_s
    seconds = min(max(seconds, 1.0), ws.config.search.timeout_s)
    out = ws.run_search(join_code(target.context, target.declaration), seconds, label=target.name)
    if out.proved and out.proof:
        res = ws.check_decl(target.context, target.declaration, out.proof)
        if res.complete:
            return AutoCloseReport(
                proved=True, proof=target.candidate(out.proof), tried=out.reason, attempts=out.attempts, seconds=round(out.seconds, 3)
            )
        return AutoCloseReport(
            proved=False,
            tried=f"the search's proof did not re-check: {res.feedback(300)}",
            attempts=out.attempts,
            seconds=round(out.seconds, 3),
        )
    return AutoCloseReport(proved=False, tried=out.reason, attempts=out.attempts, seconds=round(out.seconds, 3))


def hammer(target: Target, *, budget_s: float | None = None) -> HammerReport:
    """CoqHammer on the target after ``intros`` (``prover.search.hammer``), within ``budget_s``
    (default ``search.hammer_timeout_s``); its ATPs' CPU is charged to the budget as checker CPU."""
    ws = target.ws
    if ws.lang.hammer != "CoqHammer":
        raise ToolInputError(f"hammer is a Rocq tool (CoqHammer); this problem is {ws.lang.display_name}")
    seconds = float(budget_s) if budget_s is not None else ws.config.search.hammer_timeout_s
    out = ws.run_search(join_code(target.context, target.declaration), max(seconds, 5.0), label=target.name, hammer="only")
    needs = tuple(out.extra.get("imports", ()))
    if out.proved and out.proof:
        return HammerReport(
            proved=True, proof=target.candidate(out.proof, "\n".join(needs)), imports=needs, tried=out.reason, seconds=round(out.seconds, 3)
        )
    return HammerReport(proved=False, tried=out.reason, seconds=round(out.seconds, 3))
