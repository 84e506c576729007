#!/usr/bin/env bash
# The results table of docs/packing.md: `memplan plan` (default --algorithm
# auto, and online-best-fit alone) on every lifetime CSV of the shared data
# set (MiniMalloc challenging A-K and input.12, the SOMAS / IOPDDL traces) and
# on the dense inputs of bench/dense_inputs.py (10^4 and 10^5 buffers all live
# at once, 10^5 random rows, a text IR with 20,000 values live together):
# buffers, max-live lower bound, peak and peak / lower bound for both, the
# member auto picked, and auto's wall time (parse + analysis + packing +
# verification, no JSON output).
#
# Usage: bench/packing_table.sh [--write docs/packing.md]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data folder (default ../shared/data)
# With --write, replaces the text between `<!-- packing-table:begin -->` and
# `<!-- packing-table:end -->` in the given file. Exits 1 if a plan fails.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
WRITE=""
if [[ $# -eq 2 && $1 == --write ]]; then
  WRITE=$2
elif [[ $# -ne 0 ]]; then
  echo "usage: $0 [--write FILE]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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
  echo "| input | buffers | lower bound (B) | auto peak (B) | auto / LB | auto's member | auto time (ms) | online-best-fit / LB |"
  echo "|---|---:|---:|---:|---:|---|---:|---:|"
  for input in "${inputs[@]}"; do
    read -r buffers lb peak algo ms < <(plan "$input")
    read -r _ _ online_peak _ _ < <(plan "$input" --algorithm online-best-fit)
    echo "| $(basename "$input") | $buffers | $lb | $peak | $(ratio "$peak" "$lb") | $algo | $ms | $(ratio "$online_peak" "$lb") |"
  done
)

if [[ -n $WRITE ]]; then
  python3 - "$WRITE" "$table" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
text = open(path).read()
begin, end = "<!-- packing-table:begin -->", "<!-- packing-table:end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(path, "w").write(head + begin + "\n" + table + "\n" + end + tail)
PY
else
  echo "$table"
fi
