"""The ``search`` tool: the library, in the problem's environment."""

from __future__ import annotations

from .reports import SearchReport
from .target import Target, ToolInputError


def search(target: Target, query: str) -> SearchReport:
    """Rocq: ``Search <query>`` on the problem's imports. Lean: ``exact?``/``apply?`` on the target."""
    if not isinstance(query, str):
        raise ToolInputError("`query` must be a string")
    q = query.strip().rstrip(".").strip()
    bad = target.ws.lang.search_query_error(q)
    if bad:
        raise ToolInputError(bad)
    out = target.ws.search_library(q, target.context, target.declaration)
    if out.startswith("error:"):
        raise ToolInputError(out[len("error:") :].strip())
    return SearchReport(query=q, results=out)
