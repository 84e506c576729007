#!/usr/bin/env bash
# The region table of docs/regions.md: every ONNX model under MODELS_DIR
# (default ../shared/data/onnx) planned as one IREE-style execution region
# (`memplan plan MODEL --regions`), side by side in one run: the transient
# slab with IREE's layout (`--pack in-order`, LayoutSlices: best fit in
# definition order), with memplan's default packing, the slab's max-live
# lower bound, and memplan's transient extent without regions (its own pools)
# for comparison. Offsets and sizes use IREE's default alignment (64).
#
# Usage: bench/regions_table.sh [--write docs/regions.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  folder of model folders (default ../shared/data/onnx)
# With --write, replaces the text between `<!-- regions-table:begin -->` and
# `<!-- regions-table:end -->` in the given file. Needs jq. Exits 1 if a plan
# fails or is unverified, or the default slab exceeds the in-order one.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

mib() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }
pct() { awk -v p="$1" -v b="$2" 'BEGIN { printf "%.2f%%", (b > 0 ? 100 * (p - b) / b : 0) }'; }

table="$tmp/table.md"
{
  echo "| model | ops | slab, IREE layout (in-order) MiB | slab, memplan MiB | slab lower bound MiB | memplan / IREE | memplan over the bound | IREE over the bound | memplan without regions MiB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
bad=0
for model in "$MODELS_DIR"/*/*.onnx; do
  name="$(basename "$(dirname "$model")")/$(basename "$model" .onnx)"
  "$MEMPLAN" plan "$model" --regions --pack in-order --json "$tmp/iree.json" --quiet
  "$MEMPLAN" plan "$model" --regions --json "$tmp/memplan.json" --quiet
  "$MEMPLAN" plan "$model" --json "$tmp/flat.json" --quiet
  read -r iree iverified < <(jq -r \
    '[(.regions.regions[0].slab_bytes), .verified] | @tsv' "$tmp/iree.json")
  read -r ours bound verified < <(jq -r \
    '[(.regions.regions[0].slab_bytes), (.regions.regions[0].slab_lower_bound_bytes), .verified] | @tsv' \
    "$tmp/memplan.json")
  read -r ops flat < <(jq -r '[.program.ops, .peak_bytes] | @tsv' "$tmp/flat.json")
  if [[ $verified != true || $iverified != true ]] || (( ours > iree )); then bad=$((bad + 1)); fi
  ratio=$(awk -v a="$ours" -v b="$iree" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 1) }')
  echo "| $name | $ops | $(mib "$iree") | $(mib "$ours") | $(mib "$bound") | $ratio | $(pct "$ours" "$bound") | $(pct "$iree" "$bound") | $(mib "$flat") |" >>"$table"
done

cat "$table"
if [[ -n $WRITE ]]; then splice_table regions-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
