"""Read a proof sketch out of model output: named lemmas (holes allowed) and the main proof.

The model's copy of the target theorem is used only for its proof: the statement that ends
up in any candidate is always the problem's own (``Problem.declaration``), so a sketch that
weakens the theorem cannot get through. Lemma names must be fresh (not the theorem's, not
repeated). Non-lemma text in the block (definitions, imports) is dropped; lemmas that rely
on it then fail the compile check and the errors go back to the model.
"""

from __future__ import annotations

from dataclasses import dataclass

from prover.lang import spec
from prover.records import LemmaSpec


class SketchParseError(ValueError):
    """The reply holds no usable sketch; the message is fed back to the model."""


@dataclass(frozen=True)
class ParsedSketch:
    lemmas: tuple[LemmaSpec, ...]
    main_proof: str


def parse_sketch(reply: str, language: str, theorem_name: str, *, taken: frozenset[str] = frozenset()) -> ParsedSketch:
    lang = spec(language)
    code = lang.extract_code(reply)
    if code is None:
        raise SketchParseError(f"no ```{lang.fence[0]} code block found in the answer")
    decls = lang.declarations(code)
    mains = [d for d in decls if d.name == theorem_name]
    if not mains:
        raise SketchParseError(f"the sketch must end with the theorem `{theorem_name}` and its complete proof")
    main = mains[-1]
    if lang.has_hole(main.proof):
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
        proof = None if lang.has_hole(d.proof) else d.proof.strip("\n")
        lemmas.append(LemmaSpec(name=d.name, declaration=d.declaration.strip(), proof=proof))
    return ParsedSketch(tuple(lemmas), main.proof.strip("\n"))
