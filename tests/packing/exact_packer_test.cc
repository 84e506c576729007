#include "packing/exact/exact_packer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "packing/packer.h"
#include "tests/packing/brute_force_packing.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::memplan::testing::BruteForcePacking;
using ::memplan::testing::CheckPacking;
using ::testing::ElementsAre;

PackOptions Minimize() {
  PackOptions options;
  options.minimize = true;
  return options;
}

PackOptions Capacity(Bytes capacity) {
  PackOptions options;
  options.capacity = capacity;
  return options;
}

// Up to 12 items of 1-4 steps over a short horizon (dense overlaps), alignments 1..4, and
// with one seed in three one or two items fixed where a best-fit packing put
// them (so a packing exists).
std::vector<PackItem> TinyInstance(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int n = 1 + static_cast<int>(rng() % 12);
  const TimeStep horizon = 3 + static_cast<TimeStep>(rng() % 8);
  std::vector<PackItem> items(static_cast<std::size_t>(n));
  for (PackItem& item : items) {
    item.start = static_cast<TimeStep>(rng() % horizon);
    item.end = std::min<TimeStep>(horizon - 1, item.start + static_cast<TimeStep>(rng() % 4));
    item.size = rng() % 12 == 0 ? 0 : 1 + static_cast<Bytes>(rng() % 8);
    item.alignment = Bytes{1} << (rng() % 3);
  }
  if (seed % 3 == 0) {
    const PackResult fit = Pack(items, PackingAlgorithm::kBestFitSpatial);
    const int fixed = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < fixed; ++k) {
      const std::size_t i = rng() % items.size();
      if (items[i].size > 0) items[i].fixed_offset = fit.offsets[i];
    }
  }
  return items;
}

TEST(ExactPackTest, OptimumEqualsBruteForceOnThousandTinyInstances) {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    const std::vector<PackItem> items = TinyInstance(seed);
    const Bytes optimum = BruteForcePacking(items, 1).Optimum();
    const PackResult exact = Pack(items, PackingAlgorithm::kExact, Minimize());
    ASSERT_EQ(exact.peak, optimum) << "seed " << seed;
    ASSERT_EQ(exact.search_status, SearchStatus::kOptimal) << "seed " << seed;
    ASSERT_EQ(exact.proven_lower_bound, optimum) << "seed " << seed;
    ASSERT_EQ(CheckPacking(items, exact.offsets, exact.peak, 1), "") << "seed " << seed;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].fixed_offset) {
        ASSERT_EQ(exact.offsets[i], *items[i].fixed_offset) << "seed " << seed;
      }
    }
    // The decision: fits at the optimum, proven not to one byte below.
    const PackResult fits = Pack(items, PackingAlgorithm::kExact, Capacity(optimum));
    ASSERT_LE(fits.peak, optimum) << "seed " << seed;
    ASSERT_EQ(CheckPacking(items, fits.offsets, fits.peak, 1), "") << "seed " << seed;
    if (optimum > 0) {
      const PackResult below = Pack(items, PackingAlgorithm::kExact, Capacity(optimum - 1));
      ASSERT_EQ(below.search_status, SearchStatus::kInfeasible) << "seed " << seed;
      ASSERT_EQ(below.proven_lower_bound, optimum) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace memplan
