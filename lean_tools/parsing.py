"""Source parsing for either proof assistant: the target theorem of a file and its declarations.

``parse_source(text, language, theorem=None) -> SourceFile`` splits a file into header,
preamble, target theorem and proof body; ``declarations`` and ``declaration_names`` list every
theorem-like declaration of a text (model output, sketches). Each dispatches to the parser of
the language (``lean_tools.lean.parser``, ``lean_tools.rocq.parser``; the shared parts are in ``lean_tools.declarations``),
which reads the text masked by the shared lexer (``lean_tools.source``), so text inside
comments or strings never starts or ends anything. The rules of each language are in its
parser's docstring.
"""

from __future__ import annotations

from .declarations import AmbiguousTarget, Declaration, SourceParser, choose_target
from .lean import parser as lean_parser
from .rocq import parser as rocq_parser
from .source import Language, ParseError, SourceFile

__all__ = ["AmbiguousTarget", "Declaration", "SourceParser", "choose_target", "declaration_names", "declarations", "parse_source"]

_PARSERS: dict[str, SourceParser] = {"lean": lean_parser, "rocq": rocq_parser}

def _parser(language: str) -> SourceParser:
    if language not in _PARSERS:
        raise ParseError(f"unknown language {language!r} (expected 'lean' or 'rocq')")
    return _PARSERS[language]


def parse_source(text: str, language: Language, theorem: str | None = None, *, strict: bool = False) -> SourceFile:
    """Split ``text``; ``theorem`` selects a declaration by name.

    Default target: the last theorem-like declaration whose body is a placeholder
    (Lean ``sorry``; Rocq ``Admitted.`` or no terminator), else the last one. ``strict`` (what
    the verdict uses for a problem file): only a certain target - the file's one compfiles
    ``problem``, else its one placeholder declaration, else its one declaration; otherwise
    ``AmbiguousTarget`` (a ``ParseError``) naming the candidates, never a guess.
    Raises ``ParseError`` with a one-line message (also for an unknown ``language``).
    """
    return _parser(language).parse(text, theorem, strict=strict)


def declarations(text: str, language: Language) -> list[Declaration]:
    """Every theorem-like declaration of ``text`` in order, read with ``parse_source``'s rules
    (same keywords, attributes and sentence ends). Lenient, for model output: comments or
    strings left open run to the end; a Rocq declaration without a terminator runs up to the
    next declaration; a Lean one without a top-level ``:=`` is skipped."""
    return _parser(language).declarations(text)


def declaration_names(text: str, language: Language) -> list[str]:
    """Names of every theorem-like declaration of ``text`` in order, with or without a proof
    (``declarations`` keeps only those it can split); a Lean ``example`` is left out."""
    return _parser(language).declaration_names(text)
