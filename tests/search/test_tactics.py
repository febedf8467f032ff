"""Tactic tables as text: goal parsing, domain guesses, which candidates each goal gets."""

import pytest

from prover.search.goal import Candidate, ProblemContext, Quotients, parse_goal, rocq_domain
from prover.search.table import ROCQ, get_table, rocq_wrap

ROCQ_GOAL = """  x, y : R
  H : x < y
  h : forall t : R,
      f t = 2 * t + 1
  ============================
  x + 1 < y + 1 /\\ True"""

LEAN_GOAL = """x y : ℝ
h₀ : x < y
⊢ x + 1 < y + 1 ∧ True"""


def tactics(cands):
    return [c.tactic for c in cands]


def test_parse_rocq_goal_hyps_and_continuations():
    g = parse_goal(ROCQ_GOAL, "rocq")
    assert g.concl == "x + 1 < y + 1 /\\ True"
    assert [h.names for h in g.hyps] == [("x", "y"), ("H",), ("h",)]
    assert g.hyps[2].type == "forall t : R, f t = 2 * t + 1"
    assert g.vars_of("R") == ["x", "y"]


def test_parse_lean_goal():
    g = parse_goal(LEAN_GOAL, "lean")
    assert g.concl == "x + 1 < y + 1 ∧ True"
    assert g.hyps[0].names == ("x", "y") and g.hyps[0].type == "ℝ"
    assert g.hyps[1].names == ("h₀",)


def test_parse_bare_conclusion():
    g = parse_goal("forall n : nat, n + 0 = n", "rocq")
    assert g.hyps == () and g.concl.startswith("forall")


def test_domain_guesses():
    assert rocq_domain(parse_goal(ROCQ_GOAL, "rocq")).real
    nat_goal = parse_goal("  n : nat\n  H : n < 5\n  ============================\n  n * n < 25", "rocq")
    d = rocq_domain(nat_goal)
    assert d.natural and not d.real


def test_real_goal_gets_real_closers_and_steps():
    closers, steps = ROCQ.candidates(ROCQ_GOAL, depth=0)
    names = tactics(closers)
    assert "lra" in names and "lia" not in names
    assert "split" in tactics(steps)
    assert "field_simplify" not in tactics(steps)  # `/\` is no division
    assert "rewrite !h in *" not in tactics(steps)  # f occurs only in h itself


def test_rewrite_def_only_when_function_is_used():
    goal = "  f : R -> R\n  h : forall x : R, f x = 2 * x\n  ============================\n  f 3 = 6"
    _, steps = ROCQ.candidates(goal, depth=0)
    assert "rewrite !h in *" in tactics(steps)
    unused = "  f : R -> R\n  h : forall x : R, f x = 2 * x\n  ============================\n  3 = 3"
    _, steps = ROCQ.candidates(unused, depth=0)
    assert "rewrite !h in *" not in tactics(steps)


def test_nat_goal_gets_lia_and_bounded_case_split():
    goal = "  n : nat\n  H : n < 4\n  H0 : n * n = 9\n  ============================\n  n = 3"
    closers, steps = ROCQ.candidates(goal, depth=0)
    assert tactics(closers)[:2] == ["reflexivity", "lia"]
    splits = [c for c in steps if c.tag == "case-split"]
    assert len(splits) == 1 and splits[0].tactic.startswith("do 4 (destruct n as [|n];")


def test_nonlinear_real_goal_gets_psatz_and_square_hints():
    goal = "  a, b : R\n  ============================\n  2 * a * b <= a ^ 2 + b ^ 2"
    closers, _ = ROCQ.candidates(goal, depth=0)
    names = tactics(closers)
    assert "psatz R 2" in names
    assert any("pow2_ge_0 (a - b)" in t for t in names)


def test_local_definitions_are_unfolded():
    goal = "  ============================\n  digit_sum 405 = 9"
    _, steps = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(local_defs=("digit_sum", "other")))
    assert "unfold digit_sum in *" in tactics(steps)
    assert "unfold other in *" not in tactics(steps)


