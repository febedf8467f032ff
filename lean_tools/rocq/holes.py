"""The holes of a Rocq file: the proofs a user left open, found lexically, in file order.

A hole is
- ``admitted``: a ``Theorem``/``Lemma``/``Fact``/``Remark``/``Corollary``/``Proposition``/
  ``Property``/``Example``, or an ``Instance``/``Definition``/``Let``/``Fixpoint``/``CoFixpoint``,
  in proof mode, whose proof ends in ``Admitted.``; the script before ``Admitted.`` (if any) is kept
  and continued from. Attributes and prefixes (``#[local]``, ``Local``, ``Global``, ``Program``,
  ``Polymorphic``...) are allowed; names follow Rocq's identifier rule (Unicode letters included);
- ``admit``: an ``admit.`` sentence of a proof script (the script before ``Admitted.``, or
  before ``Qed.``/``Defined.``, which Rocq 8.16 refuses with an ``admit.`` inside); a lemma whose
  script has ``admit.``s is one ``admit`` hole per ``admit.``, not an ``admitted`` hole. Once every
  ``admit.`` of such a proof is filled, its ``Admitted.`` becomes ``Qed.`` (``Defined.`` for a
  definition).

A declaration opens a proof only without a body of its own: a ``:=`` at the top level of its
sentence (``Example e : 1 = 1 := eq_refl.``, ``Instance i : C := {| f := 0 |}.``,
``Program Definition d : T := t.``) means no proof mode, while a ``:=`` of a ``let``, a binder
``(x := t)`` or a record inside the statement does not (``lean_tools.rocq.walk.read_statement``).
Nor does a ``:=`` of a notation (``{{ P }} X := 1 {{ Q }}``) where no body can be: in a
``Lemma``/``Theorem``/... (Rocq takes no body there), or in a declaration followed by ``Proof``.
``Existing Instance(s)`` declares nothing.

Each hole knows the ``Section``s and ``Module``s that enclose it (``scopes``, kept by the sentence
walk of ``lean_tools.rocq.walk``), so a caller can close them after the hole (``closers``) and
name it (``qualified``: modules qualify names, sections do not). A mutual declaration
(``Lemma a : T with b : U.``) is one hole, named after its first statement, whose proof proves
them all (``mutual``). Holes that cannot be filled and named are marked ``fillable=False`` with
the reason: inside a functor (``Module F (X : T).``) or a module type; a ``Let`` inside a section
(gone after ``End``); an ``admitted`` definition (``Definition``/``Instance``/``Let``/
``Fixpoint``/``CoFixpoint`` in proof mode): the search (``prover.problem``) states theorem-like
lemmas only, so such a hole is reported, not filled (its ``admit.``s are, as auxiliary lemmas).

Not covered: ``Program`` obligations (``Next Obligation. ... Admitted.``, ``Admit Obligations.``
are no holes, though the definition then rests on an axiom), an anonymous ``Instance : C.`` in
proof mode, and a proof nested in another (``Nested Proofs Allowed``).

Offsets index the text given; ``fill`` replaces only the proof body of a hole, so every byte
outside the filled bodies stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .walk import ATTRIBUTES, IDENT, ProofRule, Scope, Step, qualified, read_statement, walk

THEOREM_KEYWORDS = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Property", "Example")
_DEFINITION_KEYWORDS = ("Instance", "Definition", "Let", "Fixpoint", "CoFixpoint")
_DECL = re.compile(rf"{ATTRIBUTES}(?P<kw>{'|'.join(THEOREM_KEYWORDS + _DEFINITION_KEYWORDS)})\s+(?P<name>{IDENT})?")


class Hole(BaseModel):
    """One open proof. Spans are ``[start, end)`` offsets into the file text."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    keyword: str
    kind: Literal["admitted", "admit"]
    scopes: tuple[Scope, ...]
    decl_start: int
    decl_end: int
    """End of the declaration sentence (after its period)."""
    proof_start: int
    """Start of ``Proof.`` (or of the first sentence after the declaration)."""
    script_start: int
    """After ``Proof ...`` when present (else ``proof_start``): where a tactic script begins."""
    end_start: int
    """Start of the sentence to replace: ``Admitted.`` for ``admitted``, ``admit.`` for ``admit``."""
    end_end: int
    terminator: str
    """The proof's terminator as written: ``Admitted`` for ``admitted``; ``Qed``/``Defined`` for ``admit``."""
    index: int = 0
    """For ``admit``: which ``admit.`` of the proof (0-based)."""
    term_start: int = 0
    """Start of the proof's terminator sentence (``Admitted.``/``Qed.``/``Defined.``)."""
    term_end: int = 0
    mutual: tuple[str, ...] = ()
    """The other statements of a mutual declaration (``Lemma a : T with b : U.``): the hole is
    named after the first, and its proof proves them all (one goal each, in order)."""

    @property
    def admitted_lemma(self) -> bool:
        """Whether the lemma itself ends in ``Admitted.`` (an axiom until filled)."""
        return self.terminator == "Admitted"

    @property
    def qualified(self) -> str:
        """The name as seen from outside every module that encloses it."""
        return qualified(self.scopes, self.name)

    @property
    def is_definition(self) -> bool:
        return self.keyword in _DEFINITION_KEYWORDS

    @property
    def fillable(self) -> bool:
        return not self.unfillable_reason

    @property
    def unfillable_reason(self) -> str:
        if any(s.kind in ("functor", "module type") for s in self.scopes):
            return "inside a functor or module type: its lemmas cannot be named after End"
        if self.keyword == "Let" and any(s.kind == "section" for s in self.scopes):
            return "a Let inside a section: it cannot be named after End"
        if self.kind == "admitted" and self.is_definition:
            return f"an admitted {self.keyword} in proof mode: the search states theorem-like lemmas only"
        return ""

    @property
    def label(self) -> str:
        """How messages name the hole: the qualified name, with ``#k`` for the k-th ``admit``."""
        return self.qualified if self.kind == "admitted" else f"{self.qualified}#admit{self.index + 1}"


