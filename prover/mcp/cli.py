"""``prover-mcp``: serve the proof tools over MCP.

    prover-mcp                              # stdio (what coding agents spawn)
    prover-mcp --transport http --port 8765 # streamable HTTP at http://127.0.0.1:8765/mcp
    prover-mcp --root ~/problems            # also accept paths under ~/problems as `problem`
    prover-mcp --root ~/myproj              # and serve fill_holes on the .v files of that project

Options: ``--config FILE`` (a prover TOML config; its ``model`` section drives ``prove``),
``--sessions N`` (warm proof-assistant sessions shared by all calls, default 2),
``--call-timeout S`` (default per-call limit, 60) and ``--max-call S`` (cap on ``budget_s``, 600).
Exit status 2 for bad options.
"""

from __future__ import annotations

import argparse
import sys


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="prover-mcp", description="MCP server for the Rocq/Lean proof tools")
    ap.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    ap.add_argument("--host", default="127.0.0.1", help="HTTP: address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8765, help="HTTP: port (default 8765)")
    ap.add_argument("--root", default=None, help="accept `problem` paths under this directory")
    ap.add_argument("--config", default=None, help="prover config TOML")
    ap.add_argument("--sessions", type=int, default=2, help="warm proof-assistant sessions (default 2)")
    ap.add_argument("--call-timeout", type=float, default=60.0, help="default per-call limit in seconds")
    ap.add_argument("--max-call", type=float, default=600.0, help="largest budget_s a call may ask for")
    args = ap.parse_args(argv)
    if args.sessions < 1:
        ap.error("--sessions must be >= 1")
    if args.call_timeout <= 0 or args.max_call <= 0:
        ap.error("--call-timeout and --max-call must be positive")
    if args.root is not None:
        from pathlib import Path

        if not Path(args.root).is_dir():
            ap.error(f"--root {args.root}: not a directory")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from prover.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except (ConfigError, OSError) as e:
        print(f"prover-mcp: {e}", file=sys.stderr)
        return 2
    try:
        project = _root_project(args.root, config)
    except ValueError as e:
        print(f"prover-mcp: {e}", file=sys.stderr)
        return 2
    from lean_tools.rocq.project import activate

    from . import reaper
    from .server import ToolHost, build_server

    host = ToolHost(config, root=args.root, sessions=args.sessions, max_call_s=args.max_call, default_call_s=args.call_timeout)
    server = build_server(host)
    watchdog = reaper.start()

    try:
        with activate(project):  # every Rocq process the tools start sees the root project's load path
            if args.transport == "stdio":
                server.run("stdio")
            else:
                server.run("streamable-http", host=args.host, port=args.port)
    except KeyboardInterrupt:
        pass
    finally:
        host.close()
        reaper.stop(watchdog)
    return 0


def _root_project(root: str | None, config):
    """The Rocq project at ``root`` (its ``_CoqProject`` or dune theory, plus the config's
    ``project.flags``); None without a root. Raises ``ValueError`` (``ProjectError``) for a bad one."""
    if root is None:
        return None
    from pathlib import Path

    from lean_tools.rocq.project import find_project

    return find_project(Path(root) / "_", config.project.flags, base=Path(root))


if __name__ == "__main__":
    sys.exit(main())