def test_rocq_wrap_rounds_up_to_whole_seconds():
    assert rocq_wrap("lia", 0.3) == "Timeout 1 (lia)."
    assert rocq_wrap("nra", 2.5) == "Timeout 3 (nra)."
    assert ROCQ.proof_line(Candidate(tactic="lia", kind="close")) == "lia."
    c = Candidate(tactic="interval", kind="close", prelude="From Interval Require Import Tactic.")
    assert ROCQ.block(c) == "From Interval Require Import Tactic.\nTimeout 2 (interval)."
    assert ROCQ.proof_line(c) == "From Interval Require Import Tactic. interval."


def test_lean_table_has_its_own_tactics():
    lean = get_table("lean")
    closers, steps = lean.candidates(LEAN_GOAL, depth=0)
    assert "linarith" in tactics(closers) and "lia" not in tactics(closers)
    assert "constructor" in tactics(steps)
    assert lean.wrap("linarith", 2) == "linarith"


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no tactic table"):
        get_table("isabelle")


def test_problem_context_reads_header_and_statement():
    header = "Require Import Reals.\nOpen Scope R_scope.\nDefinition g (x : R) := 2 * x.\nFixpoint h (n : nat) := n."
    ctx = ProblemContext.of(header, "Theorem t (n : nat) : 8 * n + 8 = 41000 -> n = 5124.", "rocq")
    assert ctx.local_defs == ("g", "h") and ctx.scope == "R_scope" and ctx.big_numbers == ("41000",)


def test_closed_goal_in_real_scope_gets_real_closers():
    goal = "  ============================\n  (1 / 4 + 1 / 5) * 20 = 9"
    closers, _ = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="R_scope"))
    assert "field" in tactics(closers) and "lia" not in tactics(closers)
    closers, _ = ROCQ.candidates(goal, depth=0)
    assert "lia" in tactics(closers)


def test_nat_mod_hints_name_each_operand():
    goal = "  n : nat\n  H : n mod 9 = 2\n  ============================\n  (4 * n) mod 9 = 8"
    closers, _ = ROCQ.candidates(goal, depth=0)
    hint = next(c.tactic for c in closers if c.tag == "nat-mod")
    assert "Nat.div_mod n 9" in hint and "Nat.div_mod (4 * n) 9" in hint and hint.endswith("; lia")


def test_conditional_definition_is_rewritten_with_side_goals():
    goal = (
        "  s : nat -> nat -> nat\n  h0 : forall a b : nat, 0 < a -> 0 < b -> s a b = a * b + b\n"
        "  ============================\n  s 3 4 = 16"
    )
    _, steps = ROCQ.candidates(goal, depth=0)
    assert any(c.tag == "rewrite-cond" and c.tactic.startswith("rewrite !h0 in * by") for c in steps)


def test_open_code_per_language():
    assert ROCQ.open_code(" Theorem t : True. ") == "Theorem t : True."
    lean = get_table("lean")
    assert lean.open_code("theorem t : True") == "theorem t : True := by\n  sorry"
    assert lean.open_code("theorem t : True := by") == "theorem t : True := by\n  sorry"


def test_two_roots_goal_gets_factored_closer():
    goal = "  x : R\n  H : x ^ 2 - 9 * x + 20 = 0\n  ============================\n  x = 4 \\/ x = 5"
    closers, _ = ROCQ.candidates(goal, depth=0)
    roots = [c.tactic for c in closers if c.tag == "roots"]
    assert roots and roots[0].startswith("assert (Hroots : (x - (4)) * (x - (5)) = 0) by nra")


def test_complex_goal_gets_parts_split_closer():
    goal = "  y : C\n  ============================\n  5 * (2 * y + 3) = 10 * y + 15"
    closers, _ = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="C_scope"))
    assert any(c.tag == "complex" and "injective_projections" in c.tactic for c in closers)
    real_goal = "  x : R\n  ============================\n  x = x"
    assert not any(c.tag == "complex" for c in ROCQ.candidates(real_goal, depth=0)[0])


def test_baseline_portfolio_is_the_fixed_sixteen():
    from prover.search import BASELINE_ROCQ, baseline_table

    table = baseline_table()
    closers, steps = table.candidates("anything", depth=0)
    assert len(closers) == 16 and steps == []
    assert all(c.timeout == 5.0 for c in BASELINE_ROCQ)
    assert "Hammer" in table.imports


