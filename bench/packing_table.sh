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
# Usage: bench/packing_table.sh [--write docs/packing.md]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data folder (default ../shared/data)
# With --write, replaces the text between `<!-- packing-table:begin -->` and
# `<!-- packing-table:end -->` in the given file. Exits 1 if a plan fails.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
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
