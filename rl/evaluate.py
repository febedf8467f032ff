"""Held-out pass@k sweep of a run's policy:
``python -m rl.evaluate RUN_DIR [--samples 8] [--ks 1,2,4,8] [--temperature T]``.

Rebuilds the run's job from ``RUN_DIR/config.json``, evaluates the randomly initialised policy
(same seed as the run's step 0) and the checkpointed one on the held-out problems with ``n``
samples each (the full verdict decides every sample), and reports the unbiased pass@k
estimate 1 - C(n-c, k) / C(n, k) averaged over problems. ``--temperature`` samples both
policies at T instead of the run's ``sampler.temperature`` (evaluation only; nothing is
trained). Writes ``RUN_DIR/passk.json``, or ``RUN_DIR/passk_T<T>.json`` with a temperature.
This is a test-time-scaling sweep over samples per problem inside ``rl``; the benchmark runner
(``benchmarks/``) is the place for sweeps over real benchmarks.
"""

from __future__ import annotations

import argparse
import json
import sys
from math import comb
from pathlib import Path


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples with c correct (Chen et al. 2021)."""
    if k > n:
        raise ValueError(f"k={k} > n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def sweep(run: Path, samples: int, ks: list[int], *, temperature: float | None = None, verifier=None) -> dict:
    """pass@k of the init and trained policies; ``verifier`` replaces the run's (tests only)."""
    from . import checkpoint
    from .config import from_dict
    from .loop import Job

    over = [f"sampler.temperature={temperature!r}"] if temperature is not None else []
    cfg = from_dict(json.loads((run / "config.json").read_text()), over)
    job = Job(cfg, run, verifier=verifier)
    out: dict = {"samples": samples, "ks": ks, "problems": len(job.heldout), "temperature": cfg.sampler.temperature}
    try:
        for label in ("init", "trained"):
            if label == "trained":
                st = checkpoint.load(run)
                if st is None:
                    raise FileNotFoundError(f"no checkpoint in {run}")
                job.trainer.module.load_state_dict(st["model"])
                job.version = int(st["version"])
                job.sampler.push(job.trainer.state_dict_for_sampler(), job.version)
            groups = list(job.pool.map(lambda ip: job.env.run_group(ip[1], samples, seed=20_000_000 + ip[0]),
                                       enumerate(job.heldout)))
            res = {}
            for k in ks:
                res[f"pass@{k}"] = sum(pass_at_k(len(g), sum(e.solved for e in g), k) for g in groups) / len(groups)
            out[label] = res
    finally:
        job.pool.shutdown(wait=True)
        job.env.close()
        close = getattr(job.verifier, "close", None)
        if close is not None and verifier is None:
            close()
    name = "passk.json" if temperature is None else f"passk_T{temperature:g}.json"
    (run / name).write_text(json.dumps(out, indent=2))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rl.evaluate", description="held-out pass@k sweep of a run")
    ap.add_argument("run")
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--ks", default="1,2,4,8")
    ap.add_argument("--temperature", type=float, default=None,
                    help="sampling temperature for both policies (default: the run's sampler.temperature)")
    a = ap.parse_args(argv)
    run = Path(a.run)
    try:
        ks = [int(k) for k in a.ks.split(",") if k.strip()]
    except ValueError:
        print(f"rl.evaluate: --ks must be comma-separated integers, got {a.ks!r}", file=sys.stderr)
        return 2
    if not (run / "config.json").is_file():
        print(f"rl.evaluate: no config.json in {run}", file=sys.stderr)
        return 2
    if any(k < 1 or k > a.samples for k in ks):
        print(f"rl.evaluate: every k must be in 1..{a.samples}", file=sys.stderr)
        return 2
    if a.temperature is not None and not a.temperature > 0:
        print(f"rl.evaluate: --temperature must be > 0, got {a.temperature}", file=sys.stderr)
        return 2
    print(json.dumps(sweep(run, a.samples, ks, temperature=a.temperature), indent=2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