@dataclass(frozen=True, slots=True)
class _Decl:
    """A declaration sentence that opens a proof."""

    keyword: str
    name: str
    mutual: tuple[str, ...]


def _is_decl(head: str, following: str) -> _Decl | None:
    """The declaration ``head`` makes when it opens a proof: a keyword of ``_DECL`` with a name and
    no body of its own (``read_statement``, which reads ``following``, the next sentence's head);
    None for any other sentence, among them ``Example e : T := t.``,
    ``Instance i : C := {| ... |}.`` and ``Existing Instance i.``."""
    m = _DECL.match(head)
    if not m or not m.group("name"):
        return None
    statement = read_statement(head, following)
    if statement.has_body:
        return None
    return _Decl(m.group("kw"), m.group("name"), statement.mutual)


def _opens_proof(head: str, following: str) -> bool:
    return _is_decl(head, following) is not None


_PROOFS = ProofRule(opens=_opens_proof, cuts=_opens_proof, cut_in_proof=True)
"""A declaration that opens a proof (``_is_decl``) reads it to its terminator or, unfinished, to
the next such declaration; that declaration is taken into the cut proof and its own proof is not
read. A declaration with its own body opens nothing and cuts nothing (Rocq accepts
``Definition d := 1.`` inside a proof)."""


def find_holes(text: str) -> list[Hole]:
    """Every hole of ``text``, in file order (see the module docstring)."""
    steps = list(walk(text, _PROOFS))
    holes: list[Hole] = []
    for step in steps:
        opened = step.proof is not None and step.proof.terminator
        following = steps[step.index + 1].head if step.index + 1 < len(steps) else ""
        decl = _is_decl(step.head, following) if opened else None
        if decl is not None and step.proof is not None:
            holes += _holes_of(decl, steps, step.index, step.proof.end)
    return holes


def hole_labelled(text: str, label: str) -> Hole:
    """The hole of ``text`` named ``label`` (``Hole.label``): a hole found again after the text
    changed around it (its offsets move with lines added or filled before it)."""
    return next(h for h in find_holes(text) if h.label == label)


def _holes_of(decl: _Decl, steps: Sequence[Step], i: int, j: int) -> list[Hole]:
    """The holes of the proof of declaration ``i`` whose terminator is sentence ``j``."""
    term = steps[j].head.split(" ")[0].rstrip(".")
    proof_start = steps[i + 1].start if i + 1 < j else steps[j].start
    has_proof = i + 1 < j and re.match(r"Proof\b", steps[i + 1].head) is not None
    script_start = steps[i + 1].end if has_proof else proof_start
    proto = Hole(
        name=decl.name,
        keyword=decl.keyword,
        kind="admitted",
        scopes=steps[i].scopes,
        decl_start=steps[i].start,
        decl_end=steps[i].end,
        proof_start=proof_start,
        script_start=script_start,
        end_start=steps[j].start,
        end_end=steps[j].end,
        terminator=term,
        term_start=_after_bullets(steps[j]),
        term_end=steps[j].end,
        mutual=decl.mutual,
    )
    if term not in ("Qed", "Defined", "Admitted"):
        return []
    admits = [k for k in range(i + 1, j) if steps[k].head == "admit."]
    if term == "Admitted" and not admits:
        return [proto]
    return [
        proto.model_copy(update={"kind": "admit", "end_start": _after_bullets(steps[k]), "end_end": steps[k].end, "index": n})
        for n, k in enumerate(admits)
    ]


