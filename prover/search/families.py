"""The registry of search families kept outside ``tactics.py``: each module contributes small
functions ``(goal, domain, context[, depth]) -> candidates`` whose docstrings say the goal
shape they answer and why. ``early_closers``/``late_closers`` ask them, in order.

Modules: ``induction.py`` (structural and Fixpoint-recursion induction), ``realineq.py``
(reciprocals and radicals over ``R``),
``library.py`` (standard-library lemma families by head symbol; lemmas found by ``Search`` run
from ``search.py``, which needs the session). Remainders known from hypotheses are the
``tactics.py`` families ``mod-push``, ``nat-mod`` and ``z-mod`` (statements ``mod7``, ``modZ``,
``mod_coarser``, ``mod_div_z``, ``odd_sq_mod8`` of ``tests/search/family_statements.py``).
"""

from __future__ import annotations

from .goal import Candidate, Domain, GoalInfo, ProblemContext
from .induction import induction_closers
from .library import library_closers
from .realineq import real_closers

EARLY_FAMILIES = (induction_closers, library_closers)
"""Tried before the arithmetic closers: they answer only goals about inductive data or library
functions, where ``lia``/``nra`` and the rest fail anyway (and under a short budget they would
spend it first)."""
LATE_FAMILIES = (real_closers,)
"""Tried after the arithmetic closers: real comparisons are often closed by ``lra``/``nra`` alone."""
CLOSER_FAMILIES = EARLY_FAMILIES + LATE_FAMILIES
"""Each ``(goal, domain, context, depth) -> list[Candidate]``; listed for ``--explain``-style inspection."""


def early_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """The closers of ``EARLY_FAMILIES`` for the focused goal."""
    return [c for fam in EARLY_FAMILIES for c in fam(g, d, ctx, depth)]


def late_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """The closers of ``LATE_FAMILIES`` for the focused goal."""
    return [c for fam in LATE_FAMILIES for c in fam(g, d, ctx, depth)]
