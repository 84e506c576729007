#!/usr/bin/env bash
# The memory-space-assignment table of docs/msa.md: for every ONNX model in
# MODELS_DIR, every preset target (`memplan targets`) and fast-memory sizes
# 256KiB, 1MiB, 4MiB and 16MiB, plan
#   * in reference mode,
#   * in default mode with no automatic feature (--sliced-prefetch 0
#     --window-prefetch 0 --no-loop-optimizer --block-prefetch 0),
#   * in default mode with only its automatic sliced prefetch
#     (--window-prefetch 0 --no-loop-optimizer --block-prefetch 0: the
#     default mode before window prefetch, the loop optimizer and block
#     prefetching were tried by default),
#   * in default mode without its automatic block (--block-prefetch 0: the
#     default mode before block prefetching was tried by default),
#   * in default mode (which also tries sliced prefetches, windows of fast
#     memory / 2, / 4 and / 8, when it finds a loop the loop optimizer, and,
#     when the block would take weights its plan reads from default memory,
#     a block of fast memory / 32, each kept only where faster),
# and report the captured speed-up fraction
#   (time_all_default - estimated) / (time_all_default - time_all_fast)
# side by side; for each feature whether the default plan kept it (the
# plan JSON's msa.sliced_prefetches, msa.window_prefetches — the
# async_copies entries with window_op —, msa.loops[].chosen and
# msa.block_prefetch.prefetches; 0 where default mode kept a variant
# without the feature); the wall time of the reference, the previous
# default, the default without block and the default `memplan plan` runs
# (load, analysis, assignment, packing, verification); and whether all
# five plans verified and kept time_all_fast <= estimated <=
# time_all_default.
#
# Usage: bench/msa_table.sh [--write docs/msa.md]
#   MEMPLAN     memplan binary (default build/cli/memplan)
#   MODELS_DIR  models (default ../shared/data/onnx/torchvision)
#   MODELS      model names to take from MODELS_DIR (default: every *.onnx)
#   SIZES       fast-memory sizes, each N KiB or N MiB (default "256KiB 1MiB 4MiB 16MiB")
# Prints the Markdown table, a tally, the total wall time of the previous
# default, the default without block and the default runs, and the mean
# captured fraction per fast-memory size for the five runs; with --write, also replaces the text between the
# `<!-- msa-table:begin -->` and `<!-- msa-table:end -->` lines of the
# given file. Needs jq. Exits 1 if any run fails, is unverified or breaks
# the bounds, if any default-mode run is slower than reference mode on some
# row, or if default mode with more automatic features is slower than with
# fewer.
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
  echo "| model | target | fast memory | captured, reference | captured, default without automatic features | captured, previous default | captured, default without block | captured, default | sliced prefetches | window prefetches | loops chosen | block prefetches | reference ms | previous default ms | default without block ms | default ms | verified, in bounds |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$table"

