"""One walk over the sentences of a Rocq file, keeping the ``Section``s and ``Module``s open.

``walk(text, rule)`` yields a ``Step`` per sentence, in file order: its offsets and head (the
sentence with comments, strings and leading bullets removed, whitespace collapsed), the scopes
open after it, whether it opened, closed or defined a scope, and whether it belongs to a proof.
Which declarations open a proof, and which sentences cut an unfinished one, is the caller's
``ProofRule``: the holes of a file (``holes.find_holes``) and the premises of a hole
(``prover.premises``) read proofs differently, and each keeps its own reading.

Scopes (``scope_change``):
- ``Section S.`` opens a section; ``Module Type T.`` a module type; ``Module F (X : T).`` a
  functor; ``Module M.`` (also ``Module Import M.``, ``Module M : T.``, ``Module M <: T.``) a
  module. ``Module M := N.`` (or any ``Module`` sentence with ``:=``) defines a module and opens
  nothing.
- ``End X.`` closes the innermost scope only when it is named ``X``; otherwise it is no scope
  sentence at all.
- Sentences inside a proof are never scope sentences.

Offsets are character offsets into the text given (comments and strings are masked to the same
length, so they index the original text). Names follow Rocq's identifier rule (``IDENT``: Unicode
letters included). Not covered: ``Declare Module`` and ``Include`` (no scope sentences).

``read_statement(head, following)`` reads a declaration sentence for its callers: whether it
carries its own ``:=`` body (then it opens no proof) and which statements it declares mutually
(``with``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..source import mask
from .parser import Sentence, rocq_sentences

IDENT = r"[^\W\d][\w']*"
"""A Rocq identifier: a letter (Unicode letters included) or ``_``, then letters, digits, ``_`` and
``'``. (A lone ``_`` matches too; it is no identifier, but no declaration is named ``_``.)"""
TERMINATORS = ("Qed", "Defined", "Admitted", "Abort", "Save")
"""The sentences that end a proof."""
ATTRIBUTES = r"(?:#\[[^\]]*\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program)\s+)*"
"""The attributes and prefixes a declaration's keyword may follow (``#[local]``, ``Program``...)."""
BODILESS_KEYWORDS = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Property")
"""The declaration keywords whose sentence takes no ``:=`` body: Rocq 8.16 rejects
``Lemma x : T := t.`` (``Example`` and the definition keywords take one)."""
_KEYWORD = re.compile(rf"{ATTRIBUTES}({IDENT})")
_PROOF = re.compile(r"Proof(?![\w'])")
_BULLETS = re.compile(r"\A(?:[-+*]+|[{}])\s*")


