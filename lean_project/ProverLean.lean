/-
Root of the project's own (empty) library. Building it (`lake build`) checks that Mathlib
is downloaded and loads; candidate proofs are never added here, they are checked from
temporary files with `lake env lean --json` (see lean_tools/lean/checker.py).
-/
import Mathlib
