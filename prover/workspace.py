"""Proof-assistant access for one problem: checks, goals, library search, built-in search,
the Python tool and the final verdict, all charged to the run's budget.

Every check runs in a pooled session whose header is the problem's imports plus its
preamble, so a fragment is just (context lemmas) + (one declaration with a proof).
Proof-assistant answers come back as ``CheckResult`` values: a timeout, a crash or a refused
request is a failed check with its reason, never an exception. Only ``NotInstalled`` (and
budget stops, ``BudgetExceeded``) propagate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from lean_tools import sandbox
from lean_tools.assistant import assistant
from lean_tools.rocq.project import load_path_args
from lean_tools.types import (
    InvalidRequest,
    NotInstalled,
    ProofAssistantError,
    SessionTimeout,
)

from .budget import Budget
from .config import ProverConfig
from .records import Problem, VerdictRecord
from .search.context_checker import InContextChecker
from .trace import Trace


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    """No errors."""
    complete: bool
    """No errors, no open goals, no holes in the checked declaration."""
    errors: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    cpu_s: float = 0.0
    wall_s: float = 0.0
    timed_out: bool = False
    hole_goals: tuple[str, ...] = ()
    """Goals at holes (Lean ``sorry``), when the backend reports them."""
    infos: tuple[str, ...] = ()
    """Info/warning messages (Lean ``exact?`` answers with "Try this: ...")."""

    def feedback(self, limit: int = 2500) -> str:
        if self.complete:
            return "OK: the proof is complete."
        parts = []
        if self.errors:
            parts.append("Errors:\n" + "\n".join(f"- {e}" for e in self.errors[:6]))
        if self.goals:
            parts.append("Open goals:\n" + "\n\n".join(self.goals[:4]))
        if not parts:
            parts.append("Not complete (a hole or unfinished proof remains).")
        return "\n".join(parts)[:limit]


@dataclass
class SearchOutcome:
    proved: bool
    proof: str | None
    reason: str
    seconds: float = 0.0
    attempts: int = 0
    extra: dict = field(default_factory=dict)


def run_python_snippet(code: str, timeout_s: float) -> sandbox.RunResult:
    """The Python tool's sandbox (shared by the lemma agents and the informal loop's claim
    checks): a fresh ``python3 -I`` on ``code`` in a private temporary directory, CPU time
    capped at ``timeout_s`` + 1, 1 GiB of memory, 16 MiB of files, no network where the OS
    allows a network namespace. Never raises for the snippet's failure."""
    return sandbox.run(
        ["python3", "-I", "snippet.py"],
        files={"snippet.py": code},
        timeout=timeout_s,
        limits=sandbox.Limits(cpu_seconds=int(timeout_s) + 1, memory_bytes=1024**3, file_bytes=16 * 1024**2),
    )


def _message_text(m) -> str:
    where = f"line {m.pos.line}: " if getattr(m, "pos", None) else ""
    return where + " ".join(m.text.split())[:400]


