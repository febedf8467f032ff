"""The shared lexer of Lean 4 and Rocq source, and the parsed-file record ``SourceFile``.

Comments, strings and (Lean) char literals are lexed here (``segments``, ``mask``,
``strip_comments``, ``normalize``; the rules are in ``segments``), so text inside them never
starts or ends anything for the parsers that read the masked text: ``lean_tools.lean.parser``
and ``lean_tools.rocq.parser``, reached through ``lean_tools.parsing.parse_source``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

Language = Literal["lean", "rocq"]
SegmentKind = Literal["code", "comment", "string", "char"]


class ParseError(ValueError):
    """The text could not be split (no theorem, unterminated comment or string, ...)."""


class SourceFile(BaseModel):
    """One parsed file. Offsets index ``text``; ``render`` swaps the proof body.

    Invariant: ``text == text[:proof_start] + proof + text[proof_end:]`` and
    ``header + preamble == text[:decl_start]``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    language: Language
    text: str
    header: str
    preamble: str
    theorem_name: str
    decl_keyword: str
    decl_prefix: str
    """Text from ``decl_start`` up to the statement: modifiers, keyword, name."""
    statement: str
    proof: str
    terminator: str = ""
    """Rocq: ``Qed.``, ``Defined.``, ``Admitted.``, ``Abort.``, ``Save x.`` or "" (missing). Lean: ""."""
    has_proof_keyword: bool = False
    """Rocq: the proof opens with a ``Proof`` sentence."""
    decl_start: int
    statement_start: int
    statement_end: int
    proof_start: int
    proof_end: int
    """Lean: end of the body. Rocq: start of the terminator (or end of the last sentence)."""
    decl_end: int
    """Lean: end of the body. Rocq: end of the terminator sentence."""
    namespace: str = ""
    """Enclosing Lean ``namespace``s / Rocq ``Module``s of the target, dot-joined ("" at top level)."""

    @property
    def qualified_name(self) -> str:
        """``namespace.theorem_name`` (just the name at top level)."""
        return f"{self.namespace}.{self.theorem_name}" if self.namespace else self.theorem_name

    @property
    def suffix(self) -> str:
        """Everything after the target declaration."""
        return self.text[self.decl_end :]

    def statement_text(self) -> str:
        """The statement with comments removed and whitespace collapsed (for comparison)."""
        return normalize(self.statement, self.language)

    def proof_is_placeholder(self) -> bool:
        """The body is just ``sorry`` (Lean, possibly ``by sorry``) or admitted/missing (Rocq)."""
        body = normalize(self.proof, self.language)
        if self.language == "lean":
            return body in ("sorry", "by sorry", "by\nsorry", "by")
        return self.terminator in ("Admitted.", "") or body in ("admit.",)

    def render(self, proof: str, terminator: str = "Qed.", helpers: str = "") -> str:
        """The full file with ``proof`` as the target's body.

        ``helpers``: complete declarations (lemmas with proofs) inserted just before the
        target declaration, the one place ``lean_tools.soundness`` accepts new text.

        Lean: ``proof`` replaces the text after ``:=`` (give ``by ...`` or a term).
        Rocq: ``proof`` is the tactic script; it replaces everything between ``Proof.`` and
        the old terminator, and ``terminator`` is appended unless ``proof`` already ends
        with ``Qed.``/``Defined.``/``Admitted.``. A ``Proof.`` line is added if missing.
        """
        text = self.text
        if helpers.strip():
            extra = helpers.strip("\n") + "\n\n"
            offsets = ("decl_start", "statement_start", "statement_end", "proof_start", "proof_end", "decl_end")
            shifted = self.model_copy(
                update={
                    "text": text[: self.decl_start] + extra + text[self.decl_start :],
                    **{k: getattr(self, k) + len(extra) for k in offsets},
                }
            )
            return shifted.render(proof, terminator)
        if self.language == "lean":
            return text[: self.proof_start] + proof + text[self.proof_end :]
        body = proof.strip()
        if re.search(r"(?:^|\s)(?:Qed|Defined|Admitted)\s*\.\s*$", body) is None and terminator:
            body = (body + "\n" + terminator) if body else terminator
        opener = "" if self.has_proof_keyword else "\nProof."
        return self.text[: self.proof_start] + opener + "\n" + body + self.text[self.decl_end :]


@dataclass(frozen=True, slots=True)
class Segment:
    """``text[start:end]`` is one lexical unit: code, a comment, a string or a char literal."""

    start: int
    end: int
    kind: SegmentKind


def line_of(text: str, i: int) -> int:
    """The 1-based line number of offset ``i`` in ``text``."""
    return text.count("\n", 0, i) + 1


