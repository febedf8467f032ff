"""Helpers for the MCP tests: spawn ``prover-mcp`` over stdio with the SDK's own client."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = (ROOT / "tests" / "data" / "prover" / "double_le.v").read_text(encoding="utf-8")
LOOP = "let rec loop _ := loop tt in loop tt."
"""A tactic that never ends."""


def server_command(*args: str) -> tuple[str, list[str]]:
    """The ``prover-mcp`` console script next to this interpreter, else its module, with ``args``."""
    script = Path(sys.executable).parent / "prover-mcp"
    if script.exists():
        return str(script), list(args)
    return sys.executable, ["-m", "prover.mcp.cli", *args]


@contextlib.asynccontextmanager
async def mcp_session(*args: str) -> AsyncIterator:
    """An initialised ``ClientSession`` on a fresh ``prover-mcp`` started with ``args``."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    cmd, argv = server_command(*args)
    params = StdioServerParameters(command=cmd, args=argv, cwd=str(ROOT))
    async with stdio_client(params) as streams, ClientSession(*streams) as session:
        await session.initialize()
        yield session


def solution(problem: str, body: str) -> str:
    """``problem`` with its ``Admitted.`` proof replaced by ``body`` and ``Qed.``."""
    return problem.replace("Proof.\nAdmitted.", f"Proof.\n{body}\nQed.")