def test_perfect_square_roots_are_computed_exactly():
    goal = "  ============================\n  2 * sqrt (3 * 5 + 1) - 5 + sqrt (1 / 9) + sqrt 3 = 4"
    _, steps = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="R_scope"))
    evals = [c.tactic for c in steps if c.tag == "sqrt-eval"]
    assert "replace (sqrt (3 * 5 + 1)) with (4) by (symmetry; apply sqrt_lem_1; lra)" in evals
    assert any("with (1 / 3)" in e for e in evals)
    assert not any("sqrt 3)" in e for e in evals)


def test_logarithms_get_the_expand_step():
    goal = "  x, y : R\n  H : ln (x ^ 2 * y) = 2\n  ============================\n  ln (x * y) = 1"
    _, steps = ROCQ.candidates(goal, depth=0)
    assert any(c.tag == "ln-expand" for c in steps)


def test_disequality_gives_a_cancelling_closer():
    goal = "  x, y : R\n  H1 : x <> y\n  H0 : x <> 0\n  H2 : x * x + 3 * y = y * y + 3 * x\n  ============================\n  x + y = 3"
    closers, _ = ROCQ.candidates(goal, depth=0)
    cancel = [c.tactic for c in closers if c.tag == "cancel-diseq"]
    assert cancel == ["apply (Rmult_eq_reg_l (x - (y))); [nra | intro; apply H1; lra]"]


def test_closed_nat_power_goal_gets_the_z_compute_closer():
    closers, _ = ROCQ.candidates("  ============================\n  (9 ^ 123 + 4 ^ 61) mod 10 = 3", depth=0)
    tags = [c.tag for c in closers]
    assert "nat-compute" in tags and "z-compute" not in tags
    # not for goals with variables
    closers, _ = ROCQ.candidates("  n : nat\n  ============================\n  (n ^ 2) mod 10 = 8", depth=0)
    assert "nat-compute" not in [c.tag for c in closers]


def test_square_mod_goal_gets_a_remainder_case_split():
    goal = "  a : Z\n  ============================\n  a ^ 2 mod 4 = 0 \\/ a ^ 2 mod 4 = 1"
    closers, _ = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="Z_scope"))
    split = next(c.tactic for c in closers if c.tag == "mod-cases")
    assert "Z.div_mod a 4" in split and "r_ = 0 \\/ r_ = 1 \\/ r_ = 2 \\/ r_ = 3" in split


def test_unbounded_nat_variables_get_a_derived_bound_split():
    goal = "  x, y : nat\n  H : x * y + x = 44\n  ============================\n  x = 4"
    closers, _ = ROCQ.candidates(goal, depth=0)
    splits = [c.tactic for c in closers if c.tag == "bound-split"]
    assert splits and splits[0].startswith("assert (x <= 44) by nia; do 45 (destruct x")
    # a variable with a stated bound gets the plain case split instead
    goal = "  x : nat\n  H : x < 5\n  H2 : x * x = 9\n  ============================\n  x = 3"
    closers, steps = ROCQ.candidates(goal, depth=0)
    assert not [c for c in closers if c.tag == "bound-split"] and [s for s in steps if s.tag == "case-split"]


def test_existential_goal_gets_witnesses_quotient_first():
    goal = "  n : nat\n  ============================\n  exists k : nat, n * n + n = 2 * k"
    _, steps = ROCQ.candidates(goal, depth=0)
    wit = [s.tactic for s in steps if s.tag == "witness"]
    assert wit[0] == "exists ((n * n + n) / 2)" and "exists 0" in wit and "exists n" in wit
    _, steps = ROCQ.candidates("  ============================\n  Nat.divide 3 12", depth=0)
    assert "unfold Nat.divide in *" in tactics(steps)  # `Z.divide` may not be loaded in a nat problem
    _, steps = ROCQ.candidates("  ============================\n  Z.divide 3 12", depth=0)
    assert "unfold Z.divide in *" in tactics(steps)


def test_bounded_integer_variables_get_an_interval_split():
    goal = "  x, y : Z\n  H : 0 < x\n  H0 : x <= 4\n  H1 : -2 <= y <= 1\n  ============================\n  x * y <> 7"
    closers, _ = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="Z_scope"))
    splits = [c.tactic for c in closers if c.tag == "interval-split"]
    assert splits[0].startswith("assert (Hc_ : x = 1 \\/ x = 2 \\/ x = 3 \\/ x = 4) by lia")
    assert splits[1].startswith("assert (Hc_ : y = (-2) \\/ y = (-1) \\/ y = 0 \\/ y = 1) by lia")


