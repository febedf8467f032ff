import Mathlib

set_option maxRecDepth 10000 in
lemma big_dec : (2 : ℕ) ^ 10 = 1024 := by norm_num

set_option maxHeartbeats 400000 in
theorem pow_ten : (2 : ℕ) ^ 10 = 1024 := big_dec
