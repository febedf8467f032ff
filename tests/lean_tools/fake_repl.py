#!/usr/bin/env python3
"""A stand-in for the Lean REPL that replays recorded traffic (tests only; no Lean).

    python3 fake_repl.py --transcript tests/data/lean_repl/test/readme.in [options]

It reads stdin the way the REPL does (lines gathered until a blank line, a request starting
with ``#``/``--`` skipped, EOF ends the loop, JSON that is no object kills the process with
an "uncaught exception" on stderr, exit 1) and answers each request with the recorded
response of the next request in the transcript. A request that differs from the recorded one
is a test failure: it writes the difference to stderr and exits 3.

Options for failure tests:
  --lean-version V   answer ``{"cmd": "#eval Lean.versionString"}`` with V, outside the transcript
                     (the answer imitates Lean's ``#eval`` info message; not recorded traffic)
  --hang-on S        on a request containing S: start a sleeping child, then sleep forever
  --die-on S         on a request containing S: write a partial line and a panic to stderr, exit --die-code
  --bloat-on S       on a request containing S: hold --bloat-mb MiB of memory, then sleep
  --pid-file F       append this process's pid (and any child's) to F, one per line
  --stderr-noise     write a line to stderr before every response (stderr must not disturb stdout)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def read_request(stdin) -> str:
    """The REPL's getLines: concatenate lines until one that is blank (or EOF)."""
    parts: list[str] = []
    while True:
        line = stdin.readline()
        if line.strip() == "":
            return "".join(parts) if parts or line == "" else line
        parts.append(line.rstrip("\n"))


def split_blocks(path: Path) -> list[str]:
    blocks, cur = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip() == "":
            if cur:
                blocks.append("\n".join(cur))
                cur = []
        else:
            cur.append(line)
    if cur:
        blocks.append("\n".join(cur))
    return blocks


def split_requests(path: Path) -> list[dict]:
    out, cur = [], []
    for line in [*path.read_text(encoding="utf-8").split("\n"), ""]:
        if line.strip() == "":
            if cur:
                q = "".join(cur)
                if not q.startswith(("#", "--")):
                    out.append(json.loads(q))
                cur = []
        else:
            cur.append(line.rstrip())
    return out


def pid_note(path: str | None, pid: int) -> None:
    if path:
        with open(path, "a", encoding="ascii") as f:
            f.write(f"{pid}\n")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--transcript", required=True, help="X.in; answers come from X.expected.out")
    ap.add_argument("--lean-version")
    ap.add_argument("--hang-on")
    ap.add_argument("--die-on")
    ap.add_argument("--die-code", type=int, default=1)
    ap.add_argument("--bloat-on")
    ap.add_argument("--bloat-mb", type=int, default=200)
    ap.add_argument("--pid-file")
    ap.add_argument("--stderr-noise", action="store_true")
    a = ap.parse_args()

    tin = Path(a.transcript)
    requests = split_requests(tin)
    responses = split_blocks(tin.with_name(tin.name[: -len(".in")] + ".expected.out"))
    pid_note(a.pid_file, os.getpid())
    i = 0
    probe_env = 1000
    while True:
        query = read_request(sys.stdin)
        if query == "":
            return 0
        if query.startswith(("#", "--")):
            continue
        try:
            req = json.loads(query)
            if not isinstance(req, dict):
                raise ValueError("not an object")
        except ValueError as e:
            sys.stderr.write(f"uncaught exception: {e}: {query[:200]!r}\n")
            return 1
        if a.hang_on and a.hang_on in query:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            pid_note(a.pid_file, child.pid)
            time.sleep(3600)
        if a.die_on and a.die_on in query:
            sys.stdout.write('{"env":')
            sys.stdout.flush()
            sys.stderr.write("INTERNAL PANIC: fake crash on request\n")
            return a.die_code
        if a.bloat_on and a.bloat_on in query:
            hog = bytearray(a.bloat_mb * 1024 * 1024)
            for k in range(0, len(hog), 4096):
                hog[k] = 1
            time.sleep(3600)
        if a.stderr_noise:
            sys.stderr.write(f"noise before response {i}\n")
            sys.stderr.flush()
        if a.lean_version and req == {"cmd": "#eval Lean.versionString"}:
            answer = {
                "messages": [
                    {
                        "severity": "info",
                        "pos": {"line": 1, "column": 0},
                        "endPos": {"line": 1, "column": 5},
                        "data": json.dumps(a.lean_version),
                    }
                ],
                "env": probe_env,
            }
            probe_env += 1
            sys.stdout.write(json.dumps(answer, ensure_ascii=False, indent=1) + "\n\n")
            sys.stdout.flush()
            continue
        if i >= len(requests):
            sys.stderr.write(f"fake_repl: transcript exhausted, got {query[:200]!r}\n")
            return 3
        if req != requests[i]:
            sys.stderr.write(f"fake_repl: request {i} differs\n expected {requests[i]!r}\n got      {req!r}\n")
            return 3
        sys.stdout.write(responses[i] + "\n\n")
        sys.stdout.flush()
        i += 1


if __name__ == "__main__":
    sys.exit(main())
