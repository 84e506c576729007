#!/usr/bin/env bash
# The fast-memory table of docs/reorder.md: `memplan plan --fast-memory SIZE`
# with and without `--reorder` on every shared ONNX and TFLite model
# (../shared/data) and the generated irregular DAGs of
# bench/irregular_dags.py, at 256 KiB and 1 MiB of fast memory (target
# edge-npu's other figures): the estimated run time in the file's order and
# with --reorder, the order --reorder kept for fast memory (reordered, or the
# input order when that runs faster) and the ratio reordered / file order.
#
# Usage: bench/reorder_fast_memory_table.sh [--write docs/reorder.md]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data (default ../shared/data)
# With --write, replaces the text between `<!-- reorder-fast-table:begin -->`
# and `<!-- reorder-fast-table:end -->`. Exits 1 if --reorder is slower than
# the file order on some row.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

reorder_inputs

# estimated SIZE ARGS...: the estimated seconds of the JSON plan, "-" on failure.
estimated() {
  local size=$1; shift
  if "$MEMPLAN" plan "$@" --target edge-npu --fast-memory "$size" -q --json "$tmp/plan.json" \
      2>"$tmp/err.txt"; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(repr(d["msa"]["estimated_time_s"]), d.get("schedule", {}).get("fast_memory", {}).get("kept", "input order unchanged"))' "$tmp/plan.json"
  else
    echo "- failed"
  fi
}

table="$tmp/table.md"
{
  echo "| input | fast memory | file order s | --reorder s | kept | reordered / file |"
  echo "|---|---:|---:|---:|---|---:|"
} >"$table"
bad=0
for input in "${inputs[@]}"; do
  name=$(basename "$input")
  for size in 256KiB 1MiB; do
    read -r plain _ < <(estimated "$size" "$input")
    read -r reordered kept < <(estimated "$size" "$input" --reorder)
    if [[ $plain == - || $reordered == - ]]; then
      echo "| $name | $size | $plain | $reordered | failed: $(head -1 "$tmp/err.txt" | sed 's/|/\\|/g') | |" >>"$table"
      continue
    fi
    ratio=$(awk -v a="$reordered" -v b="$plain" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 1) }')
    awk -v a="$reordered" -v b="$plain" 'BEGIN { exit !(a > b) }' && bad=$((bad + 1))
    printf '| %s | %s | %.6g | %.6g | %s | %s |\n' "$name" "$size" "$plain" "$reordered" "$kept" "$ratio" >>"$table"
  done
done
cat "$table"
if [[ -n $WRITE ]]; then splice_table reorder-fast-table "$table" "$WRITE"; fi
if (( bad > 0 )); then
  echo "--reorder is slower than the file order on $bad rows" >&2
  exit 1
fi
