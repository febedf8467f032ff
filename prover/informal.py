"""The natural-language prover: solve -> verify -> revise -> select, with the sandbox checking
flagged claims.

``solve_informal(problem, llm, config, budget=, trace=)`` returns an ``InformalOutcome``:

1. **Candidates**: ``informal.n`` proofs from one request (``sample_many``: the API's ``n``
   where the client has ``chat_many``, else ``n`` calls), at ``informal.temperature``.
2. **Verify**: each candidate is graded against the rubric (``prompts/informal_rubric.md``,
   task ``informal_verify.md``); the judgement ``{reasoning, score, flags: [{step, issue,
   check_code?}]}`` is asked for as a JSON-schema ``response_format`` where the server takes
   it (dropped for the rest of the loop when it refuses), its strings bounded by
   ``informal.reasoning_chars`` and its flags by ``informal.max_flags`` so that it closes before
   ``max_tokens``; it is parsed from the text either way.
   A judgement that does not parse scores 0. Each flag's ``check_code`` (up to
   ``informal.max_checks``) runs in the Python tool's sandbox; a check that fails its
   ``assert`` (``refuted``) caps the score at ``informal.refuted_cap``.
3. **Revise**: for up to ``informal.revision_rounds`` rounds, every candidate whose best
   version parsed and was judged below ``informal.accept_score`` (or refuted) is revised from
   that version with its judgement and check results as feedback, and the revision is judged.
4. **Select**: per sample, its best-judged version; these ranked by score (ties: the earlier
   sample). The first goes to the sketch; the rest are ``InformalOutcome.ranked`` for later
   sketch rounds (``informal.rotate``).

Every model call goes through ``prover.chat`` (budget check, token charge, ``llm_call`` event).
Each step is a typed record in the trace: ``informal_candidate``, ``informal_judgement``,
``sandbox_check``, ``informal_revision``, ``informal_selected``. The loop stops itself
(``stopped_by = "budget_share"``) once it used ``informal.budget_share`` of the run's wall
budget or token budget, and selects from what it has; the run's own budget stops propagate
as ``BudgetExceeded``.

``grade_proof`` is the verify step alone; ``solve_informal`` uses it for a user's
``--informal`` proof (``informal.grade_user``), which is graded but never rewritten.

Not covered: the judge and the prover are the same model; no majority vote over several
judgements of one candidate; a revision that scores lower than its parent is kept in the trace
but the lineage's best version is what is ranked.
"""

from __future__ import annotations

import contextvars
import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from lean_tools.assistant import assistant
from lean_tools.sandbox import RunResult
from lean_tools.types import Record

from . import prompts
from .budget import Budget
from .chat import call_model_many
from .config import ProverConfig
from .llm.base import ChatMessage, ChatModel, request_deadline
from .records import (
    InformalCandidate,
    InformalJudgement,
    InformalProof,
    InformalRevision,
    InformalSelection,
    JudgementFlag,
    Problem,
    SandboxCheck,
)
from .trace import Trace

PythonRunner = Callable[[str], RunResult]
"""Runs a Python snippet in the sandbox (``prover.workspace.run_python_snippet``)."""

JUDGEMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string"},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "flags": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "step": {"type": "string"},
                    "issue": {"type": "string"},
                    "check_code": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["step", "issue", "check_code"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["reasoning", "score", "flags"],
    "additionalProperties": False,
}
"""The judgement's shape; ``reasoning`` comes first so that a constrained decoder writes it
before the score."""

RESPONSE_FORMAT: dict[str, Any] = {"type": "json_schema", "json_schema": {"name": "judgement", "schema": JUDGEMENT_SCHEMA, "strict": True}}


