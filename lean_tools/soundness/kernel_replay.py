"""The Lean kernel replay: re-check a compiled candidate's declarations with the kernel alone.

Used for the candidates the static screens cannot judge (``Finding.kernel``: metaprogramming
such as ``elab``/``macro``/``Lean.Expr`` helpers, ``open`` or a read-only ``#`` command inside a
proof). Such text runs arbitrary code while Lean elaborates it, so neither the screens nor an
answer computed inside a process that loaded the candidate can be trusted: a metaprogram can put
a declaration into the environment without the kernel (``Environment`` manipulation), or mark a
declaration to run when the module is imported. The replay answers without running any of the
candidate's code, in the style of Lean's ``leanchecker`` (lean4checker) and SafeVerify:

1. ``lean_verify`` compiles the candidate (with the reference statement inserted, as for every
   Lean candidate) to ``Candidate.olean`` and runs its usual query (statement, axioms).
2. A SEPARATE process runs ``lake env lean --run Replay.lean <dir>/Candidate.olean``
   (``build_replay_program``). It reads the module data of the .olean (every part: exported,
   server, private) WITHOUT importing it, imports only the module's own imports (the library,
   trusted), and adds every constant the candidate module declares to that environment through
   the kernel (``Kernel.Environment.replay``): a declaration the kernel refuses ends the run.
   Initializers of the candidate never run (this process never enables their execution and never
   imports ``Candidate``).
3. In the replayed environment it compares the target's type with the reference's (the
   problem's statement elaborated before any helper; ``Expr`` ``==`` after instantiating the
   universe parameters, as the query does), requires both to be constants of the candidate
   module and the target to be a theorem, and collects the target's axioms by walking every
   constant it reaches inside the candidate module (axioms of the library it reaches are listed
   too). It prints ``@@<nonce>:REPLAY:<n>@@`` (n constants re-checked), ``STATEMENT``,
   ``AXIOMS`` and ``END`` lines, or ``@@<nonce>:KERNEL:<message>@@`` when the kernel refused a
   declaration.
4. Accepted only when the query AND the replay both say SAME with whitelisted axioms.

NOT RUN AGAINST A REAL LEAN here: the program follows the sources of the pinned toolchain's
``leanchecker`` (``readModuleDataParts``, ``importModulesCore``, ``finalizeImport``,
``toKernelEnv.replay``); only the ``lean``-marked tier could run it. What the default tests
check (tests/soundness/test_needs_kernel.py): the program text and its arguments, the parsing of
recorded-style outputs (accepted, kernel refusal, forged or missing lines, a failed run) and the
whole flow against a stand-in ``lake``. Any failure of the program (an API that differs in
another Lean version, a crash, a timeout) yields no trustworthy answer, i.e. a rejection.

Limits: the library the candidate imports is trusted as compiled (it is not replayed; Mathlib
is re-checked by its own CI); the compile step runs the candidate's code in the sandbox
(``lean_tools.sandbox``: no network, its own temporary directory), and the replay reads only
the .olean that step wrote, re-checking each of its declarations, so a forged .olean cannot
contain a proof the kernel refuses.
"""

from __future__ import annotations

import re

from ..types import FileCheck, Record, Severity
from .axioms import LEAN_AXIOMS
from .lean_terms import lean_name, lean_string
from .verdict import Verdict, reject

_TAG = r"@@{nonce}:(?P<tag>REPLAY|KERNEL|STATEMENT|AXIOMS|END)(?::(?P<val>[^@\n]*))?@@"


