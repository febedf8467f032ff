"""``verify``: the one verdict a proof gets. Static screens first, then the proof assistant.

Order: parse the problem (``BadProblem`` if it cannot be split) -> candidate rule and
screens (``candidate.check_candidate``; no proof assistant needed, so a cheat is rejected
even where Lean/Rocq is missing) -> the proof assistant (``rocq_verify`` / ``lean_verify``),
which raises ``NotInstalled`` when it is absent. Rejections are values (``Verdict``).

Lean constructs the screens cannot judge (``Finding.kernel``: metaprogramming, a read-only
command or an ``open`` inside a proof) are not a rejection: when they are the only findings,
the candidate goes to ``lean_verify`` with the kernel replay on (``kernel_replay``); without
Lean (or with ``static_only``) the verdict is ``needs_lean`` (stage ``needs_kernel``, reason
``needs Lean to judge: ...``): not accepted, not rejected. Any other finding still rejects.
"""

from __future__ import annotations

import re
import time

from ..assistant import assistant
from ..lean.parser import lean_open_definitions
from ..parsing import parse_source
from ..source import Language, ParseError, SourceFile, mask
from ..types import NotInstalled
from .candidate import CandidateResult, CandidateSplit, check_candidate, locate
from .verdict import Verdict, needs_lean, reject

# No size cap on candidates: real competition proofs run to hundreds of kilobytes. The static
# screens are linear in the candidate's size (benchmarks/screens_scaling.py measures them up to
# 1 MB); the only limits are on resources: ``timeout`` per proof-assistant run and the sandbox's
# memory limit (``lean_tools.sandbox``).


class BadProblem(ValueError):
    """The problem text could not be parsed (or names no theorem); a caller error, not a verdict."""


def parse_problem(problem_text: str, language: Language, theorem: str | None = None) -> SourceFile:
    """The problem, its target identified with certainty (``parse_source(strict=True)``).

    Raises ``BadProblem`` when the file cannot be split, when it does not say which theorem is
    the problem's (several unproved declarations, several compfiles ``problem``s, or several
    declarations and none unproved: name one with ``theorem``), and, Lean, when the statement
    uses an answer the problem leaves open (``abbrev X := sorry``: compfiles' extracted
    ``determine``, PutnamBench's ``_solution``): a candidate would have to fill it in, and whether
    a filled-in answer is right is for a human to judge, not for this verdict.
    """
    try:
        sf = parse_source(problem_text, language, theorem=theorem, strict=True)
    except ParseError as e:
        raise BadProblem(f"problem: {e}") from e
    left_open = lean_open_definitions(sf)  # always [] for Rocq: it has no such answers
    if left_open:
        stmt_ids = set(re.findall(r"[^\W\d][\w'.!?₀-₉]*", mask(sf.statement, "lean").replace("«", "").replace("»", "")))
        stmt_ids |= {part for t in stmt_ids for part in t.split(".")}
        open_ones = [n for n in left_open if n in stmt_ids or n.split(".")[-1] in stmt_ids]
        if open_ones:
            raise BadProblem(
                f"problem: the statement of {sf.theorem_name} uses {', '.join(open_ones)}, which the problem leaves "
                "open (`:= sorry`, e.g. a compfiles `determine` or a PutnamBench solution); a proof would have to fill "
                "it in and only a human can judge that answer: write the answer into the problem file"
            )
    return sf


def static_verdict(
    problem: SourceFile,
    candidate_text: str,
    *,
    allowed_requires: frozenset[str] = frozenset(),
) -> tuple[Verdict | None, CandidateResult]:
    """(rejection or None, the candidate analysis). None means: go on to the proof assistant
    (with the kernel replay when ``res.needs_kernel``)."""
    res = check_candidate(problem, candidate_text, allowed_requires=allowed_requires)
    if res.ok or (res.needs_kernel and problem.language == "lean"):
        return None, res
    findings = sorted(res.findings, key=lambda x: x.kernel)  # a rejection names a rejecting finding first
    f = findings[0]
    more = f" (+{len(findings) - 1} more)" if len(findings) > 1 else ""
    v = reject(
        res.stage,  # type: ignore[arg-type]
        f"[{f.rule}] {f.one_line()}{more}",
        problem.language,
        problem.theorem_name,
        findings=[x.model_dump() for x in findings],
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
    assumed: frozenset[str] = frozenset(),
) -> Verdict:
    """Whether ``candidate_text`` proves ``problem_text``'s theorem.

    ``static_only``: stop after the static rules (the verdict then never says accepted;
    a clean candidate comes back with stage ``candidate`` and reason ``passed static checks``,
    a Lean candidate only the kernel can judge with stage ``needs_kernel``).
    ``skip_static``: TESTING ONLY - run the proof-assistant layer even on a candidate the
    static rules reject, to show that layer catches the cheat on its own (defence in depth).
    ``allowed_requires`` (Rocq): modules a helper may ``Require`` beyond the problem's header,
    e.g. ``{"Lra", "Lia", "Psatz"}`` for miniF2F statements that import only ``Reals``; the
    elaborated-statement check and ``Print Assumptions`` still apply. Default: none.
    ``assumed`` (Rocq): names (qualified within the file) of lemmas the problem text leaves
    ``Admitted`` that the proof may rest on: a hole of a project file, whose caller reports such a
    proof as proved only assuming them. Default: none, so an admitted lemma is a rejection.
    Raises ``BadProblem`` (problem unparsable) and ``NotInstalled`` (no proof assistant; a Lean
    candidate only the kernel can judge gets the ``needs_kernel`` verdict instead).
    """
    t0 = time.monotonic()
    problem = parse_problem(problem_text, language, theorem)
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
        if res.needs_kernel:
            return _kernel_replay_verdict(problem, candidate_text, res, timeout=timeout, static_only=static_only)
        if static_only or res.split is None:
            return Verdict(
                accepted=False,
                reason="passed static checks (not yet checked by the proof assistant)",
                stage="candidate",
                language=language,
                theorem=problem.theorem_name,
            )
        split = res.split
    return assistant(language).kernel_verdict(problem, candidate_text, split, timeout=timeout, assumed=assumed)


def _kernel_replay_verdict(problem: SourceFile, candidate_text: str, res: CandidateResult, *, timeout: float, static_only: bool) -> Verdict:
    """A candidate whose only findings are ones the screens cannot judge (Lean only): the Lean
    verdict with the kernel replay, or ``needs_lean`` when Lean is absent or not asked for."""
    what = "; ".join(dict.fromkeys(f.one_line() for f in res.findings))
    findings = [f.model_dump() for f in res.findings]
    if not static_only:
        from .lean_verify import verify_lean  # late: only Lean candidates get here

        try:
            return verify_lean(problem, candidate_text, res.split, timeout=timeout, kernel_replay=True)
        except NotInstalled as e:
            return needs_lean(what, problem.theorem_name, findings=findings, missing=str(e))
    return needs_lean(what, problem.theorem_name, findings=findings)
