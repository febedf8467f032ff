"""One place that knows, per proof assistant, how to open a session, check a file, and spell a hole.

Everything above ``lean_tools`` (prover, sketch, benchmarks, rl) asks ``get_backend(language)``
instead of importing a backend module, so Lean and Rocq share one code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .session import FileChecker, Language, ProofSession


@dataclass(frozen=True)
class Backend:
    language: Language
    suffix: str
    hole: str
    """Text that leaves a proof unfinished: ``sorry`` (Lean) / ``admit`` (Rocq)."""
    closing: str
    """How a finished proof ends a declaration: ``""`` for Lean (``:= by ...``), ``Qed.`` for Rocq."""

    def open_session(self, header: str, **kwargs) -> ProofSession:
        if self.language == "rocq":
            from .rocq.session import RocqSession

            return RocqSession(header, **kwargs)
        from .lean.repl import LeanReplSession

        return LeanReplSession(header, **kwargs)

    def checker(self, **kwargs) -> FileChecker:
        if self.language == "rocq":
            from .rocq.checker import RocqChecker

            return RocqChecker(**kwargs)
        from .lean.checker import LeanChecker

        return LeanChecker(**kwargs)


ROCQ = Backend(language="rocq", suffix=".v", hole="admit", closing="Qed.")
LEAN = Backend(language="lean", suffix=".lean", hole="sorry", closing="")
_BY_LANGUAGE = {"rocq": ROCQ, "lean": LEAN}


def get_backend(language: str) -> Backend:
    try:
        return _BY_LANGUAGE[language]
    except KeyError:
        raise ValueError(f"unknown proof assistant {language!r}: expected 'lean' or 'rocq'") from None


def language_of(path: str | Path) -> Language:
    """Language from a file suffix; ValueError naming the suffix otherwise."""
    suffix = Path(path).suffix
    if suffix == ".v":
        return "rocq"
    if suffix == ".lean":
        return "lean"
    raise ValueError(f"{path}: unknown file type (suffix {suffix or '(none)'!r}); expected .lean (Lean 4) or .v (Rocq)")
