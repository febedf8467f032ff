"""The tactic table: what the search asks of a proof assistant (how to wrap a tactic with a
timeout, how to open a statement, how a candidate appears in the kept proof) and which
candidates to try on a goal (Rocq: the registry of families, ``families.py``; Lean:
``tactics_lean.py``).

What is covered: the two tables ``ROCQ`` and ``LEAN`` and ``get_table(language)``.
What is not covered: running a candidate (``portfolio.py``) and the search (``search.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .families import rocq_candidates
from .goal import Candidate, Fact, ProblemContext, parse_goal, rocq_domain
from .tactics_lean import lean_candidates

ROCQ_IMPORTS = "From Coq Require Import Lia Lra Psatz."
"""Loaded into every Rocq session and put at the head of every Rocq proof (Require inside a
proof is accepted by Coq 8.16 and is a no-op when the library is already loaded)."""
ROCQ_INTERVAL_IMPORT = "From Interval Require Import Tactic."
"""Costs ~1 s to load; no candidate uses it now (it ended no valid-split proof for its cost)."""


def rocq_wrap(tactic: str, timeout: float) -> str:
    """A Rocq sentence that gives up by itself after ``timeout`` (whole seconds, at least 1)."""
    return f"Timeout {max(1, math.ceil(timeout))} ({tactic})."


def lean_statement(statement_code: str) -> str:
    """A Lean statement without a trailing ``:= by`` / ``:=`` (callers may pass either form)."""
    s = statement_code.rstrip()
    for suffix in (":= by", ":="):
        if s.endswith(suffix):
            return s[: -len(suffix)].rstrip()
    return s


@dataclass(frozen=True)
class TacticTable:
    """What the search needs from a language: how to wrap a tactic, what to try on a goal."""

    language: str
    imports: str
    """Sentences the session header and the proof need (Rocq); empty for Lean."""
    intro: tuple[str, ...]
    """Tactics tried once on the root goal before the search (first one that succeeds)."""

    def wrap(self, tactic: str, timeout: float) -> str:
        if self.language == "rocq":
            return rocq_wrap(tactic, timeout)
        return tactic

    def open_code(self, statement_code: str) -> str:
        """The command that opens ``statement_code`` for tactic mode: Rocq states the theorem
        (coqtop enters proof mode); Lean needs a ``sorry`` body whose hole gives the proof state."""
        if self.language == "rocq":
            return statement_code.strip()
        return lean_statement(statement_code) + " := by\n  sorry"

    def block(self, cand: Candidate) -> str:
        """What is sent to the session for ``cand``: its prelude, then the wrapped tactic."""
        body = self.wrap(cand.tactic, cand.timeout)
        return f"{cand.prelude}\n{body}" if cand.prelude else body

    def proof_line(self, cand: Candidate) -> str:
        """How ``cand`` appears in the final proof script (no timeout wrapper)."""
        line = cand.tactic + "." if self.language == "rocq" else cand.tactic
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


ROCQ = TacticTable(language="rocq", imports=ROCQ_IMPORTS, intro=("intros",))
LEAN = TacticTable(language="lean", imports="", intro=("intros",))


def get_table(language: str) -> TacticTable:
    if language == "rocq":
        return ROCQ
    if language == "lean":
        return LEAN
    raise ValueError(f"no tactic table for language {language!r} (expected 'rocq' or 'lean')")
