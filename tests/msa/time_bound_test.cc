#include "msa/time_bound.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gtest/gtest.h"
#include "msa/assignment.h"
#include "msa/simulator.h"
#include "tests/msa/msa_test_util.h"
#include "tests/msa/random_program.h"

namespace memplan {
namespace {

using testing::Alt;
using testing::Analyze;
using testing::Analyzed;
using testing::BufferOf;
using testing::BuffersAccessedAt;
using testing::EmptyResult;
using testing::RandomProgram;
using testing::RoundTarget;

// Three ops on the round target (compute 1000 flop/s, default memory
// 100 B/s, alternate 400 B/s):
//   step 0 negate(x: 100 B) -> a: 100 B        400 B/s vs 100 B/s per byte
//   step 1 add(a: 100 B, w: 200 B) -> b: 100 B
//   step 2 mul(b, b) -> c: 50 B, 1500 flops    compute 1.5 s
constexpr char kThreeOps[] = R"(
entry func @main(%x: u8[100], %w: u8[200]) {
  %a = negate(%x) : u8[100]
  %b = add(%a, %w) : u8[100]
  %c = mul(%b, %b) : u8[50] {flops = 1500}
  return %c
}
)";

// By hand, with capacity 200 bytes:
//   step 0: items x (100 B, worth 100 B) and a (100 B, 100 B) both fit:
//     A* = 200 B = everything, 200 / 400 = 0.5 s (all default 2 s);
//   step 1: a, w, b are each worth 1 byte a byte; in order of access a fits
//     (100 B left), then half of w: A* = 200 B of 400, 200 / 400 + 200 / 100
//     = 2.5 s (all default 4 s);
//   step 2: b is read twice (100 B, worth 200 B: 2 a byte), then c (50 B,
//     50 B) fit: memory 250 / 400 = 0.625 s, below the compute time 1.5 s
//     (all default max(1.5, 2.5) = 2.5 s).
// Bound 0.5 + 2.5 + 1.5 = 4.5 s; all default 8.5 s, all fast 3 s.
// With 100 bytes: step 0 takes x: 100 / 400 + 100 / 100 = 1.25 s; step 1
// takes a: 0.25 + 3 = 3.25 s; step 2 takes b: 200 / 400 + 50 / 100 = 1 s,
// so the compute time 1.5 s: 6 s in all.
TEST(TimeBoundTest, ExactValuesOnThreeOps) {
  auto a = Analyze(kThreeOps);
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 200), 4.5);
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 100), 6.0);
  EXPECT_DOUBLE_EQ(TimeAllDefault(a->analysis, cost), 8.5);
  EXPECT_DOUBLE_EQ(TimeAllFast(a->analysis, cost), 3.0);
}

TEST(TimeBoundTest, TheEndsAreTheAllDefaultAndAllFastTimes) {
  auto a = Analyze(kThreeOps);
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  EXPECT_EQ(TimeBound(a->analysis, cost, 0), TimeAllDefault(a->analysis, cost));
  // 400 bytes: the most one op's buffers weigh together (a, w and b).
  for (Bytes capacity : {400, 1 << 20}) {
    EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, capacity), TimeAllFast(a->analysis, cost))
        << capacity;
  }
}

// A buffer larger than the capacity can never be resident: none of it
// counts (the fractional fill would otherwise take part of it).
TEST(TimeBoundTest, BuffersLargerThanTheCapacityAreLeftOut) {
  auto a = Analyze(R"(
entry func @main(%x: u8[300]) {
  %y = negate(%x) : u8[100]
  return %y
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  // Capacity 200: y only; 100 / 400 + 300 / 100 = 3.25 s.
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 200), 3.25);
}

// Ops in a while body count once per iteration, as in the simulator.
TEST(TimeBoundTest, LoopBodiesCountTheirTripCount) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %r = while(%x) : u8[100] {cond = @cond, body = @body, trip_count = 3}
  return %r
}
func @cond(%c: u8[100]) {
  %p = compare(%c) : pred[] {bytes_accessed = 0}
  return %p
}
func @body(%i: u8[100]) {
  %n = negate(%i) : u8[100]
  return %n
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  // The loop-carried values share one 100-byte buffer, which the negate
  // reads and writes: 200 B, 2 s in default memory and 0.5 s in fast
  // memory, 3 times. With 100 bytes it fits; with 99 it never does.
  EXPECT_DOUBLE_EQ(TimeAllDefault(a->analysis, cost), 6.0);
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 100), 1.5);
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 99), 6.0);
}

