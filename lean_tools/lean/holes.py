"""The holes of a Lean 4 file: every ``sorry`` a user left in a declaration's body, in file order.

A hole is one ``sorry`` token after the body start of a ``theorem``/``lemma``/``example``/
``instance``/``def``/``abbrev`` (or compfiles' ``problem``). The body starts after the top-level
``:=``, after a top-level ``where`` (structure-instance notation), or at the first line-leading
``|`` of an equation-compiler body. Found on masked text (``lean_tools.source.mask``): a
``sorry`` in a comment, a string or a longer identifier (``sorryAx``, ``h.sorry``) is none.

- ``kind="body"``: the whole body is ``sorry`` or ``by sorry``; ``fill`` replaces the body.
- ``kind="sorry"``: one ``sorry`` inside a longer body; ``fill`` replaces that token only.
- ``position``: ``tactic`` or ``term``, guessed lexically (``_position``): a ``sorry`` right after
  ``by``, ``·``, ``<;>``, ``;``, a tactic combinator, a ``case``/``|`` alternative's ``=>``, or
  first on its line, inside a ``by`` block with no bracket opened since, is a tactic; anything
  else is a term. A wrong guess gives a file that does not compile, never a false proof.

Each hole knows the ``namespace``s and ``section``s open at it (``scopes``; ``namespace A.B``
opens two, as in Lean) and the ``variable`` commands in effect (``variables``: those of the
enclosing scopes and the file level, plus a ``variable ... in`` right before the declaration).
``qualified`` is the name as Lean records it (namespaces prefix it; ``_root_.`` removes them).

Commands start at column 0 (as in ``lean_tools.lean.parser``) or, for declaration and scope
keywords (``theorem``, ``namespace``, ``end``, ``variable``...), at the start of any line.
Not covered: ``sorry`` in a statement (before the body), ``include``/``omit`` of variables,
``open`` scopes, declarations produced by macros.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..source import line_of, mask
from .parser import LEAN_COMMAND_START, lean_top_assign

DECL_KEYWORDS = ("theorem", "lemma", "example", "instance", "def", "abbrev", "problem")
DEFINITION_KEYWORDS = ("instance", "def", "abbrev")
_END = r"(?![\w'.!?])"
_MODIFIERS = r"(?:(?:@\[[^\]]*\]|private|protected|public|noncomputable|partial|unsafe|nonrec|scoped|local)\s+)*"
_LINE_START_WORDS = (*DECL_KEYWORDS, "namespace", "section", "end", "variable", "mutual", "noncomputable", "private", "protected")
_LINE_START = re.compile(r"^[ \t]+(?:@\[|(?:" + "|".join(_LINE_START_WORDS) + r")" + _END + ")", re.MULTILINE)
_DECL = re.compile(r"[ \t]*(?P<mods>" + _MODIFIERS + r")(?P<kw>" + "|".join(DECL_KEYWORDS) + r")" + _END)
_NAME = re.compile(r"\s*(?P<name>«[^»]*»|[^\s(){}\[\]:⦃⦄,«]+)")
_PRIORITY = re.compile(r"\s*\(\s*priority\s*:=[^)]*\)")
_NAMESPACE = re.compile(r"[ \t]*namespace\s+(?P<name>[^\s]+)")
_SECTION = re.compile(r"[ \t]*(?:(?:@\[[^\]]*\]|noncomputable|public|private)\s+)*section" + _END + r"[ \t]*(?P<name>[^\s]*)")
_SCOPE_END = re.compile(r"[ \t]*end" + _END + r"[ \t]*(?P<name>[^\s]*)")
_MUTUAL = re.compile(r"[ \t]*mutual" + _END)
_VARIABLE = re.compile(r"[ \t]*variable" + _END)
_TRAILING_IN = re.compile(r"\s+in\s*\Z")
_IN_PREFIX = re.compile(r"[ \t]*(?P<cmd>(?P<kw>set_option|open|variable|omit|include)" + _END + r"[^\n]*?)\s+in" + _END + r"\s*")
"""One ``X ... in`` prefix written on one line (``set_option maxRecDepth 1000 in theorem ...``)."""
_SORRY = re.compile(r"(?<![\w'.!?«])sorry(?![\w'.!?»])")
_WHERE = re.compile(r"(?<![\w'.!?])where" + _END)
_TOKEN = re.compile(r"[\w'!?]+(?:\.[\w'!?]+)*|<;>|=>|:=|<\||\S")
_OPEN, _CLOSE = set("([{⦃⟨⟪"), set(")]}⦄⟩⟫")
_BY_WORDS = ("by", "decreasing_by")
_TACTIC_BEFORE = {*_BY_WORDS, "·", ".", "<;>", ";", "then", "else", "try", "repeat", "all_goals", "any_goals", "focus", "first", "|"}
_TERM_BEFORE = {":=", "exact", "from", "apply", "refine", "refine'", "use", "exists", "show", "calc", "$", "<|", "fun", "λ", "←", ",", ":"}


class Scope(BaseModel):
    """A ``namespace`` component, a ``section`` (named or not) or a ``mutual`` block open at a hole."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["namespace", "section", "mutual"]
    name: str = ""


