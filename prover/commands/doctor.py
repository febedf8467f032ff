"""``prover-doctor``: what is installed, which versions, and what each missing piece blocks.

Exit 0 when at least one proof assistant can check proofs (so ``prove`` can run), else 1.
``--json`` prints the same facts as one JSON object.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LEAN_PROJECT = REPO / "lean_project"
ROCQ_LIBS = {
    "mathcomp": "From mathcomp Require Import all_ssreflect.",
    "mathcomp-analysis": "From mathcomp Require Import reals.",
    "coquelicot": "Require Import Coquelicot.Coquelicot.",
    "interval": "From Interval Require Import Tactic.",
    "hammer": "From Hammer Require Import Tactics.",
}


@dataclass
class Item:
    name: str
    ok: bool
    version: str
    blocks: str
    """What does not work while this is missing."""


def _version(argv: list[str]) -> str | None:
    if shutil.which(argv[0]) is None:
        return None
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    out = (r.stdout or r.stderr).strip().splitlines()
    return out[0] if out else ""


def _rocq_lib(snippet: str) -> bool:
    if shutil.which("coqc") is None:
        return False
    from lean_tools.rocq.checker import RocqChecker

    return RocqChecker().check_file(snippet + "\n", timeout=60).ok


def collect() -> list[Item]:
    items: list[Item] = [
        Item("python", sys.version_info >= (3, 11), sys.version.split()[0], "everything (Python >= 3.11 needed)"),
    ]
    coq = _version(["coqc", "--version"])
    items.append(Item("rocq (coqc/coqtop)", coq is not None, coq or "missing", "all Rocq checking; fix: prover-setup rocq"))
    if coq is not None:
        for name, snippet in ROCQ_LIBS.items():
            ok = _rocq_lib(snippet)
            items.append(
                Item(f"rocq library {name}", ok, "ok" if ok else "missing", f"problems that import {name}; fix: prover-setup rocq")
            )
    for tool in ("eprover", "z3", "cvc4"):
        v = _version([tool, "--version"])
        items.append(Item(tool, v is not None, v or "missing", "coq-hammer's `hammer` tactic only (sauto/hauto work without)"))
    lake = _version(["lake", "--version"])
    lean = _version(["lean", "--version"])
    items.append(
        Item(
            "lean (elan/lake)",
            lake is not None,
            (lean or "") + (" / " + lake if lake else "missing"),
            "all Lean 4 checking; fix: prover-setup lean",
        )
    )
    toolchain = (LEAN_PROJECT / "lean-toolchain").read_text().strip() if (LEAN_PROJECT / "lean-toolchain").exists() else "missing"
    items.append(Item("lean_project toolchain pin", toolchain != "missing", toolchain, "Lean version checks"))
    repl = next(iter(sorted((LEAN_PROJECT / ".lake").glob("**/bin/repl"))), None) if (LEAN_PROJECT / ".lake").exists() else None
    items.append(
        Item(
            "lean REPL binary",
            repl is not None,
            str(repl) if repl else "missing",
            "warm Lean sessions (tactic mode); fix: prover-setup lean",
        )
    )
    mathlib = (LEAN_PROJECT / ".lake" / "packages" / "mathlib").exists()
    items.append(
        Item("Mathlib build", mathlib, "present" if mathlib else "missing", "Lean problems that import Mathlib; fix: prover-setup lean")
    )
    for mod, blocks in (
        ("torch", "RL training and the transformers backend"),
        ("transformers", "in-process models with local weights"),
        ("vllm", "in-process vLLM inference and RL weight push (optional extra `vllm`)"),
        ("ray", "multi-node benchmark and RL workers (optional extra `ray`)"),
    ):
        spec = importlib.util.find_spec(mod)
        version = "missing"
        if spec is not None:
            try:
                from importlib.metadata import version as _v

                version = _v(mod)
            except Exception:  # noqa: BLE001 - metadata may be absent for editable installs
                version = "present"
        items.append(Item(mod, spec is not None, version, blocks))
    if importlib.util.find_spec("torch") is not None:
        import torch

        cuda = torch.cuda.is_available()
        items.append(
            Item("CUDA GPU", cuda, torch.cuda.get_device_name(0) if cuda else "none", "GPU training/inference (CPU paths still work)")
        )
    return items


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="prover-doctor", description="Report what is installed and what each missing piece blocks.")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    items = collect()
    usable = any(i.ok for i in items if i.name in ("rocq (coqc/coqtop)", "lean (elan/lake)"))
    if args.json:
        print(json.dumps({"usable": usable, "items": [asdict(i) for i in items]}, indent=2))
    else:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="prover-doctor")
        for col in ("component", "status", "version", "blocks when missing"):
            t.add_column(col)
        for i in items:
            t.add_row(i.name, "[green]ok[/]" if i.ok else "[red]missing[/]", i.version, "" if i.ok else i.blocks)
        Console().print(t)
        if not usable:
            Console().print("[red]No proof assistant is usable: run `prover-setup rocq` (or `prover-setup lean`).[/]")
    return 0 if usable else 1


if __name__ == "__main__":
    raise SystemExit(main())
