"""``prover-check PROBLEM CANDIDATE [--theorem NAME] [--timeout S] [--json] [--static-only] [--allow-require M]
[--no-default-requires]``

Exit codes: 0 = CANDIDATE proves PROBLEM's theorem (accepted by the proof assistant after
the soundness checks); 1 = it does not (the reason on one line); 2 = bad input (missing or
unreadable file, unknown suffix, problem file that cannot be parsed, a problem file that does
not say with certainty which theorem is the problem's - several unproved declarations, several
compfiles ``problem``s: pass ``--theorem`` - or whose statement uses an answer it leaves open,
``abbrev x := sorry``) or the proof assistant is missing (the message says how to install it), or,
Lean, the candidate uses constructs the static screens cannot judge (metaprogramming, ``open`` or
a read-only ``#print`` inside a proof) and no Lean is there to replay it through the kernel: the
message says ``needs Lean to judge: <what>`` (neither accepted nor rejected).
The verdict is never about a declaration other than the problem's theorem. The language comes from the suffix:
``.lean`` -> Lean 4, ``.v`` -> Rocq. A candidate that cannot be parsed is a rejection (1).
Static screens run before the proof assistant, so a cheat gets exit 1 even without one.

Rocq helpers may by default ``Require [Import]`` the standard library's arithmetic/tactic
modules (``Lia Lra Psatz Lqa Ring Field ZArith Reals Arith``, any of their spellings:
``lean_tools.soundness.STDLIB_REQUIRES``), e.g. ``Require Import Lra.`` before a helper lemma
for a problem that imports only ``Reals``. This is sound because the verifier elaborates the
problem's statement (the reference probe) right after the problem's own header and preamble,
BEFORE any helper, so a helper's import cannot change what the reference means; the target's
own elaborated statement must then be ``constr_eq`` to it (an import that re-binds a name, a
scope or a coercion in the statement is caught), and every axiom the proof reaches is still
listed by ``Print Assumptions`` in a separate process. ``--no-default-requires`` turns this off;
``--allow-require M`` adds modules. ``From Hammer Require Import Tactics.`` (CoqHammer's replayed
reconstruction tactics) is always allowed among the helpers (reason: ``rocq_screens.HAMMER_TACTICS_IMPORT``).
What the verdict accepts and rejects: docs/verdict.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lean_tools.assistant import assistant_for_path


class _OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (``prover-check: error: ...``), exit code 2."""

    def error(self, message: str):
        print(f"{self.prog}: error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    p = _OneLineParser(
        prog="prover-check",
        description="Check that CANDIDATE proves PROBLEM's theorem.",
    )
    p.add_argument(
        "problem",
        help="problem file (.lean or .v), the theorem ending in sorry/Admitted",
    )
    p.add_argument(
        "candidate",
        help="candidate file: the problem with the proof filled in (same language)",
    )
    p.add_argument(
        "--theorem",
        default=None,
        help="theorem name (default: the problem's last unproved theorem)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds per proof-assistant run (default 120)",
    )
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.add_argument(
        "--static-only",
        action="store_true",
        help="run only the static checks (never exits 0)",
    )
    p.add_argument(
        "--allow-require",
        action="append",
        default=[],
        metavar="MODULE",
        help="Rocq: a further module a helper may Require beyond the problem's header (repeatable)",
    )
    p.add_argument(
        "--no-default-requires",
        action="store_true",
        help="Rocq: do not let helpers Require the standard tactic modules (Lia, Lra, Psatz, ...)",
    )
    return p


def _bad_input(msg: str) -> int:
    print(f"prover-check: error: {msg}", file=sys.stderr)
    return 2


def _read(path: str, what: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {what} {path}: {e.__class__.__name__}") from e


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:  # argparse already printed a one-line usage error
        return 2 if e.code else 0
    try:
        langs = {assistant_for_path(f).name for f in (args.problem, args.candidate)}
    except ValueError as e:
        return _bad_input(str(e))
    if len(langs) != 1:
        return _bad_input("PROBLEM and CANDIDATE must be in the same language")
    language = langs.pop()
    try:
        problem = _read(args.problem, "problem")
        candidate = _read(args.candidate, "candidate")
    except ValueError as e:
        return _bad_input(str(e))
    if problem is None:
        return _bad_input(f"problem file not found: {args.problem}")
    if candidate is None:
        return _bad_input(f"candidate file not found: {args.candidate}")
    if args.timeout <= 0:
        return _bad_input("--timeout must be positive")

    from lean_tools.soundness import STDLIB_REQUIRES, BadProblem, verify
    from lean_tools.types import NotInstalled, ProofAssistantError

    try:
        verdict = verify(
            problem,
            candidate,
            language,
            theorem=args.theorem,
            timeout=args.timeout,
            static_only=args.static_only,
            allowed_requires=frozenset(args.allow_require)
            | (frozenset() if args.no_default_requires else STDLIB_REQUIRES),
        )
    except BadProblem as e:
        return _bad_input(str(e))
    except NotInstalled as e:
        return _bad_input(f"the static checks passed, but {e}")
    except ProofAssistantError as e:
        return _bad_input(f"proof assistant failure: {' '.join(str(e).split())[:300]}")
    except Exception as e:  # noqa: BLE001 - a verifier bug must never turn into an acceptance or a traceback
        return _bad_input(f"internal error while checking ({e.__class__.__name__}: {' '.join(str(e).split())[:200]})")
    if args.json:
        print(json.dumps(verdict.model_dump(mode="json"), ensure_ascii=False))
    elif verdict.stage == "needs_kernel":  # neither accepted nor rejected: exit 2, like a missing prover
        print(f"prover-check: {verdict.theorem}: {verdict.reason}", file=sys.stderr)
    else:
        status = "ACCEPTED" if verdict.accepted else "REJECTED"
        print(f"{status} {verdict.theorem}: {verdict.reason}")
    if verdict.stage == "needs_kernel":
        return 2
    return 0 if verdict.accepted else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
