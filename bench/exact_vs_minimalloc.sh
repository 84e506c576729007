#!/usr/bin/env bash
# The exact-solver table of docs/packing.md: memplan's exact packer
# (`memplan plan X.csv --algorithm exact --capacity 1048576`, which verifies
# its plan) and MiniMalloc's solver (../shared/tools/minimalloc, skipped when
# absent) side by side in one run on MiniMalloc's challenging A-K inputs:
# per instance the result, the peak, the proven lower bound, the wall time
# and the CPU time (user + system, all threads; what a loaded machine
# distorts least) of each, then the totals. Then the two instances with no
# known packing at their bound, D and J: `--minimize --time-limit
# MINIMIZE_LIMIT` against MiniMalloc's best-known peaks (1,031,168 and
# 1,041,408): the best peak, the proven bound, the gap and the nodes.
#
# Usage: bench/exact_vs_minimalloc.sh [--write docs/packing.md]
#   MEMPLAN     memplan binary (default build/cli/memplan; use a release build)
#   DATA_DIR    shared data folder (default ../shared/data)
#   MINIMALLOC  the peer solver (default ../shared/tools/minimalloc)
#   LIMIT       seconds per instance for memplan (default 60)
#   MINIMIZE_LIMIT  seconds of --minimize on D and J (default 60; 0 skips)
# With --write, replaces the text between `<!-- exact-table:begin -->` and
# `<!-- exact-table:end -->` (and `minimize-table`) in the given file. Needs jq. Exits 1 if a plan
# memplan reports is not verified.
set -euo pipefail

MEMPLAN=${MEMPLAN:-build/cli/memplan}
DATA_DIR=${DATA_DIR:-../shared/data}
MINIMALLOC=${MINIMALLOC:-../shared/tools/minimalloc}
LIMIT=${LIMIT:-60}
MINIMIZE_LIMIT=${MINIMIZE_LIMIT:-60}
CAPACITY=1048576
source "$(dirname "$0")/table_lib.sh"
parse_write_arg "$@"

have_peer=0
[[ -x $MINIMALLOC ]] && have_peer=1

ms() { echo $(( ($2 - $1) / 1000000 )); }
# CPU milliseconds (user + system) that /usr/bin/time wrote to $1.
cpu_ms() { awk '{ printf "%d", ($1 + $2) * 1000 }' "$1"; }

table="$tmp/table.md"
{
  echo "| instance | buffers | memplan exact | peak | proven bound | memplan ms | memplan CPU ms | MiniMalloc | MiniMalloc ms | MiniMalloc CPU ms |"
  echo "|---|---:|---|---:|---:|---:|---:|---|---:|---:|"
} >"$table"
bad=0
total_own=0
total_peer=0
cpu_own=0
cpu_peer=0
for input in "$DATA_DIR"/minimalloc/[A-K].$CAPACITY.csv; do
  [[ -e $input ]] || continue
  name=$(basename "$input" .$CAPACITY.csv)
  buffers=$(( $(wc -l <"$input") - 1 ))
  begin=$(date +%s%N)
  # Exit 1 is a capacity that does not fit (proven, or not found in time):
  # then there is no JSON, and the message says which.
  rm -f "$tmp/p.json"
  /usr/bin/time -f '%U %S' -o "$tmp/own.time" "$MEMPLAN" plan "$input" --algorithm exact --capacity $CAPACITY --time-limit "$LIMIT" \
    --quiet --json "$tmp/p.json" 2>"$tmp/p.err" || true
  end=$(date +%s%N)
  own_ms=$(ms "$begin" "$end")
  total_own=$((total_own + own_ms))
  own_cpu=$(cpu_ms "$tmp/own.time")
  cpu_own=$((cpu_own + own_cpu))
  if [[ -s $tmp/p.json ]]; then
    read -r status peak bound verified < <(jq -r '[.exact_search.status, .peak_bytes,
      .exact_search.proven_lower_bound_bytes, .verified] | @tsv' "$tmp/p.json")
    [[ $verified == true ]] || bad=$((bad + 1))
  else
    peak=$(grep -o 'transient extent [0-9]* bytes' "$tmp/p.err" | head -1 | awk '{ print $3 }')
    if grep -q 'proved that no packing fits' "$tmp/p.err"; then
      status=infeasible
      bound=$(grep -o 'transient peak >= [0-9]*' "$tmp/p.err" | awk '{ print $4 }')
    else
      status="not found in ${LIMIT} s"
      bound=$(grep -o 'lower bound [0-9]* bytes' "$tmp/p.err" | head -1 | awk '{ print $3 }')
    fi
  fi
  peer="-"
  peer_ms="-"
  peer_cpu="-"
  if [[ $have_peer -eq 1 ]]; then
    begin=$(date +%s%N)
    if /usr/bin/time -f '%U %S' -o "$tmp/peer.time" "$MINIMALLOC" --capacity=$CAPACITY --input="$input" --output="$tmp/m.csv" --validate \
        >"$tmp/m.log" 2>&1; then
      peer=$(grep -o 'Validation PASS, height [0-9]*' "$tmp/m.log" | awk '{ print "height " $4 }')
      [[ -n $peer ]] || peer="solved"
    else
      peer="failed"
    fi
    end=$(date +%s%N)
    peer_ms=$(ms "$begin" "$end")
    total_peer=$((total_peer + peer_ms))
    peer_cpu=$(cpu_ms "$tmp/peer.time")
    cpu_peer=$((cpu_peer + peer_cpu))
  fi
  echo "| $name | $buffers | $status | $peak | $bound | $own_ms | $own_cpu | $peer | $peer_ms | $peer_cpu |" >>"$table"
done
if [[ $have_peer -eq 1 ]]; then
  echo "| total | | | | | $total_own | $cpu_own | | $total_peer | $cpu_peer |" >>"$table"
else
  echo "| total | | | | | $total_own | $cpu_own | (MiniMalloc absent) | | |" >>"$table"
fi

cat "$table"
if [[ -n $WRITE ]]; then splice_table exact-table "$table" "$WRITE"; fi

# D and J: the lowest peak within MINIMIZE_LIMIT seconds.
if [[ $MINIMIZE_LIMIT != 0 ]]; then
  minimized="$tmp/minimize.md"
  {
    echo "| instance | best-known (MiniMalloc) | memplan best peak | proven bound | gap | nodes | wall ms | CPU ms |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  } >"$minimized"
  for entry in D:1031168 J:1041408; do
    name=${entry%%:*}
    known=${entry#*:}
    input="$DATA_DIR/minimalloc/$name.$CAPACITY.csv"
    [[ -e $input ]] || continue
    begin=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$tmp/own.time" "$MEMPLAN" plan "$input" --algorithm exact --minimize \
      --time-limit "$MINIMIZE_LIMIT" --quiet --json "$tmp/p.json"
    end=$(date +%s%N)
    read -r peak bound nodes verified < <(jq -r '[.peak_bytes, .exact_search.proven_lower_bound_bytes,
      .exact_search.nodes, .verified] | @tsv' "$tmp/p.json")
    [[ $verified == true ]] || bad=$((bad + 1))
    gap=$(awk -v p="$peak" -v b="$bound" 'BEGIN { printf "%.2f %%", (p - b) * 100 / b }')
    echo "| $name | $known | $peak | $bound | $gap | $nodes | $(ms "$begin" "$end") | $(cpu_ms "$tmp/own.time") |" >>"$minimized"
  done
  cat "$minimized"
  if [[ -n $WRITE ]]; then splice_table minimize-table "$minimized" "$WRITE"; fi
fi
[[ $bad -eq 0 ]]
