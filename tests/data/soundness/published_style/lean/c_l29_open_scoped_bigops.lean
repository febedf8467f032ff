import Mathlib

open scoped BigOperators
open Finset


theorem s3 : ∑ i ∈ range 3, i = 3 := by
  decide