class Hole(BaseModel):
    """One ``sorry``. Offsets are ``[start, end)`` into the text the hole was found in."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    """As written after the keyword; "" for an ``example`` or an anonymous ``instance``."""
    keyword: str
    kind: Literal["body", "sorry"]
    position: Literal["tactic", "term"]
    scopes: tuple[Scope, ...] = ()
    variables: tuple[str, ...] = ()
    """The ``variable`` commands in effect, as written (a trailing ``in`` dropped), outermost first."""
    decl_start: int
    """Start of the declaration's command: its modifiers and one-line ``X ... in`` prefixes
    included (an attribute on a line of its own is a command before it)."""
    decl_end: int
    """End of the declaration's text (trailing blank lines and comments excluded)."""
    body_start: int
    """First character of the body (after ``:=`` or ``where`` and the blanks after it)."""
    sorry_start: int
    sorry_end: int
    line: int
    """1-based line of the ``sorry``."""
    decl_line: int
    """1-based line of the declaration (names a nameless one in ``label``)."""
    index: int = 0
    """Which ``sorry`` of the declaration this is (0-based)."""
    count: int = 1
    """How many ``sorry`` tokens the declaration's body has."""

    @property
    def qualified(self) -> str:
        """The full name: the open namespaces, then the name (``_root_.x`` is ``x``)."""
        if self.name.startswith("_root_."):
            return self.name[len("_root_.") :]
        return ".".join([*(s.name for s in self.scopes if s.kind == "namespace"), self.name])

    @property
    def is_definition(self) -> bool:
        """A ``def``/``abbrev``/``instance``: a whole-body ``sorry`` there is a value left to
        choose (an answer), not a proof (see ``lean_tools.lean.parser.lean_open_definitions``)."""
        return self.keyword in DEFINITION_KEYWORDS

    @property
    def label(self) -> str:
        """How messages name the hole: the qualified name (``keyword@line`` when the declaration
        has none), with ``#sorryK`` for the K-th of several."""
        base = self.qualified if self.name else f"{self.keyword}@{self.decl_line}"
        return base if self.count == 1 else f"{base}#sorry{self.index + 1}"


@dataclass
class _Frame:
    """One open scope (None: the file level) and the ``variable`` commands declared directly in it."""

    scope: Scope | None
    variables: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Head:
    """A declaration's name ("" when it has none) and where its statement starts."""

    name: str
    stmt_start: int


@dataclass(frozen=True)
class _Body:
    """Where a body starts and what opened it: ``:=``, ``where`` or an equation's ``|``."""

    start: int
    via: Literal[":=", "where", "|"]


def command_starts(masked: str) -> list[int]:
    """Where each command of masked Lean text starts: column-0 commands and line-leading
    declaration or scope keywords."""
    starts = {m.start() for m in LEAN_COMMAND_START.finditer(masked)}
    starts |= {m.start() for m in _LINE_START.finditer(masked)}
    return sorted(starts)


def find_holes(text: str) -> list[Hole]:
    """Every hole of ``text`` in file order (see the module docstring). Raises
    ``lean_tools.source.ParseError`` for an unterminated comment or string."""
    masked = mask(text, "lean")
    starts = command_starts(masked)
    frames: list[_Frame] = [_Frame(scope=None)]
    pending: list[str] = []  # ``variable ... in`` for the next command only
    holes: list[Hole] = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(masked)
        end = start + len(masked[start:stop].rstrip())
        chunk = masked[start:end]
        pos = 0
        while (p := _IN_PREFIX.match(chunk, pos)) is not None:
            if p.group("kw") == "variable":
                pending.append(text[start + p.start("cmd") : start + p.end("cmd")])
            pos = p.end()
        if pos == len(chunk):
            continue  # only ``X ... in`` prefixes: they apply to the next command
        if pos == 0 and _VARIABLE.match(chunk):
            written = text[start:end].strip()
            if _TRAILING_IN.search(chunk):
                pending.append(_TRAILING_IN.sub("", written))
            else:
                frames[-1].variables.append(written)
            continue
        in_effect = tuple(v for f in frames for v in f.variables) + tuple(pending)
        pending = []
        if pos == 0 and _scope_change(chunk, frames):
            continue
        m = _DECL.match(chunk, pos)
        if m is not None:
            scopes = tuple(f.scope for f in frames if f.scope is not None)
            holes += _holes_of(text, masked, start, end, m, scopes, in_effect)
    return holes


