"""The verdict record and the findings of static screens."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ..types import Record

Stage = Literal["parse", "candidate", "screen", "compile", "statement", "axioms", "accepted"]
"""Where the decision was made. ``accepted`` only for accepted proofs."""


class Finding(Record):
    """One reason a static screen rejects text. ``rule`` names the defence (e.g. ``rocq.admit``)."""

    rule: str
    message: str
    line: int | None = None
    """1-based line in the candidate file, when known."""
    snippet: str = ""

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