def response_format(max_chars: int | None, max_flags: int) -> dict[str, Any]:
    """``RESPONSE_FORMAT`` with length bounds: the reasoning at most ``max_chars`` characters
    (None: unbounded), at most ``max_flags`` flags, each field of a flag bounded too, so that a
    constrained decoder closes the object before ``max_tokens`` cuts it off."""
    schema = json.loads(json.dumps(JUDGEMENT_SCHEMA))
    props = schema["properties"]
    if max_chars is not None:
        props["reasoning"]["maxLength"] = max_chars
        item = props["flags"]["items"]["properties"]
        item["step"]["maxLength"] = max(40, max_chars // 10)
        item["issue"]["maxLength"] = max(80, max_chars // 4)
        item["check_code"]["anyOf"][0]["maxLength"] = max(200, max_chars // 2)
    props["flags"]["maxItems"] = max_flags
    return {"type": "json_schema", "json_schema": {"name": "judgement", "schema": schema, "strict": True}}


class InformalOutcome(Record):
    """What the loop hands on: the proof for the sketch, the other candidates ranked, and the
    selection record (None when no loop ran: the user's proof, or no model)."""

    selected: InformalProof
    ranked: tuple[InformalProof, ...] = ()
    """One proof per sample (its best-judged version), best first; ``ranked[0]`` is
    ``selected`` when the loop produced any candidate."""
    selection: InformalSelection | None = None


# --- judgement parsing ---------------------------------------------------------------------------
def parse_judgement(text: str) -> tuple[dict[str, Any] | None, str]:
    """The judgement object in a model's answer: the whole text as JSON, else the last fenced
    ``json`` block, else the last balanced ``{...}`` that parses. Returns ``(obj, prose)`` where
    ``prose`` is any text before the object (reasoning written outside the JSON), or
    ``(None, why)`` when nothing parses."""
    stripped = text.strip()
    if not stripped:
        return None, "empty answer"
    try:
        obj = json.loads(stripped)
        if isinstance(obj, dict):
            return obj, ""
    except json.JSONDecodeError:
        pass
    for m in reversed(list(re.finditer(r"```(?:json)?\s*\n(.*?)```", text, re.DOTALL))):
        try:
            obj = json.loads(m.group(1))
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return obj, text[: m.start()].strip()
    for start in reversed([i for i, ch in enumerate(text) if ch == "{"]):
        end = _balanced_end(text, start)
        if end is None:
            continue
        try:
            obj = json.loads(text[start:end])
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and "score" in obj:
            return obj, text[:start].strip()
    return None, "no JSON object in the answer"


def _balanced_end(text: str, start: int) -> int | None:
    depth, in_str, esc = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def judgement_from_text(candidate: str, text: str, *, structured: bool = False) -> InformalJudgement:
    """A typed judgement from a model's answer. Unparseable (no object, no numeric ``score`` in
    [0, 1], ``flags`` not a list): score 0, ``parsed`` false, ``error`` says why. A flag that is
    not an object with a ``step`` and an ``issue`` is dropped."""
    obj, prose = parse_judgement(text)
    if obj is None:
        return InformalJudgement(candidate=candidate, score=0.0, parsed=False, structured=structured, error=prose, reasoning=text[:4000])
    score = obj.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= float(score) <= 1.0:
        return InformalJudgement(
            candidate=candidate,
            score=0.0,
            parsed=False,
            structured=structured,
            error=f"score is not a number in [0, 1]: {score!r}",
            reasoning=text[:4000],
        )
    raw_flags = obj.get("flags", [])
    if not isinstance(raw_flags, list):
        return InformalJudgement(
            candidate=candidate, score=0.0, parsed=False, structured=structured, error="flags is not a list", reasoning=text[:4000]
        )
    flags = []
    for f in raw_flags:
        if not isinstance(f, dict) or not str(f.get("issue") or "").strip():
            continue
        code = f.get("check_code")
        flags.append(
            JudgementFlag(
                step=str(f.get("step") if f.get("step") is not None else "")[:500],
                issue=str(f["issue"])[:1000],
                check_code=code if isinstance(code, str) and code.strip() else None,
            )
        )
    reasoning = str(obj.get("reasoning") or "")
    if prose:
        reasoning = (prose + "\n\n" + reasoning).strip()
    return InformalJudgement(
        candidate=candidate,
        score=float(score),
        model_score=float(score),
        reasoning=reasoning[:8000],
        flags=tuple(flags),
        structured=structured,
    )


def check_status(r: RunResult) -> Literal["holds", "refuted", "error", "timeout"]:
    """``holds`` / ``refuted`` (the claim's ``assert`` failed) / ``timeout`` / ``error``."""
    if r.timed_out:
        return "timeout"
    if r.returncode == 0:
        return "holds"
    if re.search(r"^AssertionError\b", r.stderr, re.MULTILINE):
        return "refuted"
    return "error"


# --- the loop's budget ---------------------------------------------------------------------------
class _Share:
    """The loop's slice of the run's budget: ``budget_share`` of the wall limit (from the loop's
    start, never past the run's end) and of the token limit."""

    def __init__(self, budget: Budget, share: float):
        self.budget = budget
        self.t0 = time.monotonic()
        self.in0, self.out0 = budget.tokens_in, budget.tokens_out
        self.tokens0 = self.in0 + self.out0
        self.calls0 = budget.llm_calls
        self.deadline = self.t0 + min(share * budget.limits.wall_s, budget.remaining_wall())
        self.token_cap = share * budget.limits.tokens
        self.stopped_by: str | None = None
        self._lock = threading.Lock()

    @property
    def tokens(self) -> int:
        return self.budget.tokens_in + self.budget.tokens_out - self.tokens0

    @property
    def tokens_split(self) -> tuple[int, int]:
        """(prompt, completion) tokens the loop used so far."""
        return self.budget.tokens_in - self.in0, self.budget.tokens_out - self.out0

    @property
    def calls(self) -> int:
        return self.budget.llm_calls - self.calls0

    def spent(self) -> bool:
        """True (and ``stopped_by`` set) once the share is used; the run's own limits are
        checked by ``Budget.check`` inside each call."""
        if time.monotonic() >= self.deadline or self.tokens >= self.token_cap:
            with self._lock:
                self.stopped_by = "budget_share"
            return True
        return False


def _map(fn: Callable[[Any], Any], items: Sequence[Any], workers: int) -> list[Any]:
    """``fn`` over ``items`` with up to ``workers`` threads, results in order; the first
    exception (a budget stop) is re-raised after every started call returned. Each thread
    runs in a copy of the caller's context (so ``request_deadline`` applies there too)."""
    if workers <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(workers, len(items)), thread_name_prefix="informal") as ex:
        futures = [ex.submit(contextvars.copy_context().run, fn, x) for x in items]
        errors = [f.exception() for f in futures]
    for e in errors:
        if e is not None:
            raise e
    return [f.result() for f in futures]


# --- the loop --------------------------------------------------------------------------------------
class _Loop:
    def __init__(self, problem: Problem, llm: ChatModel, config: ProverConfig, budget: Budget, trace: Trace, run_python: PythonRunner):
        self.p = problem
        self.llm = llm
        self.cfg = config
        self.s = config.informal
        self.budget = budget
        self.trace = trace
        self.run_python = run_python
        self.values = dict(assistant(problem.language).prompt_values)
        self.statement = (problem.preamble.strip() + "\n\n" + problem.declaration).strip()
        self.structured = self.s.structured_output
        self._lock = threading.Lock()
        self.share = _Share(budget, self.s.budget_share)

    def _emit(self, kind: str, **data: Any) -> None:
        self.trace.emit(kind, problem=self.p.name, **data)

    def _call(self, messages: list[ChatMessage], *, n: int, temperature: float, stage: str, response_format=None):
        sampling = self.cfg.sampling.model_copy(update={"temperature": temperature})
        return call_model_many(
            self.llm,
            messages,
            n=n,
            budget=self.budget,
            trace=self.trace,
            problem=self.p.name,
            stage=stage,
            sampling=sampling,
            response_format=response_format,
        )

    # --- verify -------------------------------------------------------------------------------
    def judge(self, cid: str, text: str) -> InformalJudgement | None:
        """Grade ``text``: one model call, then the flags' checks in the sandbox. None (no call)
        when the loop's share of the budget is spent."""
        if self.share.spent():
            return None
        limit = f" (at most {self.s.reasoning_chars} characters)" if self.s.reasoning_chars is not None else ""
        user = prompts.render(
            "informal_verify",
            statement_block=self.statement,
            proof=text.strip(),
            rubric=prompts.render("informal_rubric"),
            reasoning_limit=limit,
            max_flags=self.s.max_flags,
            **self.values,
        )
        msgs = [ChatMessage(role="user", content=user)]
        structured = self.structured
        fmt = response_format(self.s.reasoning_chars, self.s.max_flags) if structured else None
        (resp,) = self._call(msgs, n=1, temperature=self.s.verify_temperature, stage="informal_verify", response_format=fmt)
        if structured and resp.format_dropped:  # the client asked again without it and says so (llm_fallback)
            with self._lock:
                self.structured = False
            structured = False
        elif structured and not resp.ok and _refuses_format(resp.error or ""):
            with self._lock:
                self.structured = False
            self._emit("llm_fallback", stage="informal_verify", reason=f"structured output refused: {(resp.error or '')[:200]}")
            (resp,) = self._call(msgs, n=1, temperature=self.s.verify_temperature, stage="informal_verify")
            structured = False
        if not resp.ok:
            j = InformalJudgement(candidate=cid, score=0.0, parsed=False, structured=structured, error=f"model error: {resp.error}")
        else:
            j = judgement_from_text(cid, resp.text, structured=structured)
        if j.parsed:
            j = self._run_checks(j)
        self._emit("informal_judgement", candidate=cid, score=j.score, parsed=j.parsed, flags=len(j.flags), refuted=j.refuted, record=j)
        return j

    def _run_checks(self, j: InformalJudgement) -> InformalJudgement:
        checks: list[SandboxCheck] = []
        for i, flag in enumerate(j.flags):
            if flag.check_code is None or len(checks) >= self.s.max_checks or self.share.spent():
                continue
            self.budget.check()
            t0 = time.monotonic()
            r = self.run_python(flag.check_code)
            out = (r.stdout[-600:] + ("\n" + r.stderr[-600:] if r.stderr.strip() else "")).strip()
            chk = SandboxCheck(
                candidate=j.candidate,
                flag=i,
                code=flag.check_code,
                status=check_status(r),
                output=out,
                wall_s=round(time.monotonic() - t0, 3),
            )
            checks.append(chk)
            self._emit("sandbox_check", candidate=j.candidate, flag=i, status=chk.status, record=chk)
        score = j.model_score
        if any(c.status == "refuted" for c in checks):
            score = min(score, self.s.refuted_cap)
        return j.model_copy(update={"checks": tuple(checks), "score": score})

    # --- revise -------------------------------------------------------------------------------
    def revise(self, item: tuple[InformalCandidate, InformalJudgement, int]) -> InformalCandidate | None:
        cand, j, rnd = item
        if self.share.spent():
            return None
        user = prompts.render(
            "informal_revise",
            statement_block=self.statement,
            proof=cand.text.strip(),
            score=f"{j.score:.2f}",
            judgement=feedback_text(j),
            **self.values,
        )
        (resp,) = self._call([ChatMessage(role="user", content=user)], n=1, temperature=self.s.temperature, stage="informal_revise")
        new = None
        if resp.ok and resp.text.strip():
            new = InformalCandidate(
                id=f"c{cand.index}r{rnd}",
                index=cand.index,
                round=rnd,
                text=resp.text.strip(),
                parent=cand.id,
                finish=resp.finish_reason,
                tokens_out=resp.usage.completion_tokens,
            )
        rev = InformalRevision(
            candidate=cand.id, round=rnd, revised=new.id if new else None, error=None if new else (resp.error or "empty answer")
        )
        self._emit("informal_revision", candidate=cand.id, round=rnd, revised=rev.revised, record=rev, new=new)
        return new

    # --- the whole loop ---------------------------------------------------------------------------
    def run(self) -> InformalOutcome:
        with request_deadline(self.share.deadline):
            return self._run()

    def _run(self) -> InformalOutcome:
        user = prompts.render("informal", statement_block=self.statement, **self.values)
        n = self.s.n if self.s.verify else 1
        resps = self._call([ChatMessage(role="user", content=user)], n=n, temperature=self.s.temperature, stage="informal")
        cands: list[InformalCandidate] = []
        for i, r in enumerate(resps):
            if r.ok and r.text.strip():
                c = InformalCandidate(
                    id=f"c{i}", index=i, text=r.text.strip(), finish=r.finish_reason, tokens_out=r.usage.completion_tokens
                )
                cands.append(c)
                self._emit("informal_candidate", candidate=c.id, round=0, record=c)
        versions: dict[int, list[tuple[InformalCandidate, InformalJudgement | None]]] = {c.index: [(c, None)] for c in cands}
        if cands and self.s.verify:
            for c, j in zip(cands, _map(lambda c: self.judge(c.id, c.text), cands, self.s.parallel), strict=True):
                versions[c.index] = [(c, j)]
            for rnd in range(1, self.s.revision_rounds + 1):
                to_revise = []
                for lineage in versions.values():
                    best_c, best_j = _best(lineage)
                    if best_j is not None and best_j.parsed and (best_j.score < self.s.accept_score or best_j.refuted):
                        to_revise.append((best_c, best_j, rnd))
                if not to_revise or self.share.spent():
                    break
                fresh = [c for c in _map(self.revise, to_revise, self.s.parallel) if c is not None]
                judged = _map(lambda c: self.judge(c.id, c.text), fresh, self.s.parallel)
                for c, j in zip(fresh, judged, strict=True):
                    versions[c.index].append((c, j))
        return self._select(versions, self.share)

    def _select(self, versions: dict[int, list[tuple[InformalCandidate, InformalJudgement | None]]], share: _Share) -> InformalOutcome:
        best = [_best(v) for _, v in sorted(versions.items())]
        best.sort(key=lambda cj: (-(cj[1].score if cj[1] is not None else -1.0), cj[0].index))
        ranked = tuple(
            InformalProof(
                problem=self.p.name,
                text=c.text,
                source="llm",
                candidate=c.id,
                score=j.score if j is not None else None,
                flags=j.flags if j is not None else (),
            )
            for c, j in best
        )
        sel = InformalSelection(
            problem=self.p.name,
            selected=ranked[0].candidate if ranked else None,
            ranking=tuple((p.candidate or "", p.score if p.score is not None else -1.0) for p in ranked),
            stopped_by=share.stopped_by,
            reason="no candidate: every sample failed" if not ranked else ("unjudged (verify off)" if not self.s.verify else "best-judged"),
            calls=share.calls,
            tokens=share.tokens,
            wall_s=round(time.monotonic() - share.t0, 3),
        )
        self._emit(
            "informal_selected", selected=sel.selected, stopped_by=sel.stopped_by, ranking=[list(r) for r in sel.ranking], record=sel
        )
        if not ranked:
            return InformalOutcome(selected=InformalProof(problem=self.p.name, text="", source="none"), selection=sel)
        tin, tout = share.tokens_split
        first = ranked[0].model_copy(update={"tokens_in": tin, "tokens_out": tout})
        return InformalOutcome(selected=first, ranked=(first, *ranked[1:]), selection=sel)


def _best(versions: list[tuple[InformalCandidate, InformalJudgement | None]]) -> tuple[InformalCandidate, InformalJudgement | None]:
    """The best-judged version (ties: the earlier one); the original when none was judged."""
    judged = [(c, j) for c, j in versions if j is not None]
    if not judged:
        return versions[0]
    return max(judged, key=lambda cj: (cj[1].score, -cj[0].round))


def _refuses_format(error: str) -> bool:
    e = error.lower()
    return ("400" in e or "422" in e or "unsupported" in e) and any(
        w in e for w in ("response_format", "json_schema", "structured", "guided")
    )


def feedback_text(j: InformalJudgement) -> str:
    """The judgement as the revision prompt shows it: reasoning, flags, and each check's result."""
    lines = [j.reasoning.strip()[:3000] or "(no reasoning given)"]
    by_flag = {c.flag: c for c in j.checks}
    for i, f in enumerate(j.flags):
        lines.append(f"- Step {f.step}: {f.issue}")
        c = by_flag.get(i)
        if c is not None:
            verdict = {"holds": "HOLDS", "refuted": "REFUTED (the claim is false)", "timeout": "timed out", "error": "could not run"}[
                c.status
            ]
            lines.append(f"  Check: {verdict}\n  ```python\n{c.code.strip()}\n  ```\n  Output: {c.output[-400:] or '(none)'}")
    return "\n".join(lines)


# --- entry points ------------------------------------------------------------------------------------
def grade_proof(
    problem: Problem,
    text: str,
    llm: ChatModel,
    config: ProverConfig,
    *,
    budget: Budget,
    trace: Trace,
    run_python: PythonRunner | None = None,
    candidate: str = "user",
) -> InformalJudgement | None:
    """The verify step alone on ``text`` (an ``informal_judgement`` event, and ``sandbox_check``
    events for its checks), bounded by the loop's budget share; None when that share is
    already spent."""
    loop = _Loop(problem, llm, config, budget, trace, run_python or _default_runner(config))
    with request_deadline(loop.share.deadline):
        return loop.judge(candidate, text)


def solve_informal(
    problem: Problem, llm: ChatModel | None, config: ProverConfig, *, budget: Budget, trace: Trace, run_python: PythonRunner | None = None
) -> InformalOutcome:
    """The informal proof for the sketch stage (see the module docstring).

    The user's proof (``problem.informal``) is used as given, graded when a model is configured
    and ``informal.grade_user`` is on. Without a model, or with ``prover.informal`` off, the
    outcome's proof is empty (``source="none"``). Raises ``BudgetExceeded`` when the run's own
    budget is spent."""
    if problem.informal:
        proof = InformalProof(problem=problem.name, text=problem.informal, source="user", candidate="user")
        if llm is not None and config.informal.grade_user:
            j = grade_proof(problem, problem.informal, llm, config, budget=budget, trace=trace, run_python=run_python)
            if j is not None:
                proof = proof.model_copy(update={"score": j.score, "flags": j.flags})
        return InformalOutcome(selected=proof, ranked=(proof,))
    if llm is None or not config.prover.informal:
        return InformalOutcome(selected=InformalProof(problem=problem.name, text="", source="none"))
    return _Loop(problem, llm, config, budget, trace, run_python or _default_runner(config)).run()


def _default_runner(config: ProverConfig) -> PythonRunner:
    from .workspace import run_python_snippet

    timeout = config.prover.python_timeout_s
    return lambda code: run_python_snippet(code, timeout)