rows=0 bad=0 slower_than_reference=0 better=0
auto_not_worse=0 auto_better=0 sliced_kept=0 window_kept=0 loop_kept=0
block_not_worse=0 block_better=0 block_kept=0
ms_previous=0 ms_unblocked=0 ms_default=0
declare -A sum_ref sum_none sum_prev sum_def sum_blk count
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
      line=$(run "$model" "$target" "$size" reference)
      read -r rv re rd rf rms _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --sliced-prefetch 0 --window-prefetch 0 \
        --no-loop-optimizer --block-prefetch 0)
      read -r nv ne nd nf _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --window-prefetch 0 --no-loop-optimizer \
        --block-prefetch 0)
      read -r pv pe pd pf pms _ <<<"$line"
      line=$(run "$model" "$target" "$size" default --block-prefetch 0)
      read -r bv be bd bf bms _ <<<"$line"
      line=$(run "$model" "$target" "$size" default)
      read -r dv de dd df dms dsl dwn dbn dln <<<"$line"
      rc=$(captured "$re" "$rd" "$rf")
      nc=$(captured "$ne" "$nd" "$nf")
      pc=$(captured "$pe" "$pd" "$pf")
      dc=$(captured "$de" "$dd" "$df")
      bc=$(captured "$be" "$bd" "$bf")
      ok=yes
      if [[ $rv != true || $nv != true || $pv != true || $dv != true || $bv != true ]] ||
          ! in_bounds "$re" "$rd" "$rf" || ! in_bounds "$ne" "$nd" "$nf" ||
          ! in_bounds "$pe" "$pd" "$pf" || ! in_bounds "$de" "$dd" "$df" ||
          ! in_bounds "$be" "$bd" "$bf"; then
        ok=NO
        bad=$((bad + 1))
      fi
      rows=$((rows + 1))
      add sum_ref "$size" "$rc"
      add sum_none "$size" "$nc"
      add sum_prev "$size" "$pc"
      add sum_def "$size" "$dc"
      add sum_blk "$size" "$bc"
      count[$size]=$(( ${count[$size]:-0} + 1 ))
      ms_previous=$((ms_previous + pms))
      ms_unblocked=$((ms_unblocked + bms))
      ms_default=$((ms_default + dms))
      if ! not_worse "$re" "$ne" || ! not_worse "$re" "$pe" || ! not_worse "$re" "$de" ||
          ! not_worse "$re" "$be"; then
        slower_than_reference=$((slower_than_reference + 1))
        echo "slower than reference mode: $name $target $size" >&2
      fi
      if better "$re" "$de"; then better=$((better + 1)); fi
      # Each automatic feature only adds: none <= sliced only <= all but
      # the block <= all.
      if not_worse "$ne" "$pe" && not_worse "$pe" "$be"; then auto_not_worse=$((auto_not_worse + 1)); fi
      if better "$pe" "$be"; then auto_better=$((auto_better + 1)); fi
      if not_worse "$be" "$de"; then block_not_worse=$((block_not_worse + 1)); fi
      if better "$be" "$de"; then block_better=$((block_better + 1)); fi
      if [[ $dsl -gt 0 ]]; then sliced_kept=$((sliced_kept + 1)); fi
      if [[ $dwn -gt 0 ]]; then window_kept=$((window_kept + 1)); fi
      if [[ $dln -gt 0 ]]; then loop_kept=$((loop_kept + 1)); fi
      if [[ $dbn -gt 0 ]]; then block_kept=$((block_kept + 1)); fi
      echo "| $name | $target | $size | $rc | $nc | $pc | $bc | $dc | $dsl | $dwn | $dln | $dbn | $rms | $pms | $bms | $dms | $ok |" >>"$table"
    done
  done
done
{
  echo
  echo "$rows rows: every default-mode run at least as fast as reference mode (simulated) on" \
       "$((rows - slower_than_reference)), default mode strictly faster on $better; each" \
       "automatic feature but the block at least as fast as without on $auto_not_worse, the" \
       "default without block strictly faster than the previous default on $auto_better;" \
       "sliced prefetch kept on $sliced_kept, window prefetch on $window_kept, the loop" \
       "optimizer on $loop_kept; default mode at least as fast as without its block on" \
       "$block_not_worse, strictly faster on $block_better, the block kept on $block_kept;" \
       "$bad rows unverified or out of bounds." \
       "Wall time of all previous default runs $(awk -v m="$ms_previous" 'BEGIN { printf "%.1f", m / 1000 }') s," \
       "of all default runs without block $(awk -v m="$ms_unblocked" 'BEGIN { printf "%.1f", m / 1000 }') s," \
       "of all default runs $(awk -v m="$ms_default" 'BEGIN { printf "%.1f", m / 1000 }') s."
  echo
  echo "| fast memory | mean captured, reference | mean captured, default without automatic features | mean captured, previous default | mean captured, default without block | mean captured, default |"
  echo "|---|---:|---:|---:|---:|---:|"
  for size in $SIZES; do
    [[ -n ${count[$size]:-} ]] || continue
    awk -v s="$size" -v r="${sum_ref[$size]}" -v u="${sum_none[$size]}" -v p="${sum_prev[$size]}" \
      -v d="${sum_def[$size]}" -v b="${sum_blk[$size]}" -v n="${count[$size]}" \
      'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f |\n", s, r / n, u / n, p / n, b / n, d / n }'
  done
} >>"$table"

cat "$table"
if [[ -n $WRITE ]]; then splice_table msa-table "$table" "$WRITE"; fi
[[ $bad -eq 0 && $slower_than_reference -eq 0 && $auto_not_worse -eq $rows &&
   $block_not_worse -eq $rows ]]
