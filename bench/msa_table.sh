#!/usr/bin/env bash
# The memory-space-assignment table of docs/msa.md: for every ONNX model in
# MODELS_DIR, every preset target (`memplan targets`) and fast-memory sizes
# 256KiB, 1MiB, 4MiB and 16MiB, plan in reference mode, in default mode
# without sliced prefetch (--sliced-prefetch 0) and in default mode (which
# also tries sliced prefetches, kept only where faster) and report the
# captured speed-up fraction
#   (time_all_default - estimated) / (time_all_default - time_all_fast)
# side by side, whether the default plan sliced a prefetch, with the wall time of each `memplan plan` run (load, analysis,
# assignment, packing, verification) and whether both plans verified and kept
# time_all_fast <= estimated <= time_all_default.
#
# Usage: bench/msa_table.sh [--write docs/msa.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data/onnx/torchvision)
#   SIZES       fast-memory sizes (default "256KiB 1MiB 4MiB 16MiB")
# Prints the Markdown table, a tally and the mean captured fraction per
# fast-memory size for the three runs; with --write, also replaces the text
# between the `<!-- msa-table:begin -->` and `<!-- msa-table:end -->` lines of
# the given file. Needs jq. Exits 1 if any run fails or breaks the bounds.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx/torchvision}
SIZES=${SIZES:-"256KiB 1MiB 4MiB 16MiB"}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

# run MODEL TARGET SIZE MODE [FLAG...] ->
#   "verified estimated all_default all_fast ms sliced_prefetches"
run() {
  local begin end
  begin=$(date +%s%N)
  if ! "$MEMPLAN" plan "$1" --target "$2" --fast-memory "$3" --msa-mode "$4" "${@:5}" \
      --json "$tmp/plan.json" --quiet 2>"$tmp/err"; then
    echo "memplan failed on $*: $(cat "$tmp/err")" >&2
    return 1
  fi
  end=$(date +%s%N)
  jq -r --arg ms "$(( (end - begin) / 1000000 ))" \
    '[.verified, .msa.estimated_time_s, .msa.time_all_default_s, .msa.time_all_fast_s, $ms,
      (.msa.sliced_prefetches // 0)] | @tsv' \
    "$tmp/plan.json"
}

# captured EST DEF FAST -> fraction with 3 decimals (0 when nothing to gain)
captured() {
  awk -v e="$1" -v d="$2" -v f="$3" 'BEGIN { if (d - f > 0) printf "%.3f", (d - e) / (d - f); else printf "0.000" }'
}

# in_bounds EST DEF FAST -> exit 0 if FAST <= EST <= DEF (relative slack 1e-9)
in_bounds() {
  awk -v e="$1" -v d="$2" -v f="$3" 'BEGIN { s = 1e-9 * d; exit !(f <= e + s && e <= d + s) }'
}

table="$tmp/table.md"
{
  echo "| model | target | fast memory | captured, reference | captured, default without slicing | captured, default | sliced prefetches | reference ms | default ms | verified, in bounds |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
} >"$table"

rows=0 not_worse=0 better=0 bad=0 slicing_not_worse=0 slicing_better=0
declare -A sum_ref sum_uns sum_def count
# Two-space targets only: a hierarchy preset (spaces[]) has no single fast memory size.
targets=$("$MEMPLAN" targets | grep -v "; spaces:" | cut -d: -f1)
for model in "$MODELS_DIR"/*.onnx; do
  name=$(basename "$model" .onnx)
  for target in $targets; do
    for size in $SIZES; do
      read -r rv re rd rf rms _ < <(run "$model" "$target" "$size" reference)
      read -r uv ue ud uf _ _ < <(run "$model" "$target" "$size" default --sliced-prefetch 0)
      read -r dv de dd df dms dsl < <(run "$model" "$target" "$size" default)
      rc=$(captured "$re" "$rd" "$rf")
      uc=$(captured "$ue" "$ud" "$uf")
      dc=$(captured "$de" "$dd" "$df")
      ok=yes
      if [[ $rv != true || $uv != true || $dv != true ]] || ! in_bounds "$re" "$rd" "$rf" ||
          ! in_bounds "$ue" "$ud" "$uf" || ! in_bounds "$de" "$dd" "$df"; then
        ok=NO
        bad=$((bad + 1))
      fi
      rows=$((rows + 1))
      sum_ref[$size]=$(awk -v a="${sum_ref[$size]:-0}" -v b="$rc" 'BEGIN { print a + b }')
      sum_uns[$size]=$(awk -v a="${sum_uns[$size]:-0}" -v b="$uc" 'BEGIN { print a + b }')
      sum_def[$size]=$(awk -v a="${sum_def[$size]:-0}" -v b="$dc" 'BEGIN { print a + b }')
      count[$size]=$(( ${count[$size]:-0} + 1 ))
      # Compare the simulated times, not the rounded fractions.
      if awk -v r="$re" -v d="$de" 'BEGIN { exit !(d <= r * (1 + 1e-12)) }'; then not_worse=$((not_worse + 1)); fi
      if awk -v r="$re" -v d="$de" 'BEGIN { exit !(d < r * (1 - 1e-9)) }'; then better=$((better + 1)); fi
      if awk -v r="$ue" -v d="$de" 'BEGIN { exit !(d <= r * (1 + 1e-12)) }'; then slicing_not_worse=$((slicing_not_worse + 1)); fi
      if awk -v r="$ue" -v d="$de" 'BEGIN { exit !(d < r * (1 - 1e-9)) }'; then slicing_better=$((slicing_better + 1)); fi
      echo "| $name | $target | $size | $rc | $uc | $dc | $dsl | $rms | $dms | $ok |" >>"$table"
    done
  done
done
{
  echo
  echo "$rows rows: default mode at least as fast as reference mode (simulated) on $not_worse," \
       "strictly faster on $better; with sliced prefetch at least as fast as without on" \
       "$slicing_not_worse, strictly faster on $slicing_better; $bad rows unverified or out of bounds."
  echo
  echo "| fast memory | mean captured, reference | mean captured, default without slicing | mean captured, default |"
  echo "|---|---:|---:|---:|"
  for size in $SIZES; do
    [[ -n ${count[$size]:-} ]] || continue
    awk -v s="$size" -v r="${sum_ref[$size]}" -v u="${sum_uns[$size]}" -v d="${sum_def[$size]}" \
      -v n="${count[$size]}" 'BEGIN { printf "| %s | %.3f | %.3f | %.3f |\n", s, r / n, u / n, d / n }'
  done
} >>"$table"

cat "$table"
if [[ -n $WRITE ]]; then splice_table msa-table "$table" "$WRITE"; fi
[[ $bad -eq 0 && $slicing_not_worse -eq $rows ]]
