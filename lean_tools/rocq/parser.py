"""Rocq source parsing on masked text (``lean_tools.source.mask``): sentences, the target
theorem of a file, every theorem-like declaration and the open ``Module``s.

- sentences end at a ``.`` or ``...`` (``tac...``) followed by whitespace or the end of the
  file (``..`` does not end one), as coqc's lexer does.
- header: the leading ``Require``/``From ... Require``/``Import``/``Export``/``Open Scope``/
  ``Local Open Scope``/``Set``/``Unset``/``Declare Scope``/``Delimit Scope`` sentences.
- theorem-like: ``Theorem Lemma Fact Remark Corollary Proposition Property Example``.
  The statement is the declaration sentence after the name, up to its final ``.``; the
  proof lies between ``Proof.`` (or ``Proof using ...``/``Proof with ...``) and the
  terminator ``Qed.``/``Defined.``/``Admitted.``/``Abort.``/``Save ...`` (``terminator``);
  a file that stops after ``Proof.`` has an empty proof and terminator "".

Not covered: theorems whose proof is given as ``:= term`` in the statement sentence keep
that term inside ``statement``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..declarations import Declaration, choose_target
from ..source import ParseError, SourceFile, mask

ROCQ_THEOREM_KEYWORDS = (
    "Theorem",
    "Lemma",
    "Fact",
    "Remark",
    "Corollary",
    "Proposition",
    "Property",
    "Example",
)
_ROCQ_ATTRS = r"(?:#\[[^\]]{0,2000}\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program|Private)\s+)*"
_ROCQ_DECL = re.compile(
    _ROCQ_ATTRS
    + r"(?P<kw>"
    + "|".join(ROCQ_THEOREM_KEYWORDS)
    + r")\s+(?P<name>[A-Za-z_\u00a0-\uffff][\w'\u00a0-\uffff]*)"
)
_ROCQ_HEADER = re.compile(
    r"(?:(?:From\s+\S+\s+)?Require(?:\s+(?:Import|Export))?\b|Import\b|Export\b|(?:(?:Local|Global)\s+)?Open\s+Scope\b"
    r"|(?:Local\s+|Global\s+)?(?:Set|Unset)\b|Declare\s+Scope\b|Delimit\s+Scope\b|Close\s+Scope\b)"
)
_ROCQ_TERMINATOR = re.compile(r"(?<![\w'.])(?P<t>Qed|Defined|Admitted|Abort(?:\s+All)?|Save\s+[\w']+)\s*\.(?=\s|$)")
_ROCQ_PROOF = re.compile(r"Proof(?:\s*\.(?=\s|$)|\s+(?:using|with)\b[^.]*\.(?=\s|$))")
_ROCQ_SCOPE = re.compile(
    r"(?:(Module)(?:\s+(?:Import|Export))?\s+(Type\s+)?([\w']+)(?![^.]*:=)[^.]*|(Section)\s+[\w']+|(End)\s+[\w']+)\s*\.$"
)


@dataclass(frozen=True, slots=True)
class Sentence:
    """``masked[start:end]`` is one sentence: ``start`` is past its leading whitespace, ``end``
    just past its final ``.``/``...``."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class RocqDecl:
    """A theorem-like declaration sentence (attributes such as ``#[local]`` and
    ``Local``/``Program``... prefixes included)."""

    index: int
    """Its index in the file's sentence list."""
    sentence: Sentence
    match: re.Match[str]
    """The ``_ROCQ_DECL`` match: keyword (group ``kw``) and name (group ``name``)."""

    @property
    def name(self) -> str:
        return self.match.group("name")

    @property
    def keyword(self) -> str:
        return self.match.group("kw")


def rocq_sentences(masked: str) -> list[Sentence]:
    """Each sentence of masked text, in order. Bullets and braces are not split off."""
    out: list[Sentence] = []
    pos = 0
    for m in re.finditer(r"(?<!\.)\.+(?=\s|$)", masked):
        if m.end() - m.start() == 2:
            continue  # `..` (recursive-notation token) does not end a sentence
        # `.` ends a sentence, and so does `...` (``tac...`` = ``tac; <Proof with tactic>``):
        # coqc accepts ``exact I...`` followed by a new sentence, so `...` must split here too.
        seg = masked[pos : m.end()]
        lead = len(seg) - len(seg.lstrip())
        out.append(Sentence(pos + lead, m.end()))
        pos = m.end()
    return out


def rocq_decl_sentences(masked: str, sents: list[Sentence]) -> list[RocqDecl]:
    """Each theorem-like declaration sentence among ``sents``, in order."""
    decls = []
    for k, sent in enumerate(sents):
        m = _ROCQ_DECL.match(masked, sent.start)
        if m is None or m.end() > sent.end:
            continue
        decls.append(RocqDecl(k, sent, m))
    return decls


def rocq_namespace(masked: str, sents: list[Sentence]) -> str:
    """Open ``Module``s after ``sents`` (``Section``s count as unnamed scopes)."""
    stack: list[str | None] = []
    for sent in sents:
        m = _ROCQ_SCOPE.match(masked[sent.start : sent.end])
        if not m:
            continue
        if m.group(1):
            stack.append(None if m.group(2) else m.group(3))
        elif m.group(4):
            stack.append(None)
        elif stack:
            stack.pop()
    return ".".join(x for x in stack if x)