class Workspace:
    def __init__(self, problem: Problem, config: ProverConfig, budget: Budget, trace: Trace, pool):
        self.problem = problem
        self.config = config
        self.budget = budget
        self.trace = trace
        self.pool = pool
        self.lang = assistant(problem.language)
        """The problem's proof assistant (``lean_tools.assistant``)."""
        self.imports = self.lang.imports_text(tuple(config.prover.allowed_requires))
        """The allowed extra imports as one sentence ("" if none): loaded in every check and
        placed first among the helpers of a candidate that relies on them."""
        pre = problem.header + problem.preamble
        if self.imports:
            pre = pre + ("" if pre.endswith("\n") or not pre else "\n") + self.imports + "\n"
        self.env_header = pre

    # --- raw checks ------------------------------------------------------------------------
    def check(self, code: str, *, timeout: float | None = None, attempt: bool = True, final_decl: str | None = None) -> CheckResult:
        """Run ``code`` against the problem's header + preamble. ``final_decl``: the proof body of
        the last declaration, screened for holes when deciding ``complete``."""
        self.budget.check()
        # a check never runs past the wall budget (by more than a second)
        timeout = min(timeout or self.config.prover.check_timeout_s, max(1.0, self.budget.remaining_wall()))
        try:
            with self.pool.session(self.problem.language, self.env_header) as s:
                out = s.run_command(code, timeout=timeout)
        except NotInstalled:
            raise
        except SessionTimeout:
            self.budget.charge_check(timeout, attempt=attempt)
            return CheckResult(False, False, (f"timeout: the check ran past {timeout:.0f}s",), timed_out=True, wall_s=timeout)
        except InvalidRequest as e:
            self.budget.charge_check(0.0, attempt=attempt)
            return CheckResult(False, False, (f"refused: {e}",))
        except ProofAssistantError as e:
            self.budget.charge_check(0.0, attempt=attempt)
            first = (str(e).splitlines() or [""])[0][:300]
            return CheckResult(False, False, (f"proof assistant failure ({type(e).__name__}): {first}",))
        self.budget.charge_check(out.cpu_seconds or out.wall_seconds, attempt=attempt)
        errors = tuple(_message_text(m) for m in out.errors)
        open_state = any(h.state is not None for h in out.holes)
        holed = final_decl is not None and self.lang.has_hole(final_decl)
        complete = not errors and not out.goals and not open_state and not holed
        hole_goals = tuple(h.goal for h in out.holes if h.goal and not h.goal.startswith("<"))
        infos = tuple(_message_text(m) for m in out.messages if m not in out.errors)
        return CheckResult(
            not errors, complete, errors, tuple(out.goals), out.cpu_seconds, out.wall_seconds, hole_goals=hole_goals, infos=infos
        )

    def check_decl(self, context: str, declaration: str, proof: str, *, timeout: float | None = None) -> CheckResult:
        """Check ``declaration`` with ``proof`` after ``context``. Error lines are renumbered
        relative to the proof body ("proof line 2: ..."), the way the model wrote it."""
        rendered = self.lang.render(declaration, proof).strip("\n")
        code = join_code(context, rendered)
        res = self.check(code, timeout=timeout, final_decl=proof)
        if not res.errors:
            return res
        opener = self.lang.proof_opener
        body_at = len(code) - len(rendered) + rendered.find(opener) + len(opener)
        first = code[:body_at].count("\n") + 1

        def renumber(e: str) -> str:
            m = re.match(r"line (\d+): ", e)
            if not m:
                return e
            n = int(m.group(1))
            where = f"proof line {n - first + 1}" if n >= first else "in the statement or context"
            return f"{where}: {e[m.end():]}"

        return replace(res, errors=tuple(renumber(e) for e in res.errors))

    def goals_after(self, context: str, declaration: str, prefix: str) -> CheckResult:
        """Goals after running ``prefix`` (possibly empty) on the declaration's proof."""
        res = self.check(join_code(context, self.lang.render_open(declaration, prefix)), attempt=False)
        if not res.goals and res.hole_goals:
            res = CheckResult(res.ok, res.complete, res.errors, res.hole_goals[-1:], res.cpu_s, res.wall_s, res.timed_out, res.hole_goals)
        return res

    def statement_error(self) -> str | None:
        """None if the theorem's statement compiles (with a hole), else the first error."""
        p = self.problem
        res = self.check(self.lang.render_hole(p.declaration), attempt=False, timeout=max(60.0, self.config.prover.check_timeout_s))
        return None if res.ok else (res.errors[0] if res.errors else "statement does not compile")

    # --- library search -----------------------------------------------------------------
    def search_library(self, query: str, context: str = "", declaration: str = "") -> str:
        """Rocq: ``Search`` in a batch ``coqtop`` on the header (output is not kept by sessions).
        Lean: ``exact?``/``apply?`` on the declaration's goal (``library_search_tactics``)."""
        self.budget.check()
        if self.lang.library_search_tactics:
            out = []
            for tac in self.lang.library_search_tactics:
                res = self.check(join_code(context, self.lang.render(declaration, tac)), attempt=False, timeout=60)
                out.append(f"{tac}: " + "; ".join(res.infos + res.errors or ("closed the goal",)))
            return "\n".join(out)[:4000]
        q = query.strip().rstrip(".").strip()
        bad = self.lang.search_query_error(q)
        if bad:
            return f"error: {bad}"
        try:
            r = sandbox.run(
                ["coqtop", "-quiet", *load_path_args()],
                stdin=self.env_header + f"\nSearch {q}.\n",
                timeout=30,
                limits=sandbox.Limits(cpu_seconds=30, memory_bytes=2 * 1024**3),
            )
        except FileNotFoundError:
            raise NotInstalled("coqtop", "run `prover-setup rocq`") from None
        self.budget.charge_check(r.cpu_seconds, attempt=False)
        text = re.sub(r"Coq < ", "", r.stdout).strip()
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith(("Welcome to Coq", "[Loading ML file"))]
        if not lines:
            return "no results" + (f" ({r.stderr.strip()[:200]})" if r.stderr.strip() else "")
        more = f"\n... ({len(lines) - 40} more)" if len(lines) > 40 else ""
        return "\n".join(lines[:40]) + more

    # --- built-in search (prover.search) --------------------------------------------------
    def run_search(
        self, statement_code: str, seconds: float, *, label: str = "", hammer: Literal["off", "fallback", "only"] | None = None
    ) -> SearchOutcome:
        """``prover.search.prove_goal`` on ``statement_code`` (context + declaration). ``hammer``
        overrides ``search.hammer`` for this call (``only``: CoqHammer alone, the ``hammer`` tool)."""
        self.budget.check()
        seconds = max(1.0, min(seconds, self.budget.remaining_wall()))
        try:
            from .search import SearchBudget, prove_goal
        except ImportError as e:  # the search package is part of this distribution
            return SearchOutcome(False, None, f"built-in search unavailable: {e}")
        cfg = self.config.search
        mode = hammer or cfg.hammer
        budget = SearchBudget(
            # hammer alone (the tool): the call's own seconds, which default to search.hammer_timeout_s
            seconds=seconds, hammer=mode, hammer_seconds=seconds if mode == "only" else cfg.hammer_timeout_s,
            knn_index=cfg.knn_index, knn_k=cfg.knn_k, own_imports=self.problem.in_project,
            lm_model=cfg.lm_model, lm_k=cfg.lm_k, lm_max_calls=cfg.lm_max_calls,
        )
        p = self.problem
        checker = InContextChecker(self.lang.checker(), self.env_header.rstrip(), p.closers) if p.in_project else None
        lang, recon = self.problem.language, self._reconstructions()
        # a hole of a project file: the session loads the file's text alone, the allowed imports
        # run with the statement (``prove_goal``'s prelude), so one session walks the file's holes
        prelude = self.imports if p.in_project else ""
        res = prove_goal(self.pool, self.env_header, statement_code, lang, budget, checker=checker, reconstructions=recon, prelude=prelude)
        self.budget.charge_check(res.checker_seconds, attempt=True)
        self.budget.charge_search_sources(
            model_calls=res.lm_calls, model_tokens=res.lm_tokens, model_s=res.lm_seconds, knn_s=res.knn_seconds)
        self.trace.emit(
            "search",
            problem=self.problem.name,
            lemma=label or None,
            proved=res.proved,
            reason=res.reason,
            seconds=round(res.wall_seconds, 3),
            tactic_attempts=res.attempts,
            tags=list(res.tags),
            **({"knn_tried": res.knn_tried, "knn_seconds": res.knn_seconds} if budget.knn_index else {}),
            **({"lm_tried": res.lm_tried, "lm_seconds": res.lm_seconds, "lm_calls": res.lm_calls} if budget.lm_model else {}),
        )
        # The search opens its proofs with its tactic libraries' imports; checks here already
        # load the allowed ones (``self.imports``), and imports never go inside a proof.
        proof = strip_imports(res.proof) if res.proof else res.proof
        # CoqHammer's reconstruction tactics are not among the allowed imports: a helper the proof needs
        needs = tuple(i for i in (HAMMER_TACTICS_IMPORT,) if res.proof and i in res.proof and i not in self.imports)
        return SearchOutcome(res.proved, proof, res.reason, res.wall_seconds, res.attempts, extra={"imports": needs})

    def _reconstructions(self):
        """The CoqHammer reconstruction cache (in the lemma cache's file; memory only without one)."""
        if getattr(self, "_recon_cache", None) is None:
            from .cache import ReconstructionCache

            path = self.config.prover.cache_path if self.config.search.hammer != "off" else None
            self._recon_cache = ReconstructionCache(path)
        return self._recon_cache

    # --- python tool ----------------------------------------------------------------------
    def run_python(self, code: str) -> str:
        """Run a snippet in a fresh sandboxed ``python3 -I`` (time and memory capped, private
        temporary directory, no network where the OS allows a network namespace)."""
        self.budget.check()
        r = run_python_snippet(code, self.config.prover.python_timeout_s)
        status = "timed out" if r.timed_out else f"exit {r.returncode}"
        out = (r.stdout[-3000:] + ("\n[stderr]\n" + r.stderr[-1500:] if r.stderr.strip() else "")).strip()
        return f"[{status}]\n{out}"

    # --- final verdict ---------------------------------------------------------------------
    def verify(self, candidate: str) -> VerdictRecord:
        """``lean_tools.soundness.verify`` in a fresh process; the only way to acceptance."""
        self.budget.check()
        try:
            from lean_tools.soundness import verify
        except ImportError as e:
            return VerdictRecord(accepted=False, reason=f"soundness verifier unavailable: {e}")
        p = self.problem
        allowed = frozenset(self.config.prover.allowed_requires)  # Rocq helpers' Require; Lean ignores it
        v = verify(
            p.text,
            candidate,
            p.language,
            theorem=p.theorem_name,
            timeout=self.config.prover.verify_timeout_s,
            allowed_requires=allowed,
            assumed=frozenset(p.assumed),
        )
        cpu = float(getattr(v, "cpu_seconds", 0.0) or getattr(v, "wall_seconds", 0.0) or 0.0)
        self.budget.charge_check(cpu, attempt=False)
        return VerdictRecord(accepted=bool(v.accepted), reason=str(v.reason))


HAMMER_TACTICS_IMPORT = "From Hammer Require Import Tactics."
"""``prover.search.hammer.TACTICS_IMPORT``: the one Hammer import the soundness verdict allows."""


def strip_imports(proof: str) -> str:
    """``proof`` without the import sentences at its start."""
    return re.sub(r"\A(?:\s*(?:From\s+\S+\s+)?Require\s+(?:Import\s+|Export\s+)?[^.]*\.\s*)+", "", proof)


def join_code(a: str, b: str) -> str:
    """Two pieces of code, one blank line apart (blank lines at their ends dropped); either may be empty."""
    a, b = a.strip("\n"), b.strip("\n")
    return f"{a}\n\n{b}" if a and b else (a or b)
