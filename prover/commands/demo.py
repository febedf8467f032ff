"""``python3 -m prover.commands.demo [DIR]``: prove the bundled examples with the built-in default.

Runs every ``.v`` (and, when Lean is installed, ``.lean``) file under ``DIR`` (default:
``examples/``) with no model, prints each verified proof and a summary table. Exit 0 when
every attempted example was proved, 1 otherwise.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="prover.commands.demo", description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(Path(__file__).resolve().parents[2] / "examples"))
    ap.add_argument("--search-timeout", type=float, default=60.0)
    args = ap.parse_args(argv)

    from lean_tools.pool import SessionPool

    from ..api import prove
    from ..config import load_config
    from ..errors import BadProblem
    from ..problem import load_problem

    root = Path(args.dir)
    files = sorted(root.rglob("*.v"))
    lean_ok = shutil.which("lake") is not None or shutil.which("lean") is not None
    lean_files = sorted(root.rglob("*.lean"))
    if lean_ok:
        files += lean_files
    elif lean_files:
        print(f"(skipping {len(lean_files)} Lean example(s): Lean is not installed; `prover-setup lean`)", file=sys.stderr)
    cfg = load_config(env={}, model__type="none", search__timeout_s=args.search_timeout, prover__cache_path=None)
    rows = []
    t_all = time.monotonic()
    with SessionPool(max_sessions=2) as pool:
        for f in files:
            try:
                problem = load_problem(f)
            except BadProblem as e:
                rows.append((f.name, "bad input", 0.0, str(e)))
                continue
            r = prove(problem, cfg, pool=pool)
            rows.append((f.name, "proved" if r.proved else "not proved", r.spent.wall_s, r.reason))
            print(f"===== {f.relative_to(root)}: {'PROVED' if r.proved else 'NOT PROVED'} in {r.spent.wall_s:.1f}s ({r.reason})")
            if r.proved:
                print(r.proof_text)
    print("\nsummary:")
    for name, status, secs, reason in rows:
        print(f"  {name:36s} {status:11s} {secs:6.1f}s  {reason[:70]}")
    n_ok = sum(1 for r in rows if r[1] == "proved")
    print(f"{n_ok}/{len(rows)} proved in {time.monotonic() - t_all:.1f}s")
    return 0 if rows and n_ok == len(rows) else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
