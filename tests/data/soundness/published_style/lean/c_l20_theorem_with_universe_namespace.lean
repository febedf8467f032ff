import Mathlib

namespace Aux
universe u
theorem id_eq {α : Sort u} (a : α) : id a = a := rfl
end Aux

theorem id_three : id 3 = 3 := Aux.id_eq 3