class Scope(BaseModel):
    """A ``Section`` or ``Module`` open at a point of a file."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["section", "module", "functor", "module type"]
    name: str


def qualified(scopes: Sequence[Scope], name: str) -> str:
    """``name`` as seen from outside every scope of ``scopes``: modules (functors and module types
    included) qualify names, sections do not."""
    return ".".join([*(s.name for s in scopes if s.kind != "section"), name])


def unbulleted(masked: str, s: Sentence) -> str:
    """The sentence without leading bullets and braces, whitespace collapsed."""
    text = masked[s.start : s.end]
    while True:
        m = _BULLETS.match(text)
        if not m or not m.group(0):
            break
        text = text[m.end() :]
    return " ".join(text.split())


def scope_change(head: str, stack: list[Scope]) -> bool:
    """Update ``stack`` for a ``Section``/``Module``/``End`` sentence; True when it was one."""
    m = re.match(rf"Section\s+({IDENT})\s*\.$", head)
    if m:
        stack.append(Scope(kind="section", name=m.group(1)))
        return True
    m = re.match(rf"Module\s+(Type\s+)?(?:(?:Import|Export)\s+)?({IDENT})(.*)\.$", head, re.S)
    if m:
        rest = m.group(3)
        if ":=" in rest:  # Module M := N. defines, opens nothing
            return True
        kind = "module type" if m.group(1) else ("functor" if re.match(r"\s*\(", rest) else "module")
        stack.append(Scope(kind=kind, name=m.group(2)))  # type: ignore[arg-type]
        return True
    m = re.match(rf"End\s+({IDENT})\s*\.$", head)
    if m and stack and stack[-1].name == m.group(1):
        stack.pop()
        return True
    return False


@dataclass(frozen=True)
class ProofRule:
    """How a caller reads proofs: which declaration heads open one (``opens``), and which heads
    end an unfinished one before any terminator (``cuts``: the next declaration). Both are called
    with a sentence's head and the head of the sentence after it ("" at the end of the text), which
    settles a declaration whose own sentence is ambiguous (``read_statement``). With
    ``cut_in_proof`` the cutting sentence belongs to the cut proof (it is yielded inside it and
    opens nothing); without, the walk goes on from it as from any sentence outside a proof."""

    opens: Callable[[str, str], bool]
    cuts: Callable[[str, str], bool]
    cut_in_proof: bool = False


NO_PROOFS = ProofRule(opens=lambda head, following: False, cuts=lambda head, following: False)
"""Every sentence read as outside a proof (scope sentences counted wherever they are)."""


@dataclass(frozen=True, slots=True)
class Proof:
    """The end of the proof a declaration opens."""

    terminator: str
    """Its terminator's first word (one of ``TERMINATORS``); "" when cut or unfinished."""
    end: int
    """Index of its terminator sentence, or of the sentence that cut it, or the number of
    sentences when the text ends first."""


@dataclass(frozen=True, slots=True)
class Step:
    """One sentence of the walk: ``text[start:end]``, ending just past its final period."""

    index: int
    """Its index among the file's sentences."""
    start: int
    end: int
    head: str
    """The sentence masked (no comments or strings), without leading bullets, whitespace collapsed."""
    scopes: tuple[Scope, ...]
    """The scopes open after the sentence, outermost first: those around it unless it opened or
    closed one."""
    ids: tuple[int, ...]
    """For each of ``scopes``, which scope of the walk it is (0 for the first one opened, 1 for the
    next...): two scopes of the same kind and name stay apart."""
    change: Literal["open", "close", "define"] | None = None
    """``open``/``close``: a scope sentence that opened ``scopes[-1]`` or closed one; ``define``:
    ``Module M := N.``; None: no scope sentence."""
    in_proof: bool = False
    """Part of a proof: its script, its terminator, or (``ProofRule.cut_in_proof``) what cut it."""
    proof: Proof | None = None
    """On a declaration that opens a proof (``ProofRule.opens``): where that proof ends."""

    @property
    def prefix(self) -> str:
        """The modules that qualify a name declared here, dotted ("" at top level)."""
        return ".".join(s.name for s in self.scopes if s.kind != "section")


def walk(text: str, rule: ProofRule = NO_PROOFS) -> Iterator[Step]:
    """Every sentence of ``text`` as a ``Step``, in order (see the module docstring). Raises
    ``lean_tools.source.ParseError`` for an unterminated comment or string (on the first ``next``)."""
    masked = mask(text, "rocq")
    sents = rocq_sentences(masked)
    heads = [unbulleted(masked, s) for s in sents]
    stack: list[Scope] = []
    ids: list[int] = []
    opened = 0
    i = 0
    while i < len(sents):
        depth = len(stack)
        change: Literal["open", "close", "define"] | None = None
        proof = None
        if scope_change(heads[i], stack):
            change = "open" if len(stack) > depth else "close" if len(stack) < depth else "define"
            if change == "open":
                ids.append(opened)
                opened += 1
            elif change == "close":
                ids.pop()
        elif rule.opens(heads[i], _following(heads, i)):
            proof = _proof(heads, i + 1, rule)
        yield Step(i, sents[i].start, sents[i].end, heads[i], tuple(stack), tuple(ids), change, proof=proof)
        if proof is None:
            i += 1
            continue
        last = proof.end if proof.terminator or rule.cut_in_proof else proof.end - 1
        last = min(last, len(sents) - 1)
        for k in range(i + 1, last + 1):
            yield Step(k, sents[k].start, sents[k].end, heads[k], tuple(stack), tuple(ids), in_proof=True)
        i = last + 1


