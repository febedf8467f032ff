"""What Lean helper text may hold besides declarations: a pure pass before the word rules.

``structure(masked, offset) -> (blanked, findings)`` walks the column-0 commands of masked helper
text (comments and strings already blanked). Each construct below is allowed for the reason
given; an allowed occurrence is replaced by spaces (same length, so lines keep their numbers) and
what is left goes to the word rules of ``screens`` (which still reject every other command).

Allowed, and why it cannot touch the problem's statement:
- ``open A B in`` / ``set_option NAME V in`` (safe ``NAME``) before a helper: ``in`` scopes the
  modifier to the one next command, which must be a helper declaration of the same run (a
  modifier left dangling at the end of a run would apply to the problem's next command or to
  the theorem: rejected; a syntax/elaborator command after it, ``KERNEL_COMMANDS``, is left to
  the word rules, which mark it as needing Lean). Opening ``IO`` is rejected; opening ``Lean``
  (metaprogramming) needs Lean (``Finding.kernel``). ``nonrec`` counts as a declaration modifier.
- ``section [N]`` / ``noncomputable section [N]`` / ``namespace N`` closed by a matching ``end``
  in the same run (also the module system's ``public section``, ``@[expose] public section``,
  ``public noncomputable section``: ``public``/``@[expose]`` only decide what importing modules
  see, so the block is scoped like any section): Lean scopes ``variable``, ``open``, ``universe`` and local attributes to the
  enclosing section or namespace, so everything inside ends at ``end``, before the problem's next
  command or theorem. Unclosed scopes and an ``end`` that closes a scope of the problem's are
  rejected.
- ``variable``, ``open`` (without ``in``), ``universe``, ``include``/``omit`` (which section
  variables later helpers take), ``attribute [local ...]``: only INSIDE such a helper scope (at
  the top level of the helpers they would reach the theorem: a ``variable`` whose instance binder
  is included, a scoped notation opened, a local instance).
- ``set_option NAME V`` without ``in``, anywhere: only options that cannot change what a statement
  means (``SAFE_OPTION``): resource limits (``maxHeartbeats``, ``maxRecDepth``,
  ``synthInstance.maxHeartbeats``, ``synthInstance.maxSize``; a limit can only make elaboration
  fail, and Lean's own statement check runs under the problem's options), and options that only
  print or warn (``linter.*``, ``pp.*``, ``trace.*``, ``profiler``). ``autoImplicit``,
  ``debug.*``, ``maxSynthPendingDepth`` and every option not named stay rejected.
- ``attribute [simp] n`` (and the other ``TRUST_NEUTRAL_ATTRIBUTES``): these only feed proof
  automation (simp sets, casts, congruence, inlining hints); they never make a term elaborate
  differently in a statement, and the proof still goes through the kernel.
- read-only commands ``#check``, ``#print`` (``#print axioms`` included), ``#reduce``, ``#synth``:
  they print and change nothing (``#eval``, ``#exit`` and the other ``#`` commands stay rejected:
  ``#eval`` runs code).
- compfiles' ``snip begin`` / ``snip end``: markers for ProblemExtraction, no effect on the
  environment.
``own_axiom_report``: the one read-only command that stays a rejection inside a proof body.
Not covered: the constructs are recognised at the start of column-0 commands only; anything
else keeps its keyword and the word rules reject it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ..source import mask
from .verdict import Finding

SAFE_OPTION = re.compile(
    r"(?:(?:maxHeartbeats|maxRecDepth|synthInstance\.maxHeartbeats|synthInstance\.maxSize)\s+\d+"
    r"|(?:linter(?:\.[\w']+)+|pp(?:\.[\w']+)+|trace(?:\.[\w']+)+|profiler(?:\.[\w']+)*)\s+(?:true|false|\d+))"
    r"(?![\w'.])"
)
"""``NAME VALUE`` of a ``set_option`` that cannot change what a statement means (see above)."""

TRUST_NEUTRAL_ATTRIBUTES = frozenset(
    [
        "simp",
        "norm_cast",
        "push_cast",
        "reducible",
        "irreducible",
        "inline",
        "noinline",
        "specialize",
        "gcongr",
        "bound",
        "elab_as_elim",
        "nolint",
        "expose",
        "simp↓",
        "grind",
        "grind!",
    ]
)
"""Attribute names allowed on helpers (``@[...]``, ``attribute [...]``): simp sets, casts,
congruence and bound lemmas, unfolding/inlining hints, linter exemptions; proof automation only.
``simp↓`` (also ``simp ↓``) is a simp lemma used before the subterms are visited;
``grind``/``grind!`` (with ``_GRIND_MODIFIER`` words) feed the ``grind`` tactic.
``expose`` (Lean's module system, ``@[expose] def``): exports a definition's body to importing
modules; visibility only, it changes nothing in how this file elaborates."""
_GRIND_MODIFIER = re.compile(r"[=→←_.!<>-]+|cases|eager|intro|ext|inj|norm|unfold|gen|funCC|symm|up|down")
"""What may follow ``grind``/``grind!`` in an attribute (``@[grind =]``, ``@[grind! .]``,
``@[grind cases eager]``): the e-matching pattern direction and the rule kind grind uses the
lemma for. Like ``simp``, they only decide how the ``grind`` tactic searches; whatever it
finds is a proof term the kernel checks."""

_MODIFIER_IN = re.compile(
    r"(?:open(?P<names>(?:[ \t]+(?!in(?![\w'.]))(?:[^\W\d][\w'.]*|\([^()\n]{0,200}\)|→)){1,40})"
    r"|set_option[ \t]+(?P<opt>\S+[ \t]+\S+))[ \t]+in(?![\w'.!?])[ \t]*"
)
_SCOPE_OPEN = re.compile(
    r"(?:@\[\s*expose\s*\]\s*)?(?:public\s+)?(?:noncomputable\s+)?(?P<kw>section|namespace)(?![\w'.!?])[ \t]*(?P<name>[^\s]*)"
)
_SCOPE_END = re.compile(r"end(?![\w'.!?])[ \t]*(?P<name>[^\s]*)")
_SCOPED_CMD = re.compile(r"(?P<kw>variable|universe|open|include|omit)(?![\w'.!?])(?P<rest>[^\n]*)")
_SETOPT = re.compile(r"set_option\s+(?P<opt>[^\s]+\s+[^\s]+)")
_ATTR_CMD = re.compile(r"attribute\s*\[(?P<body>[^\]]{0,2000})\]")
_READONLY = re.compile(r"#(?:check|print(?:\s+axioms)?|reduce|synth)(?![\w'.!?])")
_SNIP = re.compile(r"snip\s+(?:begin|end)(?![\w'.!?])")
_DECL_START = re.compile(
    r"(?:@\[[^\]]{0,2000}\]\s*)?(?:(?:private|protected|noncomputable|public|nonrec)\s+)*(?:theorem|lemma|def|abbrev|example)(?![\w'.!?])"
)
_META_NAME = re.compile(r"(?:Lean|IO)(?![\w'!?])")
KERNEL_COMMANDS = ("elab", "elab_rules", "macro", "macro_rules", "syntax", "declare_syntax_cat")
"""Commands that define syntax or elaborators (metaprogramming): they run arbitrary code at
elaboration time, so the screens cannot judge them; they are never a rejection by themselves
(``Finding.kernel``) and never accepted without Lean's statement check and kernel replay."""
KERNEL_COMMAND_START = re.compile(
    r"(?:@\[[^\]]{0,2000}\]\s*)?(?:" + "|".join(KERNEL_COMMANDS) + r")(?![\w'.!?])"
)


def attribute_ok(body: str, *, in_scope: bool) -> bool:
    """``body`` of ``@[...]``/``attribute [...]``: every item a trust-neutral attribute, or, inside
    a helper scope, ``local`` anything (it ends with the scope)."""
    items = [i.strip() for i in body.split(",")]
    for item in items:
        words = item.split()
        if not words:
            return False
        if words[0] == "local" and in_scope and len(words) > 1:
            continue
        if words[0] == "local":
            words = words[1:]
        if not words or words[0] not in TRUST_NEUTRAL_ATTRIBUTES:
            return False
        if words[0] in ("grind", "grind!"):
            if not all(_GRIND_MODIFIER.fullmatch(w) for w in words[1:]):
                return False
            continue
        if words[0] == "simp" and words[1:2] == ["↓"]:
            words = ["simp↓", *words[2:]]
        if words[0] in ("simp", "simp↓") and any(w not in ("←", "<-", "high", "low", "default") for w in words[1:]):
            return False
        if words[0] not in ("nolint", "simp", "simp↓") and len(words) > 1:
            return False
    return bool(items)


@dataclass(frozen=True)
class _Scope:
    """A ``section``/``namespace`` the helpers opened."""

    keyword: str
    name: str
    position: int


_DANGLING = "an `open ... in`/`set_option ... in` among the helpers must be followed by a helper declaration"
_META_OPEN = "opening the `Lean` namespace (metaprogramming) cannot be judged without Lean"
_IO_OPEN = "opening the `IO` namespace (file system and process access while Lean elaborates) is not allowed"


class _HelperWalk:
    """One ``structure`` pass: the findings, the text being blanked, the helper scopes still open
    and the start of a ``... in`` modifier chain whose command has not come yet."""

    def __init__(self, masked: str, offset: int) -> None:
        self.masked = masked
        self.offset = offset
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", masked)]
        self.findings: list[Finding] = []
        self.out = list(masked)
        self.stack: list[_Scope] = []
        self.pending: int | None = None

    def add(self, pos: int, msg: str, snippet: str, rule: str = "lean.command", *, kernel: bool = False) -> None:
        line = bisect.bisect_right(self.line_starts, pos) + self.offset
        self.findings.append(Finding(rule=rule, message=msg, line=line, snippet=" ".join(snippet.split())[:60], kernel=kernel))

    def meta_open(self, pos: int, names: list[str], snippet: str) -> None:
        """``open Lean ...``: metaprogramming, only Lean can judge it; ``open IO ...``: a rejection."""
        if any(n == "IO" or n.startswith("IO.") for n in names):
            self.add(pos, _IO_OPEN, snippet, "lean.meta")
        else:
            self.add(pos, _META_OPEN, snippet, "lean.meta", kernel=True)

    def blank(self, a: int, b: int) -> None:
        out = self.out
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def line(self, ls: int) -> None:
        """The column-0 command starting at ``ls`` (if any)."""
        masked = self.masked
        if ls >= len(masked) or masked[ls].isspace():
            return
        i = self.modifiers(ls)
        if i > ls and (i >= len(masked) or masked[i] == "\n"):
            return  # the modified command starts on a later line
        if self.pending is not None:
            if not _DECL_START.match(masked, i) and not KERNEL_COMMAND_START.match(masked, i):
                self.add(self.pending, _DANGLING, masked[self.pending : self.pending + 60])
            self.pending = None
            return
        self.command(i, masked[i : i + 300])

    def modifiers(self, i: int) -> int:
        """Blank the ``open ... in``/``set_option ... in`` chain at ``i``; where the command after it starts."""
        while m := _MODIFIER_IN.match(self.masked, i):
            if m.group("opt") is not None:
                opt = " ".join(m.group("opt").split())
                if not SAFE_OPTION.fullmatch(opt):
                    self.add(i, f"`set_option {opt.split()[0]}` is not an allowed option", m.group(0), "lean.set_option")
            elif any(_META_NAME.match(n) for n in m.group("names").split()):
                self.meta_open(i, m.group("names").split(), m.group(0))
            self.blank(i, m.end())
            if self.pending is None:
                self.pending = i
            i = m.end()
        return i

    def command(self, i: int, head: str) -> None:
        """A command without modifiers at ``i`` (``head``: its first characters)."""
        if m := _SCOPE_OPEN.match(head):
            self.stack.append(_Scope(m.group("kw"), m.group("name"), i))
            self.blank(i, i + m.end())
        elif m := _SCOPE_END.match(head):
            if not self.stack:
                self.add(i, "`end` closes no section/namespace that the helpers opened", m.group(0))
            else:
                scope = self.stack.pop()
                if m.group("name") != scope.name:
                    self.add(i, f"`{m.group(0).strip()}` does not match the helpers' `{scope.keyword} {scope.name}`", m.group(0))
            self.blank(i, i + m.end())
        elif m := _SCOPED_CMD.match(head):
            kw = m.group("kw")
            if not self.stack:
                hint = " or use `open ... in`" if kw == "open" else ""
                self.add(
                    i,
                    f"`{kw}` at the top level of the helpers would reach the theorem's statement: put it inside a "
                    f"`section ... end` of the helpers{hint}",
                    m.group(0),
                )
            elif kw == "open" and any(_META_NAME.match(n) for n in m.group("rest").split()):
                self.meta_open(i, m.group("rest").split(), m.group(0))
            self.blank(i, i + len(kw))
        elif m := _SETOPT.match(head):
            opt = " ".join(m.group("opt").split())
            if SAFE_OPTION.fullmatch(opt):
                self.blank(i, i + m.end())
            else:
                self.add(i, f"`set_option {opt.split()[0]}` is not an allowed option", m.group(0), "lean.set_option")
                self.blank(i, i + len("set_option"))
        elif m := _ATTR_CMD.match(head):
            if attribute_ok(m.group("body"), in_scope=bool(self.stack)):
                self.blank(i, i + m.end())
            else:  # keep the body, so the word rules name what it holds (`csimp`, `instance`...)
                self.add(i, f"attribute `[{m.group('body').strip()}]` is not allowed", m.group(0), "lean.attribute")
                self.blank(i, i + len("attribute"))
        elif (m := _READONLY.match(head)) or (m := _SNIP.match(head)):
            self.blank(i, i + m.end())

    def finish(self) -> None:
        """What the end of the helpers leaves open: a modifier chain, unclosed scopes."""
        if self.pending is not None:
            self.add(
                self.pending,
                "an `open ... in`/`set_option ... in` at the end of the helpers would apply to the problem's next "
                "command or theorem",
                self.masked[self.pending : self.pending + 60],
            )
        for scope in self.stack:
            kind, name = scope.keyword, scope.name
            self.add(
                scope.position,
                f"`{kind} {name}`".replace(" `", "`") + " opened among the helpers is not closed before the problem continues",
                kind,
            )


def structure(masked: str, offset: int = 0) -> tuple[str, list[Finding]]:
    """(``masked`` with the allowed constructs blanked, findings). See the module docstring.

    Linear in the text: one pass over the column-0 line starts, anchored matches only.
    """
    walk = _HelperWalk(masked, offset)
    for ls in walk.line_starts:
        walk.line(ls)
    walk.finish()
    return "".join(walk.out), walk.findings


_PRINT_AXIOMS = re.compile(r"#print\s+axioms\s+(?P<name>[^\s()\[\]{}]+)")


def own_axiom_report(proof: str, name: str, proof_line: int) -> list[Finding]:
    """Lean: ``#print axioms <the target>`` inside the target's own proof body (an indented
    command runs right after the declaration) prints the very report an axiom check reads, from
    the candidate's own output: a rejection (other read-only commands there only need Lean, see
    ``Finding.kernel``; at column 0 after the proof they are read-only queries, ``candidate`` rule 6)."""
    masked = mask(proof, "lean").replace("«", "").replace("»", "")
    leaf = name.replace("«", "").replace("»", "").split(".")[-1]
    return [
        Finding(
            rule="lean.command",
            message=f"`#print axioms {m.group('name')}` inside the proof of {name} imitates the axiom report of the verdict",
            line=proof_line + masked.count("\n", 0, m.start()),
            snippet=m.group(0)[:60],
        )
        for m in _PRINT_AXIOMS.finditer(masked)
        if m.group("name").split(".")[-1] == leaf
    ]
