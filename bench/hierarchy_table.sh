#!/usr/bin/env bash
# Memory hierarchies (msa/hierarchy.h, docs/msa.md "Memory hierarchies"): for
# every shared ONNX and TFLite model and each hierarchy preset, the estimated
# time of every buffer in the slowest writable level (no copies), of the
# banked strategy (ExecuTorch's: fill the fastest bank, spill to the next, no
# copies), of memplan with only the fastest level (two spaces), of memplan
# with the whole hierarchy (the kept plan), and the time bound.
#
# Usage: bench/hierarchy_table.sh [--write FILE]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data); absent: nothing to do
#   TARGETS     presets (default "mcu-tcm-sram-psram-flash npu-3level")
# Prints a Markdown table; with --write, also replaces the text between the
# `<!-- hierarchy-table:begin -->` and `<!-- hierarchy-table:end -->` lines of
# FILE. Needs jq. Exits 1 if a plan is unverified, below its bound, or
# slower than the banked or the two-space candidate; a model that fits no
# assignment (exit 1 "does not fit") is reported as such.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data}
TARGETS=${TARGETS:-"mcu-tcm-sram-psram-flash npu-3level"}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

if [[ ! -d $MODELS_DIR ]]; then
  echo "$MODELS_DIR: not found; no models to plan" >&2
  exit 0
fi
mapfile -t models < <(find "$MODELS_DIR" \( -name '*.onnx' -o -name '*.tflite' \) | LC_ALL=C sort)

# ms SECONDS -> milliseconds with 4 significant digits ("-" for null)
ms() { if [[ $1 == null ]]; then echo "-"; else awk -v s="$1" 'BEGIN { printf "%.4g", s * 1000 }'; fi; }

table="$tmp/table.md"
{
  echo "| model | target | all in slowest writable ms | banked ms | two-space ms | hierarchy ms | kept | bound ms |"
  echo "|---|---|---:|---:|---:|---:|---|---:|"
} >"$table"
bad=0
for model in "${models[@]}"; do
  name=${model#"$MODELS_DIR"/}
  for target in $TARGETS; do
    if ! "$MEMPLAN" plan "$model" --target "$target" --json "$tmp/plan.json" --quiet \
        2>"$tmp/err"; then
      if grep -q "does not fit" "$tmp/err"; then
        echo "| $name | $target | does not fit | | | | | |" >>"$table"
        continue
      fi
      echo "memplan failed on $model with $target: $(cat "$tmp/err")" >&2
      bad=$((bad + 1))
      continue
    fi
    read -r verified slowest banked two est kept bound < <(jq -r '
      def cand(n): ([.msa.hierarchy.candidates[] | select(.name == n) | .estimated_time_s][0]);
      [.verified, .msa.hierarchy.all_slowest_writable_s, cand("banked"), cand("two-space"),
       .msa.estimated_time_s, .msa.hierarchy.kept, .msa.time_bound_s] | map(tostring) | @tsv' \
      "$tmp/plan.json")
    if [[ $verified != true ]] ||
       ! awk -v e="$est" -v b="$bound" -v k="$banked" -v t="$two" 'BEGIN {
           exit !(e >= b * (1 - 1e-9) && (k == "null" || e <= k) && (t == "null" || e <= t)) }'; then
      echo "$model with $target: unverified, below its bound or slower than a candidate" >&2
      bad=$((bad + 1))
    fi
    echo "| $name | $target | $(ms "$slowest") | $(ms "$banked") | $(ms "$two") | $(ms "$est") | $kept | $(ms "$bound") |" >>"$table"
  done
done

cat "$table"
if [[ -n $WRITE ]]; then splice_table hierarchy-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