def _proof(heads: Sequence[str], i: int, rule: ProofRule) -> Proof:
    """The end of the proof whose first sentence (after its declaration) is ``i``."""
    for j in range(i, len(heads)):
        word = heads[j].split(" ")[0].rstrip(".")
        if word in TERMINATORS:
            return Proof(word, j)
        if rule.cuts(heads[j], _following(heads, j)):
            return Proof("", j)
    return Proof("", len(heads))


def _following(heads: Sequence[str], i: int) -> str:
    return heads[i + 1] if i + 1 < len(heads) else ""


@dataclass(frozen=True, slots=True)
class Statement:
    """What a declaration sentence says about its proof (``read_statement``)."""

    has_body: bool
    """It carries its own body: a ``:=`` at its top level where the declaration takes one
    (``Example e : T := t.``, ``Instance i : C := {| ... |}.``), so it opens no proof."""
    mutual: tuple[str, ...] = ()
    """The names declared after a top-level ``with`` (``Lemma a : T with b : U.``): statements the
    same proof proves, in order."""


_TOKENS = re.compile(r":=|[(\[{]|[)\]}]|(?<![\w'])(?:let|fix|cofix|match|with|for)(?![\w'])")


def read_statement(head: str, following: str = "") -> Statement:
    """Read a declaration sentence (a ``Step.head``: comments and strings masked) at its top level:
    outside parentheses, brackets and braces (binders ``(x := t)``, records ``{| f := t |}``),
    where a ``:=`` that follows a ``let``/``fix``/``cofix`` of the statement is theirs and a
    ``with`` that follows a ``match`` (or sits inside a ``fix ... for``) is theirs. The first other
    ``:=`` starts the body, unless the declaration cannot have one there, so that the ``:=``
    belongs to a notation (an assignment in a Hoare triple, ``{{ P }} X := 1 {{ Q }}``):
    - a keyword of ``BODILESS_KEYWORDS`` (``Lemma``, ``Theorem``...) never takes a body;
    - any declaration whose next sentence (``following``, a head too) is ``Proof`` opens a proof:
      Rocq refuses ``Proof`` after a declaration that carries its body.
    Limits: read lexically, so a notation with unbalanced brackets (``[0, 1)``) upsets the count,
    and an ``Example`` or definition whose statement holds such a notation and whose script does
    not start with ``Proof`` is read as carrying its body (it opens no proof)."""
    keyword = _KEYWORD.match(head)
    takes_body = not (keyword and keyword.group(1) in BODILESS_KEYWORDS) and not _PROOF.match(following)
    depth = 0
    assigns = matches = fixes = 0
    mutual: list[str] = []
    previous = ""
    for m in _TOKENS.finditer(head):
        token = m.group(0)
        if token in "([{":
            depth += 1
        elif token in ")]}":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif token in ("let", "match"):
            assigns += token == "let"
            matches += token == "match"
        elif token in ("fix", "cofix"):
            if previous != "let":  # `let fix f x := t in u`: one `:=`, no `for`
                assigns += 1
                fixes += 1
        elif token == "for":
            fixes = max(0, fixes - 1)
        elif token == "with":
            if matches:
                matches -= 1
            elif fixes:
                assigns += 1  # `fix f x := t with g y := u for f`
            elif n := re.match(rf"\s*({IDENT})", head[m.end() :]):
                mutual.append(n.group(1))
        elif assigns:  # `:=` of a let or fix
            assigns -= 1
        elif takes_body:
            return Statement(has_body=True, mutual=tuple(mutual))
        previous = token
    return Statement(has_body=False, mutual=tuple(mutual))