def test_logarithms_of_numerals_get_positivity_facts():
    goal = "  ============================\n  ln 9 / ln 3 = 2"
    _, steps = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="R_scope"))
    assert (
        "assert (0 < ln 3) by (rewrite <- ln_1; apply ln_increasing; lra); "
        "assert (0 < ln 9) by (rewrite <- ln_1; apply ln_increasing; lra)"
    ) in tactics(steps)


def test_lean_table_mirrors_the_number_theory_families():
    lean = get_table("lean")
    closers, _ = lean.candidates("⊢ (13 ^ 41 + 7 ^ 77) % 10 = 0", depth=0)
    assert "mod-compute" in [c.tag for c in closers]
    closers, _ = lean.candidates("a : ℤ\n⊢ a ^ 2 % 4 = 0 ∨ a ^ 2 % 4 = 1", depth=0)
    split = next(c.tactic for c in closers if c.tag == "mod-cases")
    assert split.startswith("have hr : a % 4 = 0 ∨ a % 4 = 1 ∨ a % 4 = 2 ∨ a % 4 = 3 := (by omega); rcases hr")
    assert "\n" not in split  # one line: the proof renderer indents every line
    closers, _ = lean.candidates("x y : ℕ\nh : x * y + x = 44\n⊢ x = 4", depth=0)
    assert any(c.tactic.startswith("have hb : x ≤ 44 := (by nlinarith); interval_cases x") for c in closers)
    _, steps = lean.candidates("n : ℕ\n⊢ ∃ k, n * n + n = 2 * k", depth=0)
    assert "use 0" in [s.tactic for s in steps]


def test_shifted_function_hypothesis_is_instantiated_at_integer_points():
    goal = (
        "  a, b, c : R\n  f : R -> R\n  H : forall x : R, f (x - 3) = 4 * x\n"
        "  H0 : forall x : R, f x = a * x + b\n  H1 : f 6 = c\n  ============================\n  a + b = 12"
    )
    _, steps = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="R_scope"))
    inst = next(s.tactic for s in steps if s.tag == "shift-eval")
    assert inst.startswith("pose proof (H (0 + (3))) as Hs0; replace (0 + (3) - 3) with 0 in Hs0 by lra")
    assert "pose proof (H (6 + (3))) as Hs2; replace (6 + (3) - 3) with 6 in Hs2 by lra" in inst


def test_real_powers_with_numeral_exponents_become_pow():
    goal = "  b : R\n  H : Rpower 5 b + Rpower 3 2 = 14\n  ============================\n  b = 1"
    _, steps = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="R_scope"))
    ev = next(s.tactic for s in steps if s.tag == "rpower-eval")
    assert ev.startswith("assert (Hp0 : Rpower 3 2 = 3 ^ 2) by (rewrite <- Rpower_pow by lra")
    assert "Rpower 5 b" not in ev


def test_positive_integer_variables_get_a_derived_bound_split():
    goal = "  a, b : Z\n  H : 0 < a\n  H0 : 0 < b\n  H1 : a * b + 2 * a = 15\n  ============================\n  a <= 15"
    closers, _ = ROCQ.candidates(goal, depth=0, ctx=ProblemContext(scope="Z_scope"))
    splits = [c.tactic for c in closers if c.tag == "bound-split"]
    assert splits[0].startswith("assert (Hb_ : a <= 15) by nia; assert (Hc_ : a = 1 \\/ a = 2")
    assert splits[1].startswith("assert (Hb_ : b <= 15) by nia")


def test_quadratic_gets_its_completed_square_as_nra_hint():
    goal = "  c, x : R\n  H : 3 * x ^ 2 + 4 * x + c <= 0\n  ============================\n  c <= 4 / 3"
    closers, _ = ROCQ.candidates(goal, depth=1)
    hint = next(c.tactic for c in closers if c.tag == "vertex-nra")
    assert hint == "pose proof (pow2_ge_0 (6 * x + 4)); nra"
    goal = "  x : R\n  H : x ^ 2 - 4 * x + 7 = y\n  ============================\n  3 <= y"
    closers, _ = ROCQ.candidates(goal, depth=1)
    assert "pose proof (pow2_ge_0 (2 * x - 4)); nra" in [c.tactic for c in closers]