def _scope_change(chunk: str, frames: list[_Frame]) -> bool:
    """Apply a ``namespace``/``section``/``mutual``/``end`` command to ``frames``; True when it was one."""
    m = _NAMESPACE.match(chunk)
    if m:
        frames += [_Frame(scope=Scope(kind="namespace", name=part)) for part in m.group("name").split(".")]
        return True
    m = _SECTION.match(chunk)
    if m:
        frames.append(_Frame(scope=Scope(kind="section", name=m.group("name"))))
        return True
    if _MUTUAL.match(chunk):
        frames.append(_Frame(scope=Scope(kind="mutual")))
        return True
    m = _SCOPE_END.match(chunk)
    if not m:
        return False
    name = m.group("name")
    open_scopes = [f.scope for f in frames[1:] if f.scope is not None]
    if open_scopes and open_scopes[-1].kind != "namespace" and open_scopes[-1].name == name:
        del frames[-1]  # a section (named or not) or a mutual block
        return True
    parts = name.split(".") if name else []
    tail = open_scopes[-len(parts) :] if parts else []
    if parts and len(tail) == len(parts) and all(s.kind == "namespace" and s.name == p for s, p in zip(tail, parts)):
        del frames[-len(parts) :]
    return True  # an ``end`` that matches nothing is Lean's error to report


def _decl_head(masked: str, text: str, pos: int, keyword: str) -> _Head:
    """The declared name after the keyword ending at ``pos``, and where the statement starts."""
    if keyword == "example":
        return _Head("", pos)
    if keyword == "instance":
        prio = _PRIORITY.match(masked, pos)
        pos = prio.end() if prio else pos
    m = _NAME.match(masked, pos)
    if m is None or (keyword == "instance" and not re.match(r"[«\w]", m.group("name"))):
        return _Head("", pos)
    return _Head(text[m.start("name") : m.end("name")], m.end())


_BODY_OPENERS = re.compile(r"[(\[{⦃⟨⟪)\]}⦄⟩⟫]|" + _WHERE.pattern + r"|\n[ \t]*\|(?!\|)(?=[^\n]*=>)")
"""Brackets (for the depth), ``where``, and a line-leading ``|`` of an equation (``| p => e``;
a ``|x|`` starting a statement line has no ``=>``)."""


def find_body(masked: str, stmt_start: int, end: int) -> _Body | None:
    """Where the body of the declaration whose statement starts at ``stmt_start`` begins: after a
    top-level ``where`` or at a line-leading equation ``|`` found before the top-level ``:=``,
    else after that ``:=``; blanks skipped. None when there is no body."""
    assign = lean_top_assign(masked, stmt_start, end)
    depth = 0
    found: _Body | None = None
    for m in _BODY_OPENERS.finditer(masked, stmt_start, assign if assign >= 0 else end):
        tok = m.group(0)
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            found = _Body(m.end(), "where") if tok == "where" else _Body(m.end() - 1, "|")
            break
    if found is None and assign >= 0:
        found = _Body(assign + 2, ":=")
    if found is None:
        return None
    start = found.start
    while start < end and masked[start].isspace():
        start += 1
    return _Body(start, found.via)


def _holes_of(
    text: str, masked: str, start: int, end: int, m: re.Match[str], scopes: tuple[Scope, ...], variables: tuple[str, ...]
) -> list[Hole]:
    """The holes of the declaration ``masked[start:end]`` whose head ``m`` matched at ``start``."""
    keyword = m.group("kw")
    head = _decl_head(masked, text, start + m.end(), keyword)
    found = find_body(masked, head.stmt_start, end)
    if found is None:
        return []
    body = found.start
    sorries = list(_SORRY.finditer(masked, body, end))
    whole = found.via == ":=" and " ".join(masked[body:end].split()) in ("sorry", "by sorry")
    decl_line = line_of(text, start)
    out = []
    for i, s in enumerate(sorries):
        out.append(
            Hole(
                name=head.name,
                keyword=keyword,
                kind="body" if whole else "sorry",
                position=_position(masked, body, s.start()),
                scopes=scopes,
                variables=variables,
                decl_start=start,
                decl_end=end,
                body_start=body,
                sorry_start=s.start(),
                sorry_end=s.end(),
                line=line_of(text, s.start()),
                decl_line=decl_line,
                index=i,
                count=len(sorries),
            )
        )
    return out


