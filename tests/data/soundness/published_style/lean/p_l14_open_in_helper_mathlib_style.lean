import Mathlib

open Real

theorem pi_pos' : 0 < π := sorry
