#!/usr/bin/env bash
# The CSV scaling table of docs/packing.md: `memplan plan` as a user runs it
# (parse, analysis, packing, verification, summary) on lifetime CSVs of 10^3
# to 10^7 buffers (`bench/dense_inputs.py steps N`: N buffers over N/10 steps,
# each live 1-20 steps, 1 B-64 KiB, about 110 live at once), at --effort fast
# and default: wall seconds, CPU seconds (user + system, all threads), peak
# RSS (MiB and bytes per buffer), peak / lower bound and the member that won.
#
# Usage: bench/scaling_table.sh [--write docs/packing.md]
#   MEMPLAN      memplan binary (default build/cli/memplan; a release build)
#   MAX_DEFAULT  largest N run at the default effort (default 1000000: its
#                budget grows with n log n, about 4 min of work at 10^7)
# With --write, replaces the text between `<!-- csv-scaling-table:begin -->`
# and `<!-- csv-scaling-table:end -->` in the given file. Exits 1 if a plan
# fails or is not verified.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
MAX_DEFAULT=${MAX_DEFAULT:-1000000}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"
here=$(cd "$(dirname "$0")" && pwd)

{
  echo "| buffers | effort | wall (s) | CPU (s) | peak RSS (MiB) | RSS / buffer (B) | peak / LB | member |"
  echo "|---:|---|---:|---:|---:|---:|---:|---|"
  for n in 1000 10000 100000 1000000 10000000; do
    csv="$tmp/steps.$n.csv"
    python3 "$here/dense_inputs.py" steps "$n" "$csv"
    for effort in fast default; do
      [[ $effort == default && $n -gt $MAX_DEFAULT ]] && continue
      /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
        "$MEMPLAN" plan "$csv" --effort "$effort" >"$tmp/out"
      grep -q "plan verified" "$tmp/out" || { echo "not verified: $n $effort" >&2; exit 1; }
      read -r wall user sys rss_kib <"$tmp/time"
      awk -v n="$n" -v effort="$effort" -v wall="$wall" -v user="$user" -v sys="$sys" \
          -v rss="$rss_kib" '
        $1 == "transient" && $2 == "default" { peak = $5; lb = $6 }
        /^algorithm: / { sub(/;.*/, "", $2); algo = $2 }
        END {
          printf "| %d | %s | %.2f | %.2f | %.0f | %.0f | %.4f | %s |\n", n, effort, wall,
                 user + sys, rss / 1024, rss * 1024 / n, (lb > 0) ? peak / lb : 1, algo
        }' "$tmp/out"
    done
    rm -f "$csv"
  done
} >"$tmp/table"

if [[ -n $WRITE ]]; then
  splice_table csv-scaling-table "$tmp/table" "$WRITE"
else
  cat "$tmp/table"
fi
