"""Split a Lean 4 or Rocq source file into header, preamble, target theorem and proof body.

``parse_source(text, language, theorem=None) -> SourceFile``. The split is purely lexical:
comments and strings are masked first (``mask``), then declarations are found on the
masked text, so text inside comments or strings never starts or ends anything.

Lean 4:
- comments ``--`` to end of line and nested ``/- ... -/`` (doc comments included); strings
  ``"..."`` with backslash escapes; character literals such as ``'"'`` where Lean's tokenizer
  starts one (a ``'`` after an identifier continues it; after a number such as ``1'"'``, a
  symbol or ``»`` it starts a char); ``«...»`` escaped names are opaque (nothing inside starts
  a comment or string) and ``mask`` keeps only their identifier characters.
- a command starts at column 0 (the convention of every benchmark file); the target's body
  runs from after its top-level ``:=`` up to the next column-0 command or the end.
- header: the leading ``import`` lines plus the ``open``/``set_option``/``universe``
  commands (without ``in``) that directly follow them.
- theorem-like declarations: ``theorem``, ``lemma``, ``example`` (the name of an example is ""),
  and compfiles' ``problem``; ``determine`` (compfiles' ``abbrev``), ``snip``, ``problem_file``,
  ``module`` and ``public`` start commands too.

Rocq:
- nested comments ``(* ... *)`` (strings inside comments are lexed as Rocq does), strings
  ``"..."`` with ``""`` as the escaped quote.
- sentences end at a ``.`` or ``...`` (``tac...``) followed by whitespace or the end of the
  file (``..`` does not end one), as coqc's lexer does.
- header: the leading ``Require``/``From ... Require``/``Import``/``Export``/``Open Scope``/
  ``Local Open Scope``/``Set``/``Unset``/``Declare Scope``/``Delimit Scope`` sentences.
- theorem-like: ``Theorem Lemma Fact Remark Corollary Proposition Property Example``.
  The statement is the declaration sentence after the name, up to its final ``.``; the
  proof lies between ``Proof.`` (or ``Proof using ...``/``Proof with ...``) and the
  terminator ``Qed.``/``Defined.``/``Admitted.``/``Abort.``/``Save ...`` (``terminator``);
  a file that stops after ``Proof.`` has an empty proof and terminator "".

Not covered: Lean commands indented away from column 0, Lean equation-compiler bodies
without ``:=`` (``theorem f : P | 0 => ...``) raise ``ParseError``; Rocq theorems whose
proof is given as ``:= term`` in the statement sentence keep that term inside ``statement``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

Language = Literal["lean", "rocq"]


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
            shifted = self.model_copy(
                update={
                    "text": text[: self.decl_start] + extra + text[self.decl_start :],
                    **{
                        k: getattr(self, k) + len(extra)
                        for k in (
                            "decl_start",
                            "statement_start",
                            "statement_end",
                            "proof_start",
                            "proof_end",
                            "decl_end",
                        )
                    },
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


# --- lexing ------------------------------------------------------------------------------


def _blank(chunk: str) -> str:
    return "".join(c if c == "\n" else " " for c in chunk)


_IDENT_CHAR = re.compile(r"[\w'.!?₀-₉ᵢ-ᵪ]")


def _lean_letter_like(c: str) -> bool:
    """Lean 4's ``isLetterLike`` (Greek but λ/Π/Σ, Coptic, letter-like block, math alphanumerics)."""
    v = ord(c)
    return (
        (0x3B1 <= v <= 0x3C9 and v != 0x3BB)
        or (0x391 <= v <= 0x3A9 and v not in (0x3A0, 0x3A3))
        or 0x3CA <= v <= 0x3FB
        or 0x1F00 <= v <= 0x1FFE
        or 0x2100 <= v <= 0x214F
        or 0x1D49C <= v <= 0x1D59F
    )


def _lean_id_first(c: str) -> bool:
    return (c.isascii() and c.isalpha()) or c == "_" or _lean_letter_like(c)


def _lean_id_rest(c: str) -> bool:
    v = ord(c)
    return (
        (c.isascii() and c.isalnum())
        or c in "_'!?"
        or _lean_letter_like(c)
        or 0x2080 <= v <= 0x2089  # subscript digits
        or 0x2090 <= v <= 0x209C
        or 0x1D62 <= v <= 0x1D6A
    )