def test_remainder_goals_get_the_mod_push_closer():
    closers, _ = ROCQ.candidates("  x : nat\n  H : x mod 9 = 4\n  ============================\n  (x ^ 2 + 2) mod 9 = 0", depth=0)
    assert "mod-push" in [c.tag for c in closers]
    closers, _ = ROCQ.candidates("  n : nat\n  H : n <> 0\n  ============================\n  Nat.divide 3 (6 ^ n)", depth=0)
    assert any(c.tag == "mod-push" and c.tactic.startswith("match goal with |- Nat.divide") for c in closers)
    # no remainder facts and nothing nonlinear: not offered
    closers, _ = ROCQ.candidates("  x : nat\n  ============================\n  (x + 7) mod 7 = x mod 7", depth=0)
    assert "mod-push" not in [c.tag for c in closers]


def test_sqrt_equation_hypothesis_is_squared():
    goal = "  x : R\n  h : sqrt (x + 5) = 3\n  h2 : 6 = sqrt y\n  ============================\n  x = 4"
    _, steps = ROCQ.candidates(goal, depth=0)
    sq = [s.tactic for s in steps if s.tag == "sqrt-square"]
    assert len(sq) == 2
    assert sq[0].startswith("assert (Hsq_ : 0 <= (x + 5)) by (destruct (Rle_or_lt 0 (x + 5))")
    assert sq[0].endswith("rewrite h in Hss_") and sq[1].endswith("rewrite <- h2 in Hss_")


def test_up_of_closed_arguments_is_evaluated():
    goal = "  ============================\n  (up (sqrt 40) - up (9 / 4))%Z = 4%Z"
    _, steps = ROCQ.candidates(goal, depth=0)
    up = next(s.tactic for s in steps if s.tag == "up-eval")
    assert up.startswith("replace (up (sqrt 40)) with (7)%Z by (apply tech_up;")
    assert "replace (up (9 / 4)) with (3)%Z" in up


def test_numeral_base_exponents_get_bounds_then_a_nested_case_split():
    goal = "  a, b : nat\n  h : 3 ^ a * 2 ^ b = 72\n  ============================\n  a + b = 5"
    _, steps = ROCQ.candidates(goal, depth=0)
    bounds = [s.tactic for s in steps if s.tag == "exp-bound"]
    assert bounds[0].startswith("assert (Hb_a : a <= 3)") and "Nat.pow_nonzero 2 b" in bounds[0]
    assert bounds[1].startswith("assert (Hb_b : b <= 6)")
    goal = "  a, b : nat\n  h : 3 ^ a * 2 ^ b = 72\n  Hb_a : a <= 3\n  Hb_b : b <= 6\n  ============================\n  a + b = 5"
    closers, _ = ROCQ.candidates(goal, depth=2)
    nested = [c.tactic for c in closers if c.tag == "case-split"]
    assert nested and nested[0].startswith("do 4 (destruct a as [|a]; [do 7 (destruct b as [|b];")
    # too large to compute in unary: no bound offered
    _, steps = ROCQ.candidates("  x : nat\n  h : 10 ^ x = 1000000000\n  ============================\n  x = 9", depth=0)
    assert not [s for s in steps if s.tag == "exp-bound"]


def test_exponential_equations_get_logarithms_on_a_common_base():
    goal = "  x : R\n  h : Rpower 3 (x - 1) = 81\n  ============================\n  x = 5"
    _, steps = ROCQ.candidates(goal, depth=0)
    assert "exp-log" in [s.tag for s in steps]
    goal = "  x : R\n  h : (x - 1) * ln 3 = ln 81\n  h2 : ln 12 = y\n  ============================\n  x = 5"
    _, steps = ROCQ.candidates(goal, depth=1)
    factor = next(s.tactic for s in steps if s.tag == "ln-factor")
    assert factor.startswith("assert (Hln81_ : ln 81 = 4 * ln 3)") and "ln 12" not in factor


