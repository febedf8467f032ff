"""Source parsing for either proof assistant: the target theorem of a file and its declarations.

``parse_source(text, language, theorem=None) -> SourceFile`` splits a file into header,
preamble, target theorem and proof body; ``declarations`` and ``declaration_names`` list every
theorem-like declaration of a text (model output, sketches). Each dispatches to the parser of
the language's ``ProofAssistant`` (``lean_tools.lean.parser``, ``lean_tools.rocq.parser``),
which reads the text masked by the shared lexer (``lean_tools.source``), so text inside
comments or strings never starts or ends anything. The rules of each language are in its
parser's docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .assistant import ASSISTANTS
from .source import Language, ParseError, SourceFile

_D = TypeVar("_D")


@dataclass(frozen=True)
class Declaration:
    """A theorem-like declaration found by ``declarations``: ``text[start:end]`` is all of it,
    ``declaration`` the part before the proof (Rocq: the whole statement sentence with its
    ``.``; Lean: up to the top-level ``:=``), ``proof`` the body (Rocq: without ``Proof.`` and
    the terminator, but ending in ``Admitted.``/``Abort.`` when that is how it ends; Lean:
    after ``:=``, without a leading ``by``). ``name`` is "" for a Lean ``example``."""

    keyword: str
    name: str
    start: int
    proof_start: int
    end: int
    declaration: str
    proof: str


class SourceParser(Protocol):
    """What each language's parser module provides (``ProofAssistant.parser``)."""

    def parse(self, text: str, theorem: str | None = None, *, strict: bool = False) -> SourceFile: ...

    def declarations(self, text: str) -> list[Declaration]: ...

    def declaration_names(self, text: str) -> list[str]: ...


class AmbiguousTarget(ParseError):
    """The file does not say with certainty which declaration is the problem's theorem."""


def _names(decls: Sequence[_D], name_of: Callable[[_D], str]) -> str:
    shown = [name_of(d) or "(example)" for d in decls[:8]]
    return ", ".join(shown) + (f", ... ({len(decls)} in all)" if len(decls) > 8 else "")


def choose_target(
    decls: Sequence[_D],
    theorem: str | None,
    name_of: Callable[[_D], str],
    is_open: Callable[[_D], bool],
    *,
    strict: bool = False,
    is_main: Callable[[_D], bool] | None = None,
) -> _D:
    """The target among ``decls``. Named: the last declaration of that name. Default, lenient:
    the last open one (placeholder body), else the last one. Default, ``strict`` (the verdict):
    only a CERTAIN target - the one compfiles ``problem`` if the file has such declarations,
    else the one open declaration, else the one declaration; several -> ``AmbiguousTarget``."""
    if theorem is not None:
        hits = [d for d in decls if name_of(d) == theorem]
        if not hits:
            raise ParseError(f"theorem {theorem!r} not found; the file declares: {_names(decls, name_of)}")
        return hits[-1]
    open_ones = [d for d in decls if is_open(d)]
    if not strict:
        return (open_ones or list(decls))[-1]
    mains = [d for d in decls if is_main is not None and is_main(d)]
    for pool, what in ((mains, "compfiles `problem` declarations"), (open_ones, "unproved declarations"), (list(decls), "declarations")):
        if len(pool) == 1:
            return pool[0]
        if len(pool) > 1:
            raise AmbiguousTarget(
                f"cannot tell with certainty which theorem is the problem's: {len(pool)} {what} "
                f"({_names(pool, name_of)}); name it (prover-check --theorem NAME)"
            )
    raise ParseError("no theorem found")


def _parser(language: str) -> SourceParser:
    if language not in ASSISTANTS:
        raise ParseError(f"unknown language {language!r} (expected 'lean' or 'rocq')")
    return ASSISTANTS[language].parser


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
