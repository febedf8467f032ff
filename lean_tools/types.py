"""Proof-assistant outcomes as values, infrastructure failures as a few exceptions.

Every backend (Lean 4 REPL, Rocq coqtop, whole-file checkers) returns these records.
What is covered: messages with positions, goals, holes (sorry/admit), proof status.
What is not covered: backend-specific extras (Lean info trees, tactic lists); those stay
in the backend's own wire models (``lean_tools.lean.protocol``).

Positions: lines are 1-based, columns 0-based in Unicode code points, relative to the
code the caller sent (a session shifts them back past its import header).
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Base for frozen, JSONL-serialisable records."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, line: str):
        return cls.model_validate_json(line)


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Pos(Record):
    line: int
    """1-based line."""
    column: int
    """0-based column in code points."""


class Message(Record):
    severity: Severity
    text: str
    pos: Pos | None = None
    end_pos: Pos | None = None


class Hole(Record):
    """An unfinished part of a proof: a Lean `sorry` or a Rocq `admit`/`Admitted`."""

    goal: str
    state: int | None = None
    """Proof-state id a tactic can continue from, when the backend gives one."""
    pos: Pos | None = None
    end_pos: Pos | None = None


class ProofStatus(str, Enum):
    COMPLETED = "completed"
    OPEN_GOALS = "open_goals"
    CONTAINS_SORRY = "contains_sorry"
    CONTAINS_METAVARIABLES = "contains_metavariables"
    ERROR = "error"
    UNKNOWN = "unknown"
    """The backend did not report a status (Lean REPL before ~v4.19)."""


class CommandOutcome(Record):
    """Result of running a command / file fragment against an environment."""

    kind: Literal["command"] = "command"
    env: int
    """Environment id the result can be continued from (Lean env / Rocq state)."""
    messages: tuple[Message, ...] = ()
    holes: tuple[Hole, ...] = ()
    goals: tuple[str, ...] = ()
    """Open goals at the end of the fragment (Rocq: an unfinished proof)."""
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.severity is Severity.ERROR)

    @property
    def ok(self) -> bool:
        """No error messages (holes are allowed; see ``complete``)."""
        return not self.errors

    @property
    def complete(self) -> bool:
        """No errors, no holes, no open goals."""
        return self.ok and not self.holes and not self.goals


class TacticOutcome(Record):
    """Result of one tactic on a proof state."""

    kind: Literal["tactic"] = "tactic"
    state: int
    """New proof-state id."""
    goals: tuple[str, ...] = ()
    messages: tuple[Message, ...] = ()
    holes: tuple[Hole, ...] = ()
    status: ProofStatus = ProofStatus.UNKNOWN
    wall_seconds: float = 0.0

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.severity is Severity.ERROR)

    @property
    def ok(self) -> bool:
        return not self.errors and self.status is not ProofStatus.ERROR

    @property
    def proved(self) -> bool:
        """Tactic-mode success. Never final: the verdict comes from a fresh whole-file check."""
        if self.errors or self.holes:
            return False
        if self.status is ProofStatus.UNKNOWN:
            return not self.goals
        return self.status is ProofStatus.COMPLETED


class FileCheck(Record):
    """Result of checking a whole file in a fresh process (``coqc`` / ``lake env lean --json``)."""

    kind: Literal["file"] = "file"
    returncode: int
    messages: tuple[Message, ...] = ()
    timed_out: bool = False
    out_of_memory: bool = False
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    stderr_tail: str = ""

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.severity is Severity.ERROR)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.errors and not self.timed_out and not self.out_of_memory


# --- infrastructure failures -------------------------------------------------------------


class ProofAssistantError(Exception):
    """Base of infrastructure failures: the question could not be answered at all."""


class NotInstalled(ProofAssistantError):
    """The proof assistant (or a needed piece of it) is not installed. ``hint`` says what to do."""

    def __init__(self, what: str, hint: str = ""):
        super().__init__(f"{what} is not installed" + (f": {hint}" if hint else ""))
        self.what = what
        self.hint = hint


class SessionCrashed(ProofAssistantError):
    """The process died or broke the protocol. ``stderr_tail`` holds its last words."""

    def __init__(self, message: str, stderr_tail: str = ""):
        super().__init__(message + (f"\n--- stderr tail ---\n{stderr_tail}" if stderr_tail else ""))
        self.stderr_tail = stderr_tail


class SessionTimeout(ProofAssistantError):
    """A request ran past its wall-clock limit; the session was killed."""


class SessionOutOfMemory(ProofAssistantError):
    """The process exceeded its memory cap and was killed."""


class InvalidRequest(ProofAssistantError, ValueError):
    """A request was refused before reaching the proof assistant (malformed, or banned text)."""


class VersionMismatch(ProofAssistantError):
    """REPL, toolchain and library versions disagree."""
