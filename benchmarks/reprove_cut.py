"""The lemmas of one Rocq library file, and a lemma's file cut after its statement.

``scan_file(text) -> list[LemmaSite]`` finds every theorem-like declaration of a library
source file (``Theorem Lemma Fact Remark Corollary Proposition Property Example``), the
``Section``/``Module`` scopes open around it and how its proof ends; a site that cannot become
a problem carries the reason (``LemmaSite.exclusion``). ``cut_text(text, site)`` is the problem
file: everything before the declaration verbatim, the declaration sentence, its ``Proof
using ...`` sentence if it had one (else ``Proof.``), ``Admitted.``, then ``End X.`` for every
scope still open, innermost first. The cut is at sentence boundaries found on the masked text
(comments and strings cannot end anything), so several sentences on one line are handled.

Kept: proofs that end in ``Qed.``, with or without a ``Proof`` sentence, at top level or in
(nested) ``Section``s and plain ``Module``s. Excluded, with the reason recorded:
- ends in ``Defined``/``Admitted``/``Abort``/``Save`` (the benchmark re-proves ``Qed`` lemmas);
- the proof is a term in the statement sentence (``Lemma x : T := t.``), or ``Proof t.``;
- ``Program`` lemmas (obligations);
- inside a ``Module Type`` (no constant to name), a functor ``Module F (P : T)`` (its lemmas
  cannot be named after ``End``), or a module with a type ascription ``Module M <: T``/``: T``
  (the cut module lacks the later fields, so ``End M.`` fails the signature check);
- a proof whose terminator is not found before the next declaration (nested proofs).

Not covered: mutual statements (``Lemma x : T with y : U.``) are not recognised (rare in the
installed libraries); ``Module``/``Section`` commands produced by notations or plugins (e.g. Elpi
``HB.`` commands that open scopes); such files fail validation and are excluded there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lean_tools.source import mask

THEOREM_KEYWORDS = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Property", "Example")
_ATTRS = r"(?P<attrs>(?:#\[[^\]]{0,2000}\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program|Private)\s+)*)"
_DECL = re.compile(_ATTRS + r"(?P<kw>" + "|".join(THEOREM_KEYWORDS) + r")\s+(?P<name>[A-Za-z_\u00a0-\uffff][\w'\u00a0-\uffff]*)")
_SECTION = re.compile(r"Section\s+(?P<name>[\w'\u00a0-\uffff]+)\s*\.", re.DOTALL)
_END = re.compile(r"End\s+(?P<name>[\w'\u00a0-\uffff]+)\s*\.", re.DOTALL)
_MODULE = re.compile(
    r"(?:(?:Local|Global)\s+)?(?P<declare>Declare\s+)?Module\s+(?P<type>Type\s+)?(?:(?:Import|Export)\s+)?"
    r"(?P<name>[\w'\u00a0-\uffff]+)(?P<rest>.*)\.",
    re.DOTALL,
)
_PROOF = re.compile(r"Proof(?P<tail>\s*\.|\s+(?:using|with)\b.*\.)", re.DOTALL)
_PROOF_ANY = re.compile(r"Proof\b")
_TERMINATOR = re.compile(r"[\s{}]*(?P<t>Qed|Defined|Admitted|Abort(?:\s+All)?|Save\s+[\w']+)\s*\.", re.DOTALL)


@dataclass(frozen=True)
class Scope:
    """A ``Section``/``Module`` open at some point of a file. ``kind``: ``section``, ``module``,
    ``module-type``, ``functor`` or ``ascribed`` (a module with ``<: T``/``: T``)."""

    kind: str
    name: str


@dataclass(frozen=True)
class LemmaSite:
    """One theorem-like declaration of a file. Offsets index the file's text (code points)."""

    name: str
    """The declared (short) name."""
    module_path: tuple[str, ...]
    """Names of the ``Module``s open around it, outermost first (``Section``s add nothing)."""
    decl_start: int
    """Start of the declaration sentence (attributes included)."""
    statement_end: int
    """Just past the final ``.`` of the declaration sentence: the cut point."""
    proof_line: str
    """What follows the statement in the problem: the original ``Proof using ...`` sentence,
    else ``Proof.``."""
    scopes: tuple[Scope, ...] = field(default=())
    """Scopes open at the declaration, outermost first."""
    exclusion: str | None = None
    """Why this lemma cannot become a problem; ``None`` when it can."""

    @property
    def qualified(self) -> str:
        """The name as seen from outside the file's module: ``M.N.name`` (``name`` at top level)."""
        return ".".join((*self.module_path, self.name))


