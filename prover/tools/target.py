"""What every tool works on: a ``Target`` (one declaration in a workspace), the split of a
proof into helpers and body, the soundness screens on tool input and on problem files, and
``ToolInputError`` for a call the tools cannot answer as asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..workspace import join_code

if TYPE_CHECKING:
    from ..records import LemmaGoal
    from ..workspace import Workspace


class ToolInputError(ValueError):
    """A tool call the tools cannot answer as asked; the message says what is wrong."""


@dataclass(frozen=True)
class Target:
    """One declaration to work on, in a workspace. ``context`` holds declarations placed
    between the problem's header/preamble and this one (a lemma's dependencies)."""

    ws: Workspace
    name: str
    declaration: str
    context: str = ""
    whole_problem: bool = False
    """The problem's own theorem: proofs come back as whole candidate files."""

    @classmethod
    def of_problem(cls, ws: Workspace) -> Target:
        p = ws.problem
        return cls(ws, p.theorem_name, p.declaration, "", True)

    @classmethod
    def of_goal(cls, ws: Workspace, goal: LemmaGoal) -> Target:
        return cls(ws, goal.name, goal.declaration, goal.context, False)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.ws.problem.text, self.name, self.context, self.declaration)

    def candidate(self, body: str, helpers: str = "") -> str:
        """What a finished proof comes back as: the whole file, or the body for a lemma."""
        if not self.whole_problem:
            return body
        from ..problem import render_candidate
        from ..workspace import strip_imports

        body = strip_imports(body)
        imports = self.ws.imports if _uses_imports(body) else ""
        return render_candidate(self.ws.problem, body, join_code(imports, helpers))


@dataclass(frozen=True)
class _Split:
    helpers: str
    body: str
    code: str | None
    """Whole-file input: the text to run (helpers + declaration), else None."""
    line_offset: int = 0


def split_proof(target: Target, proof: str) -> _Split:
    """A whole candidate file's helpers and proof body, or ``proof`` itself as a body."""
    if not isinstance(proof, str):
        raise ToolInputError("`proof` must be a string")
    if "\x00" in proof:
        raise ToolInputError("`proof` contains a NUL byte")
    lang = target.ws.lang
    mine = [d for d in lang.declarations(proof) if d.name == target.name]
    if not mine:
        return _Split("", proof, None)
    d = mine[-1]
    start = 0
    if target.whole_problem:
        from lean_tools.soundness.candidate import locate
        from lean_tools.soundness.verify import parse_problem

        sf = parse_problem(target.ws.problem.text, target.ws.problem.language, target.name)
        cand, start, _err = locate(sf, proof)
        if cand is None:
            start = d.start
    while start < d.start and proof[start] == "\n":
        start += 1  # the joined code drops leading blank lines; keep the line count right
    helpers = proof[start : d.start]
    code = proof[start : d.end]
    return _Split(helpers, d.proof, code, proof.count("\n", 0, start))


def screen_input(target: Target, helpers: str, body: str, *, holes: bool = True) -> str | None:
    """The soundness screens on what a tool call adds; the first finding, or None.

    Hole rules are skipped when ``holes`` (``check``/``goals`` show the goals at holes)."""
    from lean_tools.soundness.screens import screen
    from lean_tools.source import ParseError

    language = target.ws.problem.language
    allowed = frozenset(target.ws.config.prover.allowed_requires)  # Rocq helpers' Require; Lean ignores it
    try:
        findings = [
            *screen(helpers, language, role="helpers", allowed_requires=allowed),
            *screen(body, language, role="proof"),
        ] if helpers.strip() else list(screen(body, language, role="proof"))
    except ParseError as e:
        return f"[parse] {e}"
    if holes:
        findings = [f for f in findings if not f.rule.endswith(".hole")]
    if not findings:
        return None
    f = findings[0]
    return f"[{f.rule}] {f.one_line()}"


_PROBLEM_IO = {
    "rocq": re.compile(r"\b(Load|Redirect|Drop|Cd|Declare\s+ML\s+Module|(?:Separate\s+|Recursive\s+)?Extraction"
                       r"|Add\s+(?:Rec\s+)?LoadPath|Add\s+ML\s+Path)\b"),
    "lean": re.compile(r"#(?:eval|exit|exec)\b|(?<![\w.])(?:run_cmd|run_elab|run_meta|run_tac|initialize|builtin_initialize"
                       r"|unsafe|implemented_by|extern)(?![\w'])|(?<![\w.])IO(?:\.|\b)"),
}


def screen_problem(text: str, language: str) -> str | None:
    """Why a *problem* file (given to a server, so not trusted like one's own file) is refused,
    or None: text that reads or writes files, loads code or runs programs when the header and
    preamble are loaded into a session (Rocq ``Load``/``Redirect``/``Extraction``/``Declare ML
    Module``/load paths; Lean ``#eval``, ``run_cmd``, ``initialize``, ``IO``, ``unsafe``,
    ``extern``). Comments and strings are masked first."""
    from lean_tools.source import ParseError, mask

    try:
        masked = mask(text, language)  # type: ignore[arg-type]
    except ParseError as e:
        return f"the problem does not lex: {e}"
    m = _PROBLEM_IO[language].search(masked)
    if m is None:
        return None
    line = masked.count("\n", 0, m.start()) + 1
    return f"the problem uses `{m.group(0).strip()}` (line {line}), which could run IO or load code; not accepted"


_MICROMEGA = re.compile(r"\b(lia|nia|lra|nra|psatz)\b")


def _uses_imports(body: str) -> bool:
    """The body calls a micromega tactic, which needs the workspace's imports (Rocq's
    ``allowed_requires``; a Lean workspace has none, so this never adds anything there)."""
    return bool(_MICROMEGA.search(body))