def _position(masked: str, body: int, at: int) -> Literal["tactic", "term"]:
    """Tactic or term position of the ``sorry`` at ``at`` in a body starting at ``body`` (see the
    module docstring for the rules)."""
    tokens = list(_TOKEN.finditer(masked, body, at))
    depth = 0
    by_depths: list[int] = []
    for t in tokens:
        tok = t.group(0)
        if tok in _OPEN:
            depth += 1
        elif tok in _CLOSE:
            depth = max(0, depth - 1)
            while by_depths and by_depths[-1] > depth:
                by_depths.pop()
        elif tok in _BY_WORDS:
            by_depths.append(depth)
        elif tok == "," and by_depths and by_depths[-1] == depth:
            by_depths.pop()  # ``⟨by simp, sorry⟩``: the comma ends the tactic block
    if not tokens or not by_depths or by_depths[-1] != depth:
        return "term"
    prev = tokens[-1]
    if prev.group(0) == "=>":
        line_start = masked.rfind("\n", 0, prev.start()) + 1
        words = [w.group(0) for w in _TOKEN.finditer(masked, line_start, prev.start())]
        last_alt = max((i for i, w in enumerate(words) if w in ("|", "case", "next")), default=-1)
        return "term" if any(w in ("fun", "λ") for w in words[last_alt + 1 :]) else "tactic"
    if prev.group(0) in _TACTIC_BEFORE:
        return "tactic"
    first_on_line = "\n" in masked[prev.end() : at]
    return "tactic" if first_on_line and prev.group(0) not in _TERM_BEFORE else "term"


def closers(scopes: tuple[Scope, ...]) -> str:
    """The ``end`` commands that close ``scopes``, innermost first (a file cut after a hole's
    declaration plus these is a whole file again)."""
    return "".join(f"end {s.name}\n".replace(" \n", "\n") for s in reversed(scopes))


def _by_script(proof: str) -> str | None:
    """The tactic script of a ``by ...`` proof (dedented), or None for a term."""
    m = re.match(r"by(?![\w'.!?])[ \t]*\n?", proof)
    return textwrap.dedent(proof[m.end() :]).strip("\n") if m else None


def _indent_rest(block: str, col: int) -> str:
    """``block`` with every line but the first indented by ``col`` spaces (blank lines left empty)."""
    first, *rest = block.split("\n")
    return "\n".join([first, *((" " * col + line) if line.strip() else "" for line in rest)])


def _column(text: str, at: int) -> int:
    """Lean's column of offset ``at``: code points since the line start."""
    return at - (text.rfind("\n", 0, at) + 1)


def replacement(text: str, hole: Hole, proof: str) -> tuple[int, str]:
    """(where the replaced span starts, the new text for it): ``fill``'s work without the splice."""
    proof = textwrap.dedent(proof).strip()
    script = _by_script(proof)
    if hole.kind == "body":
        line_start = text.rfind("\n", 0, hole.decl_start) + 1
        indent = len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))
        if script is None:
            return hole.body_start, _indent_rest(proof, indent)
        one_line = "\n" not in script
        return hole.body_start, ("by " + script if one_line else "by\n" + " " * (indent + 2) + _indent_rest(script, indent + 2))
    col = _column(text, hole.sorry_start)
    if hole.position == "tactic":
        if script is not None:
            return hole.sorry_start, _indent_rest(script, col)
        return hole.sorry_start, "exact " + _indent_rest(proof, col + 2)
    if script is not None:
        if "\n" not in script:
            return hole.sorry_start, f"(by {script})"
        return hole.sorry_start, "(by\n" + " " * (col + 2) + _indent_rest(script, col + 2) + ")"
    atom = re.fullmatch(r"[^\s()]+", proof) is not None
    return hole.sorry_start, proof if atom else "(" + _indent_rest(proof, col + 1) + ")"


def fill(text: str, hole: Hole, proof: str) -> str:
    """``text`` with ``hole`` closed by ``proof``; every byte outside the replaced span is kept.

    ``proof`` is what could follow ``:=``: a term, or ``by`` and a tactic script. A ``body`` hole's
    body becomes it; a ``sorry`` hole's token becomes it, as tactics at the token's column in
    tactic position (a term there becomes ``exact term``) or parenthesised in term position.
    Raises ``ValueError`` when ``hole`` was not found in ``text`` (offsets out of date) or
    ``proof`` is empty."""
    if text[hole.sorry_start : hole.sorry_end] != "sorry" or (
        hole.kind == "body" and " ".join(text[hole.body_start : hole.sorry_end].split()) not in ("sorry", "by sorry")
    ):
        raise ValueError(f"hole {hole.label} is not at offset {hole.sorry_start} of this text (find the holes again)")
    if not proof.strip():
        raise ValueError(f"empty proof for hole {hole.label}")
    start, new = replacement(text, hole, proof)
    return text[:start] + new + text[hole.sorry_end :]
