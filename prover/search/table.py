"""The tactic table: what the search asks of a proof assistant (how to wrap a tactic with a
timeout, how to open a statement, how a candidate appears in the kept proof) and which
candidates to try on a goal (Rocq: the registry of families, ``registry.py``; Lean:
``tactics_lean.py``).

What is covered: the two tables ``ROCQ`` and ``LEAN`` and ``get_table(language)``.
What is not covered: running a candidate (``portfolio.py``) and the search (``search.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lean_tools.assistant import LEAN as LEAN_ASSISTANT
from lean_tools.assistant import ROCQ as ROCQ_ASSISTANT
from lean_tools.assistant import ProofAssistant, assistant

from .goal import Candidate, Fact, ProblemContext, parse_goal, rocq_domain
from .registry import rocq_candidates
from .tactics_lean import lean_candidates

ROCQ_IMPORTS = ROCQ_ASSISTANT.search_imports
"""Loaded into every Rocq session and put at the head of every Rocq proof
(``ProofAssistant.search_imports``)."""
rocq_wrap = ROCQ_ASSISTANT.wrap_tactic
"""A Rocq sentence that gives up by itself after ``timeout`` (``ProofAssistant.wrap_tactic``)."""
lean_statement = LEAN_ASSISTANT.bare_statement
"""A Lean statement without a trailing ``:= by`` / ``:=`` (``Lean.bare_statement``)."""


@dataclass(frozen=True)
class TacticTable:
    """What the search needs from a language: how to wrap a tactic, what to try on a goal."""

    language: str
    imports: str
    """Sentences the session header and the proof need (Rocq); empty for Lean."""
    intro: tuple[str, ...]
    """Tactics tried once on the root goal before the search (first one that succeeds)."""

    @property
    def assistant(self) -> ProofAssistant:
        """The proof assistant this table is for (``lean_tools.assistant``)."""
        return assistant(self.language)

    def wrap(self, tactic: str, timeout: float) -> str:
        """``ProofAssistant.wrap_tactic``: Rocq ``Timeout N (tac).``; Lean the tactic itself."""
        return self.assistant.wrap_tactic(tactic, timeout)

    def open_code(self, statement_code: str) -> str:
        """The command that opens ``statement_code`` for tactic mode (``ProofAssistant.open_statement``):
        Rocq states the theorem (coqtop enters proof mode); Lean needs a ``sorry`` body whose hole
        gives the proof state."""
        return self.assistant.open_statement(statement_code)

    def block(self, cand: Candidate) -> str:
        """What is sent to the session for ``cand``: its prelude, then the wrapped tactic."""
        body = self.wrap(cand.tactic, cand.timeout)
        return f"{cand.prelude}\n{body}" if cand.prelude else body

    def proof_line(self, cand: Candidate) -> str:
        """How ``cand`` appears in the final proof script (no timeout wrapper)."""
        line = self.assistant.proof_line(cand.tactic)
        return f"{cand.prelude} {line}" if cand.prelude else line

    def candidates(
        self,
        goal_text: str,
        depth: int,
        *,
        others: int = 0,
        ctx: ProblemContext | None = None,
        facts: tuple[Fact, ...] = (),
    ) -> tuple[list[Candidate], list[Candidate]]:
        """(closers, steps) for the focused goal ``goal_text`` at search depth ``depth``; ``facts``:
        what the candidates on the path recorded (``goal.Fact``)."""
        ctx = ctx or ProblemContext()
        g = parse_goal(goal_text, self.language, others)
        if self.language == "rocq":
            return rocq_candidates(g, rocq_domain(g, ctx.scope), ctx, depth, facts)

        return lean_candidates(g)


ROCQ = TacticTable(language="rocq", imports=ROCQ_ASSISTANT.search_imports, intro=ROCQ_ASSISTANT.intro_tactics)
LEAN = TacticTable(language="lean", imports=LEAN_ASSISTANT.search_imports, intro=LEAN_ASSISTANT.intro_tactics)


def get_table(language: str) -> TacticTable:
    if language == "rocq":
        return ROCQ
    if language == "lean":
        return LEAN
    raise ValueError(f"no tactic table for language {language!r} (expected 'rocq' or 'lean')")
