"""Read a proof sketch out of model output (named lemmas, holes allowed, and the main proof),
and write the skeleton that is compile-checked.

The model's copy of the target theorem is used only for its proof: the statement that ends
up in any candidate is always the problem's own (``Problem.declaration``), so a sketch that
weakens the theorem cannot get through. Lemma names must be fresh (not the theorem's, not
repeated). Non-lemma text in the block (definitions, imports) is dropped; lemmas that rely
on it then fail the compile check and the errors go back to the model.

The proof assistant's surface syntax comes in as a ``SketchSyntax`` (the language layer's
object for the problem's language, ``lean_tools.assistant.ProofAssistant``); this module
imports no language code itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .records import LemmaSpec


class Declaration(Protocol):
    """A top-level theorem-like declaration found in text."""

    @property
    def name(self) -> str: ...

    @property
    def declaration(self) -> str:
        """The text from the keyword up to the proof."""
        ...

    @property
    def proof(self) -> str:
        """The proof body (may be empty)."""
        ...


class SketchSyntax(Protocol):
    """What the sketch needs of a proof assistant's surface syntax."""

    @property
    def fences(self) -> tuple[str, ...]:
        """Code-fence tags of the language, the preferred one first."""
        ...

    def extract_code(self, reply: str) -> str | None:
        """The code block of a model reply, or None when there is none."""
        ...

    def declarations(self, text: str) -> Sequence[Declaration]:
        """Top-level theorem/lemma declarations in ``text``, in order."""
        ...

    def has_hole(self, proof: str) -> bool:
        """Whether a proof body is a hole (or contains one)."""
        ...

    def render(self, declaration: str, proof: str) -> str:
        """A declaration with a proof body."""
        ...

    def render_hole(self, declaration: str) -> str:
        """A declaration whose proof is a hole."""
        ...


class SketchParseError(ValueError):
    """The reply holds no usable sketch; the message is fed back to the model."""


@dataclass(frozen=True)
class ParsedSketch:
    lemmas: tuple[LemmaSpec, ...]
    main_proof: str


def parse_sketch(reply: str, syntax: SketchSyntax, theorem_name: str, *, taken: frozenset[str] = frozenset()) -> ParsedSketch:
    """The lemmas (``proof=None`` for a hole) and the theorem's proof in ``reply``.

    Raises ``SketchParseError`` when there is no code block, no ``theorem_name``, a hole in the
    theorem's proof, or a lemma name used twice or already in ``taken``."""
    code = syntax.extract_code(reply)
    if code is None:
        raise SketchParseError(f"no ```{syntax.fences[0]} code block found in the answer")
    decls = syntax.declarations(code)
    mains = [d for d in decls if d.name == theorem_name]
    if not mains:
        raise SketchParseError(f"the sketch must end with the theorem `{theorem_name}` and its complete proof")
    main = mains[-1]
    if syntax.has_hole(main.proof):
        raise SketchParseError(f"the proof of `{theorem_name}` must be complete (no holes); put the holes in lemmas")
    lemmas: list[LemmaSpec] = []
    seen: set[str] = set()
    for d in decls:
        if d.name == theorem_name:
            continue
        if d.name in seen:
            raise SketchParseError(f"lemma name `{d.name}` is used twice")
        if d.name in taken:
            raise SketchParseError(f"lemma name `{d.name}` is already taken in the context; choose another")
        seen.add(d.name)
        proof = None if syntax.has_hole(d.proof) else d.proof.strip("\n")
        lemmas.append(LemmaSpec(name=d.name, declaration=d.declaration.strip(), proof=proof))
    return ParsedSketch(tuple(lemmas), main.proof.strip("\n"))


def skeleton(syntax: SketchSyntax, lemmas: Sequence[LemmaSpec], declaration: str, main_proof: str) -> str:
    """Lemmas as holes (so each is checked separately later), then the theorem ``declaration``
    with ``main_proof``."""
    parts = [syntax.render_hole(lem.declaration) for lem in lemmas]
    parts.append(syntax.render(declaration, main_proof))
    return "\n".join(parts)
