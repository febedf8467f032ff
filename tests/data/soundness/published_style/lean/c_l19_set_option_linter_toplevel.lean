import Mathlib

set_option linter.unusedVariables false

theorem triv (n : ℕ) (_h : n = n) : True := trivial