def test_functional_equation_is_instantiated_at_the_goals_points():
    goal = "  f : R -> R\n  h : forall x : R, f x + 3 * f (- x) = 2 * x\n  ============================\n  f 4 = -4"
    _, steps = ROCQ.candidates(goal, depth=0)
    inst = [s.tactic for s in steps if s.tag == "instantiate"]
    assert "pose proof (h (4)); pose proof (h (/ (4))); pose proof (h (- (4))); rewrite ?Ropp_involutive, ?Rinv_inv in *" in inst
    # a plain definition is rewritten, not instantiated
    goal = "  f : R -> R\n  h : forall x : R, f x = 2 * x + 1\n  ============================\n  f 3 = 7"
    _, steps = ROCQ.candidates(goal, depth=0)
    assert not [s for s in steps if s.tag == "instantiate"]


def test_trigonometric_goals_get_values_expansions_and_the_pythagorean_identity():
    goal = "  x : R\n  h : sin x = 1 / 4\n  ============================\n  cos (2 * x) + sin (PI / 6) = 7 / 8 + 1 / 2"
    closers, steps = ROCQ.candidates(goal, depth=0)
    tags = [s.tag for s in steps]
    assert "trig-values" in tags and "trig-expand" in tags
    trig = next(c.tactic for c in closers if c.tag == "trig-nra")
    assert trig.startswith("pose proof (sin2_cos2 x); pose proof (sin2_cos2 (2 * x))")


def test_recurrences_are_unrolled_to_the_value_asked_for():
    goal = "  u : nat -> nat\n  h : forall n : nat, u (n + 2) = 2 * u (n + 1) - u n\n  ============================\n  u 4 = 9"
    _, steps = ROCQ.candidates(goal, depth=0)
    unroll = next(s.tactic for s in steps if s.tag == "unroll")
    assert unroll == "pose proof (h 0%nat) as Hu0_; pose proof (h 1%nat) as Hu1_; pose proof (h 2%nat) as Hu2_; simpl in *"
    goal = "  u : nat -> nat\n  h : forall n : nat, u (S n) = 2 * u n\n  ============================\n  u 400 = 8"
    _, steps = ROCQ.candidates(goal, depth=0)
    assert not [s for s in steps if s.tag == "unroll"]  # too far to unroll


def test_max_min_and_divisibility_hypotheses_get_their_steps():
    _, steps = ROCQ.candidates("  x, y : R\n  ============================\n  Rmax x y + Rmin x y = x + y", depth=0)
    assert "minmax-cases" in [s.tag for s in steps]
    _, steps = ROCQ.candidates("  a : Z\n  h : (5 | a)\n  ============================\n  (a * a) mod 25 = 0", depth=0)
    assert "unfold Z.divide in *" in [s.tactic for s in steps]


def test_linear_existential_gets_its_solution_as_first_witness():
    goal = "  ============================\n  exists x : R, 5 * x - 2 = 3 * x + 7 /\\ 0 < x"
    _, steps = ROCQ.candidates(goal, depth=0)
    wit = [s.tactic for s in steps if s.tag == "witness"]
    assert wit[0] == "exists (9 / 2)"
    goal = "  ============================\n  exists x : R, x * x = 4"  # not linear: no solution offered
    _, steps = ROCQ.candidates(goal, depth=0)
    assert next(s.tactic for s in steps if s.tag == "witness") == "exists 0"


def test_radicals_are_written_over_their_square_free_part():
    goal = "  ============================\n  sqrt 63 + sqrt 28 + sqrt 36 + sqrt 5 = 5 * sqrt 7 + 6 + sqrt 5"
    _, steps = ROCQ.candidates(goal, depth=0)
    fac = next(s.tactic for s in steps if s.tag == "sqrt-factor")
    assert fac.startswith("replace (sqrt 63) with (3 * sqrt 7) by") and "replace (sqrt 28) with (2 * sqrt 7)" in fac
    assert "sqrt 36" not in fac and "(sqrt 5)" not in fac  # a perfect square, a square-free radicand


def _steps(goal: str, tag: str) -> list[str]:
    _, steps = ROCQ.candidates(goal, depth=0)
    return [s.tactic for s in steps if s.tag == tag]


