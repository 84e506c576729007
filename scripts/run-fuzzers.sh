#!/usr/bin/env bash
# Runs libFuzzer targets built by `make fuzz` (fuzz/CMakeLists.txt with
# MEMPLAN_FUZZ=ON), each for SECONDS, on its seed corpus fuzz/corpus/<target>
# plus BUILD/corpus/<target>, where new inputs go (the seed corpus in the
# repository is never written). Prints executions per target; exits 1 if any
# target crashed (the input is saved as BUILD/crashes/<target>-crash-...).
#
#   scripts/run-fuzzers.sh BUILD SECONDS TARGET...
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1 seconds=$2
shift 2
mkdir -p "$build/crashes"
failed=()
for target in "$@"; do
  binary="$build/fuzz/memplan_fuzz_$target"
  mkdir -p "$build/corpus/$target"
  # The decoded programs use only their first few hundred bytes.
  extra=()
  if [[ $target == program ]]; then extra+=(-max_len=512); fi
  log="$build/crashes/$target.log"
  MEMPLAN_THREADS=1 "$binary" -max_total_time="$seconds" -timeout=60 -print_final_stats=1 \
    -artifact_prefix="$build/crashes/$target-" "${extra[@]}" \
    "$build/corpus/$target" "fuzz/corpus/$target" >"$log" 2>&1
  status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  corpus=$(find "$build/corpus/$target" -type f | wc -l)
  if [[ $status -ne 0 ]]; then
    failed+=("$target")
    echo "fuzz $target: CRASH after ${runs:-?} runs (exit $status); see $log"
    grep -m 5 -E 'ERROR|memplan fuzz|SUMMARY' "$log" | sed 's/^/  /'
  else
    echo "fuzz $target: ${runs:-?} runs in ${seconds} s, no crash (grown corpus: $corpus inputs)"
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "crashed: ${failed[*]}" >&2
  exit 1
fi
