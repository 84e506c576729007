#!/usr/bin/env bash
# Import time per ONNX model: the wall time of `memplan stats MODEL` (read,
# shape inference with folding, import, analysis, summary; no packing), best
# of 3 runs, for every model under MODELS_DIR (default ../shared/data/onnx),
# examples/ and tests/data/onnx/, and any EXTRA_MODELS (space-separated
# paths, e.g. large exports kept outside the repository). `nodes` is the
# number of nodes of the main graph as the plan counts ops (after folding,
# from `memplan plan --json`).
#
# Usage: bench/import_table.sh [--write docs/models.md]
#   MEMPLAN      memplan binary (default build/cli/memplan)
#   MODELS_DIR   folder of model folders (default ../shared/data/onnx)
#   EXTRA_MODELS more .onnx files to time
# With --write, replaces the text between `<!-- import-table:begin -->` and
# `<!-- import-table:end -->` in the given file. Needs jq. Exits 1 if a model
# fails to import.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

# best_ms CMD...: the fastest of 3 runs of CMD, in ms.
best_ms() {
  local best="" begin end ms
  for _ in 1 2 3; do
    begin=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    ms=$(( (end - begin) / 1000000 ))
    if [[ -z $best || $ms -lt $best ]]; then best=$ms; fi
  done
  echo "$best"
}

models=()
if [[ -d $MODELS_DIR ]]; then models+=("$MODELS_DIR"/*/*.onnx); fi
models+=(examples/*.onnx)
for model in tests/data/onnx/*.onnx; do
  # Only the exported models: the others are error-test inputs.
  case $(basename "$model") in text.onnx|image.onnx|symbolic_inputs.onnx) continue ;; esac
  models+=("$model")
done
for model in ${EXTRA_MODELS:-}; do models+=("$model"); done

table="$tmp/table.md"
{
  echo "| model | plan ops | import s |"
  echo "|---|---:|---:|"
} >"$table"
bad=0
for model in "${models[@]}"; do
  if ! "$MEMPLAN" plan "$model" --json "$tmp/p.json" --quiet --no-alias >/dev/null; then
    bad=$((bad + 1))
    continue
  fi
  ops=$(jq -r '.program.ops' "$tmp/p.json")
  ms=$(best_ms "$MEMPLAN" stats "$model")
  echo "| ${model#"$MODELS_DIR"/} | $ops | $(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }') |" >>"$table"
done

cat "$table"
if [[ -n $WRITE ]]; then splice_table import-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
