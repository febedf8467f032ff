"""The verdict record and the findings of static screens."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..types import Record

Stage = Literal["parse", "candidate", "screen", "needs_kernel", "compile", "statement", "kernel", "axioms", "accepted"]
"""Where the decision was made. ``accepted`` only for accepted proofs. ``needs_kernel``: not a
rejection and not an acceptance: the static screens found only constructs they cannot judge
(``Finding.kernel``) and no proof assistant was there to replay the proof through its kernel;
``kernel``: that replay ran and refused the candidate."""


class Finding(Record):
    """One reason a static screen rejects text. ``rule`` names the defence (e.g. ``rocq.admit``)."""

    rule: str
    message: str
    line: int | None = None
    """1-based line in the candidate file, when known."""
    snippet: str = ""
    kernel: bool = False
    """True when the construct is not a cheat by itself but the screens cannot judge it (Lean
    metaprogramming, a read-only command or an ``open`` inside a proof): the candidate is then
    neither accepted nor rejected by the static layer; only the proof assistant's kernel replay
    (``lean_verify``, ``kernel_replay``) decides. False: a rejection."""

    def one_line(self) -> str:
        at = f" (line {self.line})" if self.line else ""
        return f"{self.message}{at}"


class Verdict(Record):
    """Whether ``candidate`` proves the problem's theorem. ``reason`` is one line."""

    accepted: bool
    reason: str
    stage: Stage
    language: Literal["lean", "rocq"]
    theorem: str = ""
    details: dict[str, Any] = Field(default_factory=dict)
    """Stage-specific facts: findings, axioms seen, compiler messages (JSON-serialisable)."""
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


def reject(stage: Stage, reason: str, language, theorem: str = "", **details: Any) -> Verdict:
    """A rejection with a one-line reason (newlines are folded)."""
    return Verdict(
        accepted=False,
        reason=" ".join(reason.split()),
        stage=stage,
        language=language,
        theorem=theorem,
        details=details,
    )


def needs_lean(reason: str, theorem: str = "", **details: Any) -> Verdict:
    """The verdict on a Lean candidate that only a kernel replay can judge, when none ran: not
    accepted, not rejected (stage ``needs_kernel``); ``reason`` starts ``needs Lean to judge:``."""
    return Verdict(
        accepted=False,
        reason="needs Lean to judge: " + " ".join(reason.split()),
        stage="needs_kernel",
        language="lean",
        theorem=theorem,
        details=details,
    )
