"""The MCP server: the functions of ``prover.tools`` on one shared warm session pool.

``ToolHost`` turns a tool call's arguments into a ``prover.tools.Target`` (parse the problem,
pick the theorem, build a workspace with a per-call budget) and calls the tool; ``build_server``
registers one MCP tool per function, under the function's name, plus the resources.

Interface (every tool):
- ``problem``: the full text of a ``.v``/``.lean`` file; a path only when the server was started
  with ``--root DIR`` and the path lies under DIR. ``language`` (``rocq``/``lean``) when the text
  alone does not say; ``theorem`` names the target when the file has several.
- ``budget_s``: the call's time limit (capped by the server's ``max_call_s``).
- Answers are structured (the records of ``prover.tools``). Bad input (unparsable problem, empty
  proof, unknown state, path outside the root, missing proof assistant) is a tool error
  (``is_error``) with a one-line message; a rejected proof is a normal answer.

Resources (stable URIs; ``ID`` is the first 16 hex digits of the SHA-256 of the problem text):
``prover://problems`` (JSON list of the problems this server has seen), ``prover://problem/ID``
(the text), ``prover://trace/ID`` (the trace of every call on it, JSONL, ``prover.trace`` events).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from lean_tools.assistant import ASSISTANTS, assistant_for_path
from prover import tools
from prover.api import prove_report
from prover.config import ProverConfig
from prover.errors import BadProblem, BudgetExceeded
from prover.records import Problem
from prover.tools import (
    AutoCloseReport,
    CheckReport,
    GoalsReport,
    HammerReport,
    ProveReport,
    SearchReport,
    TacticReport,
    ToolInputError,
    VerifyReport,
)
from prover.trace import Trace

from .project_tools import register_project

Language = Literal["rocq", "lean"]
MAX_PROBLEM_CHARS = 1_000_000


class ToolHost:
    """Shared state of one server: the pool, the config, problems and traces, proof states.

    Thread-safe: tools run in worker threads. ``pool`` is made lazily (first call) unless given.
    """

    def __init__(self, config: ProverConfig, *, root: str | Path | None = None, sessions: int = 2,
                 max_call_s: float = 300.0, default_call_s: float = 60.0, pool: Any = None, keep_problems: int = 256):
        self.config = config
        self.root = Path(root).resolve() if root is not None else None
        self.sessions = sessions
        self.max_call_s = max_call_s
        self.default_call_s = default_call_s
        self._pool = pool
        self._own_pool = pool is None
        self._lock = threading.Lock()
        self._problems: OrderedDict[str, tuple[Problem, Trace]] = OrderedDict()
        self._keep = keep_problems
        self._states: OrderedDict[str, tools.StateTable] = OrderedDict()
        self._shared_states = tools.StateTable()

    # -- lifecycle -------------------------------------------------------------------------------
    @property
    def pool(self):
        with self._lock:
            if self._pool is None:
                from lean_tools.pool import SessionPool

                self._pool = SessionPool(max_sessions=self.sessions)
            return self._pool

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None and self._own_pool:
            pool.close()

    # -- inputs ----------------------------------------------------------------------------------
    def problem(self, problem: str, language: str | None = None, theorem: str | None = None) -> tuple[Problem, Trace]:
        """Parse the ``problem`` argument (text, or a path under the root). Raises ``ToolInputError``."""
        from prover.problem import problem_from_text

        if not isinstance(problem, str) or not problem.strip():
            raise ToolInputError("`problem` is empty: pass the full text of a .v or .lean file")
        if len(problem) > MAX_PROBLEM_CHARS:
            raise ToolInputError(f"`problem` is longer than {MAX_PROBLEM_CHARS} characters")
        text, path = problem, None
        if "\n" not in problem.strip() and re.search(r"\.(v|lean)\s*$", problem):
            path = self._path(problem.strip())
            text = path.read_text(encoding="utf-8")
            language = language or assistant_for_path(path).name
        lang = language or guess_language(text)
        if lang not in ASSISTANTS:
            raise ToolInputError(f"`language` must be {' or '.join(map(repr, ASSISTANTS))}, not {lang!r}")
        refused = tools.screen_problem(text, lang)
        if refused:
            raise ToolInputError(refused)
        try:
            p = problem_from_text(text, lang, theorem=theorem or None, path=str(path) if path else None)
        except BadProblem as e:
            raise ToolInputError(str(e)) from None
        pid = problem_id(text)
        with self._lock:
            if pid in self._problems:
                self._problems.move_to_end(pid)
                return p, self._problems[pid][1]
            trace = Trace(None)
            self._problems[pid] = (p, trace)
            while len(self._problems) > self._keep:
                self._problems.popitem(last=False)
            return p, trace

    def _path(self, raw: str) -> Path:
        if self.root is None:
            raise ToolInputError(
                "`problem` looks like a path, but this server takes paths only when started with --root DIR; pass the file's text"
            )
        path = (self.root / raw).resolve()
        if not path.is_relative_to(self.root):
            raise ToolInputError(f"{raw}: outside the server's root {self.root}")
        if not path.is_file():
            raise ToolInputError(f"{raw}: no such file under {self.root}")
        return path

    def budget_s(self, budget_s: float | None, default: float | None = None) -> float:
        if budget_s is None:
            return min(default or self.default_call_s, self.max_call_s)
        if isinstance(budget_s, bool) or not isinstance(budget_s, (int, float)) or budget_s <= 0:
            raise ToolInputError("`budget_s` must be a positive number of seconds")
        return float(min(budget_s, self.max_call_s))

    def target(self, problem: str, language: str | None, theorem: str | None, seconds: float) -> tools.Target:
        from prover.budget import Budget
        from prover.workspace import Workspace

        p, trace = self.problem(problem, language, theorem)
        limits = self.config.budget.model_copy(update={"wall_s": seconds + 5.0})
        prover_cfg = self.config.prover.model_copy(update={"check_timeout_s": seconds})
        cfg = self.config.model_copy(update={"budget": limits, "prover": prover_cfg})
        return tools.Target.of_problem(Workspace(p, cfg, Budget(limits), trace, self.pool))

    def states(self, session: str | None) -> tools.StateTable:
        """The proof-state table of one MCP session (ids last as long as it does; the 1,000
        most recent HTTP sessions are kept). stdio: one table (one process, one session)."""
        if session is None:
            return self._shared_states
        with self._lock:
            table = self._states.get(session)
            if table is None:
                table = self._states[session] = tools.StateTable()
                while len(self._states) > 1000:
                    self._states.popitem(last=False)
            self._states.move_to_end(session)
            return table

    def record(self, target: tools.Target, tool: str, answer: Any) -> None:
        data = answer.model_dump(mode="json") if hasattr(answer, "model_dump") else {"answer": str(answer)}
        target.ws.trace.emit("tool", problem=target.ws.problem.name, tool=tool, result=_short(data))

    def listing(self) -> list[dict[str, str]]:
        with self._lock:
            items = list(self._problems.items())
        return [
            {"id": pid, "theorem": p.theorem_name, "language": p.language,
             "problem": f"prover://problem/{pid}", "trace": f"prover://trace/{pid}"}
            for pid, (p, _t) in items
        ]

    def lookup(self, pid: str) -> tuple[Problem, Trace]:
        with self._lock:
            if pid not in self._problems:
                raise ToolInputError(f"unknown problem id {pid!r}; see prover://problems")
            return self._problems[pid]


def problem_id(text: str) -> str:
    """The stable id of a problem text in resource URIs."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def guess_language(text: str) -> str:
    """'rocq' or 'lean' from the text; raises ``ToolInputError`` when it cannot tell."""
    rocq = re.search(r"^\s*(Require|From\s+\S+\s+Require|Theorem|Lemma|Proof\s*\.|Qed\s*\.|Admitted\s*\.)", text, re.MULTILINE)
    lean = re.search(r"^\s*(import\s+\w|theorem\s|lemma\s|open\s|namespace\s)|:=\s*by\b|\bsorry\b", text, re.MULTILINE)
    if rocq and not lean:
        return "rocq"
    if lean and not rocq:
        return "lean"
    raise ToolInputError("cannot tell the proof assistant from the text: pass language='rocq' or 'lean'")


