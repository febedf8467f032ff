"""Static screens: pure functions over the text a candidate ADDED to the problem.

The added text is the proof body of the target theorem plus any helper declarations placed
before it (see ``candidate.py``). Each function returns ``Finding``s (empty tuple = clean);
each rule is named. The rules of each proof assistant, with the defence of each written in
the module docstring, live in its own module: ``lean_screens.screen_lean``,
``rocq_screens.screen_rocq`` (and ``screen_rocq_readonly`` for the queries after a proof);
the rules both share (invisible characters, look-alike spellings) in ``shared_screens``.
``screen`` picks the one for a language.
"""

from __future__ import annotations

from ..source import Language
from .lean_screens import screen_lean
from .rocq_screens import screen_rocq
from .verdict import Finding


def screen(
    text: str,
    language: Language,
    *,
    role: str = "proof",
    line_offset: int = 0,
    allowed_requires: frozenset[str] = frozenset(),
    final: bool = False,
) -> tuple[Finding, ...]:
    """Dispatch to ``screen_lean``/``screen_rocq`` (``final``: Rocq's final helper run)."""
    if language == "lean":
        return screen_lean(text, role=role, line_offset=line_offset)
    return screen_rocq(text, role=role, line_offset=line_offset, allowed_requires=allowed_requires, final=final)
