"""What both proof assistants' parsers share: the ``Declaration`` record, the parser protocol,
and how a file's target theorem is chosen among its declarations (``choose_target``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .source import ParseError, SourceFile

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
