#!/usr/bin/env bash
# The estimate / measured table of docs/packing.md: every member of `auto`
# run once on every shared lifetime CSV, bench/member_cost_bench's synthetic
# inputs and bench/trace_families.py's families at 10^4 and 10^5 buffers,
# with its measured seconds (one core, release build), the seconds its cost
# model estimated before it ran (packing/member_cost.h) and their ratio; the
# estimates decide only the order of the members and their caps, and each
# ratio should lie in [0.5, 2]. Prints the rows outside that band last.
#
# Usage: bench/member_cost_table.sh [--write docs/packing.md]
#   MEMBER_COST_BENCH  the binary (default build/bench/member_cost_bench;
#                      `make bench` builds it)
# With --write, replaces the text between `<!-- member-cost-table:begin -->`
# and `<!-- member-cost-table:end -->` in the given file.
set -euo pipefail

MEMBER_COST_BENCH=${MEMBER_COST_BENCH:-build/bench/member_cost_bench}
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"
here=$(cd "$(dirname "$0")" && pwd)

csvs=()
for n in 10000 100000; do
  for family in weights training dense; do
    python3 "$here/trace_families.py" "$family" "$n" "$tmp/$family-$n.csv"
    csvs+=("$tmp/$family-$n.csv")
  done
  python3 "$here/trace_families.py" dense "$n" "$tmp/dense-5000-$n.csv" --live 5000
  csvs+=("$tmp/dense-5000-$n.csv")
done

"$MEMBER_COST_BENCH" "${csvs[@]}" >"$tmp/rows"
python3 - "$tmp/rows" >"$tmp/table" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 7 or parts[0] == "input":
        continue
    name, member, n, pairs, measured, estimate, ratio = parts[:7]
    rows.append((name.removesuffix(".csv"), member, int(n), int(pairs), float(measured),
                 float(estimate), float(ratio)))
# Rows under a millisecond are timer noise, not the model's.
timed = [r for r in rows if r[4] >= 1e-3]
print("| input | member | buffers | pairs | measured (s) | estimated (s) | measured / estimated |")
print("|---|---|---:|---:|---:|---:|---:|")
for r in timed:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]:.4f} | {r[5]:.4f} | {r[6]:.2f} |")
out = [r for r in timed if not 0.5 <= r[6] <= 2]
ratios = sorted(r[6] for r in timed)
print()
print(f"{len(timed)} rows of 1 ms and more (of {len(rows)}); ratios {ratios[0]:.2f} to "
      f"{ratios[-1]:.2f}; {len(out)} outside [0.5, 2]"
      + ("" if not out else ": " + ", ".join(f"{r[0]} {r[1]} {r[6]:.2f}" for r in out)))
PY
if [[ -n $WRITE ]]; then
  splice_table member-cost-table "$tmp/table" "$WRITE"
else
  cat "$tmp/table"
fi
