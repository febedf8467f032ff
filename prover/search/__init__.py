"""The built-in default prover: automation portfolio + best-first search over tactic candidates.

Used when no LLM is configured. Entry point: ``prove_goal(pool_or_factory, header,
statement_code, language, budget) -> SearchResult``. Tactic tables per language live in
``table.py`` (Rocq candidates from the registry of families, ``registry.py``); goal reading in ``goal.py``;
running candidates on a state in ``portfolio.py``; the search in ``search.py``.
"""

from .goal import Candidate, parse_goal
from .portfolio import (
    BASELINE_ROCQ,
    Attempt,
    FixedPortfolio,
    baseline_table,
    run_portfolio,
    try_candidate,
)
from .search import SearchBudget, SearchResult, hoist_requires, prove_goal, render_file
from .table import TacticTable, get_table

__all__ = [
    "BASELINE_ROCQ",
    "Attempt",
    "Candidate",
    "FixedPortfolio",
    "SearchBudget",
    "SearchResult",
    "TacticTable",
    "baseline_table",
    "get_table",
    "hoist_requires",
    "parse_goal",
    "prove_goal",
    "render_file",
    "run_portfolio",
    "try_candidate",
]
