"""Soundness verdict: a proof is accepted only by the proof assistant after these checks.

- ``verify(problem_text, candidate_text, language, theorem=None, timeout=120) -> Verdict``
- static, pure pieces: ``lean_screens.screen_lean``/``rocq_screens.screen_rocq`` (banned text),
  ``candidate.check_candidate`` (the candidate equals the problem outside the proof),
  ``axioms`` (whitelists, ``Print Assumptions`` parsing).
- proof-assistant pieces: ``rocq_verify.verify_rocq``, ``lean_verify.verify_lean`` (with
  ``kernel_replay`` for candidates only the kernel can judge: verdict stage ``needs_kernel``
  when Lean is absent).
"""

from .candidate import CandidateSplit, check_candidate
from .lean_screens import screen_lean
from .rocq_screens import STDLIB_REQUIRES, screen_rocq
from .screens import screen
from .verdict import Finding, Verdict
from .verify import BadProblem, parse_problem, static_verdict, verify

__all__ = [
    "STDLIB_REQUIRES",
    "BadProblem",
    "CandidateSplit",
    "Finding",
    "Verdict",
    "check_candidate",
    "parse_problem",
    "screen",
    "screen_lean",
    "screen_rocq",
    "static_verdict",
    "verify",
]
