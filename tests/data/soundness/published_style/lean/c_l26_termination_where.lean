import Mathlib

def fib : ℕ → ℕ
| 0 => 0
| 1 => 1
| (n + 2) => fib n + fib (n + 1)

def sumTo (n : ℕ) : ℕ := go n 0
where
  go : ℕ → ℕ → ℕ
  | 0, acc => acc
  | k + 1, acc => go k (acc + k + 1)

def half' (n : ℕ) : ℕ := if h : n < 2 then 0 else half' (n - 2) + 1
termination_by n
decreasing_by omega

theorem fib_two : (2 : ℕ) = 1 + 1 := by norm_num