def _after_bullets(s: Step) -> int:
    """Where ``admit.`` itself starts inside a sentence that may begin with bullets or braces."""
    return s.end - len(s.head)


def closers(scopes: Sequence[Scope]) -> str:
    """``End X.`` for each scope, innermost first."""
    return "".join(f"End {s.name}.\n" for s in reversed(scopes))


def fill(text: str, hole: Hole, script: str) -> str:
    """``text`` with ``hole`` closed by ``script`` (tactic sentences); nothing else changes.

    ``admitted``: the script goes before ``Admitted.``, which becomes ``Qed.`` (``Defined.`` for a
    definition). ``admit``: ``admit.`` becomes the script as one braced block (``{ ... }``, valid
    wherever ``admit.`` was and closing exactly its goal); when it was the proof's last ``admit.``
    and the proof ends in ``Admitted.``, that becomes ``Qed.`` (``Defined.``).
    """
    script = script.strip()
    if hole.kind == "admit":
        return _fill_admit(text, hole, script)
    end = "Defined." if hole.is_definition else "Qed."
    kept = text[hole.script_start : hole.end_start].rstrip()
    before = text[: hole.script_start]
    margin = _margin(text, hole.end_start)  # the terminator's indentation, kept for Qed
    sep = "" if not kept and before.endswith("\n") else "\n"
    return before + kept + sep + _indent(script, margin + "  ") + "\n" + margin + end + text[hole.end_end :]


def braced(script: str, margin: str) -> str:
    """``script`` as one ``{ ... }`` block: on one line when it is one line, else one sentence line
    per line indented under ``margin``."""
    lines = [line.strip() for line in script.strip().splitlines() if line.strip()]
    if len(lines) <= 1:
        return "{ " + (lines[0] if lines else "") + " }"
    return "{\n" + _indent("\n".join(lines), margin + "  ") + "\n" + margin + "}"


def _fill_admit(text: str, hole: Hole, script: str) -> str:
    others = [h for h in find_holes(text) if h.kind == "admit" and h.decl_start == hole.decl_start and h.index != hole.index]
    out = text[: hole.end_start] + braced(script, _margin(text, hole.end_start)) + text[hole.end_end :]
    if others or not hole.admitted_lemma:
        return out
    shift = len(out) - len(text)
    end = "Defined." if hole.is_definition else "Qed."
    return out[: hole.term_start + shift] + end + out[hole.term_end + shift :]


def _margin(text: str, at: int) -> str:
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line[: len(line) - len(line.lstrip())]


def _indent(script: str, indent: str) -> str:
    return "\n".join(indent + line.strip() if line.strip() else "" for line in script.splitlines())


_REQUIRE = re.compile(r"(?:From\s+\S+\s+)?(?:Require|Import|Export)\b")


def requires_point(text: str) -> int:
    """Where a ``Require`` line the fill adds goes: after the file's last top-level ``Require``/
    ``Import``/``Export`` sentence before its first hole; without one, after the comments that
    open the file (the offset of the newline the added line follows, or 0)."""
    holes = find_holes(text)
    limit = holes[0].decl_start if holes else len(text)
    steps = list(walk(text))  # every sentence read as outside a proof
    point = -1
    for s in steps:
        if s.start >= limit:
            break
        if s.change is None and not s.scopes and _REQUIRE.match(s.head):
            point = s.end
    if point >= 0:
        return point
    start = steps[0].start if steps else len(text)
    return max(0, text.rfind("\n", 0, start))


def insert_requires(text: str, lines: Sequence[str], point: int) -> str:
    """``text`` with ``lines`` inserted at ``point`` (``requires_point``), each on a line of its own."""
    if not lines:
        return text
    block = "".join("\n" + line for line in lines)
    if point == 0:
        return block.lstrip("\n") + "\n" + text
    return text[:point] + block + text[point:]


def after_requires(point: int, added: Sequence[str]) -> int:
    """Where the next line goes once ``added`` were inserted at ``point``: after them, so that
    inserting one line at a time gives the text ``insert_requires`` gives for all at once (at the
    top of a file the first line is written as "line\\n", the others as "\\nline")."""
    return point + sum(len(line) + 1 for line in added) - (1 if point == 0 and added else 0)
