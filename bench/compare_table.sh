#!/usr/bin/env bash
# The table of docs/compare.md: `memplan compare` on every shared ONNX model
# (../shared/data/onnx/*/*.onnx) and lifetime trace (../shared/data/traces,
# ../shared/data/minimalloc): per input the transient buffers compared, the
# max-live lower bound, and each strategy's arena as a ratio to that bound
# (memplan's plan, TFLite, TFLite Micro, ONNX Runtime, IREE, XLA, no reuse),
# plus the wall time of the whole `memplan compare` run.
#
# Usage: bench/compare_table.sh [--write docs/compare.md]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data folder (default ../shared/data)
# With --write, replaces the text between `<!-- compare-table:begin -->` and
# `<!-- compare-table:end -->` in the given file. Needs jq. Exits 1 if a run
# fails or a strategy's placement is not verified.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

inputs=()
for f in "$DATA_DIR"/onnx/*/*.onnx "$DATA_DIR"/traces/*.csv "$DATA_DIR"/minimalloc/*.csv; do
  [[ -e $f ]] && inputs+=("$f")
done

mib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }

table="$tmp/table.md"
{
  echo "| input | buffers | lower bound MiB | memplan | TFLite | TFLite Micro | ONNX Runtime | IREE | XLA | no reuse | all verified | ms |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"
} >"$table"
bad=0
for input in "${inputs[@]}"; do
  name="$(basename "$(dirname "$input")")/$(basename "$input")"
  begin=$(date +%s%N)
  if ! "$MEMPLAN" compare "$input" --json "$tmp/c.json" >/dev/null; then
    echo "compare failed: $input" >&2
    bad=$((bad + 1))
    continue
  fi
  end=$(date +%s%N)
  # Ratios to the lower bound, in the JSON's row order (lower bound first).
  read -r buffers bound verified ratios < <(jq -r '
    [.buffers, .lower_bound_bytes,
     ([.strategies[] | .verified] | map(select(. != null)) | all),
     ([.strategies[1:][] | if .ratio_to_lower_bound == null then "-"
                           else (.ratio_to_lower_bound * 1000 | round / 1000 | tostring) end]
      | join("|"))] | @tsv' "$tmp/c.json")
  [[ $verified == true ]] || bad=$((bad + 1))
  cells=$(awk -v r="$ratios" 'BEGIN { n = split(r, a, "|"); for (i = 1; i <= n; ++i) {
    v = a[i]; if (v != "-") v = sprintf("%.3f", v); printf "%s | ", v } }')
  echo "| $name | $buffers | $(mib "$bound") | ${cells}$( [[ $verified == true ]] && echo yes || echo NO ) | $(( (end - begin) / 1000000 )) |" >>"$table"
done

cat "$table"
if [[ -n $WRITE ]]; then splice_table compare-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
