#!/usr/bin/env bash
# Sweep of the outstanding-copy limits: every example in examples/ and every
# ONNX model in MODELS_DIR is planned with both pickers, both MSA modes,
# --max-outstanding-prefetches/--max-outstanding-evictions 1 and 2 (both set
# to the same value, then each alone; "-" = flag not given) and fast memories 256KiB and 1MiB.
# Every run must exit 0 with a verified plan (memplan plan refuses to report
# an unverified one, so a limit the allocator breaks shows as an internal
# error). Prints one line per failure and a tally; exits 1 on any failure.
#
# Usage: tests/msa/limit_sweep.sh
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  ONNX models (default ../shared/data/onnx/torchvision; skipped when absent)
#   SIZES       fast-memory sizes (default "256KiB 1MiB")
#   LIMITS      PREFETCHES,EVICTIONS pairs (default "1,1 2,2 1,- -,1 2,- -,2")
set -uo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx/torchvision}
SIZES=${SIZES:-"256KiB 1MiB"}
LIMITS=${LIMITS:-"1,1 2,2 1,- -,1 2,- -,2"}

inputs=(examples/*.mpir examples/*.onnx)
if [[ -d $MODELS_DIR ]]; then
  inputs+=("$MODELS_DIR"/*.onnx)
fi

runs=0 failures=0
for input in "${inputs[@]}"; do
  for picker in cost instruction-count; do
    for mode in default reference; do
      for limits in $LIMITS; do
        IFS=, read -r prefetches evictions <<<"$limits"
        for size in $SIZES; do
          runs=$((runs + 1))
          args=(plan "$input" --fast-memory "$size" --picker "$picker" --msa-mode "$mode")
          [[ $prefetches != - ]] && args+=(--max-outstanding-prefetches "$prefetches")
          [[ $evictions != - ]] && args+=(--max-outstanding-evictions "$evictions")
          if ! err=$("$MEMPLAN" "${args[@]}" --quiet 2>&1); then
            failures=$((failures + 1))
            echo "FAIL ${args[*]}: $(head -c 300 <<<"$err")"
          fi
        done
      done
    done
  done
done
echo "limit sweep: $runs runs, $failures failures"
[[ $failures -eq 0 ]]
