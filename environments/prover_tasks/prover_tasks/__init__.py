"""``prover-tasks``: the prover's suites as a verifiers (v1) taskset, with the prover's tools.

``vf-eval prover-tasks ...`` / ``vf-validate prover-tasks ...`` load ``ProverTaskset``
(``taskset.py``); its toolset (``toolset.py``) serves the functions ``prover-mcp`` serves.
"""

from prover_tasks.taskset import ProverTaskset

__all__ = ["ProverTaskset"]
