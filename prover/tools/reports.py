"""The tools' answers: frozen records, one per tool (``prover.tools``).

A timeout or a refusal by the soundness screens is an answer (``timed_out``, ``refused``), not
an error; ``text()`` renders an answer the way the lemma agents read it.
"""

from __future__ import annotations

from lean_tools.types import Record


class Diagnostic(Record):
    """One error or message. ``line`` is 1-based in the text that was sent (the candidate
    file, or the proof body for a body-only proof), None when the proof assistant gave none."""

    line: int | None = None
    message: str


class CheckReport(Record):
    """``check``: did the declaration compile, and what is left open."""

    ok: bool
    """No errors (holes allowed)."""
    complete: bool
    """No errors, no holes, no open goals. Still only a hint: ``verify`` decides."""
    errors: tuple[Diagnostic, ...] = ()
    goals: tuple[str, ...] = ()
    """Goals left at the end of the proof, or at its holes (Lean ``sorry``)."""
    messages: tuple[str, ...] = ()
    """Infos and warnings (Lean ``exact?`` answers)."""
    refused: str | None = None
    """Set when the text was refused before reaching the proof assistant: the rule and why."""
    timed_out: bool = False
    cpu_seconds: float = 0.0
    seconds: float = 0.0

    def error_lines(self) -> tuple[str, ...]:
        return tuple(_where(e) + e.message for e in self.errors)

    def text(self) -> str:
        """The answer as the lemma agents read it."""
        if self.refused:
            return f"rejected: {self.refused}"
        if self.complete:
            return "OK: the proof is complete."
        parts = []
        if self.errors:
            parts.append("Errors:\n" + "\n".join(f"- {_where(e)}{e.message}" for e in self.errors[:6]))
        if self.goals:
            parts.append("Open goals:\n" + "\n\n".join(self.goals[:4]))
        if not parts:
            parts.append("Not complete (a hole or unfinished proof remains).")
        return "\n".join(parts)[:2500]


class GoalsReport(Record):
    """``goals``: the proof state after a proof prefix. ``state`` continues it in ``run_tactic``."""

    state: int | None = None
    """None when the prefix has errors or no state table was given (lemma agents)."""
    goals: tuple[str, ...] = ()
    errors: tuple[Diagnostic, ...] = ()
    proved: bool = False
    """The prefix closes every goal (a hint; ``verify`` decides)."""
    timed_out: bool = False

    def text(self) -> str:
        if self.errors:
            return "Errors:\n" + "\n".join(f"- {_where(e)}{e.message}" for e in self.errors[:6])
        if self.proved:
            return "No goals left: the tactics close the lemma (send them to check)."
        return "Goals:\n" + "\n\n".join(self.goals)


class TacticReport(Record):
    """``run_tactic``: one step from a state. On an error the state is unchanged (``state`` is
    the one given) and ``messages`` says why."""

    state: int
    goals: tuple[str, ...] = ()
    proved: bool = False
    messages: tuple[str, ...] = ()
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas),
    ready for ``verify``."""
    timed_out: bool = False


class SearchReport(Record):
    """``search``: library declarations matching a query (Rocq ``Search``; Lean ``exact?``/``apply?``)."""

    query: str
    results: str


class AutoCloseReport(Record):
    """``auto_close``: the built-in search and portfolio (``prover.search``)."""

    proved: bool
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas)."""
    tried: str = ""
    """What was tried and why it stopped (the search's reason)."""
    attempts: int = 0
    seconds: float = 0.0


class HammerReport(Record):
    """``hammer``: CoqHammer alone on the target (Rocq). A proof keeps the replayed
    reconstruction (``sauto``/``hauto``/``srun ... use: ...``), never ``hammer`` itself."""

    proved: bool
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas)."""
    imports: tuple[str, ...] = ()
    """Helper sentences the proof needs (``From Hammer Require Import Tactics.``)."""
    tried: str = ""
    """Why it stopped: ``proved``, or the hammer's failure (no proof found, timeout, missing ATPs...)."""
    seconds: float = 0.0


class VerifyReport(Record):
    """``verify``: the soundness verdict. ``accepted`` false is a normal answer."""

    accepted: bool
    reason: str
    stage: str
    """Where the decision was made (parse, candidate, screen, compile, statement, kernel, axioms,
    accepted; ``needs_kernel``: not judged, Lean is needed, so not accepted)."""
    theorem: str = ""
    seconds: float = 0.0


class ProveReport(Record):
    """``prove``: the whole pipeline (``prover.api.prove_report``; it runs the stages that use
    these tools, so it lives above them)."""

    proved: bool
    proof: str | None = None
    """The verified file, when proved."""
    reason: str = ""
    mode: str = "default"
    seconds: float = 0.0


def _where(d: Diagnostic) -> str:
    return f"line {d.line}: " if d.line is not None else ""