def _sentence_spans(masked: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of masked text, from the project's Rocq sentence splitter."""
    try:
        from lean_tools.rocq.parser import rocq_sentences
    except ImportError:  # the splitter's older home
        from lean_tools.source import rocq_sentences  # type: ignore[attr-defined, no-redef]
    out: list[tuple[int, int]] = []
    for s in rocq_sentences(masked):
        x: Any = s  # a record with start/end, or (the older splitter) a (start, end) pair
        out.append((x.start, x.end) if hasattr(x, "start") else (x[0], x[1]))
    return out


def _scope_of(sentence: str) -> Scope | None:
    """The scope a ``Section``/``Module`` sentence opens, or ``None`` (also for ``Module X := M.``
    and ``Declare Module``, which open nothing)."""
    m = _SECTION.fullmatch(sentence)
    if m:
        return Scope("section", m.group("name"))
    m = _MODULE.fullmatch(sentence)
    if m is None or m.group("declare") or _defines_body(m.group("rest")):
        return None
    rest = m.group("rest").strip()
    if m.group("type"):
        return Scope("module-type", m.group("name"))
    if rest.startswith("("):
        return Scope("functor", m.group("name"))
    if rest.startswith((":", "<:")):
        return Scope("ascribed", m.group("name"))
    return Scope("module", m.group("name"))


def _defines_body(rest: str) -> bool:
    """Whether a ``Module`` sentence's tail has a ``:=`` body (``Module X := M.``), not counting
    the ``:=`` of ``with Definition x := t``/``with Module X := M`` signature constraints."""
    return any(
        not re.search(r"\bwith\s+(?:Definition|Module)\s+[\w'.\u00a0-\uffff]+\s*$", rest[: m.start()])
        for m in re.finditer(":=", rest)
    )


_SCOPE_EXCLUSION = {
    "module-type": "inside a Module Type (no constant to name)",
    "functor": "inside a functor Module (its lemmas cannot be named after End)",
    "ascribed": "inside a module with a type ascription (End checks the whole signature)",
}
_TERMINATOR_EXCLUSION = {
    "Defined": "ends in Defined (the benchmark re-proves Qed lemmas)",
    "Admitted": "admitted in the library",
    "Abort": "aborted in the library",
}


def _statement_exclusion(masked_decl: str, attrs: str, next_sentence: str) -> str | None:
    if "Program" in attrs:
        return "Program lemma (obligations)"
    if not _PROOF_ANY.match(next_sentence) and ":=" in masked_decl:
        return "proof given as a term in the statement (:=)"
    if _PROOF_ANY.match(next_sentence) and not _PROOF.fullmatch(next_sentence):
        return "proof given as a term (Proof t.)"
    return None


def _find_terminator(masked: str, spans: list[tuple[int, int]], k: int) -> tuple[str | None, str | None]:
    """(terminator keyword, exclusion) for the declaration at sentence ``k``."""
    for a, b in spans[k + 1 :]:
        s = masked[a:b]
        t = _TERMINATOR.fullmatch(s)
        if t:
            return t.group("t").split()[0], None
        if _DECL.match(s) or _SECTION.fullmatch(s) or _END.fullmatch(s):
            return None, "no proof terminator before the next declaration (nested proof)"
    return None, "no proof terminator before the end of the file"


def scan_file(text: str) -> list[LemmaSite]:
    """Every theorem-like declaration of ``text`` (see the module docstring). Raises
    ``lean_tools.source.ParseError`` for a file that does not lex (unterminated comment)."""
    masked = mask(text, "rocq")
    spans = _sentence_spans(masked)
    stack: list[Scope] = []
    out: list[LemmaSite] = []
    for k, (a, b) in enumerate(spans):
        s = masked[a:b]
        d = _DECL.match(s)
        if d is not None:
            out.append(_site(text, masked, spans, k, d, tuple(stack)))
            continue
        scope = _scope_of(s)
        if scope is not None:
            stack.append(scope)
            continue
        e = _END.fullmatch(s)
        if e is not None and stack and stack[-1].name == e.group("name"):
            stack.pop()
    return out


def _site(text: str, masked: str, spans: list[tuple[int, int]], k: int, d: re.Match[str], scopes: tuple[Scope, ...]) -> LemmaSite:
    a, b = spans[k]
    nxt = masked[spans[k + 1][0] : spans[k + 1][1]] if k + 1 < len(spans) else ""
    proof_line = "Proof."
    if re.match(r"Proof\s+using\b", nxt):
        proof_line = " ".join(text[spans[k + 1][0] : spans[k + 1][1]].split())
    why = next((_SCOPE_EXCLUSION[sc.kind] for sc in scopes if sc.kind in _SCOPE_EXCLUSION), None)
    why = why or _statement_exclusion(masked[a:b], d.group("attrs"), nxt)
    if why is None:
        term, why = _find_terminator(masked, spans, k)
        if why is None and term != "Qed":
            why = _TERMINATOR_EXCLUSION.get(term or "", f"ends in {term} (the benchmark re-proves Qed lemmas)")
    return LemmaSite(
        name=d.group("name"),
        module_path=tuple(sc.name for sc in scopes if sc.kind != "section"),
        decl_start=a,
        statement_end=b,
        proof_line=proof_line,
        scopes=scopes,
        exclusion=why,
    )


def cut_text(text: str, site: LemmaSite) -> str:
    """The problem file for ``site`` (module docstring): ``text`` up to the end of the lemma's
    statement sentence, its proof replaced by ``Admitted.``, open scopes closed."""
    closes = "".join(f"End {sc.name}.\n" for sc in reversed(site.scopes))
    return text[: site.statement_end] + f"\n{site.proof_line}\nAdmitted.\n" + closes
