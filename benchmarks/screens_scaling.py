"""Time the static verdict (candidate rule + screens) on growing candidates, up to 1 MB.

``python benchmarks/screens_scaling.py [--max-kb 1024] [--repeat 3]`` prints one line per size
and language: the candidate's size, the best wall time of ``verify(..., static_only=True)`` and
the time per 100 KB. Linear screens show a flat per-100-KB column. The candidates are honest
(they pass the screens, so every rule runs to the end): many helper lemmas before the theorem,
in each language. No proof assistant is needed.
"""

from __future__ import annotations

import argparse
import time


def _lean(n: int) -> tuple[str, str]:
    problem = "import Mathlib\n\nopen Real\n\ntheorem target (a b : ℝ) : 0 ≤ (a - b) ^ 2 := by\n  sorry\n"
    helper = (
        "open Finset in\n/-- helper {k} -/\nlemma helper_{k} (x y : ℝ) (h : 0 ≤ x) : 0 ≤ x + y ^ 2 := by\n"
        "  have := sq_nonneg y\n  nlinarith [mul_pos, sq_nonneg (x - y)]\n\n"
        "section S{k}\nvariable {{z : ℕ}}\n@[simp] lemma nat_{k} : z + 0 = z := by simp\nend S{k}\n\n"
    )
    body = "".join(helper.format(k=k) for k in range(n))
    return problem, problem.replace("theorem target", body + "theorem target").replace("sorry", "nlinarith [sq_nonneg (a - b)]")


def _rocq(n: int) -> tuple[str, str]:
    problem = "Require Import Arith Lia.\n\nTheorem target (n m : nat) : n + m = m + n.\nProof.\nAdmitted.\n"
    helper = (
        "(* helper {k} *)\nLemma helper_{k} (a b : nat) : a + b = b + a /\\ a * 1 = a.\n"
        "Proof.\n  split.\n  - lia.\n  - induction a; simpl; [reflexivity | lia].\nQed.\n\nLtac t_{k} := intros; lia.\n\n"
    )
    body = "".join(helper.format(k=k) for k in range(n))
    cand = problem.replace("Theorem target", body + "Theorem target").replace("Proof.\nAdmitted.", "Proof.\n  lia.\nQed.")
    return problem, cand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-kb", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from lean_tools.soundness import verify

    print(f"{'lang':5} {'size_kb':>8} {'best_s':>8} {'s_per_100kb':>12} verdict")
    for lang, make in (("lean", _lean), ("rocq", _rocq)):
        unit = len(make(1)[1]) - len(make(0)[1])
        kb = 64
        while kb <= args.max_kb:
            problem, cand = make(kb * 1024 // unit)
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                v = verify(problem, cand, lang, static_only=True)  # type: ignore[arg-type]
                best = min(best, time.perf_counter() - t0)
            size = len(cand.encode("utf-8")) / 1024
            print(f"{lang:5} {size:8.0f} {best:8.2f} {best / size * 100:12.3f} {v.stage}: {v.reason[:50]}", flush=True)
            kb *= 2


if __name__ == "__main__":
    main()
