#!/usr/bin/env bash
# The memory-space-assignment table of docs/msa.md: for every ONNX model in
# MODELS_DIR, every preset target (`memplan targets`) and fast-memory sizes
# 256KiB, 1MiB, 4MiB and 16MiB, plan
#   * in reference mode,
#   * in default mode without sliced prefetch (--sliced-prefetch 0),
#   * in default mode (which also tries sliced prefetches, kept only where
#     faster),
#   * in default mode with --window-prefetch W, W = fast memory / 8
#     (window prefetches kept only where faster),
#   * in default mode with --block-prefetch B, B = fast memory / 4
#     (block-prefetching variants kept only where faster),
#   * in default mode with --loop-optimizer (its variants kept only where
#     faster; BERT's twelve layers are the shared models' unrolled loop),
# and report the captured speed-up fraction
#   (time_all_default - estimated) / (time_all_default - time_all_fast)
# side by side; for each feature whether the default plan kept it (the
# plan JSON's msa.sliced_prefetches, msa.window_prefetches — the
# async_copies entries with window_op — and msa.block_prefetch.prefetches;
# msa.loops[].chosen for the loop optimizer; 0 where default mode kept a
# variant without the feature); the wall time
# of the reference and default `memplan plan` runs (load, analysis,
# assignment, packing, verification); and whether all six plans verified
# and kept time_all_fast <= estimated <= time_all_default.
#
# Usage: bench/msa_table.sh [--write docs/msa.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data/onnx/torchvision)
#   MODELS      model names to take from MODELS_DIR (default: every *.onnx)
#   SIZES       fast-memory sizes, each N KiB or N MiB (default "256KiB 1MiB 4MiB 16MiB")
# Prints the Markdown table, a tally and the mean captured fraction per
# fast-memory size for the six runs; with --write, also replaces the text
# between the `<!-- msa-table:begin -->` and `<!-- msa-table:end -->` lines of
# the given file. Needs jq. Exits 1 if any run fails, is unverified or breaks
# the bounds, if any default-mode run is slower than reference mode on some
# row, or if default mode with a feature (slicing, window, block, loop) is slower
# than without it.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MODELS_DIR=${MODELS_DIR:-../shared/data/onnx/torchvision}
MODELS=${MODELS:-}
SIZES=${SIZES:-"256KiB 1MiB 4MiB 16MiB"}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

# run MODEL TARGET SIZE MODE [FLAG...] ->
#   "verified estimated all_default all_fast ms sliced_prefetches window_prefetches block_prefetches chosen_loops"
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
      (.msa.sliced_prefetches // 0),
      ([.async_copies[]? | select(has("window_op"))] | length),
      (.msa.block_prefetch.prefetches // 0),
      ([.msa.loops[]? | select(.chosen)] | length)] | @tsv' \
    "$tmp/plan.json"
}

# bytes SIZE -> SIZE (N, NKiB or NMiB) in bytes
bytes() {
  case $1 in
    *KiB) echo $(( ${1%KiB} * 1024 )) ;;
    *MiB) echo $(( ${1%MiB} * 1024 * 1024 )) ;;
    *) echo "$1" ;;
  esac
}

# captured EST DEF FAST -> fraction with 3 decimals (0 when nothing to gain)
captured() {
  awk -v e="$1" -v d="$2" -v f="$3" 'BEGIN { if (d - f > 0) printf "%.3f", (d - e) / (d - f); else printf "0.000" }'
}

# in_bounds EST DEF FAST -> exit 0 if FAST <= EST <= DEF (relative slack 1e-9)
in_bounds() {
  awk -v e="$1" -v d="$2" -v f="$3" 'BEGIN { s = 1e-9 * d; exit !(f <= e + s && e <= d + s) }'
}

# not_worse BASE T -> exit 0 if T <= BASE (simulated times, not the rounded fractions)
not_worse() { awk -v b="$1" -v t="$2" 'BEGIN { exit !(t <= b * (1 + 1e-12)) }'; }
# better BASE T -> exit 0 if T < BASE by more than a relative 1e-9
better() { awk -v b="$1" -v t="$2" 'BEGIN { exit !(t < b * (1 - 1e-9)) }'; }

# add VAR KEY X: VAR[KEY] += X
add() {
  local -n sums=$1
  sums[$2]=$(awk -v a="${sums[$2]:-0}" -v b="$3" 'BEGIN { print a + b }')
}

