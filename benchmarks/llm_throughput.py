"""Throughput of a real model behind vLLM's OpenAI server, and agent-mode problems per hour.

    python benchmarks/llm_throughput.py [--endpoint URL] [--model smollm2] [--requests 6]
        [--max-tokens 64] [--problems 2] [--timeout 180] [--out FILE.json]

Without ``--endpoint`` it starts ``prover-serve MODEL`` itself (and stops it at the end). Three
measurements, each printed as it finishes and collected in one JSON record:

1. **tokens/s and requests/s at concurrency 1 and 2**: ``--requests`` chat completions of one
   fixed prompt, ``max_tokens`` completion tokens each (``ignore_eos``, so every request
   generates exactly that many), sent by 1 and by 2 threads; completion tokens from the server's
   ``usage``, divided by the wall time of the batch.
2. **agent-mode problems per hour**: ``prove`` (agent mode, ``examples/configs/smollm2.toml``,
   built-in search on the whole theorem off) on the first ``--problems`` bundled Rocq examples
   with ``--timeout`` seconds each; problems / total wall time x 3600, with how many were proved.

Not covered: streaming latency (time to first token), prompts longer than a few hundred tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROMPT = "Explain, step by step, why the sum of two even natural numbers is even."


def _complete(url: str, model: str, max_tokens: int) -> int:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": PROMPT}],
        "max_tokens": max_tokens,
        "temperature": 0.0,
        "ignore_eos": True,
    }
    req = urllib.request.Request(f"{url}/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=900) as r:
        return int(json.loads(r.read())["usage"]["completion_tokens"])


def measure_server(url: str, model: str, *, requests: int, max_tokens: int, concurrency: int) -> dict:
    """``requests`` completions sent by ``concurrency`` threads; tokens/s and requests/s."""
    todo = list(range(requests))
    lock = threading.Lock()
    tokens: list[int] = []
    errors: list[str] = []

    def worker() -> None:
        while True:
            with lock:
                if not todo:
                    return
                todo.pop()
            try:
                n = _complete(url, model, max_tokens)
            except Exception as e:  # noqa: BLE001 - a failed request is counted, not fatal
                with lock:
                    errors.append(f"{type(e).__name__}: {e}")
                continue
            with lock:
                tokens.append(n)

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    return {
        "concurrency": concurrency,
        "requests": len(tokens),
        "errors": errors,
        "completion_tokens": sum(tokens),
        "wall_s": round(wall, 2),
        "tokens_per_s": round(sum(tokens) / wall, 2) if wall > 0 else None,
        "requests_per_s": round(len(tokens) / wall, 4) if wall > 0 else None,
    }


def measure_agent(url: str, model: str, *, problems: int, timeout_s: float) -> dict:
    files = sorted((ROOT / "examples" / "rocq").glob("*.v"))[:problems]
    cfg = ROOT / "examples" / "configs" / "smollm2.toml"
    runs = []
    t0 = time.monotonic()
    for f in files:
        cmd = [sys.executable, "-m", "prover.commands.prove", str(f), "--config", str(cfg), "--endpoint", url, "--model", model]
        cmd += ["--timeout", str(timeout_s), "--json", "--no-cache"]
        t1 = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        try:
            summary = json.loads(proc.stdout)
        except json.JSONDecodeError:
            summary = {"proved": False, "reason": proc.stderr.strip()[-300:], "spent": {}}
        runs.append(
            {
                "problem": f.name,
                "exit": proc.returncode,
                "proved": bool(summary.get("proved")),
                "reason": summary.get("reason"),
                "wall_s": round(time.monotonic() - t1, 1),
                "llm_calls": summary.get("spent", {}).get("llm_calls"),
                "tokens": (summary.get("spent", {}).get("tokens_in") or 0) + (summary.get("spent", {}).get("tokens_out") or 0),
            }
        )
        print(json.dumps(runs[-1]), flush=True)
    wall = time.monotonic() - t0
    return {
        "problems": len(runs),
        "proved": sum(r["proved"] for r in runs),
        "timeout_s": timeout_s,
        "wall_s": round(wall, 1),
        "problems_per_hour": round(len(runs) / wall * 3600, 1) if wall > 0 else None,
        "runs": runs,
    }


def _code_version() -> str | None:
    """``git describe --always --dirty`` of this checkout (None outside a git checkout)."""
    try:
        proc = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None


def run(url: str, args: argparse.Namespace) -> dict:
    out: dict = {
        "code": _code_version(),
        "command": " ".join(["benchmarks/llm_throughput.py", *sys.argv[1:]]),
        "endpoint": url,
        "model": args.model,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load_avg_start": list(os.getloadavg())},
        "server": [],
    }
    _complete(url, args.model, 4)  # warm-up, not measured
    for c in (1, 2):
        m = measure_server(url, args.model, requests=args.requests, max_tokens=args.max_tokens, concurrency=c)
        print(json.dumps(m), flush=True)
        out["server"].append(m)
    if args.problems > 0:
        out["agent"] = measure_agent(url, args.model, problems=args.problems, timeout_s=args.timeout)
    out["machine"]["load_avg_end"] = list(os.getloadavg())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--endpoint", help="a running server's /v1 URL (default: start prover-serve MODEL)")
    ap.add_argument("--model", default="smollm2")
    ap.add_argument("--requests", type=int, default=6, help="completions per concurrency level")
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--problems", type=int, default=2, help="bundled Rocq examples run in agent mode (0: skip)")
    ap.add_argument("--timeout", type=float, default=180.0, help="budget per problem (s)")
    ap.add_argument("--out", help="write the JSON record here too")
    args = ap.parse_args(argv)
    if args.requests < 1 or args.max_tokens < 1 or args.problems < 0 or args.timeout <= 0:
        ap.error("--requests and --max-tokens must be positive, --problems non-negative, --timeout positive")
    if args.endpoint:
        result = run(args.endpoint.rstrip("/"), args)
    else:
        sys.path.insert(0, str(ROOT))
        from prover.commands.serve import served

        with tempfile.NamedTemporaryFile("w", prefix="prover-serve-", suffix=".log", delete=False) as log:
            print(f"starting prover-serve {args.model} (log: {log.name})", file=sys.stderr, flush=True)
            with served(args.model, name=args.model, log=log) as url:
                result = run(url, args)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
