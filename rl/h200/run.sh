#!/usr/bin/env bash
# On the H200 machine (repository root; see rl/h200/README.md for the order of calls).
#   rl/h200/run.sh stage          copy what this call carried (.h200/...) into /tmp/h200 (kept while warm)
#   rl/h200/run.sh run [k=v ...]  check and reassemble the GGUF, install Rocq and the wheels, convert
#                                 SmolLM2 once, train with rl/configs/h200.toml, print the figures
#   rl/h200/run.sh rehearse       the same path on this CPU at tiny scale (no staging, no install)
set -euo pipefail
cd "$(dirname "$0")/../.."
STAGE=/tmp/h200
mode=${1:-}
shift || true
case "$mode" in
  stage)
    mkdir -p "$STAGE/parts" "$STAGE/wheels"
    [ -d .h200/parts ] && cp -n .h200/parts/* "$STAGE/parts/" 2>/dev/null || true
    [ -d .h200/wheels ] && cp -n .h200/wheels/* "$STAGE/wheels/" 2>/dev/null || true
    for f in rocq.tar.xz gguf.sha256; do [ -f ".h200/$f" ] && cp ".h200/$f" "$STAGE/"; done
    echo "staged: $(ls "$STAGE/parts" | wc -l) parts, $(ls "$STAGE/wheels" | wc -l) wheels," \
         "rocq $( [ -f $STAGE/rocq.tar.xz ] && echo yes || echo no)"
    ;;
  run)
    [ -f "$STAGE/rocq.tar.xz" ] || { echo "run.sh: $STAGE/rocq.tar.xz missing: stage it first"; exit 2; }
    cat "$STAGE"/parts/gguf.* > "$STAGE/SmolLM2-135M-Instruct.Q4_1.gguf"
    echo "$(cat "$STAGE/gguf.sha256")  $STAGE/SmolLM2-135M-Instruct.Q4_1.gguf" | sha256sum -c - \
      || { echo "run.sh: GGUF checksum differs: a part is missing or damaged"; exit 2; }
    command -v coqc >/dev/null || tar -xJf "$STAGE/rocq.tar.xz" -C /
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$STAGE/site" \
      "$STAGE"/wheels/*.whl
    export PYTHONPATH="$STAGE/site:$PWD" AGENTIC_PROVER_MODELS="$STAGE/models" PYTHONUNBUFFERED=1
    OUTDIR=${OUT:-/tmp}/h200
    python3 -m rl.h200.demo rl/configs/h200.toml --output "$OUTDIR" \
      "model.path=\"$STAGE/SmolLM2-135M-Instruct.Q4_1.gguf\"" "$@"
    ;;
  rehearse)
    export PYTHONUNBUFFERED=1
    PY=${PY:-.venv/bin/python}
    $PY -m rl.h200.demo rl/configs/h200.toml --output "${OUT:-/tmp/h200_rehearsal}" \
      trainer.device=\"cpu\" trainer.steps=2 trainer.batch_groups=1 sampler.group_size=2 \
      sampler.max_new_tokens=24 async.rollout_workers=1 async.sync_steps=1 async.alternate_every=1 \
      curriculum.heldout_size=2 curriculum.train_size=20 env.max_turns=1 trainer.max_wall_s=600 "$@"
    ;;
  *) echo "usage: rl/h200/run.sh stage | run [key=value ...] | rehearse [key=value ...]"; exit 2 ;;
esac
