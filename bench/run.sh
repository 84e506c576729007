#!/usr/bin/env bash
# `make bench`: every benchmark, side by side in one run.
#   pipeline_bench   analysis + packing + verification, synthetic 10^3..10^6
#                    ops and the shared lifetime CSVs
#   packing_bench    each packing algorithm alone
#   models_table.sh  every shared ONNX model, with and without aliasing
#   msa_table.sh     fast-memory planning, reference vs default mode, with and
#                    without sliced, window and block prefetch
#   time_bound_table.sh  fast-memory plans against their time bound
#   regions_table.sh every shared ONNX model as one execution region, IREE's layout vs memplan's
# Usage: bench/run.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
export MEMPLAN="$build/cli/memplan"
"$build/bench/pipeline_bench" --benchmark_min_time=0.05
"$build/bench/packing_bench" --benchmark_min_time=0.05
if [[ -d ../shared/data/onnx ]]; then
  bench/models_table.sh
  bench/msa_table.sh
  bench/time_bound_table.sh
  bench/regions_table.sh
else
  echo "bench: ../shared/data is absent; skipping the model tables" >&2
fi
