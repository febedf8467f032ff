"""The installed tactic model's beam search: ``transformers``' ``generate`` against the search's own
(``prover.search.lm_beams.beam_search``), on the same goals, in the same process.

    python benchmarks/tactic_beams.py [--model DIR] [--steps FILE.jsonl] [--goals 20] [--k 8]
        [--threads 1] [--out FILE.json]

For each of the first ``--goals`` steps of ``--steps`` (default: the held-out steps beside the
installed k-NN index, ``~/.cache/agentic-prover/tactics/steps/valid.jsonl``), the prompt the search
sends (``tactic_prompt`` of the goal) is decoded both ways with ``k`` beams and the card's
``max_new_tokens``, alternating which goes first. Printed and written as one JSON record: the
median and total seconds of each, and how often the two agree on the best tactic and on the set
of parsed tactics (``proposals``). Both rank by summed log-probability with no length penalty;
they may differ where two beams' scores tie or where ``generate`` stops a beam early.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from a checkout


def _generate(model, tokenizer, stops: tuple[int, ...], prompt: str, k: int, max_new: int):
    """The beams of ``transformers``' ``generate`` for ``prompt``, as ``Completion``s, best first."""
    import torch

    from prover.search.lm_source import Completion

    enc = tokenizer(prompt, return_tensors="pt")
    width = enc["input_ids"].shape[1]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else stops[0]
    with torch.inference_mode():
        out = model.generate(**enc, do_sample=False, num_beams=k, num_return_sequences=k, max_new_tokens=max_new,
                             early_stopping=True, length_penalty=0.0, output_scores=True, return_dict_in_generate=True,
                             eos_token_id=list(stops), pad_token_id=pad)
    done = []
    for seq, score in zip(out.sequences, out.sequences_scores, strict=True):
        ids = [int(t) for t in seq[width:]]
        end = next((i + 1 for i, t in enumerate(ids) if t in set(stops)), len(ids))
        done.append(Completion(tokenizer.decode(ids[:end], skip_special_tokens=True), float(score), end))
    return sorted(done, key=lambda c: -c.logprob)


def main(argv: list[str] | None = None) -> int:
    from prover.presets import default_knn_index, default_tactic_model

    ap = argparse.ArgumentParser(prog="benchmarks/tactic_beams.py", description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=default_tactic_model())
    ap.add_argument("--steps", type=Path, default=default_knn_index().parent / "steps" / "valid.jsonl")
    ap.add_argument("--goals", type=int, default=20)
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.goals < 1 or args.k < 1:
        print("tactic_beams: --goals and --k must be at least 1", file=sys.stderr)
        return 2
    if not args.steps.is_file():
        print(f"tactic_beams: no step file {args.steps}: run `prover-setup model tactics`", file=sys.stderr)
        return 2
    os.environ["PROVER_TACTIC_THREADS"] = str(args.threads)
    from prover.search.knn_index import Goal
    from prover.search.lm_card import read_card
    from prover.search.lm_prompt import tactic_prompt
    from prover.search.lm_source import LmUnavailable, TransformersTacticModel, proposals

    try:
        tm = TransformersTacticModel.load(args.model, read_card(args.model))
    except (LmUnavailable, FileNotFoundError) as e:
        print(f"tactic_beams: {e}", file=sys.stderr)
        return 2
    with args.steps.open(encoding="utf-8") as f:  # step records (``prover-data``): the goal before each step
        goals = [Goal.model_validate(json.loads(line)["goals_before"]) for line, _ in zip(f, range(args.goals), strict=False)]
    times: dict[str, list[float]] = {"generate": [], "own": []}
    best_same = set_same = 0
    for i, goal in enumerate(goals):
        prompt = tactic_prompt(goal)
        order = ("generate", "own") if i % 2 == 0 else ("own", "generate")
        got = {}
        for way in order:
            t0 = time.perf_counter()
            got[way] = (_generate(tm.model, tm.tokenizer, tm.stop_ids, prompt, args.k, tm.card.max_new_tokens)
                        if way == "generate" else tm.complete(prompt, args.k))
            times[way].append(time.perf_counter() - t0)
        a, b = proposals(got["generate"]), proposals(got["own"])
        best_same += bool(a) and bool(b) and a[0].tactic == b[0].tactic
        set_same += {p.tactic for p in a} == {p.tactic for p in b}
    n = len(goals)
    record = {
        "model": str(args.model), "steps": str(args.steps), "goals": n, "k": args.k, "threads": args.threads,
        "max_new_tokens": tm.card.max_new_tokens, "machine": platform.machine(), "cpus": os.cpu_count(),
        **{f"{w}_median_s": round(statistics.median(t), 3) for w, t in times.items()},
        **{f"{w}_total_s": round(sum(t), 2) for w, t in times.items()},
        "same_best_tactic": best_same, "same_tactic_set": set_same,
    }
    print(json.dumps(record, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
