"""Lean 4 source parsing on masked text (``lean_tools.source.mask``): the target theorem of a
file, every theorem-like declaration, the open ``namespace``s and the answers left ``sorry``.

- a command starts at column 0 (the convention of every benchmark file); the target's body
  runs from after its top-level ``:=`` up to the next column-0 command or the end.
- header: the leading ``import`` lines plus the ``open``/``set_option``/``universe``
  commands (without ``in``) that directly follow them.
- theorem-like declarations: ``theorem``, ``lemma``, ``example`` (the name of an example is ""),
  and compfiles' ``problem``; ``determine`` (compfiles' ``abbrev``), ``snip``, ``problem_file``,
  ``module`` and ``public`` start commands too.

Not covered: commands indented away from column 0; equation-compiler bodies without ``:=``
(``theorem f : P | 0 => ...``) raise ``ParseError``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..declarations import Declaration, choose_target
from ..source import ParseError, SourceFile, line_of, mask

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
_LEAN_DEF_HEAD = re.compile(
    r"^[ \t]*" + _LEAN_MODIFIERS + r"(?:abbrev|def|determine)\s+(?P<name>«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)", re.MULTILINE
)
_OPEN_BRACKETS = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "⟪": "⟫"}
_CLOSE_BRACKETS = set(_OPEN_BRACKETS.values())
_IDENT_CHAR = re.compile(r"[\w'.!?₀-₉ᵢ-ᵪ]")
_LET_WORD = re.compile(r"(?:let|letI|have|haveI)(?![\w'.!?])")


@dataclass(frozen=True, slots=True)
class LeanDeclSpan:
    """One column-0 theorem-like declaration of masked Lean text."""

    match: re.Match[str]
    """The ``_LEAN_DECL`` match: modifiers, keyword (group ``kw``) and name."""
    name: str
    """"" for an ``example``."""
    statement_start: int
    end: int
    """Where the next column-0 command starts (or the end of the text)."""
    assign: int
    """Offset of the top-level ``:=``, or -1 when there is none."""

    @property
    def start(self) -> int:
        return self.match.start()

    @property
    def keyword(self) -> str:
        return self.match.group("kw")


def lean_top_assign(masked: str, start: int, end: int) -> int:
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


def lean_decl_spans(masked: str) -> list[LeanDeclSpan]:
    """Each column-0 theorem-like declaration of masked Lean text; it ends where the next
    column-0 command starts."""
    cmd_starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)]
    decls = []
    for m in _LEAN_DECL.finditer(masked):
        name = m.group("name") or ""
        if m.group("kw") == "example":
            name = ""
        stmt_start = m.end() if m.group("kw") != "example" else m.start("kw") + len("example")
        k = bisect.bisect_right(cmd_starts, m.start())
        decl_end = cmd_starts[k] if k < len(cmd_starts) else len(masked)
        assign = lean_top_assign(masked, stmt_start, decl_end)
        decls.append(LeanDeclSpan(m, name, stmt_start, decl_end, assign))
    return decls


def _body_is_sorry(masked: str, d: LeanDeclSpan) -> bool:
    if d.assign < 0:
        return False
    body = re.sub(r"\s+", " ", masked[d.assign + 2 : d.end]).strip()
    return body in ("sorry", "by sorry", "by")


def parse(text: str, theorem: str | None = None, *, strict: bool = False) -> SourceFile:
    """``lean_tools.parsing.parse_source`` for Lean 4 (raises ``ParseError``)."""
    masked = mask(text, "lean")
    decls = lean_decl_spans(masked)
    if not decls:
        raise ParseError("no theorem found (expected a column-0 `theorem`/`lemma`/`example`/`problem` declaration)")
    d = choose_target(
        decls,
        theorem,
        lambda d: d.name,
        lambda d: _body_is_sorry(masked, d),
        strict=strict,
        is_main=lambda d: d.keyword == "problem",
    )
    if d.assign < 0:
        raise ParseError(f"theorem {d.name or '(example)'} at line {line_of(text, d.start)} has no top-level `:=`")
    proof_start = d.assign + 2
    while proof_start < d.end and masked[proof_start].isspace():
        proof_start += 1
    comments_only = mask(text[: d.end], "lean", strings=False)
    proof_end = proof_start + len(comments_only[proof_start : d.end].rstrip())
    proof_end = max(proof_end, proof_start)
    header_end = min(_lean_header_end(text, masked), d.start)
    stmt_end = d.assign
    while stmt_end > d.statement_start and text[stmt_end - 1] in " \t\n":
        stmt_end -= 1
    return SourceFile(
        namespace=lean_namespace(masked[: d.start]),
        language="lean",
        text=text,
        header=text[:header_end],
        preamble=text[header_end : d.start],
        theorem_name=d.name,
        decl_keyword=d.keyword,
        decl_prefix=text[d.start : d.statement_start],
        statement=text[d.statement_start : stmt_end].strip(),
        proof=text[proof_start:proof_end],
        decl_start=d.start,
        statement_start=d.statement_start,
        statement_end=stmt_end,
        proof_start=proof_start,
        proof_end=proof_end,
        decl_end=proof_end,
    )


def lean_open_definitions(sf: SourceFile) -> list[str]:
    """Names of the ``def``/``abbrev``/``determine`` declarations before the target whose body is
    ``sorry`` (an answer left open: compfiles' extracted ``determine``, PutnamBench's
    ``..._solution``). A verdict cannot judge a proof that fills one in (see ``verify``).
    [] for a Rocq file (Rocq has no such answers)."""
    if sf.language != "lean":
        return []
    prefix = sf.text[: sf.decl_start]
    masked = mask(prefix, "lean")
    starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)] + [len(masked)]
    out = []
    for m in _LEAN_DEF_HEAD.finditer(masked):
        k = bisect.bisect_right(starts, m.start())
        end = starts[k] if k < len(starts) else len(masked)
        assign = lean_top_assign(masked, m.end(), end)
        if assign >= 0 and " ".join(masked[assign + 2 : end].split()) in ("sorry", "by sorry", "by exact sorry"):
            out.append(m.group("name").replace("«", "").replace("»", ""))
    return out


def lean_namespace(masked_prefix: str) -> str:
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


def declarations(text: str) -> list[Declaration]:
    """Every theorem-like declaration of Lean ``text`` in order (``lean_tools.parsing.declarations``);
    one without a top-level ``:=`` is skipped."""
    masked = mask(text, "lean", lenient=True)
    out: list[Declaration] = []
    for d in lean_decl_spans(masked):
        if d.assign < 0:
            continue
        proof = re.sub(r"^\s*by\b", "", text[d.assign + 2 : d.end], count=1).strip("\n")
        end = len(text[: d.end].rstrip())
        decl = text[d.start : d.assign].rstrip()
        out.append(Declaration(d.keyword, d.name, d.start, d.assign, end, decl, proof.rstrip()))
    return out


def declaration_names(text: str) -> list[str]:
    """``lean_tools.parsing.declaration_names`` for Lean 4 (an ``example`` is left out)."""
    return [d.name for d in lean_decl_spans(mask(text, "lean", lenient=True)) if d.name]
