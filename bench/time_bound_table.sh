#!/usr/bin/env bash
# How far memory space assignment's plans lie from the time bound
# (msa/time_bound.h, docs/msa.md "Time bound"): for every ONNX model under
# MODELS_DIR (its subfolders included) and each fast-memory size, plan on the
# default target (edge-npu) and report the estimated time, the bound, how far
# above the bound the plan is ((estimated - bound) / bound) and the
# all-default and all-fast times.
#
# Usage: bench/time_bound_table.sh [--write FILE]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data/onnx); absent: nothing to do
#   SIZES       fast-memory sizes (default "1MiB 4MiB")
# Prints a Markdown table and the mean distance per size; with --write, also
# replaces the text between the `<!-- time-bound-table:begin -->` and
# `<!-- time-bound-table:end -->` lines of FILE. Needs jq. Exits 1 if a run
# fails, is unverified or reports an estimated time below its bound.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx}
SIZES=${SIZES:-"1MiB 4MiB"}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

if [[ ! -d $MODELS_DIR ]]; then
  echo "$MODELS_DIR: not found; no models to plan" >&2
  exit 0
fi
mapfile -t models < <(find "$MODELS_DIR" -name '*.onnx' | LC_ALL=C sort)
if [[ ${#models[@]} -eq 0 ]]; then
  echo "$MODELS_DIR: no .onnx models; nothing to plan" >&2
  exit 0
fi

# ms SECONDS -> milliseconds with 4 significant digits
ms() { awk -v s="$1" 'BEGIN { printf "%.4g", s * 1000 }'; }

table="$tmp/table.md"
{
  echo "| model | fast memory | estimated ms | bound ms | from the bound | all default ms | all fast ms |"
  echo "|---|---|---:|---:|---:|---:|---:|"
} >"$table"
bad=0
declare -A sum count
for model in "${models[@]}"; do
  name=${model#"$MODELS_DIR"/}
  name=${name%.onnx}
  for size in $SIZES; do
    if ! "$MEMPLAN" plan "$model" --fast-memory "$size" --json "$tmp/plan.json" --quiet \
        2>"$tmp/err"; then
      echo "memplan failed on $model at $size: $(cat "$tmp/err")" >&2
      bad=$((bad + 1))
      continue
    fi
    read -r verified est bound def fast < <(jq -r \
      '[.verified, .msa.estimated_time_s, .msa.time_bound_s, .msa.time_all_default_s,
        .msa.time_all_fast_s] | @tsv' "$tmp/plan.json")
    gap=$(awk -v e="$est" -v b="$bound" 'BEGIN { printf "%.1f", (b > 0 ? 100 * (e - b) / b : 0) }')
    if [[ $verified != true ]] || ! awk -v e="$est" -v b="$bound" 'BEGIN { exit !(e >= b * (1 - 1e-9)) }'; then
      echo "$model at $size: unverified or below its bound ($est s < $bound s)" >&2
      bad=$((bad + 1))
    fi
    sum[$size]=$(awk -v a="${sum[$size]:-0}" -v g="$gap" 'BEGIN { print a + g }')
    count[$size]=$(( ${count[$size]:-0} + 1 ))
    echo "| $name | $size | $(ms "$est") | $(ms "$bound") | $gap % | $(ms "$def") | $(ms "$fast") |" >>"$table"
  done
done
{
  echo
  for size in $SIZES; do
    [[ -n ${count[$size]:-} ]] || continue
    awk -v s="$size" -v t="${sum[$size]}" -v n="${count[$size]}" \
      'BEGIN { printf "%s: %d models, on average %.1f %% from the bound\n", s, n, t / n }'
  done
} >>"$table"

cat "$table"
if [[ -n $WRITE ]]; then splice_table time-bound-table "$table" "$WRITE"; fi
[[ $bad -eq 0 ]]
