"""The proof tools: one implementation, served under the same names to the lemma agents
(``prover.agent``), over MCP (``prover.mcp``) and in the verifiers taskset (``environments/``).

Tools: ``check``, ``goals``, ``run_tactic``, ``search``, ``auto_close``, ``verify``, and ``prove``
(the whole pipeline: ``prover.api.prove_report``, which sits above the agents that use these);
the lemma agents also have ``python``, ``split_lemma`` and ``give_up`` (``AGENT_TOOLS``).

Every tool works on a ``Target``: one declaration (a problem's theorem, or a lemma with the
lemmas before it as context) inside a ``prover.workspace.Workspace``, which owns the warm
session pool, the budget and the trace. ``proof`` may be a whole candidate file (the
problem's text with the proof filled in, maybe with helper lemmas before the theorem) or just
the proof body (tactics); positions in answers refer to the text that was sent.

Contract:
- Proof-assistant answers are values (frozen records, ``reports.py``). A timeout is an answer
  (``timed_out``), and so is text refused by the soundness screens
  (``lean_tools.soundness.screens``: IO, code loading, commands inside a proof), which never
  reaches the proof assistant; ``refused`` says which rule fired.
- Bad input (an empty proof, an unknown state id, a malformed query) raises ``ToolInputError``
  with a one-line message; ``NotInstalled`` and ``BadProblem`` propagate.
- Only ``verify`` (the full verdict, ``lean_tools.soundness.verify``) says a proof is
  accepted; ``check``/``run_tactic``/``auto_close`` successes are hints.

Modules, by tool group: ``target.py`` (targets, proof splitting, input screens),
``interactive.py`` (``check``, ``goals``, ``run_tactic``, proof states), ``library.py``
(``search``), ``automation.py`` (``auto_close``, ``hammer``), ``verdict.py`` (``verify``),
``sandbox.py`` (``python``), ``specs.py`` (the agents' function specs); every public name is
importable from ``prover.tools``.
"""

from .automation import auto_close, hammer
from .interactive import StateTable, check, goals, run_tactic, with_check_timeout
from .library import search
from .reports import (
    AutoCloseReport,
    CheckReport,
    Diagnostic,
    GoalsReport,
    HammerReport,
    ProveReport,
    SearchReport,
    TacticReport,
    VerifyReport,
)
from .sandbox import python
from .specs import (
    AGENT_TOOLS,
    ALL,
    AUTO_CLOSE,
    CHECK,
    GIVE_UP,
    GOALS,
    HAMMER,
    PYTHON,
    SEARCH,
    SERVED,
    SPLIT,
    agent_tools,
)
from .target import Target, ToolInputError, screen_input, screen_problem, split_proof
from .verdict import verify

__all__ = [
    "AGENT_TOOLS",
    "ALL",
    "AUTO_CLOSE",
    "CHECK",
    "GIVE_UP",
    "GOALS",
    "HAMMER",
    "PYTHON",
    "SEARCH",
    "SERVED",
    "SPLIT",
    "AutoCloseReport",
    "CheckReport",
    "Diagnostic",
    "GoalsReport",
    "HammerReport",
    "ProveReport",
    "SearchReport",
    "StateTable",
    "TacticReport",
    "Target",
    "ToolInputError",
    "VerifyReport",
    "agent_tools",
    "auto_close",
    "check",
    "goals",
    "hammer",
    "python",
    "run_tactic",
    "screen_input",
    "screen_problem",
    "search",
    "split_proof",
    "verify",
    "with_check_timeout",
]
