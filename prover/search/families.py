"""The registry of search families kept outside ``tactics.py``: each module contributes small
functions ``(goal, domain, context[, depth]) -> candidates`` whose docstrings say the goal
shape they answer and why. ``extra_closers`` asks each of them, in order.

Modules: ``induction.py`` (structural and Fixpoint-recursion induction), ``realineq.py``
(reciprocals and radicals over ``R``),
``library.py`` (standard-library lemma families by head symbol; lemmas found by ``Search`` run
from ``search.py``, which needs the session). Remainders known from hypotheses are the
``tactics.py`` families ``mod-push``, ``nat-mod`` and ``z-mod`` (statements ``mod7``, ``modZ``,
``mod_coarser``, ``mod_div_z``, ``odd_sq_mod8`` of ``tests/search/family_statements.py``).
"""

from __future__ import annotations

from .induction import induction_closers
from .library import library_closers
from .realineq import real_closers
from .tactics import Candidate, Domain, GoalInfo, ProblemContext

CLOSER_FAMILIES = (induction_closers, library_closers, real_closers)
"""Each ``(goal, domain, context, depth) -> list[Candidate]``; listed for ``--explain``-style inspection."""


def extra_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """The closers of every family in ``CLOSER_FAMILIES`` for the focused goal."""
    return [c for fam in CLOSER_FAMILIES for c in fam(g, d, ctx, depth)]
