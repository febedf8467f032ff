"""``verify``: the one verdict a proof gets. Static screens first, then the proof assistant.

Order: parse the problem (``BadProblem`` if it cannot be split) -> candidate rule and
screens (``candidate.check_candidate``; no proof assistant needed, so a cheat is rejected
even where Lean/Rocq is missing) -> the proof assistant (``rocq_verify`` / ``lean_verify``),
which raises ``NotInstalled`` when it is absent. Rejections are values (``Verdict``).
"""

from __future__ import annotations

import time

from ..source import Language, ParseError, SourceFile, parse_source
from .candidate import CandidateResult, CandidateSplit, check_candidate, locate
from .verdict import Verdict, reject

MAX_ADDED_CHARS = 100_000
"""A candidate may be at most this much longer than its problem (helpers + proof). Honest
proofs are far shorter; the cap keeps the lexical checks (some regexes are quadratic in the
worst case) from being used to stall the verifier."""


class BadProblem(ValueError):
    """The problem text could not be parsed (or names no theorem); a caller error, not a verdict."""


def parse_problem(problem_text: str, language: Language, theorem: str | None = None) -> SourceFile:
    try:
        return parse_source(problem_text, language, theorem=theorem)
    except ParseError as e:
        raise BadProblem(f"problem: {e}") from e


def static_verdict(
    problem: SourceFile,
    candidate_text: str,
    *,
    allowed_requires: frozenset[str] = frozenset(),
) -> tuple[Verdict | None, CandidateResult]:
    """(rejection or None, the candidate analysis). None means: go on to the proof assistant."""
    res = check_candidate(problem, candidate_text, allowed_requires=allowed_requires)
    if res.ok:
        return None, res
    f = res.findings[0]
    more = f" (+{len(res.findings) - 1} more)" if len(res.findings) > 1 else ""
    v = reject(
        res.stage,  # type: ignore[arg-type]
        f"[{f.rule}] {f.one_line()}{more}",
        problem.language,
        problem.theorem_name,
        findings=[x.model_dump() for x in res.findings],
    )
    return v, res


def verify(
    problem_text: str,
    candidate_text: str,
    language: Language,
    theorem: str | None = None,
    timeout: float = 120.0,
    *,
    static_only: bool = False,
    skip_static: bool = False,
    allowed_requires: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
) -> Verdict:
    """Whether ``candidate_text`` proves ``problem_text``'s theorem.

    ``static_only``: stop after the static rules (the verdict then never says accepted;
    a clean candidate comes back with stage ``candidate`` and reason ``passed static checks``).
    ``skip_static``: TESTING ONLY - run the proof-assistant layer even on a candidate the
    static rules reject, to show that layer catches the cheat on its own (defence in depth).
    ``allowed_requires`` (Rocq): modules a helper may ``Require`` beyond the problem's header,
    e.g. ``{"Lra", "Lia", "Psatz"}`` for miniF2F statements that import only ``Reals``; the
    elaborated-statement check and ``Print Assumptions`` still apply. Default: none.
    Raises ``BadProblem`` (problem unparsable) and ``NotInstalled`` (no proof assistant).
    """
    t0 = time.monotonic()
    problem = parse_problem(problem_text, language, theorem)
    if len(candidate_text) > len(problem_text) + MAX_ADDED_CHARS:
        return reject(
            "candidate",
            f"candidate is {len(candidate_text) - len(problem_text)} characters longer than the problem "
            f"(at most {MAX_ADDED_CHARS})",
            language,
            problem.theorem_name,
        )
    if skip_static:
        cand, helpers_start, err = locate(problem, candidate_text, lenient=True)
        if cand is None:
            return reject(
                "candidate",
                err or "candidate: unparsable",
                language,
                problem.theorem_name,
            )
        split = CandidateSplit(
            helpers=candidate_text[helpers_start : cand.decl_start],
            helpers_start=helpers_start,
            helpers_line=candidate_text.count("\n", 0, helpers_start) + 1,
            proof=cand.proof,
            proof_line=candidate_text.count("\n", 0, cand.proof_start) + 1,
            theorem=problem.theorem_name,
        )
    else:
        rejected, res = static_verdict(problem, candidate_text, allowed_requires=frozenset(allowed_requires))
        if rejected is not None:
            return rejected.model_copy(update={"wall_seconds": time.monotonic() - t0})
        if static_only or res.split is None:
            return Verdict(
                accepted=False,
                reason="passed static checks (not yet checked by the proof assistant)",
                stage="candidate",
                language=language,
                theorem=problem.theorem_name,
            )
        split = res.split
    if language == "rocq":
        from .rocq_verify import verify_rocq

        return verify_rocq(problem, candidate_text, split, timeout=timeout)
    from .lean_verify import verify_lean

    return verify_lean(problem, candidate_text, timeout=timeout)
