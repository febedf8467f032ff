"""The taskset's tool server: the very tools ``prover-mcp`` serves (``prover.mcp.server.register``
over ``prover.tools``), under the same names, on one warm session pool per server.

verifiers starts it as its own process (``python -m prover_tasks.toolset``, config in
``VF_CONFIG``) once per evaluation (a taskset-scoped server, shared by every rollout), or uses
a running ``prover-mcp --transport http`` when ``url`` is set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifiers.v1 as vf

if TYPE_CHECKING:
    from prover.mcp.server import ToolHost


class ProverToolsetConfig(vf.SharedToolsetConfig):
    sessions: int = 2
    """Warm proof-assistant sessions shared by the rollouts' calls."""
    call_timeout_s: float = 60.0
    """Default per-call limit (a call's ``budget_s`` overrides it)."""
    max_call_s: float = 300.0
    """Largest ``budget_s`` a call may ask for."""


class ProverToolset(vf.Toolset[ProverToolsetConfig]):
    TOOL_PREFIX = None  # bare names: check, goals, run_tactic, search, auto_close, verify, prove

    def __init__(self, config: ProverToolsetConfig) -> None:
        super().__init__(config)
        self.host: ToolHost | None = None

    def register(self, mcp) -> None:
        from prover.config import load_config
        from prover.mcp.server import ToolHost, register

        host = ToolHost(load_config(), sessions=self.config.sessions, max_call_s=self.config.max_call_s,
                        default_call_s=self.config.call_timeout_s)
        self.host = host
        self._exit_stack.callback(host.close)
        register(mcp, host)


if __name__ == "__main__":
    from prover.mcp import reaper

    watchdog = reaper.start()
    try:
        ProverToolset.run()
    finally:
        reaper.stop(watchdog)
