"""Lean 4 backend: REPL wire format (``protocol``), REPL session (``repl``), whole-file
checker (``checker``) and toolchain/Mathlib/REPL version agreement (``versions``).

Importing this package starts nothing and needs neither Lean nor pexpect.
"""

from .checker import AxiomReport, LeanChecker, LeanCheckerConfig, has_sorry, parse_axioms, parse_json_lines
from .repl import LeanReplConfig, LeanReplSession, default_project_dir, split_header
from .versions import LeanVersions, read_versions

__all__ = [
    "AxiomReport",
    "LeanChecker",
    "LeanCheckerConfig",
    "LeanReplConfig",
    "LeanReplSession",
    "LeanVersions",
    "default_project_dir",
    "has_sorry",
    "parse_axioms",
    "parse_json_lines",
    "read_versions",
    "split_header",
]
