"""The proof tools: one implementation, served under the same names to the lemma agents
(``prover.agent``), over MCP (``prover.mcp``) and in the verifiers taskset (``environments/``).

Tools: ``check``, ``goals``, ``run_tactic``, ``search``, ``auto_close``, ``verify``, and ``prove``
(the whole pipeline: ``prover.api.prove_report``, which sits above the agents that use these);
the lemma agents also have ``python``, ``split_lemma`` and ``give_up`` (``AGENT_TOOLS``).

Every tool works on a ``Target``: one declaration (a problem's theorem, or a lemma with the
lemmas before it as context) inside a ``prover.workspace.Workspace``, which owns the warm
session pool, the budget and the trace. ``proof`` may be a whole candidate file (the
problem's text with the proof filled in, maybe with helper lemmas before the theorem) or just
the proof body (tactics); positions in answers refer to the text that was sent.

Contract:
- Proof-assistant answers are values (frozen records below). A timeout is an answer
  (``timed_out``), and so is text refused by the soundness screens
  (``lean_tools.soundness.screens``: IO, code loading, commands inside a proof), which never
  reaches the proof assistant; ``refused`` says which rule fired.
- Bad input (an empty proof, an unknown state id, a malformed query) raises ``ToolInputError``
  with a one-line message; ``NotInstalled`` and ``BadProblem`` propagate.
- Only ``verify`` (the full verdict, ``lean_tools.soundness.verify``) says a proof is
  accepted; ``check``/``run_tactic``/``auto_close`` successes are hints.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lean_tools.assistant import assistant
from lean_tools.types import Record

from .llm.base import ToolSpec
from .workspace import join_code

if TYPE_CHECKING:
    from .config import ProverConfig
    from .records import LemmaGoal
    from .workspace import CheckResult, Workspace


class ToolInputError(ValueError):
    """A tool call the tools cannot answer as asked; the message says what is wrong."""


# --- answers ---------------------------------------------------------------------------------
class Diagnostic(Record):
    """One error or message. ``line`` is 1-based in the text that was sent (the candidate
    file, or the proof body for a body-only proof), None when the proof assistant gave none."""

    line: int | None = None
    message: str


class CheckReport(Record):
    """``check``: did the declaration compile, and what is left open."""

    ok: bool
    """No errors (holes allowed)."""
    complete: bool
    """No errors, no holes, no open goals. Still only a hint: ``verify`` decides."""
    errors: tuple[Diagnostic, ...] = ()
    goals: tuple[str, ...] = ()
    """Goals left at the end of the proof, or at its holes (Lean ``sorry``)."""
    messages: tuple[str, ...] = ()
    """Infos and warnings (Lean ``exact?`` answers)."""
    refused: str | None = None
    """Set when the text was refused before reaching the proof assistant: the rule and why."""
    timed_out: bool = False
    cpu_seconds: float = 0.0
    seconds: float = 0.0

    def error_lines(self) -> tuple[str, ...]:
        return tuple(_where(e) + e.message for e in self.errors)

    def text(self) -> str:
        """The answer as the lemma agents read it."""
        if self.refused:
            return f"rejected: {self.refused}"
        if self.complete:
            return "OK: the proof is complete."
        parts = []
        if self.errors:
            parts.append("Errors:\n" + "\n".join(f"- {_where(e)}{e.message}" for e in self.errors[:6]))
        if self.goals:
            parts.append("Open goals:\n" + "\n\n".join(self.goals[:4]))
        if not parts:
            parts.append("Not complete (a hole or unfinished proof remains).")
        return "\n".join(parts)[:2500]


class GoalsReport(Record):
    """``goals``: the proof state after a proof prefix. ``state`` continues it in ``run_tactic``."""

    state: int | None = None
    """None when the prefix has errors or no state table was given (lemma agents)."""
    goals: tuple[str, ...] = ()
    errors: tuple[Diagnostic, ...] = ()
    proved: bool = False
    """The prefix closes every goal (a hint; ``verify`` decides)."""
    timed_out: bool = False

    def text(self) -> str:
        if self.errors:
            return "Errors:\n" + "\n".join(f"- {_where(e)}{e.message}" for e in self.errors[:6])
        if self.proved:
            return "No goals left: the tactics close the lemma (send them to check)."
        return "Goals:\n" + "\n\n".join(self.goals)


class TacticReport(Record):
    """``run_tactic``: one step from a state. On an error the state is unchanged (``state`` is
    the one given) and ``messages`` says why."""

    state: int
    goals: tuple[str, ...] = ()
    proved: bool = False
    messages: tuple[str, ...] = ()
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas),
    ready for ``verify``."""
    timed_out: bool = False