// A sub-allocation and its container share bytes: together they weigh the
// smaller one (a resident sub-allocation occupies at least that).
TEST(TimeBoundTest, SubAllocationsWeighTheirGroupsSmallestMember) {
  auto a = Analyze(R"(
entry func @main(%x: u8[200], %y: u8[100]) {
  %z = add(%x, %y) : u8[100]
  return %z
}
)");
  ASSERT_NE(a, nullptr);
  const BufferId x = BufferOf(*a, "x");
  const BufferId y = BufferOf(*a, "y");
  a->analysis.buffers.buffers[y].mutable_inside() = SubAllocation{x, 0};
  CostModel cost(a->program, a->analysis, RoundTarget());
  // Capacity 100: the group {x, y} weighs 100 B and is worth 300 B:
  // 300 / 400 + 100 / 100 = 1.75 s (without the group: y and nothing else
  // at 1 byte a byte, 100 / 400 + 300 / 100 = 3.25 s).
  EXPECT_DOUBLE_EQ(TimeBound(a->analysis, cost, 100), 1.75);
}

// --- Soundness on random programs ---------------------------------------------

// The best simulated time over every residency with free copies: at each
// step any set of the step's buffers that fits `capacity` sits in fast
// memory for that step only. Steps are independent without copies, so each
// step's best set (the lowest simulated time with only that step's
// segments) combines into the best plan; the combination is simulated.
double BestFreeCopyTime(const Analyzed& a, const CostModel& cost, Bytes capacity) {
  const BufferSet& buffers = a.analysis.buffers;
  const TimeStep steps = a.analysis.schedule.time_steps;
  MsaResult best = EmptyResult(a);
  for (TimeStep t = 0; t < steps; ++t) {
    const std::vector<BufferId> accessed = BuffersAccessedAt(a, t);
    double best_time = SimulateMsa(a.analysis, cost, EmptyResult(a)).elapsed_s;
    std::uint32_t best_mask = 0;
    for (std::uint32_t mask = 1; mask < (1u << accessed.size()); ++mask) {
      Bytes used = 0;
      MsaResult r = EmptyResult(a);
      for (std::size_t k = 0; k < accessed.size(); ++k) {
        if (!(mask >> k & 1)) continue;
        used += buffers.buffers[accessed[k]].size;
        r.alternate[accessed[k]].push_back(Alt(0, t, t));
      }
      if (used > capacity) continue;
      const double time = SimulateMsa(a.analysis, cost, r).elapsed_s;
      if (time < best_time) {
        best_time = time;
        best_mask = mask;
      }
    }
    for (std::size_t k = 0; k < accessed.size(); ++k) {
      if (best_mask >> k & 1) best.alternate[accessed[k]].push_back(Alt(0, t, t));
    }
  }
  return SimulateMsa(a.analysis, cost, best).elapsed_s;
}

TEST(TimeBoundTest, NeverAboveTheBestFreeCopyPlanNorAnyMsaPlan) {
  std::mt19937 rng(27);
  constexpr double kSlack = 1e-9;  // the bound and the simulator sum bytes in different orders
  for (int round = 0; round < 200; ++round) {
    const std::string text = RandomProgram(rng, 6);
    SCOPED_TRACE(text);
    auto a = Analyze(text);
    ASSERT_NE(a, nullptr);
    Target target = RoundTarget();
    target.alternate_bandwidth = 100.0 * std::uniform_int_distribution<int>(1, 8)(rng);
    CostModel cost(a->program, a->analysis, target);
    Bytes total = 0;
    for (const Buffer& b : a->analysis.buffers.buffers) total += b.size;
    const Bytes capacity = std::uniform_int_distribution<Bytes>(0, total)(rng);
    SCOPED_TRACE(fmt::format("capacity {}, alternate bandwidth {}", capacity,
                             target.alternate_bandwidth));

    const double bound = TimeBound(a->analysis, cost, capacity);
    EXPECT_GE(bound, TimeAllFast(a->analysis, cost) * (1 - kSlack));
    EXPECT_LE(bound, TimeAllDefault(a->analysis, cost) * (1 + kSlack));
    const double best = BestFreeCopyTime(*a, cost, capacity);
    EXPECT_LE(bound, best * (1 + kSlack));

    for (MsaMode mode : {MsaMode::kDefault, MsaMode::kReference}) {
      MsaOptions options;
      options.fast_memory_bytes = capacity;
      options.mode = mode;
      absl::StatusOr<MsaResult> plan = AssignMemorySpaces(a->program, a->analysis, cost, options);
      ASSERT_TRUE(plan.ok()) << plan.status();
      // Default mode may keep window prefetches by itself: their plans are
      // held to the looser bound with windows.
      const double plan_bound = plan->window_prefetches.empty()
                                    ? bound
                                    : TimeBound(a->analysis, cost, capacity, /*windows=*/true);
      EXPECT_LE(plan_bound, SimulateMsa(a->analysis, cost, *plan).elapsed_s * (1 + kSlack));
    }
  }
}

}  // namespace
}  // namespace memplan
