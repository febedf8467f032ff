"""``prover-mcp``: the proof tools of ``prover.tools`` as an MCP server (stdio or streamable HTTP).

- ``server``: ``ToolHost`` (pool, problems, traces, proof states) and ``build_server``.
- ``cli``: the ``prover-mcp`` entry point.
- ``reaper``: the watchdog that kills the server's proof-assistant processes when it dies.

Importing this package starts nothing and imports no MCP code.
"""