def test_logarithms_of_composite_numerals_are_factored_into_primes():
    fac = _steps("  x : R\n  ============================\n  ln 98 / ln 2 - ln 45 = ln 11", "ln-factor")
    assert len(fac) == 1
    assert "assert (Hln98_ : ln 98 = 1 * ln 2 + 2 * ln 7) by (replace 98 with (2 ^ 1 * 7 ^ 2) by lra;" in fac[0]
    assert "ln 45 = 2 * ln 3 + 1 * ln 5" in fac[0] and "Hln11_" not in fac[0]  # a prime stays
    # ln 0 and ln 1 have no factorisation (0 once looped forever on `0 % p == 0`)
    assert _steps("  x : R\n  ============================\n  ln 0 + ln 1 = x", "ln-factor") == []


def test_rational_powers_of_perfect_powers_are_evaluated():
    goal = "  ============================\n  Rpower 343 (1 / 3) + Rpower 16 (3 / 4) + Rpower 10 (1 / 2) = 15"
    (tac,) = _steps(goal, "rpower-root")
    assert tac.startswith("replace (Rpower 343 (1 / 3)) with (7) by (replace 343 with (Rpower 7 (INR 3))")
    assert "replace (Rpower 16 (3 / 4)) with (8)" in tac and "(Rpower 10 (1 / 2))" not in tac


def test_gcd_steps_fire_once_and_only_with_a_known_gcd():
    goal = "  m, n : nat\n  h0 : Nat.gcd m n = 5\n  h1 : Nat.lcm m n = 60\n  ============================\n  35 <= m + n"
    (tac,) = _steps(goal, "gcd-lcm")
    assert "pose proof (Nat.gcd_divide_l m n) as Hql0_" in tac and "unfold Nat.lcm in *" in tac and "subst m; subst n" in tac
    # the step records its quotients as a fact; a path that carries it gets no second one
    cand = next(c for c in ROCQ.candidates(goal, depth=0)[1] if c.tag == "gcd-lcm")
    assert cand.facts == (Quotients(names=("ql0_", "qr0_")),)
    assert [c for c in ROCQ.candidates(goal, depth=1, facts=cand.facts)[1] if c.tag == "gcd-lcm"] == []
    assert _steps(goal.replace("h0 : Nat.gcd m n = 5\n", ""), "gcd-lcm") == []


def test_linear_gcd_takes_the_combination_that_cancels_the_variable():
    (tac,) = _steps("  n : nat\n  ============================\n  Nat.gcd (10 * n + 3) (15 * n + 4) = 1", "gcd-linear")
    assert "(3 * (10 * n + 3) - 2 * (15 * n + 4))" in tac and tac.endswith("apply Nat.divide_1_r in Hg_")
    # proportional forms leave no constant: nothing to say
    assert _steps("  n : nat\n  ============================\n  Nat.gcd (2 * n + 4) (n + 2) = 1", "gcd-linear") == []


def test_factor_split_bounds_the_smaller_factor_by_the_square_root():
    goal = "  a, b : nat\n  h : a * b = 391\n  ============================\n  a + b = 40"
    closers, _ = ROCQ.candidates(goal, depth=0)
    (tac,) = [c.tactic for c in closers if c.tag == "factor-split"]
    assert tac.startswith("assert (Hs_ : a <= 19 \\/ b <= 19) by nia;") and "do 20 (destruct a as [|a]" in tac


def test_inverse_law_writes_the_point_as_an_image():
    goal = (
        "  f, g : R -> R\n  hf : forall x : R, f x = x ^ 3 + 2\n  h1 : forall x : R, g (f x) = x\n"
        "  ============================\n  g 29 = 3"
    )
    (tac,) = _steps(goal, "inverse")
    assert tac.startswith("replace 29 with (f (3)) by (first [assumption | symmetry; assumption | rewrite hf; ring")
    assert tac.endswith("apply h1")


def test_f_equal_only_for_one_function_applied_on_both_sides():
    from prover.search.rewriting import same_head_sides as _same_head_sides

    assert _same_head_sides("sqrt ((a - c) ^ 2 + (b - d) ^ 2) = sqrt 10")
    assert _same_head_sides("f (x + 1) = f 3")
    assert not _same_head_sides("sqrt 8 = 2 * sqrt 2")
    assert not _same_head_sides("sqrt x + 1 = sqrt y")
    assert not _same_head_sides("sqrt x = ln x")
