"""The ``verify`` tool: the full soundness verdict, the only answer that says a proof is accepted."""

from __future__ import annotations

from .reports import VerifyReport
from .target import Target, ToolInputError


def verify(target: Target, proof: str, *, budget_s: float | None = None) -> VerifyReport:
    """The full soundness verdict on a whole candidate file, in a fresh process."""
    from lean_tools.soundness import verify as soundness_verify

    if not target.whole_problem:
        raise ToolInputError("verify needs a whole problem, not a lemma")
    if not isinstance(proof, str) or not proof.strip():
        raise ToolInputError("`proof` must be the whole candidate file (the problem's text with its proof filled in)")
    ws = target.ws
    p = ws.problem
    allowed = frozenset(ws.config.prover.allowed_requires)  # Rocq helpers' Require; Lean ignores it
    timeout = float(budget_s) if budget_s is not None else ws.config.prover.verify_timeout_s
    v = soundness_verify(p.text, proof, p.language, theorem=p.theorem_name, timeout=timeout, allowed_requires=allowed)
    ws.budget.charge_check(float(v.cpu_seconds or v.wall_seconds or 0.0), attempt=False)
    return VerifyReport(accepted=bool(v.accepted), reason=v.reason, stage=v.stage, theorem=v.theorem, seconds=round(v.wall_seconds, 3))
