"""The ``python`` tool of the lemma agents: a snippet in a sandboxed interpreter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .target import ToolInputError

if TYPE_CHECKING:
    from ..workspace import Workspace


def python(ws: Workspace, code: str) -> str:
    """A short Python 3 snippet in a fresh sandboxed interpreter; what it printed."""
    if not isinstance(code, str) or not code.strip():
        raise ToolInputError("`code` must be a non-empty string")
    return ws.run_python(code)
