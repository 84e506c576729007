#!/usr/bin/env bash
# The table of docs/reorder.md: `memplan schedule --timings` on every shared
# ONNX and TFLite model (../shared/data) and on the generated irregular DAGs
# of bench/irregular_dags.py (randomly wired cells, inception and dense
# blocks, multi-branch transformers, 17 to 2,000 ops): the transient max-live
# of the file's order, of each peer strategy, of memplan's portfolio (the
# order `--reorder` keeps), the exact order's where proven, the
# order-independent lower bound (all in KiB), and the seconds the whole
# `memplan schedule` run took.
#
# Usage: bench/reorder_table.sh [--write docs/reorder.md]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data (default ../shared/data)
# With --write, replaces the text between `<!-- reorder-table:begin -->` and
# `<!-- reorder-table:end -->`. Exits 1 if memplan's order is above the file
# order or any peer's on some row.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

reorder_inputs

kib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1024 }'; }

table="$tmp/table.md"
{
  echo "| input | ops | file order KiB | xla-list | xla-dfs | xla-post-order | inductor-lpmf | inductor-bfs | inductor-dfs | memplan | exact | lower bound | seconds |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
bad=0
for input in "${inputs[@]}"; do
  name=$(basename "$input")
  begin=$(date +%s%N)
  if ! "$MEMPLAN" schedule "$input" --timings >"$tmp/out.txt" 2>"$tmp/err.txt"; then
    echo "$name: $(head -1 "$tmp/err.txt")" >&2
    echo "| $name | failed: $(head -1 "$tmp/err.txt" | sed 's/|/\\|/g') ||||||||||||" >>"$table"
    continue
  fi
  end=$(date +%s%N)
  seconds=$(awk -v ns=$((end - begin)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  # Rows: NAME BYTES "bytes" ...; the lower bound row: "lower bound BYTES".
  declare -A peak=()
  while read -r key value; do peak[$key]=$value; done < <(awk '
    $1 == "lower" && $2 == "bound" { print "bound", $3; next }
    $2 ~ /^[0-9]+$/ && $3 ~ /^byte/ { print $1, $2 }' "$tmp/out.txt")
  ops=$(awk '/^order:/ { on = 1; next } on && /^    / { n++ } END { print n + 0 }' "$tmp/out.txt")
  best=${peak[input]}
  for row in input xla-list xla-dfs xla-post-order inductor-lpmf inductor-bfs inductor-dfs local-search exact; do
    (( peak[$row] < best )) && best=${peak[$row]}
  done
  exact="–"
  grep -q "the order kept is optimal" "$tmp/out.txt" && exact=$(kib "$best")
  for row in input xla-list xla-dfs xla-post-order inductor-lpmf inductor-bfs inductor-dfs; do
    (( best > peak[$row] )) && bad=$((bad + 1))
  done
  line="| $name | $ops | $(kib "${peak[input]}")"
  for row in xla-list xla-dfs xla-post-order inductor-lpmf inductor-bfs inductor-dfs; do
    line+=" | $(kib "${peak[$row]}")"
  done
  line+=" | **$(kib "$best")** | $exact | $(kib "${peak[bound]}") | $seconds |"
  echo "$line" >>"$table"
  unset peak
done
cat "$table"
if [[ -n $WRITE ]]; then splice_table reorder-table "$table" "$WRITE"; fi
if (( bad > 0 )); then
  echo "memplan's order is above a peer's on $bad rows" >&2
  exit 1
fi
