#!/usr/bin/env bash
# The exact solver against a brute-force search on 1,000 random instances of
# up to 12 buffers (alignment, ties, fixed offsets): the full run of the
# check whose first 100 instances are in the default test suite
# (tests/packing/exact_packer_test.cc). Usage: bench/exact_brute_force.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build}"
MEMPLAN_FULL_BRUTE_FORCE=1 "$build/tests/memplan_packing_tests" \
  --gtest_filter='ExactPackTest.FullOptimumEqualsBruteForceOnThousandTinyInstances'