_LEAN_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|[0-9]+(?:[eE][-+]?[0-9]+)?")


_LEAN_CHAR_LIT = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|[^\n])|[^\\'\n])'")


def _segments(text: str, language: Language, lenient: bool = False) -> list[tuple[int, int, str]]:
    """Lex ``text`` into (start, end, kind) with kind ``code``/``comment``/``string``/``char``.

    Lean: ``--`` and nested ``/- -/`` comments, ``"..."`` strings with backslash escapes,
    character literals (a ``'`` at a token start: identifiers, their ``'``s included, and
    numbers are consumed whole, as Lean's tokenizer does), and ``«...»`` escaped identifiers, which are code but
    opaque: nothing inside them starts a comment, string or char literal (Lean reads up to ``»``).
    Rocq: nested ``(* *)`` comments (strings inside are lexed), ``"..."`` strings with ``""``.
    Raises ``ParseError`` for an unterminated comment, string or ``«``; ``lenient`` (model
    output): such a comment, string or identifier runs to the end of the text instead.
    """
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    lean = language == "lean"
    open_c = "/-" if lean else "(*"
    code_from = 0

    def emit(a: int, b: int, kind: str) -> None:
        nonlocal code_from
        if code_from < a:
            out.append((code_from, a, "code"))
        out.append((a, b, kind))
        code_from = b

    while i < n:
        c = text[i]
        if lean and text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            emit(i, j, "comment")
            i = j
        elif text.startswith(open_c, i):
            j = _skip_block_comment(text, i, language, lenient)
            emit(i, j, "comment")
            i = j
        elif c == '"':
            j = _skip_string(text, i, language, lenient)
            emit(i, j, "string")
            i = j
        elif lean and c == "«":
            j = text.find("»", i + 1)
            if j < 0 and lenient:
                j = n - 1
            elif j < 0:
                raise ParseError(f"unterminated «identifier» starting at line {_line_of(text, i)}")
            i = j + 1  # stays code
        elif lean and _lean_id_first(c):
            # a whole identifier at once (its `'`s included), so the `'` branch below only
            # ever sees a token start: after a number (`1'a'`), a symbol or `»`, as in Lean
            i += 1
            while i < n and _lean_id_rest(text[i]):
                i += 1
        elif lean and c.isascii() and c.isdigit():
            m = _LEAN_NUMBER.match(text, i)
            i = m.end() if m else i + 1
        elif lean and c == "'":
            m = _LEAN_CHAR_LIT.match(text, i)
            if m:
                emit(i, m.end(), "char")
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    if code_from < n:
        out.append((code_from, n, "code"))
    return out


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
    for a, b, kind in _segments(text, language, lenient):
        chunk = text[a:b]
        if kind == "comment" or (strings and kind in ("string", "char")):
            parts.append(_blank(chunk))
        elif kind == "code" and language == "lean" and "«" in chunk:
            parts.append(_blank_guillemets(chunk))
        else:
            parts.append(chunk)
    return "".join(parts)


def _line_of(text: str, i: int) -> int:
    return text.count("\n", 0, i) + 1


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
    raise ParseError(f"unterminated comment starting at line {_line_of(text, i)}")


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
    raise ParseError(f"unterminated string starting at line {_line_of(text, i)}")


def strip_comments(text: str, language: Language) -> str:
    """``text`` with comments replaced by one space each; strings and char literals are kept."""
    return "".join(" " if kind == "comment" else text[a:b] for a, b, kind in _segments(text, language))


def normalize(text: str, language: Language) -> str:
    """Comments removed, whitespace runs collapsed to one space, ends stripped."""
    return re.sub(r"\s+", " ", strip_comments(text, language)).strip()


# --- Lean ---------------------------------------------------------------------------------

LEAN_THEOREM_KEYWORDS = ("theorem", "lemma", "example", "problem")
"""``problem`` is compfiles' synonym of ``theorem`` (``ProblemExtraction``: it elaborates as
``theorem`` and marks the declaration the file is about)."""
_LEAN_MODIFIERS = (
    r"(?:(?:@\[[^\]]{0,2000}\]|private|protected|public|noncomputable|partial|unsafe|nonrec|scoped|local)\s+)*"
)
LEAN_COMMAND_WORDS = (  # noqa: SIM905 - one word list, kept compact
    "theorem lemma example def abbrev instance structure class inductive coinductive axiom axioms opaque "
    "namespace section end open export variable universe set_option attribute macro macro_rules syntax "
    "elab elab_rules notation infix infixl infixr prefix postfix import mutual deriving initialize "
    "builtin_initialize run_cmd run_elab run_meta declare_syntax_cat private protected noncomputable "
    "partial unsafe nonrec scoped local omit include irreducible_def add_decl_doc assert_not_exists "
    # compfiles' ProblemExtraction commands and the module system's keywords
    "problem determine snip problem_file module public "
).split()
LEAN_COMMAND_START = re.compile(
    r"^(?:@\[|#[a-zA-Z_]|(?:" + "|".join(map(re.escape, LEAN_COMMAND_WORDS)) + r")(?![\w'.!?]))",
    re.MULTILINE,
)
_LEAN_DECL = re.compile(
    r"^(?P<mods>" + _LEAN_MODIFIERS + r")(?P<kw>theorem|lemma|example|problem)(?![\w'.!?])"
    r"(?:[ \t\n]+(?P<name>«[^»]*»|[^\s(){}\[\]:⦃⦄,]+))?",
    re.MULTILINE,
)
_OPEN_BRACKETS = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "⟪": "⟫"}
_CLOSE_BRACKETS = set(_OPEN_BRACKETS.values())