_LEAN_LETTER_LIKE = (
    "\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9\u03ca-\u03fb"
    "\u1f00-\u1ffe\u2100-\u214f\U0001d49c-\U0001d59f"
)
"""Lean 4's ``isLetterLike``: Greek but λ/Π/Σ, Coptic, the letter-like block, math alphanumerics."""
_LEAN_IDENT = re.compile(
    rf"[A-Za-z_{_LEAN_LETTER_LIKE}][A-Za-z0-9_'!?{_LEAN_LETTER_LIKE}\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a]*"
)
"""An identifier (one dot-separated part) as Lean's tokenizer reads it, subscripts included."""
_LEAN_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|[0-9]+(?:[eE][-+]?[0-9]+)?")
_LEAN_CHAR_LIT = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|[^\n])|[^\\'\n])'")


def _lean_token_end(text: str, i: int, lenient: bool) -> tuple[int, SegmentKind]:
    """Lean code at ``text[i]`` that is neither a comment nor a string: the end of the token
    that starts there, and its kind (``char`` for a character literal, else ``code``)."""
    c, n = text[i], len(text)
    if c == "«":
        j = text.find("»", i + 1)
        if j < 0 and lenient:
            j = n - 1
        elif j < 0:
            raise ParseError(f"unterminated «identifier» starting at line {line_of(text, i)}")
        return j + 1, "code"
    ident = _LEAN_IDENT.match(text, i)
    if ident:
        # a whole identifier at once (its `'`s included), so the `'` case below only ever
        # sees a token start: after a number (`1'a'`), a symbol or `»`, as in Lean
        return ident.end(), "code"
    if c.isascii() and c.isdigit():
        m = _LEAN_NUMBER.match(text, i)
        return (m.end() if m else i + 1), "code"
    if c == "'":
        m = _LEAN_CHAR_LIT.match(text, i)
        if m:
            return m.end(), "char"
    return i + 1, "code"


def segments(text: str, language: Language, lenient: bool = False) -> list[Segment]:
    """Lex ``text`` into ``Segment``s of kind ``code``/``comment``/``string``/``char``.

    Lean: ``--`` and nested ``/- -/`` comments, ``"..."`` strings with backslash escapes,
    character literals (a ``'`` at a token start: identifiers, their ``'``s included, and numbers
    are consumed whole, as Lean's tokenizer does, so ``a'`` continues a name and ``1'"'`` is a
    char), and ``«...»`` escaped identifiers: code, but nothing inside them starts a comment,
    string or char. Rocq: nested ``(* *)`` comments (strings inside are lexed), ``"..."``
    strings with ``""``. Raises ``ParseError`` for an unterminated comment, string or ``«``;
    ``lenient`` (model output): such a comment, string or identifier runs to the end instead.
    """
    out: list[Segment] = []
    i, n = 0, len(text)
    lean = language == "lean"
    open_c = "/-" if lean else "(*"
    code_from = 0
    kind: SegmentKind
    while i < n:
        c = text[i]
        if lean and text.startswith("--", i):
            j = text.find("\n", i)
            j, kind = (n if j < 0 else j), "comment"
        elif text.startswith(open_c, i):
            j, kind = _skip_block_comment(text, i, language, lenient), "comment"
        elif c == '"':
            j, kind = _skip_string(text, i, language, lenient), "string"
        elif lean and c not in " \t\n":
            j, kind = _lean_token_end(text, i, lenient)
        else:
            j, kind = i + 1, "code"
        if kind != "code":
            if code_from < i:
                out.append(Segment(code_from, i, "code"))
            out.append(Segment(i, j, kind))
            code_from = j
        i = j
    if code_from < n:
        out.append(Segment(code_from, n, "code"))
    return out


def _blank(chunk: str) -> str:
    return "".join(c if c == "\n" else " " for c in chunk)


def _blank_guillemets(chunk: str) -> str:
    """Inside ``«...»`` keep identifier characters, blank the rest (same length)."""

    def fix(m: re.Match[str]) -> str:
        inner = "".join(ch if (ch.isalnum() or ch in "_.'!?") else " " for ch in m.group(1))
        return "«" + inner + "»"

    return re.sub(r"«([^»]*)»", fix, chunk)


def mask(text: str, language: Language, *, strings: bool = True, lenient: bool = False) -> str:
    """``text`` with every comment (and string / char literal, if ``strings``) replaced by spaces,
    same length. Lean ``«...»`` identifiers keep only their identifier characters.

    This is the one comment masker of the project (``ProofAssistant.mask`` is it with
    ``lenient``). Raises ``ParseError`` for an unterminated comment or string unless
    ``lenient`` (model output), where it is blanked to the end of the text."""
    parts: list[str] = []
    for seg in segments(text, language, lenient):
        chunk = text[seg.start : seg.end]
        if seg.kind == "comment" or (strings and seg.kind in ("string", "char")):
            parts.append(_blank(chunk))
        elif seg.kind == "code" and language == "lean" and "«" in chunk:
            parts.append(_blank_guillemets(chunk))
        else:
            parts.append(chunk)
    return "".join(parts)


def _skip_block_comment(text: str, i: int, language: Language, lenient: bool = False) -> int:
    open_c, close_c = ("/-", "-/") if language == "lean" else ("(*", "*)")
    depth, j, n = 0, i, len(text)
    while j < n:
        if text.startswith(open_c, j):
            depth += 1
            j += 2
        elif text.startswith(close_c, j):
            depth -= 1
            j += 2
            if depth == 0:
                return j
        elif language == "rocq" and text[j] == '"':
            j = _skip_string(text, j, language, lenient)
        else:
            j += 1
    if lenient:
        return n
    raise ParseError(f"unterminated comment starting at line {line_of(text, i)}")


def _skip_string(text: str, i: int, language: Language, lenient: bool = False) -> int:
    j, n = i + 1, len(text)
    while j < n:
        c = text[j]
        if language == "lean" and c == "\\":
            j += 2
            continue
        if c == '"':
            if language == "rocq" and text.startswith('""', j):
                j += 2
                continue
            return j + 1
        j += 1
    if lenient:
        return n
    raise ParseError(f"unterminated string starting at line {line_of(text, i)}")


def strip_comments(text: str, language: Language) -> str:
    """``text`` with comments replaced by one space each; strings and char literals are kept."""
    return "".join(" " if s.kind == "comment" else text[s.start : s.end] for s in segments(text, language))


def normalize(text: str, language: Language) -> str:
    """Comments removed, whitespace runs collapsed to one space, ends stripped."""
    return re.sub(r"\s+", " ", strip_comments(text, language)).strip()