def _short(data: Any, limit: int = 2000) -> Any:
    text = json.dumps(data)
    return data if len(text) <= limit else {"truncated": text[:limit]}


def _fail(e: BaseException) -> Exception:
    """A tool error with a one-line message for an escaping exception."""
    from lean_tools.types import NotInstalled

    if isinstance(e, (ToolInputError, BadProblem)):
        return ToolInputError(str(e))
    if isinstance(e, NotInstalled):
        return ToolInputError(f"{e}")
    if isinstance(e, BudgetExceeded):
        return ToolInputError(f"the call's time limit was spent ({e.which})")
    return ToolInputError(f"internal error ({type(e).__name__}): {str(e).splitlines()[0] if str(e) else ''}")


ProblemArg = Annotated[str, Field(description="full text of a .v or .lean file (a path only under the server's --root)")]
LanguageArg = Annotated[Language | None, Field(description="'rocq' or 'lean' when the text alone does not say")]
TheoremArg = Annotated[str | None, Field(description="the target theorem's name, when the file has several")]
BudgetArg = Annotated[float | None, Field(description="this call's time limit in seconds")]


def build_server(host: ToolHost, *, name: str = "prover") -> MCPServer:
    """An ``MCPServer`` serving ``prover.tools`` on ``host`` (``host.close()`` is called on shutdown)."""

    @contextlib.asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[None]:
        try:
            yield None
        finally:
            await anyio.to_thread.run_sync(host.close)

    mcp = MCPServer(name, instructions=INSTRUCTIONS, lifespan=lifespan)
    register(mcp, host)
    return mcp


