"""Latency of the ``prover-mcp`` tools, and how many concurrent MCP sessions one server serves.

    python benchmarks/mcp_latency.py [--reps 20] [--levels 1,2,4,8,16] [--sessions 2] [--out FILE]

Part 1 (per tool, warm pool): one stdio ``prover-mcp`` spawned by the MCP SDK's client; after
one warm-up call per tool, ``--reps`` calls of each tool on a small Rocq problem, one at a time.
Reported: median and p95 wall time per call as the client sees it (JSON-RPC round trip included).

Part 2 (concurrent sessions): one ``prover-mcp --transport http --sessions S`` server; at each
level k, k client sessions (each its own MCP session over streamable HTTP) call ``check`` in a
loop, ``--calls`` calls each. Reported: the median ``check`` latency per level and the largest k
whose median stays within twice the k=1 median ("sessions before latency doubles").

The numbers depend on the machine and on what else runs on it: the script prints the load
average and core count next to them. Writes JSON to ``--out`` (default: stdout only).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROBLEM = """Require Import Arith Lia.

Theorem le_double (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.
Proof.
Admitted.
"""


def _server_cmd() -> list[str]:
    script = Path(sys.executable).parent / "prover-mcp"
    return [str(script)] if script.exists() else [sys.executable, "-m", "prover.mcp.cli"]


def _text(result: Any) -> str:
    """The text of a tool result's first text block ("" when it has none)."""
    return next((c.text for c in result.content if getattr(c, "type", "") == "text"), "")


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


async def per_tool(reps: int) -> dict[str, dict[str, float]]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    cmd = _server_cmd()
    solved = PROBLEM.replace("Proof.\nAdmitted.", "Proof.\nintros; lia.\nQed.")
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=str(ROOT))
    out: dict[str, dict[str, float]] = {}
    async with stdio_client(params) as streams, ClientSession(*streams) as s:
        await s.initialize()
        g = await s.call_tool("goals", {"problem": PROBLEM})
        state = g.structured_content["state"]
        calls = {
            "check": ("check", {"problem": PROBLEM, "proof": "intros; lia."}),
            "check (error)": ("check", {"problem": PROBLEM, "proof": "intros H. exact H."}),
            "goals": ("goals", {"problem": PROBLEM, "proof": "intros H."}),
            "run_tactic": ("run_tactic", {"problem": PROBLEM, "state": state, "tactic": "intros H."}),
            "search": ("search", {"problem": PROBLEM, "query": "(_ * _ <= _ * _)"}),
            "auto_close": ("auto_close", {"problem": PROBLEM, "budget_s": 30}),
            "verify": ("verify", {"problem": PROBLEM, "proof": solved}),
        }
        for label, (tool, args) in calls.items():
            r = await s.call_tool(tool, args)  # warm-up
            if r.is_error:
                raise SystemExit(f"{label}: {_text(r)}")
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                r = await s.call_tool(tool, args)
                times.append(time.perf_counter() - t0)
                if r.is_error:
                    raise SystemExit(f"{label}: {_text(r)}")
            out[label] = {"median_s": round(statistics.median(times), 4), "p95_s": round(_p95(times), 4), "n": reps}
            print(f"  {label:14s} median {out[label]['median_s'] * 1000:8.1f} ms   p95 {out[label]['p95_s'] * 1000:8.1f} ms", flush=True)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http_server(sessions: int) -> tuple[subprocess.Popen, str]:
    """``prover-mcp --transport http`` on a free port, once it accepts connections."""
    port = _free_port()
    proc = subprocess.Popen([*_server_cmd(), "--transport", "http", "--port", str(port), "--sessions", str(sessions)],
                            cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("prover-mcp --transport http did not start") from None
            time.sleep(0.3)


async def concurrency(url: str, levels: list[int], calls: int, sessions: int) -> dict:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    args = {"problem": PROBLEM, "proof": "intros; lia."}

    async def client(times: list[float], ready: list[int] | None = None, go=None) -> None:
        async with streamable_http_client(url) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            await s.call_tool("check", args)  # the session's first call, not timed
            if ready is not None:
                ready[0] += 1
                await go.wait()  # every session is open and warm before timing starts
            for _ in range(calls):
                t0 = time.perf_counter()
                res = await s.call_tool("check", args)
                times.append(time.perf_counter() - t0)
                if res.is_error or not res.structured_content["complete"]:
                    raise RuntimeError(f"check failed during the timed calls: {_text(res)[:200]}")

    await client([])  # warm the pool
    rows = []
    for k in levels:
        times: list[float] = []
        ready, go = [0], anyio.Event()
        async with anyio.create_task_group() as tg:
            for _ in range(k):
                tg.start_soon(client, times, ready, go)
            while ready[0] < k:
                await anyio.sleep(0.05)
            t0 = time.perf_counter()
            go.set()
        wall = time.perf_counter() - t0
        row = {"sessions": k, "median_s": round(statistics.median(times), 4), "p95_s": round(_p95(times), 4),
               "calls_per_s": round(len(times) / wall, 2)}
        rows.append(row)
        print(f"  {k:3d} sessions: median {row['median_s'] * 1000:8.1f} ms   p95 {row['p95_s'] * 1000:8.1f} ms   "
              f"{row['calls_per_s']:6.2f} calls/s", flush=True)
    base = rows[0]["median_s"]
    within = [r["sessions"] for r in rows if r["median_s"] <= 2 * base]
    first_over = next((r["sessions"] for r in rows if r["median_s"] > 2 * base), None)
    return {"pool_sessions": sessions, "calls_per_session": calls, "levels": rows,
            "max_sessions_within_2x": max(within), "first_level_over_2x": first_over}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--levels", default="1,2,4,8,16")
    ap.add_argument("--calls", type=int, default=10, help="check calls per session per level")
    ap.add_argument("--sessions", type=int, default=2, help="the server's warm proof-assistant sessions")
    ap.add_argument("--skip-tools", action="store_true")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    import anyio

    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    machine = {"cores": os.cpu_count(), "load_average_at_start": [round(x, 1) for x in os.getloadavg()]}
    print(f"machine: {machine}", flush=True)
    report: dict = {"machine": machine, "problem": "le_double (Require Import Arith Lia)"}
    if not args.skip_tools:
        print("per tool (warm pool, one stdio session):", flush=True)
        report["tools"] = anyio.run(per_tool, args.reps)
    print(f"concurrent sessions (one HTTP server, {args.sessions} warm sessions):", flush=True)
    proc, url = start_http_server(args.sessions)
    try:
        report["concurrency"] = anyio.run(concurrency, url, levels, args.calls, args.sessions)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    report["machine"]["load_average_at_end"] = [round(x, 1) for x in os.getloadavg()]
    text = json.dumps(report, indent=2)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
