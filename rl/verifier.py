"""The reward's source of truth: a verdict on (problem, candidate proof script).

Order of work for one candidate (each step documented because each changes cost, not truth):
1. Static screen (pure, ``static_screen``): the script may not contain ``Admitted``, ``admit``,
   ``give_up``, ``Axiom``/``Parameter``/``Conjecture``/``Hypothesis``/``Variable``, ``Abort``,
   ``Unset``, ``Declare ML``, ``Load``, ``Redirect``, ``Drop``, ``Require``, ``Qed``/``Defined``
   (the closing ``Qed`` is ours) or a nested ``Theorem``/``Lemma``. Reject -> reward 0, no process.
2. Cache (optional): an identical (problem, script) pair decided earlier in this run reuses
   that verdict. The full verdict is a deterministic function of the two texts.
3. Prescreen (optional): the block runs in a warm ``coqtop`` (``lean_tools.rocq.session``,
   one session per (thread, header)). If it fails there it would fail in ``coqc`` too, so it is
   rejected (reward 0) at ~5 ms instead of ~0.3 s. A pass is never trusted: it goes on.
4. Full verdict: ``lean_tools.soundness.verify(problem_text, candidate_text, "rocq")`` when that
   module is importable (or ``verifier = "soundness"``), else a fresh sandboxed ``coqc`` of the
   whole candidate file (``RocqChecker.check_file``) after the static screen. Only this step
   can produce ``accepted = True``.

Infrastructure failures (coqtop crash, timeout) in the prescreen fall through to the full
verdict; in the full verdict they become ``accepted=False`` with the reason recorded.
With ``ray_address`` set, step 4 (``full_verdict``, the same function) runs as a Ray task
(``rl.distributed.remote_verdict``).
"""

from __future__ import annotations

import importlib
import re
import threading
import time
from collections.abc import Callable

from .records import Problem, Verdict

_BANNED = re.compile(
    r"\b(Admitted|admit|give_up|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|"
    r"Variable|Variables|Abort|Unset|Declare\s+ML|Load|Redirect|Drop|Require|Qed|Defined|Theorem|"
    r"Lemma|Fact|Remark|Corollary|Proposition|Example|Definition|Fixpoint|Instance)\b"
)


def static_screen(script: str) -> str | None:
    """Return the reason a script is refused before any process runs, or None when it may run."""
    if not script.strip():
        return "empty proof script"
    if "(*" in script or "*)" in script or '"' in script:
        return "comments and strings are not allowed in a proof script"
    m = _BANNED.search(script)
    if m:
        return f"banned word in proof script: {m.group(1)}"
    return None


def _soundness_verify() -> Callable | None:
    try:
        mod = importlib.import_module("lean_tools.soundness")
    except ImportError:
        return None
    return getattr(mod, "verify", None)


def full_verdict(problem_text: str, candidate_text: str, timeout: float, mode: str = "auto") -> tuple[bool, str]:
    """Step 4, the only step that can accept: (accepted, reason) for a whole candidate file.

    ``lean_tools.soundness.verify(problem_text, candidate_text, "rocq")`` (statement unchanged,
    fresh ``coqc``, ``Print Assumptions`` in a separate process, its own static screens) when
    importable or ``mode = "soundness"``; else (``mode = "checker"``, or soundness missing
    under "auto") a fresh sandboxed ``coqc`` of the candidate after ``static_screen`` of the
    part that differs from the problem. The local ``Verifier`` and the Ray task
    (``rl.distributed.remote_verdict``) both call this one function."""
    verify = _soundness_verify() if mode in ("auto", "soundness") else None
    if mode == "soundness" and verify is None:
        raise ImportError("verifier = 'soundness' but lean_tools.soundness.verify is not importable")
    if verify is not None:
        v = verify(problem_text, candidate_text, "rocq", timeout=timeout)
        return bool(v.accepted), str(v.reason)
    head = problem_text.split("Proof.", 1)[0]
    if not candidate_text.startswith(head):
        return False, "the candidate changes the statement or its header"
    body = candidate_text[len(head):].removeprefix("Proof.").strip().removesuffix("Qed.")
    reason = static_screen(body)
    if reason:
        return False, reason
    from lean_tools.rocq.checker import RocqChecker

    fc = RocqChecker().check_file(candidate_text, timeout=timeout)
    if fc.ok:
        return True, "compiled in a fresh coqc"
    if fc.timed_out:
        return False, "checker timed out"
    return False, fc.errors[0].text if fc.errors else f"coqc returned {fc.returncode}"


