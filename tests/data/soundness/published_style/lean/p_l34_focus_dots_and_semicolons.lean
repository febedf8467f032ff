import Mathlib

theorem and_ex (p q : Prop) (hp : p) (hq : q) : p ∧ q ∧ p := sorry
