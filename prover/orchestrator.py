"""The pipeline for one problem.

Default mode (no model): statement check -> built-in search (``prover.search``) on the whole
theorem -> soundness verdict.

Agent mode: statement check -> (optional) built-in search on the whole theorem -> informal
proof (``prover.informal``: candidates, verified, revised, the best-judged selected; a failed
round may move on to the next-ranked one) -> up to ``sketch_rounds`` rounds of: sketch (checked, repaired from errors) -> the
lemmas the theorem needs, proved in parallel (``workers`` threads; dependencies first; each
lemma: cache, the sketch's own proof, the portfolio, then an agent) -> assembly -> verdict.
Lemmas that fail go back to the sketch stage as feedback for a different decomposition.

Budgets (wall, tokens, checker CPU, attempts) are checked before every step; a stop or a
Ctrl-C (``KeyboardInterrupt`` in the calling thread, or the ``cancel`` event) ends the run
with ``stopped_by`` set, a final ``end`` trace event, and every proof-assistant process of
a pool this run created killed.
"""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from lean_tools.types import NotInstalled

from .agent import LemmaAgent, render_helpers
from .budget import Budget
from .cache import LemmaCache, lemma_key
from .config import ProverConfig
from .errors import BadProblem, BudgetExceeded
from .informal import InformalOutcome, solve_informal
from .llm.base import request_deadline
from .problem import render_candidate
from .records import (
    Attempt,
    InformalProof,
    LemmaGoal,
    LemmaResult,
    LemmaSpec,
    Problem,
    ProofResult,
    Sketch,
    VerdictRecord,
)
from .sketch_stage import make_sketch
from .trace import Trace
from .workspace import Workspace, join_code, strip_imports

SKETCH_SHARE = 0.5
"""Most of the remaining wall budget the model calls of one sketch round may take."""
MAX_MODEL_ERRORS_IN_ROW = 4
"""Failed model calls in a row (across stages) after which the run stops with a clear reason."""


