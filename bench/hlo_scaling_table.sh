#!/usr/bin/env bash
# The HLO scaling table of docs/hlo.md: `memplan plan` on scheduled HLO
# modules of 10^3 to 10^5 instructions (`bench/dense_inputs.py hlo N`:
# residual blocks of dot, add and tanh, as XLA dumps them), without fast
# memory and with 4 MiB of it (memory space assignment), and with
# `--emit-hlo`: wall and CPU seconds of the whole process (parse, import,
# analysis, planning, verification, writing) and its peak RSS.
#
# Usage: bench/hlo_scaling_table.sh [--write docs/hlo.md]
#   MEMPLAN  memplan binary (default build/cli/memplan; a release build)
# With --write, replaces the text between `<!-- hlo-scaling-table:begin -->`
# and `<!-- hlo-scaling-table:end -->` in the given file. Exits 1 if a plan
# fails or is not verified.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"
here=$(cd "$(dirname "$0")" && pwd)

{
  echo "| instructions | run | wall (s) | CPU (s) | peak RSS (MiB) |"
  echo "|---:|---|---:|---:|---:|"
  for n in 1000 10000 100000; do
    hlo="$tmp/chain.$n.hlo"
    python3 "$here/dense_inputs.py" hlo "$n" "$hlo"
    for run in "plan" "plan --fast-memory 4MiB" "plan --fast-memory 4MiB --emit-hlo"; do
      args=($run)
      [[ $run == *emit-hlo ]] && args+=("$tmp/out.hlo")
      /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
        "$MEMPLAN" "${args[0]}" "$hlo" "${args[@]:1}" >"$tmp/out"
      grep -q "plan verified" "$tmp/out" || { echo "not verified: $n $run" >&2; exit 1; }
      read -r wall user sys rss_kib <"$tmp/time"
      awk -v n="$n" -v run="${run#plan}" -v wall="$wall" -v user="$user" -v sys="$sys" \
          -v rss="$rss_kib" 'BEGIN {
        if (run == "") run = " no fast memory"
        printf "| %d |%s | %.2f | %.2f | %.0f |\n", n, run, wall, user + sys, rss / 1024
      }'
    done
    rm -f "$hlo"
  done
} >"$tmp/table"

if [[ -n $WRITE ]]; then
  splice_table hlo-scaling-table "$tmp/table" "$WRITE"
else
  cat "$tmp/table"
fi