table="$tmp/table.md"
{
  echo "| model | target | fast memory | captured, reference | captured, default without slicing | captured, default | sliced prefetches | captured, default with window | window prefetches | captured, default with block | block prefetches | captured, default with loop optimizer | loops chosen | reference ms | default ms | verified, in bounds |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$table"

rows=0 bad=0 slower_than_reference=0 better=0
slicing_not_worse=0 slicing_better=0 sliced_kept=0
window_not_worse=0 window_better=0 window_kept=0
block_not_worse=0 block_better=0 block_kept=0
loop_not_worse=0 loop_better=0 loop_kept=0
declare -A sum_ref sum_uns sum_def sum_win sum_blk sum_loop count
if [[ -n $MODELS ]]; then
  models=()
  for m in $MODELS; do models+=("$MODELS_DIR/$m.onnx"); done
else
  models=("$MODELS_DIR"/*.onnx)
fi
# Two-space targets only: a hierarchy preset (spaces[]) has no single fast memory size.
targets=$("$MEMPLAN" targets | grep -v "; spaces:" | cut -d: -f1)
for model in "${models[@]}"; do
  name=$(basename "$model" .onnx)
  for target in $targets; do
    for size in $SIZES; do
      fast=$(bytes "$size")
      window=$((fast / 8))
      block=$((fast / 4))
      line=$(run "$model" "$target" "$size" reference)
      read -r rv re rd rf rms _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --sliced-prefetch 0)
      read -r uv ue ud uf _ <<<"$line"
      line=$(run "$model" "$target" "$size" default)
      read -r dv de dd df dms dsl _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --window-prefetch "$window")
      read -r wv we wd wf _ _ wn _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --block-prefetch "$block")
      read -r bv be bd bf _ _ _ bn _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --loop-optimizer)
      read -r lv le ld lf _ _ _ _ ln <<<"$line"
      rc=$(captured "$re" "$rd" "$rf")
      uc=$(captured "$ue" "$ud" "$uf")
      dc=$(captured "$de" "$dd" "$df")
      wc=$(captured "$we" "$wd" "$wf")
      bc=$(captured "$be" "$bd" "$bf")
      lc=$(captured "$le" "$ld" "$lf")
      ok=yes
      if [[ $rv != true || $uv != true || $dv != true || $wv != true || $bv != true ||
            $lv != true ]] ||
          ! in_bounds "$re" "$rd" "$rf" || ! in_bounds "$ue" "$ud" "$uf" ||
          ! in_bounds "$de" "$dd" "$df" || ! in_bounds "$we" "$wd" "$wf" ||
          ! in_bounds "$be" "$bd" "$bf" || ! in_bounds "$le" "$ld" "$lf"; then
        ok=NO
        bad=$((bad + 1))
      fi
      rows=$((rows + 1))
      add sum_ref "$size" "$rc"
      add sum_uns "$size" "$uc"
      add sum_def "$size" "$dc"
      add sum_win "$size" "$wc"
      add sum_blk "$size" "$bc"
      add sum_loop "$size" "$lc"
      count[$size]=$(( ${count[$size]:-0} + 1 ))
      if ! not_worse "$re" "$ue" || ! not_worse "$re" "$de" || ! not_worse "$re" "$we" ||
          ! not_worse "$re" "$be" || ! not_worse "$re" "$le"; then
        slower_than_reference=$((slower_than_reference + 1))
        echo "slower than reference mode: $name $target $size" >&2
      fi
      if better "$re" "$de"; then better=$((better + 1)); fi
      if not_worse "$ue" "$de"; then slicing_not_worse=$((slicing_not_worse + 1)); fi
      if better "$ue" "$de"; then slicing_better=$((slicing_better + 1)); fi
      if not_worse "$de" "$we"; then window_not_worse=$((window_not_worse + 1)); fi
      if better "$de" "$we"; then window_better=$((window_better + 1)); fi
      if not_worse "$de" "$be"; then block_not_worse=$((block_not_worse + 1)); fi
      if better "$de" "$be"; then block_better=$((block_better + 1)); fi
      if not_worse "$de" "$le"; then loop_not_worse=$((loop_not_worse + 1)); fi
      if better "$de" "$le"; then loop_better=$((loop_better + 1)); fi
      if [[ $dsl -gt 0 ]]; then sliced_kept=$((sliced_kept + 1)); fi
      if [[ $wn -gt 0 ]]; then window_kept=$((window_kept + 1)); fi
      if [[ $bn -gt 0 ]]; then block_kept=$((block_kept + 1)); fi
      if [[ $ln -gt 0 ]]; then loop_kept=$((loop_kept + 1)); fi
      echo "| $name | $target | $size | $rc | $uc | $dc | $dsl | $wc | $wn | $bc | $bn | $lc | $ln | $rms | $dms | $ok |" >>"$table"
    done
  done
done
{
  echo
  echo "$rows rows: every default-mode run at least as fast as reference mode (simulated) on" \
       "$((rows - slower_than_reference)), default mode strictly faster on $better; with sliced" \
       "prefetch at least as fast as without on $slicing_not_worse, strictly faster on" \
       "$slicing_better, kept on $sliced_kept; with --window-prefetch at least as fast as" \
       "without on $window_not_worse, strictly faster on $window_better, kept on $window_kept;" \
       "with --block-prefetch at least as fast as without on $block_not_worse, strictly faster" \
       "on $block_better, kept on $block_kept; with --loop-optimizer at least as fast as" \
       "without on $loop_not_worse, strictly faster on $loop_better, kept on $loop_kept;" \
       "$bad rows unverified or out of bounds."
  echo
  echo "| fast memory | mean captured, reference | mean captured, default without slicing | mean captured, default | mean captured, default with window | mean captured, default with block | mean captured, default with loop optimizer |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for size in $SIZES; do
    [[ -n ${count[$size]:-} ]] || continue
    awk -v s="$size" -v r="${sum_ref[$size]}" -v u="${sum_uns[$size]}" -v d="${sum_def[$size]}" \
      -v w="${sum_win[$size]}" -v b="${sum_blk[$size]}" -v l="${sum_loop[$size]}" \
      -v n="${count[$size]}" \
      'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", s, r / n, u / n, d / n, w / n, b / n, l / n }'
  done
} >>"$table"

cat "$table"
if [[ -n $WRITE ]]; then splice_table msa-table "$table" "$WRITE"; fi
[[ $bad -eq 0 && $slower_than_reference -eq 0 && $slicing_not_worse -eq $rows &&
   $window_not_worse -eq $rows && $block_not_worse -eq $rows && $loop_not_worse -eq $rows ]]
