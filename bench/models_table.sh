#!/usr/bin/env bash
# The model table of docs/models.md: every ONNX model under MODELS_DIR
# (default ../shared/data/onnx) planned by memplan with and without aliasing
# (views + in-place reuse), side by side in one run: ops, tensors, constant
# bytes, transient extent with and without aliasing, the max-live lower bound
# of the aliased program, % over it, and the wall time of `memplan plan`
# (load + shape inference + analysis + packing + verification).
#
# Usage: bench/models_table.sh [--write docs/models.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  folder of model folders (default ../shared/data/onnx)
# With --write, replaces the text between `<!-- models-table:begin -->` and
# `<!-- models-table:end -->` in the given file. Needs jq. Exits 1 if a plan
# fails, is unverified, or the aliased peak exceeds the unaliased one.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

# plan MODEL OUT.json [FLAGS...] -> prints the wall time in ms
plan() {
  local model=$1 out=$2 begin end
  shift 2
  begin=$(date +%s%N)
  "$MEMPLAN" plan "$model" --json "$out" --quiet "$@"
  end=$(date +%s%N)
  echo $(( (end - begin) / 1000000 ))
}

mib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }

table="$tmp/table.md"
{
  echo "| model | ops | tensors | constant MiB | transient extent MiB (aliased) | without aliasing | lower bound MiB | over the bound | no-alias over its bound | plan ms |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
bad=0
for model in "$MODELS_DIR"/*/*.onnx; do
  name="$(basename "$(dirname "$model")")/$(basename "$model" .onnx)"
  ms=$(plan "$model" "$tmp/a.json")
  plan "$model" "$tmp/n.json" --no-alias >/dev/null
  read -r ops values constant peak bound verified < <(jq -r \
    '[.program.ops, .program.values, (.pools[] | select(.name == "constant") | .size_bytes) // 0,
      .peak_bytes, .lower_bound_bytes, .verified] | @tsv' "$tmp/a.json")
  read -r npeak nbound nverified < <(jq -r '[.peak_bytes, .lower_bound_bytes, .verified] | @tsv' "$tmp/n.json")
  over=$(awk -v p="$peak" -v b="$bound" 'BEGIN { printf "%.2f%%", (b > 0 ? 100 * (p - b) / b : 0) }')
  nover=$(awk -v p="$npeak" -v b="$nbound" 'BEGIN { printf "%.2f%%", (b > 0 ? 100 * (p - b) / b : 0) }')
  if [[ $verified != true || $nverified != true ]] || (( peak > npeak )); then bad=$((bad + 1)); fi
  echo "| $name | $ops | $values | $(mib "$constant") | $(mib "$peak") | $(mib "$npeak") | $(mib "$bound") | $over | $nover | $ms |" >>"$table"
done

cat "$table"
if [[ -n $WRITE ]]; then splice_table models-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
