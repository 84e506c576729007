#!/usr/bin/env bash
# The results table of docs/packing.md: `memplan plan` with --algorithm auto
# at each --effort (fast, default, max) and with best-fit-spatial alone, on
# every lifetime CSV of the shared data set (MiniMalloc challenging A-K and
# input.12, the SOMAS / IOPDDL / PanGu traces) and on the dense inputs of
# bench/dense_inputs.py (10^4 and 10^5 buffers all live at once, 10^5 random
# rows, a text IR with 20,000 values live together): buffers, max-live lower
# bound, peak / lower bound and wall time (parse + analysis + packing +
# verification, no JSON output) per effort, the member default effort picked,
# and best-fit-spatial's peak / lower bound on the shared inputs (auto must
# never be worse; alone it takes minutes to hours on the dense ones).
#
# Then the scaling run: bench/pipeline_bench's synthetic programs of 10^3 to
# 10^6 ops at --effort fast (analysis + packing + verification), with the
# process CPU time per n log2 n relative to the smallest size (near 1 when
# the growth is near n log n).
#
# Usage: bench/packing_table.sh [--write docs/packing.md]
#   MEMPLAN         memplan binary (default build/cli/memplan)
#   PIPELINE_BENCH  pipeline_bench binary (default build/bench/pipeline_bench;
#                   the scaling table is left out when it is absent)
#   DATA_DIR        shared data folder (default ../shared/data)
# With --write, replaces the text between `<!-- packing-table:begin -->` and
# `<!-- packing-table:end -->` (and the `scaling-table` markers) in the given
# file. Exits 1 if a plan fails.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
PIPELINE_BENCH=${PIPELINE_BENCH:-build/bench/pipeline_bench}
DATA_DIR=${DATA_DIR:-../shared/data}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"
here=$(cd "$(dirname "$0")" && pwd)

python3 "$here/dense_inputs.py" all-live 10000 "$tmp/all-live-1e4.csv"
python3 "$here/dense_inputs.py" all-live 100000 "$tmp/all-live-1e5.csv"
python3 "$here/dense_inputs.py" random 100000 "$tmp/random-rows-1e5.csv"
python3 "$here/dense_inputs.py" ir 20000 "$tmp/ir-live-2e4.mpir"

inputs=()
for f in "$DATA_DIR"/minimalloc/*.csv "$DATA_DIR"/traces/*.csv; do
  [[ -e $f ]] && inputs+=("$f")
done
inputs+=("$tmp/all-live-1e4.csv" "$tmp/all-live-1e5.csv" "$tmp/random-rows-1e5.csv"
         "$tmp/ir-live-2e4.mpir")

# plan INPUT [FLAGS...] -> "buffers lower_bound peak algorithm ms"
plan() {
  local input=$1 begin end out
  shift
  begin=$(date +%s%N)
  out=$("$MEMPLAN" plan "$input" "$@")
  end=$(date +%s%N)
  awk -v ms=$(( (end - begin) / 1000000 )) '
    $1 == "transient" && $2 == "default" { buffers = $3; peak = $5; lb = $6 }
    /^algorithm: / { sub(/;.*/, "", $2); algo = $2 }
    END { print buffers, lb, peak, algo, ms }' <<<"$out"
}

ratio() { awk -v p="$1" -v l="$2" 'BEGIN { printf "%.4f", (l > 0) ? p / l : 1 }'; }

table=$(
  echo "| input | buffers | lower bound (B) | fast / LB | fast (ms) | default / LB | default (ms) | default's member | max / LB | max (ms) | best-fit-spatial / LB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
  for input in "${inputs[@]}"; do
    read -r buffers lb fast_peak _ fast_ms < <(plan "$input" --effort fast)
    read -r _ _ peak algo ms < <(plan "$input")
    read -r _ _ max_peak _ max_ms < <(plan "$input" --effort max)
    spatial="—"
    if [[ $input == "$DATA_DIR"/* ]]; then
      read -r _ _ spatial_peak _ _ < <(plan "$input" --algorithm best-fit-spatial)
      spatial=$(ratio "$spatial_peak" "$lb")
    fi
    echo "| $(basename "$input") | $buffers | $lb | $(ratio "$fast_peak" "$lb") | $fast_ms | $(ratio "$peak" "$lb") | $ms | $algo | $(ratio "$max_peak" "$lb") | $max_ms | $spatial |"
  done
)

printf '%s\n' "$table" >"$tmp/table"
if [[ -n $WRITE ]]; then
  splice_table packing-table "$tmp/table" "$WRITE"
else
  cat "$tmp/table"
fi

# The scaling run at --effort fast (effort:0), one repetition per size.
if [[ -x $PIPELINE_BENCH ]]; then
  "$PIPELINE_BENCH" --benchmark_filter='BM_PlanSyntheticProgram/ops:[0-9]+/effort:0/' \
    --benchmark_min_time=0.01 --benchmark_format=json >"$tmp/scaling.json"
  python3 - "$tmp/scaling.json" >"$tmp/scaling" <<'PY'
import json, math, sys
runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type") == "iteration"]
# Wall time, and the CPU time of the whole process (both packing lanes; less
# sensitive to other jobs on a shared machine than the wall time).
print("| ops | buffers | wall (s) | process CPU (s) | CPU / (n log2 n), relative to 10^3 | peak / LB | member |")
print("|---:|---:|---:|---:|---:|---:|---|")
base = None
for b in runs:
    ops = int(b["name"].split("ops:")[1].split("/")[0])
    n = b["buffers"]
    wall = b["real_time"] / 1e3  # milliseconds
    cpu = b["cpu_time"] / 1e3
    per = cpu / (n * math.log2(n))
    base = base or per
    print(f"| {ops} | {int(n)} | {wall:.3f} | {cpu:.3f} | {per / base:.2f} | {b['peak_over_lb']:.4f} | {b.get('label', '')} |")
PY
  if [[ -n $WRITE ]]; then
    splice_table scaling-table "$tmp/scaling" "$WRITE"
  else
    cat "$tmp/scaling"
  fi
else
  echo "packing_table: $PIPELINE_BENCH is absent; skipping the scaling run" >&2
fi