def _lean_top_assign(masked: str, start: int, end: int) -> int:
    """Index of the first ``:=`` at bracket depth 0 in ``masked[start:end]``, or -1."""
    depth = 0
    pending_lets = 0
    i = start
    while i < end:
        c = masked[i]
        if c in _OPEN_BRACKETS:
            depth += 1
        elif c in _CLOSE_BRACKETS:
            depth = max(0, depth - 1)
        elif depth == 0 and c == ":" and masked.startswith(":=", i):
            if pending_lets == 0:
                return i
            pending_lets -= 1
            i += 2
            continue
        elif depth == 0 and c in "lh" and (i == 0 or not _IDENT_CHAR.match(masked[i - 1])):
            m = _LET_WORD.match(masked, i)
            if m:
                pending_lets += 1
                i = m.end()
                continue
        i += 1
    return -1


_LET_WORD = re.compile(r"(?:let|letI|have|haveI)(?![\w'.!?])")


def _lean_header_end(text: str, masked: str) -> int:
    """End offset of the import block plus directly following open/set_option/universe commands."""
    pos = 0
    cmds = list(LEAN_COMMAND_START.finditer(masked))
    for k, m in enumerate(cmds):
        nxt = cmds[k + 1].start() if k + 1 < len(cmds) else len(masked)
        chunk = masked[m.start() : nxt]
        word = re.match(r"[#@\w]+", chunk)
        w = word.group(0) if word else ""
        if w == "import" or (w in ("open", "set_option", "universe") and not re.search(r"\bin\b", chunk)):
            # header runs to the end of this command's last non-blank line
            seg_end = m.start() + len(chunk.rstrip())
            nl = text.find("\n", seg_end)
            pos = len(text) if nl < 0 else nl + 1
            continue
        break
    return pos


def _lean_decl_spans(masked: str) -> list[tuple[re.Match[str], str, int, int, int]]:
    """(match, name, statement start, end, top-level ``:=`` or -1) of each column-0 theorem-like
    declaration of masked Lean text; it ends where the next column-0 command starts."""
    cmd_starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)]
    decls = []
    for m in _LEAN_DECL.finditer(masked):
        name = m.group("name") or ""
        if m.group("kw") == "example":
            name = ""
        stmt_start = m.end() if m.group("kw") != "example" else m.start("kw") + len("example")
        k = bisect.bisect_right(cmd_starts, m.start())
        decl_end = cmd_starts[k] if k < len(cmd_starts) else len(masked)
        assign = _lean_top_assign(masked, stmt_start, decl_end)
        decls.append((m, name, stmt_start, decl_end, assign))
    return decls


