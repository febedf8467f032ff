import Mathlib


set_option maxHeartbeats 400000 in
theorem big (n : ℕ) (h : n < 5) : n ^ 2 < 25 := by
  interval_cases n <;> norm_num
