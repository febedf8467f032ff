"""The Lean part of the verdict (needs a Lean toolchain; kept small on purpose).

After the static screens passed:
1. ``LeanChecker().check_file`` compiles the candidate in a fresh sandboxed process: no
   errors and no ``declaration uses sorry`` warning.
2. ``LeanChecker().print_axioms(mode="module")``: the candidate is compiled to an ``.olean``
   and a SEPARATE process runs ``import Candidate`` + ``#print axioms <theorem>``, so text
   the candidate printed cannot pass for the answer. Every axiom must be in
   ``axioms.LEAN_AXIOMS`` (``propext``, ``Classical.choice``, ``Quot.sound``).

Not done here: an elaborated-statement comparison (Lean has no cheap ``constr_eq`` across
files); the textual statement rule and the helper screens stand in for it.
Raises ``NotInstalled`` when ``lake`` or the Lean project is missing.
"""

from __future__ import annotations

from ..source import SourceFile
from ..types import Severity
from .axioms import LEAN_AXIOMS
from .verdict import Verdict, reject


def verify_lean(problem: SourceFile, candidate_text: str, *, timeout: float = 120.0) -> Verdict:
    from ..lean.checker import (  # late: the Lean layer is optional
        LeanChecker,
        has_sorry,
    )

    name = problem.theorem_name
    if not name:
        return reject(
            "candidate",
            "an unnamed `example` cannot be checked with #print axioms; name the theorem",
            "lean",
        )
    checker = LeanChecker()
    fc = checker.check_file(candidate_text, timeout=timeout)
    cpu, wall = fc.cpu_seconds, fc.wall_seconds
    if fc.timed_out:
        return reject("compile", f"lean timed out after {timeout:.0f} s", "lean", name)
    if not fc.ok:
        errs = [m for m in fc.messages if m.severity is Severity.ERROR]
        first = " ".join(errs[0].text.split())[:300] if errs else f"exit code {fc.returncode}"
        line = f"line {errs[0].pos.line}: " if errs and errs[0].pos else ""
        return reject("compile", f"lean rejected the candidate: {line}{first}", "lean", name)
    if has_sorry(fc):
        return reject("compile", "lean reports `declaration uses sorry`", "lean", name)
    rep = checker.print_axioms(candidate_text, problem.qualified_name, timeout=timeout, mode="module")
    cpu += rep.check.cpu_seconds
    wall += rep.check.wall_seconds
    if rep.axioms is None:
        return reject("axioms", f"no trustworthy `#print axioms {name}` answer", "lean", name)
    bad = [a for a in rep.axioms if a not in LEAN_AXIOMS]
    if bad:
        return reject(
            "axioms",
            f"{name} depends on non-whitelisted axioms: {', '.join(bad)}",
            "lean",
            name,
            axioms=list(rep.axioms),
        )
    return Verdict(
        accepted=True,
        reason=f"{name} proved; axioms: {', '.join(rep.axioms) or 'none'}",
        stage="accepted",
        language="lean",
        theorem=name,
        details={"axioms": list(rep.axioms)},
        cpu_seconds=cpu,
        wall_seconds=wall,
    )