def _parse_lean(text: str, theorem: str | None, strict: bool = False) -> SourceFile:
    masked = mask(text, "lean")
    decls = _lean_decl_spans(masked)
    if not decls:
        raise ParseError("no theorem found (expected a column-0 `theorem`/`lemma`/`example`/`problem` declaration)")
    chosen = _choose(
        decls,
        theorem,
        lambda d: d[1],
        lambda d: _lean_body_is_sorry(masked, d),
        strict=strict,
        is_main=lambda d: d[0].group("kw") == "problem",
    )
    m, name, stmt_start, decl_end, assign = chosen
    if assign < 0:
        raise ParseError(f"theorem {name or '(example)'} at line {_line_of(text, m.start())} has no top-level `:=`")
    proof_start = assign + 2
    while proof_start < decl_end and masked[proof_start].isspace():
        proof_start += 1
    comments_only = mask(text[:decl_end], "lean", strings=False)
    proof_end = proof_start + len(comments_only[proof_start:decl_end].rstrip())
    proof_end = max(proof_end, proof_start)
    header_end = min(_lean_header_end(text, masked), m.start())
    stmt_end = assign
    while stmt_end > stmt_start and text[stmt_end - 1] in " \t\n":
        stmt_end -= 1
    return SourceFile(
        namespace=_lean_namespace(masked[: m.start()]),
        language="lean",
        text=text,
        header=text[:header_end],
        preamble=text[header_end : m.start()],
        theorem_name=name,
        decl_keyword=m.group("kw"),
        decl_prefix=text[m.start() : stmt_start],
        statement=text[stmt_start:stmt_end].strip(),
        proof=text[proof_start:proof_end],
        decl_start=m.start(),
        statement_start=stmt_start,
        statement_end=stmt_end,
        proof_start=proof_start,
        proof_end=proof_end,
        decl_end=proof_end,
    )


_LEAN_DEF_HEAD = re.compile(
    r"^[ \t]*" + _LEAN_MODIFIERS + r"(?:abbrev|def|determine)\s+(?P<name>«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)", re.MULTILINE
)


def lean_open_definitions(sf: SourceFile) -> list[str]:
    """Names of the ``def``/``abbrev``/``determine`` declarations before the target whose body is
    ``sorry`` (an answer left open: compfiles' extracted ``determine``, PutnamBench's
    ``..._solution``). A verdict cannot judge a proof that fills one in (see ``verify``)."""
    if sf.language != "lean":
        return []
    prefix = sf.text[: sf.decl_start]
    masked = mask(prefix, "lean")
    starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)] + [len(masked)]
    out = []
    for m in _LEAN_DEF_HEAD.finditer(masked):
        k = bisect.bisect_right(starts, m.start())
        end = starts[k] if k < len(starts) else len(masked)
        assign = _lean_top_assign(masked, m.end(), end)
        if assign >= 0 and " ".join(masked[assign + 2 : end].split()) in ("sorry", "by sorry", "by exact sorry"):
            out.append(m.group("name").replace("«", "").replace("»", ""))
    return out


def _lean_namespace(masked_prefix: str) -> str:
    """Open ``namespace``s at the end of ``masked_prefix`` (sections count as unnamed scopes)."""
    stack: list[str | None] = []
    for m in re.finditer(
        r"^(namespace|section|end)(?![\w'.!?])[ \t]*([^\s]*)",
        masked_prefix,
        re.MULTILINE,
    ):
        kw, arg = m.group(1), m.group(2)
        if kw == "namespace":
            stack.append(arg)
        elif kw == "section":
            stack.append(None)
        elif stack:
            stack.pop()
    return ".".join(x for x in stack if x)


def _rocq_namespace(masked: str, sents: list[tuple[int, int]]) -> str:
    """Open ``Module``s before the target (``Section``s count as unnamed scopes)."""
    stack: list[str | None] = []
    for a, b in sents:
        m = re.match(
            r"(?:(Module)(?:\s+(?:Import|Export))?\s+(Type\s+)?([\w']+)(?![^.]*:=)[^.]*|(Section)\s+[\w']+|(End)\s+[\w']+)\s*\.$",
            masked[a:b],
        )
        if not m:
            continue
        if m.group(1):
            stack.append(None if m.group(2) else m.group(3))
        elif m.group(4):
            stack.append(None)
        elif stack:
            stack.pop()
    return ".".join(x for x in stack if x)


