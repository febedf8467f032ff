import Mathlib


theorem four : 2 + 2 = 4 := by
  decide

#check four
#eval 2 + 2
#print axioms four