def build_replay_program(ref_full: list[str], target_full: list[str], nonce: str) -> str:
    """``Replay.lean``, run as ``lean --run Replay.lean OLEAN`` (see the module docstring)."""
    return f"""import Lean

open Lean

def tagged (what : String) : IO Unit :=
  IO.println ({lean_string("@@" + nonce + ":")} ++ what ++ "@@")

unsafe def main (args : List String) : IO UInt32 := do
  let [oleanPath] := args | return 2
  initSearchPath (← findSysroot)
  let mFile : System.FilePath := oleanPath
  let mut fnames := #[mFile]
  let sFile := OLeanLevel.server.adjustFileName mFile
  if (← sFile.pathExists) then
    fnames := fnames.push sFile
    let pFile := OLeanLevel.private.adjustFileName mFile
    if (← pFile.pathExists) then
      fnames := fnames.push pFile
  let parts ← readModuleDataParts fnames
  let some (mod, _) := parts[0]? | return 1
  let some (last, _) := parts.back? | return 1
  let (_, s) ← importModulesCore mod.imports |>.run
  let env ← finalizeImport s mod.imports {{}} 0 false false (isModule := true)
  let mut newConstants : Std.HashMap Name ConstantInfo := {{}}
  for name in last.constNames, ci in last.constants do
    newConstants := newConstants.insert name ci
  let result ← (env.toKernelEnv.replay newConstants).toBaseIO
  if let .error e := result then
    tagged ("KERNEL:" ++ ((toString e).replace "@" " ").replace "\\n" " ")
    return 1
  let .ok kenv := result | return 1
  tagged ("REPLAY:" ++ toString newConstants.size)
  let refName : Name := {lean_name(ref_full)}
  let thmName : Name := {lean_name(target_full)}
  let own (n : Name) : Bool := newConstants.contains n
  let verdict : String :=
    match kenv.find? refName, kenv.find? thmName with
    | none, _ => "MISSING_REFERENCE"
    | _, none => "MISSING_TARGET"
    | some r, some t =>
      if !(own refName && own thmName) then "NOT_IN_CANDIDATE"
      else
        match t with
        | ConstantInfo.thmInfo _ =>
          if r.levelParams.length != t.levelParams.length then "DIFFERENT_UNIVERSES"
          else if t.instantiateTypeLevelParams (r.levelParams.map Level.param) == r.type then "SAME"
          else "DIFFERENT"
        | _ => "NOT_A_THEOREM"
  let mut axs : Array Name := #[]
  let mut seen : NameSet := {{}}
  let mut todo : Array Name := #[thmName]
  while true do
    let some c := todo.back? | break
    todo := todo.pop
    if seen.contains c then continue
    seen := seen.insert c
    let some info := kenv.find? c | continue
    match info with
    | ConstantInfo.axiomInfo _ =>
      if !axs.contains c then axs := axs.push c
    | _ =>
      if own c then
        let inner : Array Name :=
          match info with
          | ConstantInfo.defnInfo v => v.value.getUsedConstants
          | ConstantInfo.thmInfo v => v.value.getUsedConstants
          | ConstantInfo.opaqueInfo v => v.value.getUsedConstants
          | ConstantInfo.inductInfo v => v.ctors.toArray
          | _ => #[]
        todo := todo ++ info.type.getUsedConstants ++ inner
  tagged ("STATEMENT:" ++ verdict)
  tagged ("AXIOMS:[" ++ ", ".intercalate (axs.toList.map toString) ++ "]")
  tagged "END"
  return 0
"""


class ReplayAnswer(Record):
    """What the replay said; ``problem`` (one line) is set when there is no trustworthy answer,
    ``kernel`` when the kernel refused a declaration of the candidate."""

    replayed: int | None = None
    """Constants of the candidate module the kernel re-checked."""
    statement: str | None = None
    axioms: tuple[str, ...] | None = None
    kernel: str = ""
    problem: str = ""


def parse_replay_output(check: FileCheck, nonce: str) -> ReplayAnswer:
    """Read the nonce-tagged lines of the replay run (plain stdout: ``FileCheck.stderr_tail``
    holds the lines that are not ``lean --json`` messages). Exactly one REPLAY, STATEMENT and
    AXIOMS line and an END line are required; a KERNEL line is the kernel's refusal."""
    pat = re.compile(_TAG.format(nonce=re.escape(nonce)))
    found: dict[str, list[str]] = {"REPLAY": [], "KERNEL": [], "STATEMENT": [], "AXIOMS": [], "END": []}
    for text in [m.text for m in check.messages] + [check.stderr_tail]:
        for m in pat.finditer(text):
            found[m.group("tag")].append((m.group("val") or "").strip())
    if found["KERNEL"]:
        return ReplayAnswer(kernel=found["KERNEL"][0][:300] or "refused")
    if check.timed_out:
        return ReplayAnswer(problem="the kernel replay timed out")
    errors = [m for m in check.messages if m.severity is Severity.ERROR]
    if errors or check.returncode != 0:
        why = " ".join(errors[0].text.split())[:300] if errors else f"exit code {check.returncode}"
        return ReplayAnswer(problem=f"the kernel replay failed: {why}")
    if not found["END"] or any(len(found[k]) != 1 for k in ("REPLAY", "STATEMENT", "AXIOMS")):
        counts = ", ".join(f"{k}={len(v)}" for k, v in found.items())
        return ReplayAnswer(problem=f"no trustworthy kernel replay answer (tagged lines: {counts})")
    count, ax = found["REPLAY"][0], found["AXIOMS"][0]
    if not count.isdigit() or not (ax.startswith("[") and ax.endswith("]")):
        return ReplayAnswer(problem=f"unreadable kernel replay answer {count[:40]!r} {ax[:100]!r}")
    axioms = tuple(a.strip() for a in ax[1:-1].split(",") if a.strip())
    return ReplayAnswer(replayed=int(count), statement=found["STATEMENT"][0], axioms=axioms)


def replay_rejection(check: FileCheck | None, nonce: str, name: str) -> tuple[Verdict | None, ReplayAnswer | None]:
    """(the rejection, or None when the replay confirms the statement and the axioms; the answer)."""
    if check is None:
        return reject("kernel", "the kernel replay did not run", "lean", name), None
    ans = parse_replay_output(check, nonce)
    if ans.kernel:
        return reject("kernel", f"the kernel refused a declaration of the candidate: {ans.kernel}", "lean", name), ans
    if ans.problem:
        return reject("kernel", ans.problem, "lean", name), ans
    if ans.statement != "SAME":
        why = f"after the kernel replay the statement of {name} is not the problem's ({ans.statement})"
        return reject("kernel", why, "lean", name), ans
    bad = [a for a in ans.axioms or () if a not in LEAN_AXIOMS]
    if bad:
        return reject("axioms", f"{name} depends on non-whitelisted axioms (kernel replay): {', '.join(bad)}", "lean", name), ans
    return None, ans