def _lean_body_is_sorry(masked: str, d) -> bool:
    _m, _name, _s, decl_end, assign = d
    if assign < 0:
        return False
    body = re.sub(r"\s+", " ", masked[assign + 2 : decl_end]).strip()
    return body in ("sorry", "by sorry", "by")


class AmbiguousTarget(ParseError):
    """The file does not say with certainty which declaration is the problem's theorem."""


def _names(decls, name_of) -> str:
    shown = [name_of(d) or "(example)" for d in decls[:8]]
    return ", ".join(shown) + (f", ... ({len(decls)} in all)" if len(decls) > 8 else "")


def _choose(decls, theorem, name_of, is_open, *, strict: bool = False, is_main=None):
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
        return (open_ones or decls)[-1]
    mains = [d for d in decls if is_main is not None and is_main(d)]
    for pool, what in ((mains, "compfiles `problem` declarations"), (open_ones, "unproved declarations"), (decls, "declarations")):
        if len(pool) == 1:
            return pool[0]
        if len(pool) > 1:
            raise AmbiguousTarget(
                f"cannot tell with certainty which theorem is the problem's: {len(pool)} {what} "
                f"({_names(pool, name_of)}); name it (prover-check --theorem NAME)"
            )
    raise ParseError("no theorem found")


# --- Rocq ---------------------------------------------------------------------------------

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


