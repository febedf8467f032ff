"""Typed errors of the prover. Failed attempts and unproved problems are values, not errors.

``BadProblem`` is bad user input (CLI exit 2): unknown suffix, unparsable file, no such
theorem, a statement that does not compile, a theorem that is already proved.
"""

from __future__ import annotations


class BadProblem(ValueError):
    """The input is not a provable problem; the message is one line naming the problem."""


class BudgetExceeded(Exception):
    """Raised inside a run when a budget is spent; caught by the orchestrator and recorded."""

    def __init__(self, which: str):
        super().__init__(f"budget spent: {which}")
        self.which = which


class Interrupted(BudgetExceeded):
    """The run was cancelled (Ctrl-C or a cancel event)."""

    def __init__(self):
        super().__init__("interrupt")
