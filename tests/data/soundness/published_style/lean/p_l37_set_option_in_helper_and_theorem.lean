import Mathlib

set_option maxHeartbeats 400000 in
theorem pow_ten : (2 : ℕ) ^ 10 = 1024 := sorry