def rocq_sentences(masked: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence in masked text; ``end`` is just past its final ``.``/``...``.

    Bullets and braces are not split off; leading whitespace is excluded from ``start``.
    """
    out: list[tuple[int, int]] = []
    pos = 0
    for m in re.finditer(r"(?<!\.)\.+(?=\s|$)", masked):
        if m.end() - m.start() == 2:
            continue  # `..` (recursive-notation token) does not end a sentence
        # `.` ends a sentence, and so does `...` (``tac...`` = ``tac; <Proof with tactic>``):
        # coqc accepts ``exact I...`` followed by a new sentence, so `...` must split here too.
        seg = masked[pos : m.end()]
        lead = len(seg) - len(seg.lstrip())
        out.append((pos + lead, m.end()))
        pos = m.end()
    return out


def _rocq_decl_sentences(masked: str, sents: list[tuple[int, int]]) -> list[tuple[int, re.Match[str]]]:
    """(sentence index, match) of each theorem-like declaration sentence (attributes such as
    ``#[local]`` and ``Local``/``Program``... prefixes included)."""
    decls = []
    for k, (s, e) in enumerate(sents):
        m = _ROCQ_DECL.match(masked, s)
        if m is None or m.end() > e:
            continue
        decls.append((k, m))
    return decls


def _parse_rocq(text: str, theorem: str | None, strict: bool = False) -> SourceFile:
    masked = mask(text, "rocq")
    sents = rocq_sentences(masked)
    decls = _rocq_decl_sentences(masked, sents)
    if not decls:
        raise ParseError("no theorem found (expected `Theorem`/`Lemma`/... NAME ... `.`)")

    def term_of(d):
        return _ROCQ_TERMINATOR.search(masked, sents[d[0]][1])

    decl_index = {d[0]: i for i, d in enumerate(decls)}

    def is_open(d):
        t = term_of(d)
        k, _m = d
        i = decl_index[k]
        if t is None:
            return True
        if i + 1 < len(decls) and t.start() > sents[decls[i + 1][0]][0]:
            return True  # the next declaration starts before any terminator
        return t.group("t") == "Admitted"

    k, m = _choose(decls, theorem, lambda d: d[1].group("name"), is_open, strict=strict)
    _s, e = sents[k]
    name = m.group("name")
    stmt_start, stmt_end = m.end(), e - 1
    after = e
    body_from = after + len(masked[after:]) - len(masked[after:].lstrip())
    proof_match = _ROCQ_PROOF.match(masked, body_from)
    if proof_match:
        proof_start = proof_match.end()
    else:
        proof_start = e
    t = _ROCQ_TERMINATOR.search(masked, proof_start)
    later = decls[decl_index[k] + 1 :]
    if t is not None and later and t.start() > sents[later[0][0]][0]:
        t = None
    if t is None:
        nxt_start = sents[later[0][0]][0] if later else len(text)
        body = masked[proof_start:nxt_start].rstrip()
        proof_end = proof_start + len(body)
        decl_end = proof_end
        terminator = ""
    else:
        proof_end = t.start()
        decl_end = t.end()
        terminator = re.sub(r"\s+", " ", text[t.start() : t.end()]).replace(" .", ".")
    header_end = 0
    for s2, e2 in sents:
        if s2 >= m.start() or not _ROCQ_HEADER.match(masked, s2):
            break
        header_end = e2
    if header_end:
        nl = text.find("\n", header_end)
        if nl >= 0 and not masked[header_end:nl].strip():
            header_end = nl + 1
    decl_start = m.start()
    return SourceFile(
        namespace=_rocq_namespace(masked, [se for se in sents if se[1] <= decl_start]),
        language="rocq",
        text=text,
        header=text[:header_end],
        preamble=text[header_end:decl_start],
        theorem_name=name,
        decl_keyword=m.group("kw"),
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


def parse_source(text: str, language: Language, theorem: str | None = None, *, strict: bool = False) -> SourceFile:
    """Split ``text``; ``theorem`` selects a declaration by name.

    Default target: the last theorem-like declaration whose body is a placeholder
    (Lean ``sorry``; Rocq ``Admitted.`` or no terminator), else the last one. ``strict`` (what
    the verdict uses for a problem file): only a certain target - the file's one compfiles
    ``problem``, else its one placeholder declaration, else its one declaration; otherwise
    ``AmbiguousTarget`` (a ``ParseError``) naming the candidates, never a guess.
    Raises ``ParseError`` with a one-line message.
    """
    if language == "lean":
        return _parse_lean(text, theorem, strict)
    if language == "rocq":
        return _parse_rocq(text, theorem, strict)
    raise ParseError(f"unknown language {language!r} (expected 'lean' or 'rocq')")


# --- every declaration of a text (model output, sketches) ---------------------------------


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


def declarations(text: str, language: Language) -> list[Declaration]:
    """Every theorem-like declaration of ``text`` in order, read with ``parse_source``'s rules
    (same keywords, attributes and sentence ends). Lenient, for model output: comments or
    strings left open run to the end; a Rocq declaration without a terminator runs up to the
    next declaration; a Lean one without a top-level ``:=`` is skipped."""
    masked = mask(text, language, lenient=True)
    out: list[Declaration] = []
    if language == "lean":
        for m, name, _stmt, stop, assign in _lean_decl_spans(masked):
            if assign < 0:
                continue
            proof = re.sub(r"^\s*by\b", "", text[assign + 2 : stop], count=1).strip("\n")
            end = len(text[:stop].rstrip())
            decl = text[m.start() : assign].rstrip()
            out.append(Declaration(m.group("kw"), name, m.start(), assign, end, decl, proof.rstrip()))
        return out
    sents = rocq_sentences(masked)
    found = _rocq_decl_sentences(masked, sents)
    for i, (k, m) in enumerate(found):
        decl_end = sents[k][1]
        nxt = sents[found[i + 1][0]][0] if i + 1 < len(found) else len(text)
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
        out.append(Declaration(m.group("kw"), m.group("name"), m.start(), decl_end, end, text[m.start() : decl_end], proof.strip("\n")))
    return out


def declaration_names(text: str, language: Language) -> list[str]:
    """Names of every theorem-like declaration of ``text`` in order, with or without a proof
    (``declarations`` keeps only those it can split); a Lean ``example`` is left out."""
    masked = mask(text, language, lenient=True)
    if language == "lean":
        return [name for _m, name, *_rest in _lean_decl_spans(masked) if name]
    return [m.group("name") for _k, m in _rocq_decl_sentences(masked, rocq_sentences(masked))]
