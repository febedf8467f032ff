"""The proof-assistant session protocol: a handful of methods, state passed explicitly as ids.

A session is one long-lived proof-assistant process that has loaded an import *header*
once (``import Mathlib ...`` / ``Require Import Reals ...``). Every ``run_command`` is run
against that header environment, never chained onto a previous attempt, so attempts are
independent and the expensive import is paid once per session.

Tactic mode: a ``run_command`` whose code leaves a proof open reports each open place as a
``Hole`` with a ``state`` id (Lean: each ``sorry``; Rocq: the unfinished proof). ``run_tactic``
continues from such an id and returns a new one; old ids stay valid (branching search).

Tactic-mode success is a hint, never a verdict: the verdict comes from
``lean_tools.soundness`` re-checking the whole file in a fresh process.
"""

from __future__ import annotations

from typing import Literal, Protocol, Self, runtime_checkable

from .types import CommandOutcome, FileCheck, TacticOutcome

Language = Literal["lean", "rocq"]


@runtime_checkable
class ProofSession(Protocol):
    @property
    def language(self) -> Language:
        """Which proof assistant this is (an implementation may narrow it to its own literal)."""
        ...

    header: str
    uses: int
    """Requests served so far (the pool recycles sessions after N uses)."""

    def start(self) -> None:
        """Spawn the process and load the header. Idempotent. Raises NotInstalled/SessionCrashed."""

    def run_command(self, code: str, *, timeout: float | None = None) -> CommandOutcome:
        """Run a fragment against the header environment. Positions are relative to ``code``."""

    def run_tactic(self, state: int, tactic: str, *, timeout: float | None = None) -> TacticOutcome:
        """Run one tactic (or tactic block) on proof state ``state``."""

    def alive(self) -> bool:
        """The process is running and answered its last request."""

    def close(self) -> None:
        """Kill the process group. Idempotent."""

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc) -> None: ...


@runtime_checkable
class ExtendableSession(Protocol):
    """A session whose header can move forward in place (Rocq): a header that extends the current
    one is reached by running only the added text, not by a new process. The pool uses it."""

    def can_extend(self, header: str) -> bool:
        """``extend_header(header)`` can run (``header`` extends the current header here)."""
        ...

    def extend_header(self, header: str) -> None:
        """Make ``header`` the session's header; earlier state ids become invalid. Raises a
        ``ProofAssistantError`` when it fails, and then the session is closed."""
        ...


@runtime_checkable
class FileChecker(Protocol):
    """Checks a whole file in a fresh, sandboxed process."""

    @property
    def language(self) -> Language:
        """Which proof assistant checks the file."""
        ...

    def check_file(self, text: str, *, timeout: float = 60.0) -> FileCheck:
        """Compile ``text`` from scratch. Never raises for a bad proof; raises NotInstalled."""