class Verifier:
    """Thread-safe verdicts with counters. ``close()`` ends the warm sessions it opened."""

    def __init__(
        self,
        *,
        mode: str = "auto",
        prescreen: bool = True,
        cache: bool = True,
        timeout: float = 30.0,
        remote_check: Callable[[str, str, float], tuple[bool, str]] | None = None,
    ):
        """``remote_check(problem_text, candidate_text, timeout)``: where step 4 runs instead of
        this process (``rl.distributed.remote_verdict``: ``full_verdict`` as a Ray task)."""
        self.timeout = timeout
        self.prescreen = prescreen
        self.use_cache = cache
        self.remote_check = remote_check
        self.mode = mode
        verify = _soundness_verify() if mode in ("auto", "soundness") else None
        if mode == "soundness" and verify is None:
            raise ImportError("verifier = 'soundness' but lean_tools.soundness.verify is not importable")
        self.source = ("soundness" if verify else "checker") + (":remote" if remote_check is not None else "")
        self._cache: dict[tuple[str, str], Verdict] = {}
        self._progress: dict[tuple[str, str, str], float] = {}
        self._lock = threading.Lock()
        self._local = threading.local()
        self._sessions: list = []
        self.fresh_checks = 0
        self.cache_hits = 0
        self.prescreen_rejects = 0

    # -- sessions -----------------------------------------------------------------------
    def _session(self, header: str):
        sessions = getattr(self._local, "sessions", None)
        if sessions is None:
            sessions = self._local.sessions = {}
        s = sessions.get(header)
        if s is None or not s.alive():
            from lean_tools.rocq.session import RocqSession

            s = RocqSession(header, default_timeout=self.timeout)
            s.start()
            sessions[header] = s
            with self._lock:
                self._sessions.append(s)
        return s

    def _prescreen(self, problem: Problem, script: str) -> tuple[bool, str] | None:
        """(passed, first error) from a warm session, or None if the session could not answer."""
        code = f"Theorem {problem.name} {problem.statement}.\nProof.\n  {script}\nQed."
        try:
            out = self._session(problem.header).run_command(code, timeout=self.timeout)
        except Exception as err:  # noqa: BLE001 - a broken session must never decide a reward
            return None if not isinstance(err, ValueError) else (False, f"refused: {err}")
        if out.complete:
            return True, ""
        first = out.errors[0].text if out.errors else "proof incomplete"
        return False, first

    # -- full verdict -----------------------------------------------------------------------
    def _full(self, problem: Problem, script: str) -> tuple[bool, str]:
        candidate = problem.with_proof(script)
        if self.remote_check is not None:
            return self.remote_check(problem.text, candidate, self.timeout)
        return full_verdict(problem.text, candidate, self.timeout, self.mode)

    def verdict(self, problem: Problem, script: str) -> Verdict:
        """Never raises for a bad proof; infrastructure failures become a rejected verdict."""
        t0 = time.perf_counter()
        reason = static_screen(script)
        if reason:
            return Verdict(accepted=False, reason=reason, source="static", seconds=time.perf_counter() - t0)
        key = (problem.id, script)
        if self.use_cache:
            with self._lock:
                hit = self._cache.get(key)
                if hit is not None:
                    self.cache_hits += 1
            if hit is not None:
                return hit.model_copy(
                    update={"source": f"cache:{hit.source}", "seconds": time.perf_counter() - t0, "fresh_checks": 0}
                )
        if self.prescreen:
            pre = self._prescreen(problem, script)
            if pre is not None and not pre[0]:
                with self._lock:
                    self.prescreen_rejects += 1
                v = Verdict(accepted=False, reason=pre[1], source="prescreen", seconds=time.perf_counter() - t0)
                self._remember(key, v)
                return v
        try:
            ok, why = self._full(problem, script)
        except Exception as err:  # noqa: BLE001 - infrastructure failure is data here
            ok, why = False, f"verifier failure: {type(err).__name__}: {err}"
        with self._lock:
            self.fresh_checks += 1
        v = Verdict(
            accepted=ok, reason=why, source=self.source, seconds=time.perf_counter() - t0, fresh_checks=1
        )
        self._remember(key, v)
        return v

    def _remember(self, key: tuple[str, str], v: Verdict) -> None:
        if self.use_cache and not v.reason.startswith("verifier failure"):
            with self._lock:
                self._cache[key] = v

    def progress(self, problem: Problem, script: str) -> float:
        """Share of goals the script's longest error-free prefix closes: closed / (closed + still open).

        Runs the tactics one by one in the warm session (``run_tactic``), stopping at the first
        error. Tactics are split at periods, which is exact for ``rl.policy.ACTIONS`` scripts. Used only
        for reward shaping of *rejected* candidates (``env.shaping =
        "goal_credit"``); it never decides acceptance. 0.0 when the session cannot answer.
        """
        key = ("progress", problem.id, script)
        if self.use_cache:
            with self._lock:
                hit = self._progress.get(key)
            if hit is not None:
                return hit
        value = 0.0
        try:
            sess = self._session(problem.header)
            opened = sess.run_command(f"Theorem {problem.name} {problem.statement}.\nProof.", timeout=self.timeout)
            holes = [h for h in opened.holes if h.state is not None]
            if opened.ok and holes:
                state, open_goals, closed = holes[-1].state, max(1, len(opened.goals)), 0
                for tactic in [t.strip() + "." for t in script.split(".") if t.strip()]:
                    out = sess.run_tactic(state, tactic, timeout=self.timeout)
                    if not out.ok:
                        break
                    if len(out.goals) < open_goals:
                        closed += open_goals - len(out.goals)
                    open_goals, state = len(out.goals), out.state
                value = closed / (closed + open_goals) if closed + open_goals else 0.0
        except Exception:  # noqa: BLE001 - shaping is best effort
            value = 0.0
        if self.use_cache:
            with self._lock:
                self._progress[key] = value
        return value

    def close_thread_sessions(self) -> None:
        """Close the calling thread's warm sessions (a rollout thread calls this as it exits)."""
        sessions = getattr(self._local, "sessions", None) or {}
        self._local.sessions = {}
        for s in sessions.values():
            with self._lock:
                if s in self._sessions:
                    self._sessions.remove(s)
            try:
                s.close()
            except Exception:  # noqa: BLE001 - closing a dead session is best effort
                pass

    def close(self) -> None:
        with self._lock:
            sessions, self._sessions = self._sessions, []
        for s in sessions:
            try:
                s.close()
            except Exception:  # noqa: BLE001 - closing a dead session is best effort
                pass
