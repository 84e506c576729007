#!/usr/bin/env bash
# The generated-families table of docs/packing.md: `memplan plan` at the
# default effort on bench/trace_families.py's families (weights / KV caches,
# layered training, dense with 100, 1,000 and 5,000 live at once) at 10^4,
# 3 x 10^4 and 10^5 buffers, two seeds each, and on the shared real traces:
# buffers, max-live lower bound, peak / lower bound, wall and CPU seconds
# (parse + analysis + packing + verification), the member that won, and the
# best of skyline-area, skyline-crowded, skyline-longest and best-fit-spatial
# each run alone
# (auto must never be worse than a member that fits its budget).
#
# Usage: bench/families_table.sh [--write docs/packing.md] [--quick]
#   MEMPLAN   memplan binary (default build/cli/memplan)
#   DATA_DIR  shared data folder (default ../shared/data)
# --quick: 10^4 and 3 x 10^4 only, one seed, no members alone.
# With --write, replaces the text between `<!-- families-table:begin -->`
# and `<!-- families-table:end -->` in the given file. Exits 1 if a plan
# fails.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
quick=0
args=()
for a in "$@"; do
  if [[ $a == --quick ]]; then quick=1; else args+=("$a"); fi
done
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "${args[@]+"${args[@]}"}"
here=$(cd "$(dirname "$0")" && pwd)

sizes=(10000 30000 100000)
seeds=(1 2)
if [[ $quick == 1 ]]; then sizes=(10000 30000); seeds=(1); fi

inputs=()
for f in "$DATA_DIR"/traces/*.csv; do
  [[ -e $f ]] && inputs+=("$f")
done
for n in "${sizes[@]}"; do
  for seed in "${seeds[@]}"; do
    for family in weights training dense dense-100 dense-5000; do
      out="$tmp/$family.$n.s$seed.csv"
      case $family in
        dense-100) python3 "$here/trace_families.py" dense "$n" "$out" --seed "$seed" --live 100 ;;
        dense-5000) python3 "$here/trace_families.py" dense "$n" "$out" --seed "$seed" --live 5000 ;;
        *) python3 "$here/trace_families.py" "$family" "$n" "$out" --seed "$seed" ;;
      esac
      inputs+=("$out")
    done
  done
done

# plan INPUT [FLAGS...] -> "buffers lower_bound peak algorithm wall_s cpu_s"
plan() {
  local input=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$MEMPLAN" plan "$input" "$@" >"$tmp/out"
  read -r wall user sys <"$tmp/time"
  awk -v wall="$wall" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" '
    $1 == "transient" && $2 == "default" { buffers = $3; peak = $5; lb = $6 }
    /^algorithm: / { sub(/;.*/, "", $2); algo = $2 }
    END { print buffers, lb, peak, algo, wall, cpu }' "$tmp/out"
}

ratio() { awk -v p="$1" -v l="$2" 'BEGIN { printf "%.4f", (l > 0) ? p / l : 1 }'; }

table=$(
  echo "| input | buffers | lower bound (B) | default / LB | wall (s) | CPU (s) | member | best member alone / LB |"
  echo "|---|---:|---:|---:|---:|---:|---|---:|"
  for input in "${inputs[@]}"; do
    read -r buffers lb peak algo wall cpu < <(plan "$input")
    alone="—"
    if [[ $quick == 0 ]]; then
      best=""
      for member in skyline-area skyline-crowded skyline-longest best-fit-spatial; do
        read -r _ _ member_peak _ _ _ < <(plan "$input" --algorithm "$member")
        if [[ -z $best || $member_peak -lt $best ]]; then best=$member_peak; fi
      done
      alone=$(ratio "$best" "$lb")
    fi
    echo "| $(basename "$input" .csv) | $buffers | $lb | $(ratio "$peak" "$lb") | $wall | $cpu | $algo | $alone |"
  done
)

printf '%s\n' "$table" >"$tmp/table"
if [[ -n $WRITE ]]; then
  splice_table families-table "$tmp/table" "$WRITE"
else
  cat "$tmp/table"
fi