class Orchestrator:
    def __init__(
        self,
        problem: Problem,
        config: ProverConfig,
        *,
        trace: Trace,
        pool=None,
        llm=None,
        cancel: threading.Event | None = None,
        cache: LemmaCache | None = None,
        started: float | None = None,
    ):
        """Nothing starts here: the pool (when none is given) and the model client are made in ``run``."""
        self.problem = problem
        self.config = config
        self.trace = trace
        self._own_pool = pool is None
        self.pool = pool
        self.llm = llm
        self.budget = Budget(config.budget, cancel=cancel, started=started)
        self._ws: Workspace | None = None
        self._last_rejection: VerdictRecord | None = None
        self._cache = cache
        self.lemma_results: dict[str, LemmaResult] = {}
        self._informal: InformalProof | None = None
        self._results_lock = threading.Lock()

    def _setup(self) -> None:
        if self.pool is None:
            from lean_tools.pool import SessionPool

            # Lemma checks and the built-in search use different headers (the search adds its
            # tactic libraries), so each worker may hold two sessions.
            self.pool = SessionPool(max_sessions=min(16, 2 * self.config.prover.workers + 1))
        if self.llm is None and self.config.uses_model:
            from .llm import make_llm

            self.llm = make_llm(self.config)
        self._ws = Workspace(self.problem, self.config, self.budget, self.trace, self.pool)
        # The cache file is only opened when lemmas can occur (agent mode).
        path = self.config.prover.cache_path if self.llm is not None else None
        self.cache = self._cache if self._cache is not None else LemmaCache(path)

    @property
    def ws(self) -> Workspace:
        """The problem's workspace, made by ``run`` before any stage runs."""
        if self._ws is None:
            raise RuntimeError("the workspace exists only inside Orchestrator.run()")
        return self._ws

    # --- entry ---------------------------------------------------------------------------
    def run(self) -> ProofResult:
        p = self.problem
        try:
            self._setup()
        except BaseException:
            self._close()
            raise
        mode = "agent" if self.llm is not None else "default"
        self.trace.emit(
            "start",
            problem=p.name,
            language=p.language,
            theorem=p.theorem_name,
            mode=mode,
            config=self.config.summary(),
            model=getattr(self.llm, "name", ""),
        )
        result: ProofResult | None = None
        reason = ""
        try:
            if self.llm is not None:  # default mode: the search opens the statement itself
                err = self.ws.statement_error()
                if err is not None:
                    raise BadProblem(f"{p.path or p.name}: the statement of {p.theorem_name} does not compile: {err}")
            result = self._run_default() if self.llm is None else self._run_agent()
        except BudgetExceeded as e:
            reason = f"stopped: {e.which} budget spent" if e.which != "interrupt" else "interrupted"
            if self.budget.llm_errors_in_row and self.budget.last_llm_error:  # say why the model did not help
                reason += f" (last {self.budget.llm_errors_in_row} model call(s) failed: {self.budget.last_llm_error[:200]})"
            self.budget.stopped_by = self.budget.stopped_by or e.which
        except KeyboardInterrupt:
            self.budget.cancel()
            self.budget.stopped_by = "interrupt"
            reason = "interrupted"
        except Exception as e:  # BadProblem, NotInstalled, or a bug: the trace still gets its end
            self.trace.emit("end", problem=p.name, proved=False, reason=f"{type(e).__name__}: {e}", spent=self.budget.spent())
            self._close()
            raise
        finally:
            if result is None and not reason:
                self._close()
        if result is None:
            result = self._result(False, reason=reason, mode=mode)
        self.trace.emit("end", problem=p.name, proved=result.proved, reason=result.reason, stopped_by=result.stopped_by, spent=result.spent)
        self._close()
        return result

    def _close(self) -> None:
        if self._own_pool and self.pool is not None:
            self.pool.close()

    def _result(
        self, proved: bool, *, reason: str, mode: str, text: str | None = None, verdict: VerdictRecord | None = None
    ) -> ProofResult:
        with self._results_lock:
            lemmas = tuple(self.lemma_results.values())
        return ProofResult(
            problem=self.problem.name,
            language=self.problem.language,
            proved=proved,
            proof_text=text if proved else None,
            reason=reason,
            spent=self.budget.spent(),
            lemmas=lemmas,
            verdict=verdict,
            mode=mode,  # type: ignore[arg-type]
            model=getattr(self.llm, "name", "") if self.llm is not None else "",
            stopped_by=self.budget.stopped_by,
            informal=self._informal,
        )

    def _accept(self, proof: str, lemmas_text: str, mode: str, how: str) -> ProofResult | None:
        """Assemble and ask the soundness verdict.

        Import sentences never go inside a proof: the ones the built-in search puts at the top
        of its proofs are dropped, and the workspace's allowed imports
        (``prover.allowed_requires``, e.g. ``From Coq Require Import Lia Lra Psatz.``) become the
        first helper sentence when the proof may need them: always in agent mode (lemmas were
        checked with them loaded), in default mode when a decision procedure from them is used.
        A default-mode proof without them is retried with them if the verdict rejects it."""
        stripped = strip_imports(proof)
        imports = self.ws.imports
        with_imports = (stripped, join_code(imports, lemmas_text))
        without = (stripped, lemmas_text)
        if not imports:
            variants = [without]
        elif mode == "agent" or _MICROMEGA.search(stripped):
            variants = [with_imports]
        else:
            variants = [without, with_imports]
        self._stage("soundness verdict")
        for variant, helpers in variants:
            candidate = render_candidate(self.problem, variant, helpers)
            verdict = self.ws.verify(candidate)
            self.trace.emit("verdict", problem=self.problem.name, accepted=verdict.accepted, reason=verdict.reason, how=how)
            if verdict.accepted:
                return self._result(True, reason=f"proved ({how})", mode=mode, text=candidate, verdict=verdict)
            self._last_rejection = verdict
        return None

    # --- default mode ----------------------------------------------------------------------
    def _stage(self, name: str) -> None:
        self.trace.emit("stage", problem=self.problem.name, stage=name)

    def _direct_search(self, mode: str) -> ProofResult | None:
        self._stage("built-in search")
        seconds = min(self.config.search.timeout_s, self.budget.remaining_wall())
        out = self.ws.run_search(self.problem.declaration, seconds, label=self.problem.theorem_name)
        if out.proved and out.proof:
            # helpers the proof needs beside the allowed imports (CoqHammer's reconstruction tactics)
            return self._accept(out.proof, "\n".join(out.extra.get("imports", ())), mode, "built-in search")
        self._search_reason = out.reason
        return None

    def _run_default(self) -> ProofResult:
        self._last_rejection = None
        self._search_reason = ""
        found = self._direct_search("default")
        if found is not None:
            return found
        if self._search_reason.startswith("statement error"):
            p = self.problem
            raise BadProblem(
                f"{p.path or p.name}: the statement of {p.theorem_name} does not compile: {self._search_reason[len('statement error: ') :]}"
            )
        why = (
            f"rejected by the soundness check: {self._last_rejection.reason}"
            if self._last_rejection
            else f"built-in search found no proof ({self._search_reason})"
        )
        return self._result(False, reason=why, mode="default", verdict=self._last_rejection)

    # --- agent mode ------------------------------------------------------------------------
    def _run_agent(self) -> ProofResult:
        p, cfg = self.problem, self.config
        self._last_rejection = None
        self._search_reason = ""
        if cfg.prover.direct_search_first:
            found = self._direct_search("agent")
            if found is not None:
                return found
        self._stage("informal proof")
        # The loop caps itself at ``informal.budget_share`` of the budget (its own deadline).
        outcome = solve_informal(p, self.llm, cfg, budget=self.budget, trace=self.trace)
        informal = self._informal = outcome.selected
        self.trace.emit("informal", problem=p.name, source=informal.source, text=informal.text[:4000], record=informal)
        dead = self._model_down()
        if dead is not None:
            return self._result(False, reason=dead, mode="agent")
        failed_notes: list[str] = []
        last_reason = "no sketch compiled"
        compiled = False
        rounds = cfg.prover.sketch_rounds
        for rnd in range(rounds):
            if rnd and cfg.informal.rotate:  # the previous round failed
                informal = self._informal = self._rotate(outcome, informal, rnd)
            self._stage(f"sketch round {rnd}")
            # Each round's model calls may take half of what is left, so that a lemma agent on
            # the theorem itself still has time when no sketch compiles.
            with request_deadline(self._share(SKETCH_SHARE)):
                sk = make_sketch(
                    p, informal.text, self.llm, self.ws, cfg, self.trace, self.budget, round=rnd, failed=tuple(failed_notes[-8:])
                )
            if not sk.checked:
                last_reason = f"sketch did not compile: {sk.errors[0] if sk.errors else '?'}"
                dead = self._model_down()
                if dead is not None:
                    return self._result(False, reason=dead, mode="agent")
                failed_notes.append(f"(round {rnd}: the sketch itself did not compile: {last_reason[:200]})")
                continue
            compiled = True
            results = self._prove_lemmas(sk)
            failed = [r for r in results.values() if not r.proved]
            if failed:
                last_reason = "lemmas not proved: " + ", ".join(r.name for r in failed)
                decl = {lem.name: lem.declaration for lem in sk.lemmas}
                failed_notes.extend(f"{decl.get(r.name, r.name)}  ({r.reason[:160]})" for r in failed)
                self.trace.emit("round", problem=p.name, round=rnd, proved=False, failed=[r.name for r in failed])
                continue
            text = self._assemble(sk, results)
            found = self._accept(sk.main_proof, text, "agent", f"sketch round {rnd} with {len(sk.lemmas)} lemmas")
            if found is not None:
                return found
            rejection = self._last_rejection.reason if self._last_rejection else "?"
            last_reason = f"rejected by the soundness check: {rejection}"
            failed_notes.append(f"(round {rnd}: the assembled proof was rejected: {rejection[:200]})")
        if not compiled:
            found, why = self._agent_on_theorem(informal.text)
            if found is not None:
                return found
            last_reason = f"{last_reason}; {why}"
        return self._result(False, reason=last_reason, mode="agent", verdict=self._last_rejection)

    def _rotate(self, outcome: InformalOutcome, current: InformalProof, rnd: int) -> InformalProof:
        """The next-ranked informal candidate after ``current`` if it scored above 0 (traced as
        an ``informal_selected`` event), else ``current``: a failed round then sketches a
        different proof instead of the same one again."""
        ranked = outcome.ranked
        i = next((k for k, pr in enumerate(ranked) if pr.candidate == current.candidate), len(ranked))
        if i + 1 >= len(ranked) or not (ranked[i + 1].score or 0.0) > 0.0 or outcome.selection is None:
            return current
        nxt = ranked[i + 1]
        sel = outcome.selection.model_copy(
            update={"selected": nxt.candidate, "reason": f"sketch round {rnd - 1} failed: next-ranked candidate"}
        )
        self.trace.emit("informal_selected", problem=self.problem.name, selected=nxt.candidate, round=rnd, record=sel)
        return nxt

    def _share(self, fraction: float) -> float:
        """A deadline ``fraction`` of the remaining wall budget from now."""
        return time.monotonic() + fraction * self.budget.remaining_wall()

    def _model_down(self) -> str | None:
        """A clear reason to stop when the model endpoint keeps failing: unreachable after its
        retries, a model the server does not serve, or ``MAX_MODEL_ERRORS_IN_ROW`` failed calls in a
        row (else None)."""
        err = self.budget.last_llm_error or ""
        n = self.budget.llm_errors_in_row
        if n and err.startswith("connection failed"):
            return f"model endpoint unreachable: {err}"
        if n and err.startswith("model not served"):
            return err  # the server named the models it serves: no later call can succeed
        if n >= MAX_MODEL_ERRORS_IN_ROW:
            if err.startswith("timeout"):
                return f"model too slow for the budget: {n} calls in a row timed out; last: {err[:300]}"
            return f"model endpoint failing: {n} calls in a row failed; last: {err[:300]}"
        return None

    def _agent_on_theorem(self, informal: str) -> tuple[ProofResult | None, str]:
        """No sketch compiled: one lemma agent works on the theorem itself (no gate behind the
        sketch). Returns the accepted result, or None and why not."""
        p = self.problem
        self._stage("lemma agent on the theorem")
        goal = self.make_goal(p.theorem_name, p.declaration.strip(), "")
        self.trace.emit("lemma_start", problem=p.name, lemma=goal.name, depth=0)
        notes = f"Informal proof (may be wrong):\n{informal.strip()}" if informal.strip() else ""
        agent = LemmaAgent(goal, self.ws, self.llm, prove_sub=self.prove_lemma, make_goal=self.make_goal, notes=notes)
        r = agent.run()
        self._record(r, 0)
        if not r.proved or r.proof is None:
            return None, f"lemma agent on the theorem: {r.reason[:300]}"
        helpers = render_helpers(p.language, r.sublemmas)
        found = self._accept(r.proof, helpers, "agent", "lemma agent on the theorem")
        if found is None:
            return None, f"agent's proof of the theorem rejected: {self._last_rejection.reason if self._last_rejection else '?'}"
        return found, ""

    def _assemble(self, sk: Sketch, results: dict[str, LemmaResult]) -> str:
        parts = []
        for lem in sk.lemmas:
            r = results[lem.name]
            parts.append(render_helpers(self.problem.language, r.sublemmas))
            parts.append(self.ws.lang.render(lem.declaration, r.proof or ""))
        return "\n".join(x for x in parts if x.strip())

    # --- lemmas ------------------------------------------------------------------------------
    def make_goal(self, name: str, declaration: str, context: str, *, depth: int = 0, parent: str | None = None) -> LemmaGoal:
        p = self.problem
        return LemmaGoal(
            problem=p.name,
            name=name,
            language=p.language,
            header=p.header,
            context=context,
            declaration=declaration,
            depth=depth,
            parent=parent,
            key=lemma_key(p.language, self.ws.env_header, declaration, name),
        )

    def _prove_lemmas(self, sk: Sketch) -> dict[str, LemmaResult]:
        """Prove the sketch's lemmas in parallel, dependencies first. Each lemma is checked with
        its dependencies as holes, so independent lemmas run at once; once one fails, no new
        lemma is started (the round is lost; proved ones stay in the cache)."""
        lang = self.ws.lang
        by_name = {lem.name: lem for lem in sk.lemmas}
        deps = {lem.name: {b for a, b in sk.edges if a == lem.name and b in by_name} for lem in sk.lemmas}

        def context_for(name: str) -> str:
            # Every earlier lemma of the sketch as a hole: keeps the sketch's order valid.
            order = [lem.name for lem in sk.lemmas]
            earlier = order[: order.index(name)]
            return "\n".join(lang.render_hole(by_name[n].declaration) for n in earlier)

        results: dict[str, LemmaResult] = {}
        pending = [lem.name for lem in sk.lemmas]
        running: dict[Future, str] = {}
        failed = False
        workers = max(1, self.config.prover.workers)
        ex = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lemma")
        try:
            while pending or running:
                self.budget.check()
                ready = sorted(pending, key=lambda n: (len(deps[n] - set(results)), pending.index(n)))
                while ready and len(running) < workers and not failed:
                    n = ready.pop(0)
                    pending.remove(n)
                    lem = by_name[n]
                    goal = self.make_goal(n, lem.declaration, context_for(n))
                    self.trace.emit("lemma_start", problem=self.problem.name, lemma=n, depth=0)
                    running[ex.submit(self._prove_top, goal, lem.proof)] = n
                if failed and not running:
                    break
                if not running:
                    break
                done, _ = wait(list(running), timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    n = running[f]
                    r = f.result()  # BudgetExceeded propagates from here
                    del running[f]
                    results[n] = r
                    if not r.proved:
                        failed = True
        except BaseException as e:
            self.budget.cancel()  # the other workers stop at their next step
            ex.shutdown(wait=False, cancel_futures=True)
            _wait_quietly(list(running), 3.0)  # a worker stuck in a model request is not waited for
            why = "interrupted" if isinstance(e, KeyboardInterrupt) else f"stopped: {e}"
            for n in running.values():
                with self._results_lock:
                    seen = n in self.lemma_results
                if not seen:
                    self._record(LemmaResult(name=n, proved=False, reason=why), 0)
            raise
        ex.shutdown(wait=True, cancel_futures=True)
        for n in pending:
            results[n] = LemmaResult(name=n, proved=False, reason="not started: another lemma of this sketch failed")
        return results

    def _prove_top(self, goal: LemmaGoal, sketch_proof: str | None) -> LemmaResult:
        """``prove_lemma`` for a worker thread: an unexpected error fails this lemma, not the run."""
        try:
            return self.prove_lemma(goal, sketch_proof)
        except (BudgetExceeded, NotInstalled):
            raise
        except Exception as e:  # noqa: BLE001 - recorded as data
            return self._record(LemmaResult(name=goal.name, proved=False, reason=f"internal error: {type(e).__name__}: {e}"), goal.depth)

    def _record(self, r: LemmaResult, depth: int) -> LemmaResult:
        with self._results_lock:
            self.lemma_results[r.name] = r
        self.trace.emit(
            "lemma",
            problem=self.problem.name,
            lemma=r.name,
            proved=r.proved,
            source=r.source,
            reason=r.reason,
            attempts=r.attempts,
            depth=depth,
            proof=(r.proof or "")[:2000],
        )
        return r

    def prove_lemma(self, goal: LemmaGoal, sketch_proof: str | None = None) -> LemmaResult:
        """cache -> the sketch's proof -> portfolio -> agent. Thread-safe."""
        t0 = time.monotonic()
        lang = self.ws.lang
        hit = self.cache.get(goal.key)
        if hit is not None:
            proof, helpers = hit
            ctx = join_code(goal.context, render_helpers(goal.language, helpers))
            res = self.ws.check_decl(ctx, goal.declaration, proof)
            self.trace.emit("cache", problem=goal.problem, lemma=goal.name, hit=True, reused=res.complete)
            if res.complete:
                return self._record(
                    LemmaResult(
                        name=goal.name,
                        proved=True,
                        proof=proof,
                        source="cache",
                        attempts=1,
                        sublemmas=helpers,
                        wall_s=round(time.monotonic() - t0, 3),
                    ),
                    goal.depth,
                )
        attempts = 0
        notes = []
        if sketch_proof and not lang.has_hole(sketch_proof):
            attempts += 1
            res = self.ws.check_decl(goal.context, goal.declaration, sketch_proof)
            att = Attempt(
                lemma=goal.name,
                proof=sketch_proof,
                ok=res.complete,
                source="sketch",
                errors=res.errors[:3],
                cpu_s=res.cpu_s,
                wall_s=res.wall_s,
            )
            self.trace.emit("attempt", problem=goal.problem, lemma=goal.name, **att.model_dump(exclude={"lemma"}))
            if res.complete:
                return self._store(
                    goal,
                    LemmaResult(
                        name=goal.name,
                        proved=True,
                        proof=sketch_proof,
                        source="sketch",
                        attempts=attempts,
                        wall_s=round(time.monotonic() - t0, 3),
                    ),
                )
            notes.append("The sketch's own proof failed:\n" + res.feedback(800))
        if self.config.prover.automation_first:
            attempts += 1
            out = self.ws.run_search(join_code(goal.context, goal.declaration), self.config.search.lemma_timeout_s, label=goal.name)
            if out.proved and out.proof:
                res = self.ws.check_decl(goal.context, goal.declaration, out.proof)
                if res.complete:
                    return self._store(
                        goal,
                        LemmaResult(
                            name=goal.name,
                            proved=True,
                            proof=out.proof,
                            source="automation",
                            attempts=attempts,
                            wall_s=round(time.monotonic() - t0, 3),
                        ),
                    )
            notes.append(f"The built-in automation did not prove it ({out.reason}).")
        if self.llm is None:
            return self._record(
                LemmaResult(name=goal.name, proved=False, reason="automation failed and no model is configured", attempts=attempts),
                goal.depth,
            )
        agent = LemmaAgent(goal, self.ws, self.llm, prove_sub=self.prove_lemma, make_goal=self.make_goal, notes="\n".join(notes))
        r = agent.run()
        r = r.model_copy(update={"attempts": r.attempts + attempts, "wall_s": round(time.monotonic() - t0, 3)})
        return self._store(goal, r) if r.proved else self._record(r, goal.depth)

    def _store(self, goal: LemmaGoal, r: LemmaResult) -> LemmaResult:
        if r.proved and r.proof is not None:
            self.cache.put(
                goal.key,
                language=goal.language,
                name=goal.name,
                declaration=goal.declaration,
                proof=r.proof,
                helpers=r.sublemmas,
                problem=goal.problem,
            )
        return self._record(r, goal.depth)


_MICROMEGA = re.compile(r"\b(lia|nia|lra|nra|psatz|micromega)\b")



def _wait_quietly(futures: list[Future], timeout: float) -> None:
    if futures:
        wait(futures, timeout=timeout)


__all__ = ["LemmaSpec", "Orchestrator"]