INSTRUCTIONS = (
    "Formal proof tools for Rocq and Lean. Pass the full problem file as `problem`. "
    "goals/run_tactic step through a proof; check compiles a candidate; auto_close runs the built-in search; "
    "verify gives the only verdict that counts (accepted true/false with a reason)."
)


def register(mcp: MCPServer, host: ToolHost) -> None:
    """Register the tools (``prover.tools.SERVED``, under those names) and the resources on ``mcp``.

    ``prover-mcp`` and the verifiers toolset (``environments/prover_tasks``) both serve through this."""
    _register_interactive(mcp, host)
    _register_automation(mcp, host)
    _register_verdict(mcp, host)
    _register_resources(mcp, host)
    register_project(mcp, host, _fail)


def _call(host: ToolHost, tool: str, where: _Where, fn: Callable[[tools.Target], Any], default_s: float | None = None) -> Any:
    """``fn`` on the target ``where`` names, under the call's time limit (``default_s`` when the
    call gives none); every failure becomes a one-line tool error; the answer is traced."""
    try:
        t = host.target(where.problem, where.language, where.theorem, host.budget_s(where.budget_s, default_s))
        answer = fn(t)
    except Exception as e:  # noqa: BLE001 - every failure becomes a one-line tool error
        raise _fail(e) from None
    host.record(t, tool, answer)
    return answer


@dataclass(frozen=True)
class _Where:
    """The arguments every tool takes: the problem, its language and theorem, the time limit."""

    problem: str
    language: str | None
    theorem: str | None
    budget_s: float | None


