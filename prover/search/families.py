"""The registry of search families kept outside ``tactics.py``: each module contributes small
functions ``(goal, domain, context[, depth]) -> candidates`` whose docstrings say the goal
shape they answer and why. ``extra_closers`` asks each of them, in order.

Modules: ``induction.py`` (structural and Fixpoint-recursion induction), ``realineq.py``
(reciprocals and radicals over ``R``), ``modular.py`` (remainders known from hypotheses),
``library.py`` (standard-library lemma families by head symbol).
"""

from __future__ import annotations

from .induction import induction_closers
from .library import library_closers
from .modular import modular_closers
from .realineq import real_closers
from .tactics import Candidate, Domain, GoalInfo, ProblemContext

CLOSER_FAMILIES = (induction_closers, library_closers, modular_closers, real_closers)
"""Each ``(goal, domain, context, depth) -> list[Candidate]``; listed for ``--explain``-style inspection."""


def extra_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """The closers of every family in ``CLOSER_FAMILIES`` for the focused goal."""
    return [c for fam in CLOSER_FAMILIES for c in fam(g, d, ctx, depth)]