def _next_start(decls: list[RocqDecl], i: int) -> int | None:
    """Where the declaration after ``decls[i]`` starts (None for the last one)."""
    return decls[i + 1].sentence.start if i + 1 < len(decls) else None


def _terminator(masked: str, decls: list[RocqDecl], i: int, start: int) -> re.Match[str] | None:
    """The first terminator from ``start`` that comes before the next declaration, or None."""
    t = _ROCQ_TERMINATOR.search(masked, start)
    nxt = _next_start(decls, i)
    if t is not None and nxt is not None and t.start() > nxt:
        return None
    return t


def _header_end(text: str, masked: str, sents: list[Sentence], decl_start: int) -> int:
    """End of the leading header sentences before ``decl_start`` (and of the rest of their line)."""
    header_end = 0
    for sent in sents:
        if sent.start >= decl_start or not _ROCQ_HEADER.match(masked, sent.start):
            break
        header_end = sent.end
    if header_end:
        nl = text.find("\n", header_end)
        if nl >= 0 and not masked[header_end:nl].strip():
            header_end = nl + 1
    return header_end


def parse(text: str, theorem: str | None = None, *, strict: bool = False) -> SourceFile:
    """``lean_tools.parsing.parse_source`` for Rocq (raises ``ParseError``)."""
    masked = mask(text, "rocq")
    sents = rocq_sentences(masked)
    decls = rocq_decl_sentences(masked, sents)
    if not decls:
        raise ParseError("no theorem found (expected `Theorem`/`Lemma`/... NAME ... `.`)")
    position = {d.index: i for i, d in enumerate(decls)}

    def is_open(d: RocqDecl) -> bool:
        t = _ROCQ_TERMINATOR.search(masked, d.sentence.end)
        if t is None:
            return True
        nxt = _next_start(decls, position[d.index])
        if nxt is not None and t.start() > nxt:
            return True  # the next declaration starts before any terminator
        return t.group("t") == "Admitted"

    d = choose_target(decls, theorem, lambda d: d.name, is_open, strict=strict)
    i, e = position[d.index], d.sentence.end
    stmt_start, stmt_end = d.match.end(), e - 1
    body_from = e + len(masked[e:]) - len(masked[e:].lstrip())
    proof_match = _ROCQ_PROOF.match(masked, body_from)
    proof_start = proof_match.end() if proof_match else e
    t = _terminator(masked, decls, i, proof_start)
    if t is None:
        nxt = _next_start(decls, i)
        body = masked[proof_start : len(text) if nxt is None else nxt].rstrip()
        proof_end = decl_end = proof_start + len(body)
        terminator = ""
    else:
        proof_end, decl_end = t.start(), t.end()
        terminator = re.sub(r"\s+", " ", text[t.start() : t.end()]).replace(" .", ".")
    header_end = _header_end(text, masked, sents, d.match.start())
    decl_start = d.match.start()
    return SourceFile(
        namespace=rocq_namespace(masked, [s for s in sents if s.end <= decl_start]),
        language="rocq",
        text=text,
        header=text[:header_end],
        preamble=text[header_end:decl_start],
        theorem_name=d.name,
        decl_keyword=d.keyword,
        decl_prefix=text[decl_start:stmt_start],
        statement=text[stmt_start:stmt_end].strip(),
        proof=text[proof_start:proof_end],
        terminator=terminator,
        has_proof_keyword=proof_match is not None,
        decl_start=decl_start,
        statement_start=stmt_start,
        statement_end=stmt_end,
        proof_start=proof_start,
        proof_end=proof_end,
        decl_end=decl_end,
    )


def declarations(text: str) -> list[Declaration]:
    """Every theorem-like declaration of Rocq ``text`` in order (``lean_tools.parsing.declarations``);
    one without a terminator runs up to the next declaration."""
    masked = mask(text, "rocq", lenient=True)
    found = rocq_decl_sentences(masked, rocq_sentences(masked))
    out: list[Declaration] = []
    for i, d in enumerate(found):
        decl_end = d.sentence.end
        nxt = _next_start(found, i)
        nxt = len(text) if nxt is None else nxt
        t = _ROCQ_TERMINATOR.search(masked, decl_end)
        if t is not None and t.start() < nxt:
            end = t.end()
            proof = text[decl_end : t.start()]
            word = t.group("t").split()[0]
            if word in ("Admitted", "Abort"):
                proof = proof + "\n" + word + "."
        else:
            end = nxt
            proof = text[decl_end:nxt]
        proof = re.sub(r"^\s*Proof\s*\.", "", proof, count=1)
        start = d.match.start()
        out.append(Declaration(d.keyword, d.name, start, decl_end, end, text[start:decl_end], proof.strip("\n")))
    return out


def declaration_names(text: str) -> list[str]:
    """``lean_tools.parsing.declaration_names`` for Rocq."""
    masked = mask(text, "rocq", lenient=True)
    return [d.name for d in rocq_decl_sentences(masked, rocq_sentences(masked))]
