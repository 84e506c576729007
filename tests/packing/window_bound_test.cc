#include "packing/exact/window_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "packing/exact/exact_packer.h"
#include "packing/exact/exact_problem.h"
#include "packing/packer.h"
#include "tests/packing/brute_force_packing.h"
#include "tests/packing/packing_test_support.h"

namespace memplan::exact {
namespace {

using ::memplan::testing::BruteForcePacking;
using ::memplan::testing::CheckPacking;

// A tight 25-buffer input (found by a random search: 38 live bytes at every
// step, with one-step fillers): its optimum is 43, five above max-live. The
// exact search on the whole needs about 4.4 million nodes to prove that 42
// does not fit; steps 0-7 alone prove 39 to 43 in about 240,000.
std::vector<PackItem> TightInput() {
  // {size, alignment, start, end}, closed ranges.
  return {{30, 1, 0, 0}, {8, 1, 0, 8},   {25, 1, 1, 1},  {2, 1, 1, 4},   {3, 1, 1, 4},
          {17, 1, 2, 2}, {8, 1, 2, 5},   {9, 1, 3, 3},   {8, 1, 3, 9},   {7, 1, 4, 4},
          {2, 1, 4, 9},  {12, 1, 5, 5},  {1, 1, 6, 6},   {18, 1, 6, 6},  {1, 1, 6, 8},
          {5, 1, 7, 7},  {11, 1, 7, 7},  {3, 1, 7, 10},  {8, 1, 8, 11},  {8, 1, 8, 11},
          {6, 1, 9, 9},  {1, 1, 9, 11},  {2, 1, 9, 11},  {16, 1, 10, 10}, {19, 1, 11, 11}};
}

Subproblem OnlySubproblem(const std::vector<PackItem>& items) {
  ReducedProblem reduced = ReduceProblem(items, 1);
  EXPECT_EQ(reduced.subproblems.size(), 1u);
  return reduced.subproblems.front();
}

TEST(WindowBoundTest, RestrictionClipsAndSetsAsideWholeWindowBuffers) {
  // a over steps 0-3, b 0-1, c 1-2, d 2-3, e 3: sections at steps 1, 2, 3
  // ({a, b, c}, {a, c, d}, {a, d, e}).
  const std::vector<PackItem> items = {
      {4, 1, 0, 3}, {2, 1, 0, 1}, {3, 1, 1, 2}, {5, 1, 2, 3}, {1, 1, 3, 3}};
  const Subproblem sub = OnlySubproblem(items);
  ASSERT_EQ(sub.sections, 3);
  // Sections 1..2: a and d are live in both and set aside (4 + 5 bytes);
  // c only in 1 (-> step 0), e only in 2 (-> step 1); b not live there.
  const Window window = RestrictToSections(sub, 1, 2);
  EXPECT_EQ(window.set_aside, 4 + 5);
  ASSERT_EQ(window.items.size(), 2u);
  EXPECT_EQ(window.items[0].size, 3);
  EXPECT_EQ(window.items[0].start, 0);
  EXPECT_EQ(window.items[0].end, 0);
  EXPECT_EQ(window.items[1].size, 1);
  EXPECT_EQ(window.items[1].start, 1);
  EXPECT_EQ(window.items[1].end, 1);
}

TEST(WindowBoundTest, NothingIsSetAsideAroundAFixedBufferOrAnUnevenAlignment) {
  std::vector<PackItem> items = {{4, 1, 0, 3}, {2, 1, 0, 1}, {3, 1, 1, 2}, {5, 1, 2, 3}};
  items[1].mutable_fixed_offset() = 8;
  const Subproblem fixed = OnlySubproblem(items);
  EXPECT_EQ(RestrictToSections(fixed, 0, 1).set_aside, 0);
  EXPECT_EQ(RestrictToSections(fixed, 0, 1).items.size(), 4u);
  // 4 bytes is not a multiple of c's alignment 8: a stays in the window.
  items[1].mutable_fixed_offset().reset();
  items[2].alignment = 8;
  const Subproblem aligned = OnlySubproblem(items);
  EXPECT_EQ(RestrictToSections(aligned, 0, 1).set_aside, 0);
  // At alignment 2, a (now 6 bytes) goes to the bottom; c (3 bytes, also
  // live in both sections) stays in the window.
  items[2].alignment = 2;
  items[0].size = 6;
  const Subproblem even = OnlySubproblem(items);
  EXPECT_EQ(RestrictToSections(even, 0, 1).set_aside, 6);
  EXPECT_EQ(RestrictToSections(even, 0, 1).items.size(), 3u);
}

TEST(WindowBoundTest, ATightWindowProvesFiveBytesAboveMaxLive) {
  const std::vector<PackItem> items = TightInput();
  ASSERT_EQ(MaxLiveBytes(items), 38);
  const Subproblem sub = OnlySubproblem(items);
  ASSERT_EQ(SubproblemLowerBound(sub), 38);
  std::atomic<std::int64_t> nodes{0};
  const WindowBound bound = WindowLowerBound(sub, 38, PeakGranularity(sub),
                                             WindowBoundBudget(sub.buffers.size()), nullptr,
                                             nullptr, &nodes);
  EXPECT_EQ(bound.bound, 43);
  EXPECT_EQ(bound.first_section, 0);
  EXPECT_EQ(bound.last_section, 7);
  EXPECT_LE(bound.nodes_spent, WindowBoundBudget(sub.buffers.size()));
  EXPECT_GT(nodes.load(), 0);
  // 43 is the optimum: a window never proves more.
  const WindowBound again = WindowLowerBound(sub, 43, PeakGranularity(sub),
                                             WindowBoundBudget(sub.buffers.size()), nullptr,
                                             nullptr, &nodes);
  EXPECT_EQ(again.bound, 43);
  EXPECT_EQ(again.first_section, -1);
}

TEST(WindowBoundTest, MinimizingSearchReportsTheWindowsProof) {
  const std::vector<PackItem> items = TightInput();
  PackOptions options;
  options.minimize = true;
  options.time_limit_seconds = 600;
  const PackResult result = Pack(items, PackingAlgorithm::kExact, options);
  EXPECT_EQ(result.peak, 43);
  EXPECT_EQ(result.proven_lower_bound, 43);
  EXPECT_EQ(result.lower_bound, 43);
  EXPECT_EQ(result.search_status, SearchStatus::kOptimal);
  EXPECT_EQ(CheckPacking(items, result.offsets, result.peak, 1), "");
}

TEST(WindowBoundTest, AFixedBufferGadgetInsideALongerInput) {
  // f1 (4 B fixed at 2, step 0) and f2 (2 B fixed at 6, step 2) leave b
  // (4 B, steps 0-2) only offsets >= 8: optimum 12 where max-live is 8 and
  // every one-step stack allows 10. A chain of 2-byte buffers (each over
  // two steps) keeps the input one subproblem of 10 sections. From 8 the
  // first window (sections 0-3) is proven infeasible at 8 and at 10.
  std::vector<PackItem> items = {{4, 1, 0, 0}, {4, 1, 0, 2}, {2, 1, 2, 2}};
  items[0].mutable_fixed_offset() = 2;
  items[2].mutable_fixed_offset() = 6;
  for (TimeStep t = 2; t < 10; ++t) items.push_back({2, 1, t, t + 1});
  const Subproblem sub = OnlySubproblem(items);
  ASSERT_EQ(sub.sections, 10);
  ASSERT_EQ(SubproblemLowerBound(sub), 8);
  std::atomic<std::int64_t> nodes{0};
  const WindowBound bound = WindowLowerBound(sub, 8, PeakGranularity(sub), 100000, nullptr,
                                             nullptr, &nodes);
  EXPECT_EQ(bound.bound, 12);
  EXPECT_EQ(bound.first_section, 0);
  EXPECT_EQ(bound.last_section, 3);
  EXPECT_EQ(BruteForcePacking(items, 1).Optimum(), 12);
}

// Random tight inputs over 6-9 steps (3-6 buffers plus a one-step filler
// wherever a step is below the top, so most steps are full), and aligned
// ones: the window bound never exceeds the brute-force optimum, and it
// raises max-live on some.
std::vector<PackItem> RandomInput(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto horizon = static_cast<TimeStep>(6 + rng() % 4);
  const int movable = 3 + static_cast<int>(rng() % 4);
  std::vector<PackItem> items;
  for (int k = 0; k < movable; ++k) {
    PackItem item;
    item.start = static_cast<TimeStep>(rng() % horizon);
    item.end = std::min<TimeStep>(horizon - 1, item.start + 1 + static_cast<TimeStep>(rng() % 4));
    item.size = 1 + static_cast<Bytes>(rng() % 9);
    item.alignment = seed % 2 == 0 ? Bytes{1} << (rng() % 3) : 1;
    items.push_back(item);
  }
  std::vector<Bytes> live(static_cast<std::size_t>(horizon), 0);
  for (const PackItem& item : items) {
    for (TimeStep t = item.start; t <= item.end; ++t) live[static_cast<std::size_t>(t)] += item.size;
  }
  const Bytes top = *std::max_element(live.begin(), live.end()) + static_cast<Bytes>(rng() % 2);
  for (TimeStep t = 0; t < horizon && items.size() < 12; ++t) {
    const Bytes room = top - live[static_cast<std::size_t>(t)];
    if (room > 0) items.push_back({room, 1, t, t});
  }
  return items;
}

TEST(WindowBoundTest, NeverAboveTheBruteForceOptimum) {
  int raised = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const std::vector<PackItem> items = RandomInput(seed);
    const Bytes optimum = BruteForcePacking(items, 1).Optimum();
    for (const Subproblem& sub : ReduceProblem(items, 1).subproblems) {
      const Bytes start = SubproblemLowerBound(sub);
      std::atomic<std::int64_t> nodes{0};
      const WindowBound bound = WindowLowerBound(sub, start, PeakGranularity(sub), 200000,
                                                 nullptr, nullptr, &nodes);
      ASSERT_LE(bound.bound, optimum) << "seed " << seed;
      ASSERT_GE(bound.bound, start) << "seed " << seed;
      if (bound.bound > start) ++raised;
    }
  }
  // The windows do raise the bound on some of them (with alignments).
  EXPECT_GT(raised, 0);
}

}  // namespace
}  // namespace memplan::exact