def _register_interactive(mcp: MCPServer, host: ToolHost) -> None:
    """``check``, ``goals``, ``run_tactic``: compile a candidate, step through a proof."""

    @mcp.tool(name="check")
    def check(problem: ProblemArg, proof: Annotated[str, Field(description="a whole candidate file, or just the proof body")],
              theorem: TheoremArg = None, language: LanguageArg = None, budget_s: BudgetArg = None) -> CheckReport:
        """Compile a candidate proof against the problem: errors with line numbers (in the text sent), the goals left open (at each hole). Holes are allowed here; only verify decides."""  # noqa: E501 - the tool description an MCP client shows, one line
        where = _Where(problem, language, theorem, budget_s)
        return _call(host, "check", where, lambda t: tools.check(t, proof, budget_s=host.budget_s(budget_s)))

    @mcp.tool(name="goals")
    def goals(ctx: Context, problem: ProblemArg, theorem: TheoremArg = None,
              proof: Annotated[str | None, Field(description="tactics so far (or a partial file); empty: the statement")] = None,
              language: LanguageArg = None, budget_s: BudgetArg = None) -> GoalsReport:
        """The goals after a proof prefix, and a state id for run_tactic (ids last for this MCP session)."""
        states = host.states(_session(ctx))
        where = _Where(problem, language, theorem, budget_s)
        return _call(host, "goals", where, lambda t: tools.goals(t, proof or "", states=states, budget_s=host.budget_s(budget_s)))

    @mcp.tool(name="run_tactic")
    def run_tactic(ctx: Context, problem: ProblemArg, state: Annotated[int, Field(description="a state id from goals or run_tactic")],
                   tactic: Annotated[str, Field(description="one tactic or tactic block, e.g. 'intros n.'")],
                   theorem: TheoremArg = None, language: LanguageArg = None, budget_s: BudgetArg = None) -> TacticReport:
        """Run one tactic from a state: the new state, its goals, whether the proof is closed (then `proof` is the whole candidate file, for verify)."""  # noqa: E501 - the tool description an MCP client shows, one line
        states = host.states(_session(ctx))
        where = _Where(problem, language, theorem, budget_s)
        return _call(host, "run_tactic", where, lambda t: tools.run_tactic(t, states, state, tactic, budget_s=host.budget_s(budget_s)))


def _register_automation(mcp: MCPServer, host: ToolHost) -> None:
    """``search``, ``auto_close``, ``hammer``: the library and the built-in automation."""

    @mcp.tool(name="search")
    def search(
        problem: ProblemArg,
        query: Annotated[
            str, Field(description="Rocq: a Search pattern, e.g. (_ * _ <= _ * _) or Nat.mod; Lean: ignored (exact?/apply? on the theorem)")
        ],
        theorem: TheoremArg = None,
        language: LanguageArg = None,
        budget_s: BudgetArg = None,
    ) -> SearchReport:
        """Search the library in the problem's environment (Rocq `Search`; Lean `exact?`/`apply?`)."""
        return _call(host, "search", _Where(problem, language, theorem, budget_s), lambda t: tools.search(t, query))

    @mcp.tool(name="auto_close")
    def auto_close(
        problem: ProblemArg, theorem: TheoremArg = None, language: LanguageArg = None, budget_s: BudgetArg = None
    ) -> AutoCloseReport:
        """The built-in search and tactic portfolio on the theorem (or a lemma of the file, by `theorem`). When `proved`, `proof` is the whole candidate file, ready for verify; else `tried` says what was tried."""  # noqa: E501 - the tool description an MCP client shows, one line
        default = host.config.search.timeout_s
        return _call(host, "auto_close", _Where(problem, language, theorem, budget_s),
                     lambda t: tools.auto_close(t, budget_s=host.budget_s(budget_s, default)), default_s=default)

    @mcp.tool(name="hammer")
    def hammer(problem: ProblemArg, theorem: TheoremArg = None, language: LanguageArg = None, budget_s: BudgetArg = None) -> HammerReport:
        """Rocq: CoqHammer alone on the theorem (or a lemma) after intros; slow (20-60 s), often fails. When `proved`, `proof` keeps the replayed sauto/hauto reconstruction (no ATP, no hammer call), ready for verify."""  # noqa: E501 - the tool description an MCP client shows, one line
        default = host.config.search.hammer_timeout_s
        return _call(host, "hammer", _Where(problem, language, theorem, budget_s),
                     lambda t: tools.hammer(t, budget_s=host.budget_s(budget_s, default)), default_s=default)