class SearchReport(Record):
    """``search``: library declarations matching a query (Rocq ``Search``; Lean ``exact?``/``apply?``)."""

    query: str
    results: str


class AutoCloseReport(Record):
    """``auto_close``: the built-in search and portfolio (``prover.search``)."""

    proved: bool
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas)."""
    tried: str = ""
    """What was tried and why it stopped (the search's reason)."""
    attempts: int = 0
    seconds: float = 0.0


class HammerReport(Record):
    """``hammer``: CoqHammer alone on the target (Rocq). A proof keeps the replayed
    reconstruction (``sauto``/``hauto``/``srun ... use: ...``), never ``hammer`` itself."""

    proved: bool
    proof: str | None = None
    """When ``proved``: the whole candidate file (problem targets) or proof body (lemmas)."""
    imports: tuple[str, ...] = ()
    """Helper sentences the proof needs (``From Hammer Require Import Tactics.``)."""
    tried: str = ""
    """Why it stopped: ``proved``, or the hammer's failure (no proof found, timeout, missing ATPs...)."""
    seconds: float = 0.0


class VerifyReport(Record):
    """``verify``: the soundness verdict. ``accepted`` false is a normal answer."""

    accepted: bool
    reason: str
    stage: str
    """Where the decision was made (parse, candidate, screen, compile, statement, axioms, accepted)."""
    theorem: str = ""
    seconds: float = 0.0


class ProveReport(Record):
    """``prove``: the whole pipeline (``prover.api.prove_report``; it runs the stages that use
    these tools, so it lives above them)."""

    proved: bool
    proof: str | None = None
    """The verified file, when proved."""
    reason: str = ""
    mode: str = "default"
    seconds: float = 0.0


# --- targets -----------------------------------------------------------------------------------
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
        from .problem import render_candidate
        from .workspace import strip_imports

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


# --- the tools ---------------------------------------------------------------------------------
def check(target: Target, proof: str, *, budget_s: float | None = None, holes: bool = True) -> CheckReport:
    """Compile ``proof`` (whole file or body) for the target; errors with lines, goals left.

    ``holes`` false (lemma agents): a proof with a hole is refused without checking."""
    t0 = time.monotonic()
    sp = split_proof(target, proof)
    if not sp.body.strip():
        raise ToolInputError("`proof` is empty")
    ws = target.ws
    if not holes and ws.lang.has_hole(sp.body):
        return CheckReport(ok=False, complete=False, refused="the proof contains a hole (sorry/admit/Admitted); give a complete proof")
    refused = screen_input(target, sp.helpers, sp.body, holes=holes)
    if refused:
        return CheckReport(ok=False, complete=False, refused=refused)
    if sp.code is not None:
        res = ws.check(join_code(target.context, sp.code), timeout=budget_s, final_decl=sp.body)
        errors = _diagnostics(res.errors, sp.line_offset - _lines(target.context))
    else:
        res = ws.check_decl(join_code(target.context, sp.helpers), target.declaration, sp.body, timeout=budget_s)
        errors = _diagnostics(res.errors, 0)
    goals = res.goals or res.hole_goals
    return CheckReport(
        ok=res.ok,
        complete=res.complete,
        errors=errors,
        goals=tuple(goals),
        messages=tuple(res.infos),
        timed_out=res.timed_out,
        cpu_seconds=round(res.cpu_s, 3),
        seconds=round(time.monotonic() - t0, 3),
    )


def goals(target: Target, proof: str = "", *, states: StateTable | None = None, budget_s: float | None = None) -> GoalsReport:
    """The goals after ``proof`` (a tactic prefix or a partial file; empty: the statement)."""
    sp = split_proof(target, proof or "")
    prefix = _open_prefix(sp.body)
    refused = screen_input(target, sp.helpers, prefix) if (prefix.strip() or sp.helpers.strip()) else None
    if refused:
        raise ToolInputError(f"refused: {refused}")
    res = _goals_after(target, sp.helpers, prefix, budget_s)
    if res.errors:
        return GoalsReport(errors=_diagnostics(res.errors, 0), timed_out=res.timed_out)
    state = states.add(target, sp.helpers, prefix) if states is not None else None
    return GoalsReport(state=state, goals=tuple(res.goals), proved=not res.goals)


def run_tactic(target: Target, states: StateTable, state: int, tactic: str, *, budget_s: float | None = None) -> TacticReport:
    """Run ``tactic`` from ``state`` (from ``goals`` or an earlier ``run_tactic``)."""
    if not isinstance(tactic, str) or not tactic.strip():
        raise ToolInputError("`tactic` is empty")
    helpers, prefix = states.get(target, state)
    refused = screen_input(target, helpers, tactic)
    if refused:
        raise ToolInputError(f"refused: {refused}")
    joined = (prefix.rstrip() + "\n" + tactic.strip()).strip()
    res = _goals_after(target, helpers, joined, budget_s)
    if res.errors:
        return TacticReport(state=state, messages=tuple(res.errors), timed_out=res.timed_out)
    new = states.add(target, helpers, joined)
    proved = not res.goals
    return TacticReport(
        state=new,
        goals=tuple(res.goals),
        proved=proved,
        messages=tuple(res.infos),
        proof=target.candidate(joined, helpers) if proved else None,
    )


def search(target: Target, query: str) -> SearchReport:
    """Rocq: ``Search <query>`` on the problem's imports. Lean: ``exact?``/``apply?`` on the target."""
    if not isinstance(query, str):
        raise ToolInputError("`query` must be a string")
    q = query.strip().rstrip(".").strip()
    bad = target.ws.lang.search_query_error(q)
    if bad:
        raise ToolInputError(bad)
    out = target.ws.search_library(q, target.context, target.declaration)
    if out.startswith("error:"):
        raise ToolInputError(out[len("error:") :].strip())
    return SearchReport(query=q, results=out)


def auto_close(target: Target, *, budget_s: float | None = None) -> AutoCloseReport:
    """The built-in search plus portfolio on the target, within ``budget_s``."""
    ws = target.ws
    seconds = float(budget_s) if budget_s is not None else ws.config.search.lemma_timeout_s
    seconds = min(max(seconds, 1.0), ws.config.search.timeout_s)
    out = ws.run_search(join_code(target.context, target.declaration), seconds, label=target.name)
    if out.proved and out.proof:
        res = ws.check_decl(target.context, target.declaration, out.proof)
        if res.complete:
            return AutoCloseReport(
                proved=True, proof=target.candidate(out.proof), tried=out.reason, attempts=out.attempts, seconds=round(out.seconds, 3)
            )
        return AutoCloseReport(
            proved=False,
            tried=f"the search's proof did not re-check: {res.feedback(300)}",
            attempts=out.attempts,
            seconds=round(out.seconds, 3),
        )
    return AutoCloseReport(proved=False, tried=out.reason, attempts=out.attempts, seconds=round(out.seconds, 3))


def hammer(target: Target, *, budget_s: float | None = None) -> HammerReport:
    """CoqHammer on the target after ``intros`` (``prover.search.hammer``), within ``budget_s``
    (default ``search.hammer_timeout_s``); its ATPs' CPU is charged to the budget as checker CPU."""
    ws = target.ws
    if ws.lang.hammer != "CoqHammer":
        raise ToolInputError(f"hammer is a Rocq tool (CoqHammer); this problem is {ws.lang.display_name}")
    seconds = float(budget_s) if budget_s is not None else ws.config.search.hammer_timeout_s
    out = ws.run_search(join_code(target.context, target.declaration), max(seconds, 5.0), label=target.name, hammer="only")
    needs = tuple(out.extra.get("imports", ()))
    if out.proved and out.proof:
        return HammerReport(
            proved=True, proof=target.candidate(out.proof, "\n".join(needs)), imports=needs, tried=out.reason, seconds=round(out.seconds, 3)
        )
    return HammerReport(proved=False, tried=out.reason, seconds=round(out.seconds, 3))


def verify(target: Target, proof: str, *, budget_s: float | None = None) -> VerifyReport:
    """The full soundness verdict on a whole candidate file, in a fresh process."""
    from lean_tools.soundness import verify as soundness_verify

    if not target.whole_problem:
        raise ToolInputError("verify needs a whole problem, not a lemma")
    if not isinstance(proof, str) or not proof.strip():
        raise ToolInputError("`proof` must be the whole candidate file (the problem's text with its proof filled in)")
    ws = target.ws
    p = ws.problem
    allowed = frozenset(ws.config.prover.allowed_requires)  # Rocq helpers' Require; Lean ignores it
    timeout = float(budget_s) if budget_s is not None else ws.config.prover.verify_timeout_s
    v = soundness_verify(p.text, proof, p.language, theorem=p.theorem_name, timeout=timeout, allowed_requires=allowed)
    ws.budget.charge_check(float(v.cpu_seconds or v.wall_seconds or 0.0), attempt=False)
    return VerifyReport(accepted=bool(v.accepted), reason=v.reason, stage=v.stage, theorem=v.theorem, seconds=round(v.wall_seconds, 3))


def python(ws: Workspace, code: str) -> str:
    """A short Python 3 snippet in a fresh sandboxed interpreter; what it printed."""
    if not isinstance(code, str) or not code.strip():
        raise ToolInputError("`code` must be a non-empty string")
    return ws.run_python(code)


# --- proof states for run_tactic -------------------------------------------------------------
class StateTable:
    """Proof states as (target, helpers, tactic prefix), by integer id. A state is replayed
    from the statement on every step, so it needs no live process: it survives session
    recycling and crashes. Bounded (oldest dropped past ``capacity``). Thread-safe."""

    def __init__(self, capacity: int = 20_000):
        self.capacity = capacity
        self._ids = itertools.count(1)
        self._states: OrderedDict[int, tuple[tuple, str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, target: Target, helpers: str, prefix: str) -> int:
        with self._lock:
            sid = next(self._ids)
            self._states[sid] = (target.key, helpers, prefix)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)
            return sid

    def get(self, target: Target, state: int) -> tuple[str, str]:
        if isinstance(state, bool) or not isinstance(state, int):
            raise ToolInputError("`state` must be an integer state id from goals or run_tactic")
        with self._lock:
            entry = self._states.get(state)
        if entry is None:
            raise ToolInputError(f"unknown state {state}: get one from goals (ids last for this session)")
        key, helpers, prefix = entry
        if key != target.key:
            raise ToolInputError(f"state {state} belongs to another problem or theorem")
        return helpers, prefix


# --- the agents' function specs ----------------------------------------------------------------
def _obj(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required}


CHECK = ToolSpec(
    name="check",
    description="Check a complete proof of the lemma. Returns OK, or the errors and the goals left open.",
    parameters=_obj({"proof": {"type": "string", "description": "the proof body (tactics)"}}, ["proof"]),
)
GOALS = ToolSpec(
    name="goals",
    description="Show the goals after running the given tactics on the lemma (empty: the initial goal).",
    parameters=_obj({"proof": {"type": "string", "description": "a proof prefix (tactics); may be empty"}}, []),
)
SEARCH = ToolSpec(
    name="search",
    description=(
        "Search the library. Rocq: a `Search` pattern such as `(Rabs (_ * _))` or `Nat.mod`. "
        "Lean: runs exact?/apply? on the lemma."
    ),
    parameters=_obj({"query": {"type": "string"}}, ["query"]),
)
AUTO_CLOSE = ToolSpec(
    name="auto_close",
    description="Run the built-in automation (decision procedures and a short tactic search) on the whole lemma.",
    parameters=_obj({"budget_s": {"type": "number", "description": "time limit in seconds, default 10"}}, []),
)
HAMMER = ToolSpec(
    name="hammer",
    description=(
        "Rocq: run CoqHammer (external ATPs find the library lemmas, a sauto/hauto reconstruction is replayed) on the whole lemma "
        "after intros. Slow (20-60 s) and often fails; a proof found uses only the reconstruction tactics."
    ),
    parameters=_obj({"budget_s": {"type": "number", "description": "time limit in seconds, default 30"}}, []),
)
PYTHON = ToolSpec(
    name="python",
    description="Run a short Python 3 snippet (no network, a few seconds, 1 GB) and return what it prints. For numeric exploration.",
    parameters=_obj({"code": {"type": "string"}}, ["code"]),
)
SPLIT = ToolSpec(
    name="split_lemma",
    description=(
        "Split the lemma: give new sub-lemmas (full declarations, e.g. `Lemma foo (x : R) : x * x >= 0.`) "
        "and a complete proof of the current lemma that uses them. The sub-lemmas are then proved separately. "
        "Their names get the current lemma's name as a prefix (foo -> CURRENT_foo), in the proof too."
    ),
    parameters=_obj(
        {
            "lemmas": {"type": "array", "items": {"type": "string"}, "description": "declarations of the sub-lemmas, without proofs"},
            "proof": {"type": "string", "description": "proof of the current lemma using the sub-lemmas"},
        },
        ["lemmas", "proof"],
    ),
)
GIVE_UP = ToolSpec(
    name="give_up",
    description="Stop working on this lemma (say why; the sketch stage will try another decomposition).",
    parameters=_obj({"reason": {"type": "string"}}, []),
)

AGENT_TOOLS = (CHECK, GOALS, SEARCH, AUTO_CLOSE, PYTHON, SPLIT, GIVE_UP)


def agent_tools(config: ProverConfig, language: str) -> tuple[ToolSpec, ...]:
    """The lemma agents' tools: ``AGENT_TOOLS``, plus ``hammer`` for Rocq when the checks load
    CoqHammer's reconstruction tactics (``"Hammer.Tactics"`` in ``prover.allowed_requires``), so
    that a lemma proof made of them checks like any other."""
    if assistant(language).hammer == "CoqHammer" and "Hammer.Tactics" in config.prover.allowed_requires:
        return (*AGENT_TOOLS, HAMMER)
    return AGENT_TOOLS
ALL = AGENT_TOOLS
SERVED = ("check", "goals", "run_tactic", "search", "auto_close", "hammer", "verify", "prove")
"""The tools ``prover-mcp`` and the verifiers toolset serve (functions of this module)."""


# --- helpers -----------------------------------------------------------------------------------
_LINE = re.compile(r"^(?:proof )?line (\d+): ")
_MICROMEGA = re.compile(r"\b(lia|nia|lra|nra|psatz)\b")


def _uses_imports(body: str) -> bool:
    """The body calls a micromega tactic, which needs the workspace's imports (Rocq's
    ``allowed_requires``; a Lean workspace has none, so this never adds anything there)."""
    return bool(_MICROMEGA.search(body))


def _diagnostics(errors: tuple[str, ...], shift: int) -> tuple[Diagnostic, ...]:
    out = []
    for e in errors:
        m = _LINE.match(e)
        if m:
            out.append(Diagnostic(line=max(1, int(m.group(1)) + shift), message=e[m.end() :]))
        else:
            out.append(Diagnostic(message=re.sub(r"^in the statement or context: ", "", e)))
    return tuple(out)


def _where(d: Diagnostic) -> str:
    return f"line {d.line}: " if d.line is not None else ""


def _lines(text: str) -> int:
    """Lines that ``join_code(text, ...)`` puts before the joined code."""
    text = text.strip("\n")
    return text.count("\n") + 2 if text else 0


def _open_prefix(body: str) -> str:
    """A proof body without its closing ``Qed.``/``Defined.`` (Rocq) and a leading ``Proof.``."""
    b = re.sub(r"^\s*Proof\s*\.", "", body, count=1)
    return re.sub(r"(Qed|Defined|Admitted)\s*\.\s*$", "", b).strip("\n")


def _goals_after(target: Target, helpers: str, prefix: str, budget_s: float | None) -> CheckResult:
    ws = target.ws if budget_s is None else with_check_timeout(target.ws, budget_s)
    return ws.goals_after(join_code(target.context, helpers), target.declaration, prefix)


def with_check_timeout(ws: Workspace, seconds: float) -> Workspace:
    """The same workspace (problem, pool, budget, trace) with another per-check time limit."""
    from .workspace import Workspace

    prover = ws.config.prover.model_copy(update={"check_timeout_s": float(seconds)})
    return Workspace(ws.problem, ws.config.model_copy(update={"prover": prover}), ws.budget, ws.trace, ws.pool)

