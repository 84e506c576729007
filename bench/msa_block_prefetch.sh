#!/usr/bin/env bash
# The block-prefetching table of docs/msa.md ("Block prefetching"): for every
# ONNX model in MODELS_DIR, every two-space preset target and fast-memory
# sizes 1MiB and 4MiB, plan with a block of a quarter of the fast memory
# (--block-prefetch) and without, in reference and in default mode, and
# report the captured speed-up fraction
#   (time_all_default - estimated) / (time_all_default - time_all_fast)
# side by side, the block prefetches of the default plan with the block (0
# when default mode kept a variant without it), and whether all four plans
# verified and kept time_all_fast <= estimated <= time_all_default.
#
# Usage: bench/msa_block_prefetch.sh [--write docs/msa.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data/onnx/torchvision)
#   SIZES       fast-memory sizes in KiB (default "1024 4096")
# Prints the Markdown table and a tally; with --write, also replaces the
# text between the `<!-- msa-block-table:begin -->` and
# `<!-- msa-block-table:end -->` lines of the given file. Needs jq. Exits 1
# if any run fails or breaks the bounds, or if default mode with the block
# is slower than default mode without it on some row.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx/torchvision}
SIZES=${SIZES:-"1024 4096"}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

# run MODEL TARGET KIB MODE [FLAG...] ->
#   "verified estimated all_default all_fast block_prefetches"
run() {
  if ! "$MEMPLAN" plan "$1" --target "$2" --fast-memory "$3KiB" --msa-mode "$4" "${@:5}" \
      --json "$tmp/plan.json" --quiet 2>"$tmp/err"; then
    echo "memplan failed on $*: $(cat "$tmp/err")" >&2
    return 1
  fi
  jq -r '[.verified, .msa.estimated_time_s, .msa.time_all_default_s, .msa.time_all_fast_s,
          (.msa.block_prefetch.prefetches // 0)] | @tsv' "$tmp/plan.json"
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
  echo "| model | target | fast memory | block | captured, reference | captured, reference with block | captured, default | captured, default with block | block prefetches | verified, in bounds |"
  echo "|---|---|---|---|---:|---:|---:|---:|---:|---|"
} >"$table"

rows=0 bad=0 not_worse=0 better=0 ref_better=0
targets=$("$MEMPLAN" targets | grep -v "; spaces:" | cut -d: -f1)
for model in "$MODELS_DIR"/*.onnx; do
  name=$(basename "$model" .onnx)
  for target in $targets; do
    for kib in $SIZES; do
      block="$((kib / 4))KiB"
      read -r rv re rd rf _ < <(run "$model" "$target" "$kib" reference)
      read -r bv be bd bf _ < <(run "$model" "$target" "$kib" reference --block-prefetch "$block")
      read -r dv de dd df _ < <(run "$model" "$target" "$kib" default)
      read -r kv ke kd kf kn < <(run "$model" "$target" "$kib" default --block-prefetch "$block")
      ok=yes
      if [[ $rv != true || $bv != true || $dv != true || $kv != true ]] ||
          ! in_bounds "$re" "$rd" "$rf" || ! in_bounds "$be" "$bd" "$bf" ||
          ! in_bounds "$de" "$dd" "$df" || ! in_bounds "$ke" "$kd" "$kf"; then
        ok=NO
        bad=$((bad + 1))
      fi
      rows=$((rows + 1))
      if awk -v r="$de" -v d="$ke" 'BEGIN { exit !(d <= r * (1 + 1e-12)) }'; then not_worse=$((not_worse + 1)); fi
      if awk -v r="$de" -v d="$ke" 'BEGIN { exit !(d < r * (1 - 1e-9)) }'; then better=$((better + 1)); fi
      if awk -v r="$re" -v d="$be" 'BEGIN { exit !(d < r * (1 - 1e-9)) }'; then ref_better=$((ref_better + 1)); fi
      echo "| $name | $target | ${kib}KiB | $block | $(captured "$re" "$rd" "$rf") |" \
           "$(captured "$be" "$bd" "$bf") | $(captured "$de" "$dd" "$df") |" \
           "$(captured "$ke" "$kd" "$kf") | $kn | $ok |" >>"$table"
    done
  done
done
{
  echo
  echo "$rows rows: default mode with the block at least as fast as without on $not_worse," \
       "strictly faster on $better; reference mode strictly faster with the block on" \
       "$ref_better; $bad rows unverified or out of bounds."
} >>"$table"

cat "$table"
if [[ -n $WRITE ]]; then splice_table msa-block-table "$table" "$WRITE"; fi
[[ $bad -eq 0 && $not_worse -eq $rows ]]