def _register_verdict(mcp: MCPServer, host: ToolHost) -> None:
    """``verify`` (the soundness verdict) and ``prove`` (the whole pipeline, with progress)."""

    @mcp.tool(name="verify")
    def verify(problem: ProblemArg, proof: Annotated[str, Field(description="the whole candidate file")],
               theorem: TheoremArg = None, language: LanguageArg = None, budget_s: BudgetArg = None) -> VerifyReport:
        """The full soundness verdict, the only answer that means 'proved': a fresh compile, the statement unchanged, no axioms, no holes, no IO or code loading. `accepted` false with a `reason` is a normal answer."""  # noqa: E501 - the tool description an MCP client shows, one line
        default = host.config.prover.verify_timeout_s
        return _call(host, "verify", _Where(problem, language, theorem, budget_s),
                     lambda t: tools.verify(t, proof, budget_s=host.budget_s(budget_s, default)), default_s=default)

    @mcp.tool(name="prove")
    async def prove(ctx: Context, problem: ProblemArg, theorem: TheoremArg = None, language: LanguageArg = None,
                    budget_s: BudgetArg = None) -> ProveReport:
        """The whole pipeline on the problem (the built-in search, or the model pipeline when the server's config names a model), with progress notifications; long-running. `proved` only after the soundness verdict."""  # noqa: E501 - the tool description an MCP client shows, one line
        seconds = host.budget_s(budget_s, host.max_call_s)
        try:
            p, trace = host.problem(problem, language, theorem)
        except Exception as e:  # noqa: BLE001
            raise _fail(e) from None
        cfg = host.config.model_copy(update={
            "budget": host.config.budget.model_copy(update={"wall_s": seconds}),
            "search": host.config.search.model_copy(update={"timeout_s": min(host.config.search.timeout_s, seconds)}),
        })
        cancel = threading.Event()
        count = [0]

        def on_event(ev) -> None:
            count[0] += 1
            what = ev.data.get("stage") or ev.kind
            with contextlib.suppress(Exception):
                anyio.from_thread.run(ctx.report_progress, float(count[0]), None, f"{what}")

        try:
            return await anyio.to_thread.run_sync(
                lambda: prove_report(p, cfg, pool=host.pool, trace=trace, cancel=cancel, on_event=on_event),
                abandon_on_cancel=True,
            )
        except BaseException as e:
            cancel.set()
            if isinstance(e, Exception):
                raise _fail(e) from None
            raise


def _register_resources(mcp: MCPServer, host: ToolHost) -> None:
    """The resources: the problems seen, a problem's text, a problem's trace."""

    @mcp.resource("prover://problems", mime_type="application/json")
    def problems() -> str:
        """The problems this server has seen, with their resource URIs."""
        return json.dumps(host.listing())

    @mcp.resource("prover://problem/{pid}", mime_type="text/plain")
    def problem_text(pid: str) -> str:
        """The text of a problem, by id (first 16 hex digits of its SHA-256)."""
        return host.lookup(pid)[0].text

    @mcp.resource("prover://trace/{pid}", mime_type="application/x-ndjson")
    def problem_trace(pid: str) -> str:
        """Every tool call and search/pipeline event on a problem, as JSONL trace events."""
        trace = host.lookup(pid)[1]
        return "".join(e.to_json() + "\n" for e in list(trace.events))


def _session(ctx: Context | None) -> str | None:
    """The MCP session id of a streamable-HTTP call; None on stdio (one process, one session)."""
    try:
        request = ctx.request_context.request if ctx is not None else None
    except Exception:  # noqa: BLE001 - outside a request (a direct call)
        return None
    headers = getattr(request, "headers", None)
    return headers.get("mcp-session-id") if headers is not None else None
