// Fixed offsets in the driver: collisions refused (driver/fixed_offsets.h),
// fixed buffers kept by PlanPools, and CSV solutions read back
// (driver/csv_solution.h).
#include "driver/fixed_offsets.h"

#include <string>

#include "driver/csv_solution.h"
#include "driver/pools.h"
#include "gtest/gtest.h"
#include "io/csv/reader.h"

namespace memplan {
namespace {

BufferSet FixedCsv(std::string_view text) {
  absl::StatusOr<BufferSet> set = ReadLifetimeCsv(text, "t.csv");
  EXPECT_TRUE(set.ok()) << set.status();
  return set.ok() ? *set : BufferSet{};
}

std::string CollisionOf(std::string_view text) {
  const absl::Status s = CheckFixedOffsetsDisjoint(FixedCsv(text));
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  return std::string(s.message());
}

TEST(FixedOffsetCollisionTest, TheEarliestCollisionIsNamed) {
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset\nlate1,6,9,8,0\nlate2,7,9,8,0\n"
                        "early2,1,4,8,12\nearly1,0,3,8,8\n"),
            "fixed offsets collide: buffers 'early2' (offset 12, 8 bytes) and 'early1' (offset "
            "8, 8 bytes) both hold bytes [12, 16) at steps 1 to 2");
}

TEST(FixedOffsetCollisionTest, TouchingOrApartIsNoCollision) {
  // Adjacent bytes, disjoint times, a gap, a free or empty buffer.
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset\na,0,9,8,0\nb,0,9,8,8\nc,9,12,16,0\n"
                        "d,0,12,16,\ne,0,12,0,4\n"),
            "OK");
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset,gaps\na,0,9,8,0,2-5\nb,2,5,8,4,\n"), "OK");
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset,gaps\na,0,9,8,0,2-5\nb,2,6,8,4,\n"),
            "fixed offsets collide: buffers 'a' (offset 0, 8 bytes) and 'b' (offset 4, 8 bytes) "
            "both hold bytes [4, 8) at steps 5 to 5");
}

TEST(FixedOffsetCollisionTest, AWindowHoldsOnlyItsBytes) {
  // a holds [0, 4) at steps 3..6: b may take [4, 8) then, not [2, 6).
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nb,3,7,4,4,\n"),
            "OK");
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset,gaps\na,0,10,8,0,3-7@0:4\nb,3,7,4,2,\n"),
            "fixed offsets collide: buffers 'a' (offset 0, 8 bytes) and 'b' (offset 2, 4 bytes) "
            "both hold bytes [2, 4) at steps 3 to 6");
  // Two windows meeting: [8, 12) of a at 2..4 against b's [10, 14) at 4..5.
  EXPECT_EQ(CollisionOf("id,lower,upper,size,offset,gaps\na,0,10,16,0,2-5@8:12\n"
                        "b,2,9,16,4,2-4@0:2 4-6@6:10\n"),
            "fixed offsets collide: buffers 'a' (offset 0, 16 bytes) and 'b' (offset 4, 16 bytes) "
            "both hold bytes [10, 12) at steps 4 to 4");
}

TEST(FixedOffsetPoolsTest, PlanPoolsKeepsFixedBuffers) {
  const BufferSet set = FixedCsv("id,lower,upper,size,offset\nf,0,10,10,10\na,0,5,10,\n"
                                 "b,5,10,10,\nc,0,10,5,\n");
  PoolPlanOptions options;
  options.algorithm = PackingAlgorithm::kBestFitSpatial;
  absl::StatusOr<Plan> plan = PlanPools(set, options);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<Bytes> offsets;
  for (const BufferPlacement& p : plan->placements) offsets.push_back(p.allocations[0].offset);
  EXPECT_EQ(offsets, (std::vector<Bytes>{10, 0, 0, 20}));
  EXPECT_EQ(plan->peak, 25);
  EXPECT_EQ(plan->lower_bound, 25);
}

TEST(FixedOffsetPoolsTest, PlanPoolsPlacesAroundTheBytesAFixedBufferHolds) {
  // f (fixed at 0) holds [0, 4) at steps 3..6 and nothing at 7..8: m fits in
  // [4, 8) during the window, g (8 B) in f's dead gap, c above f.
  const BufferSet set = FixedCsv("id,lower,upper,size,offset,gaps\nf,0,10,8,0,3-7@0:4 7-9\n"
                                 "m,3,7,4,,\ng,7,9,8,,\nc,0,10,4,,\n");
  for (PackingAlgorithm algorithm :
       {PackingAlgorithm::kBestFitSpatial, PackingAlgorithm::kSkylineArea, PackingAlgorithm::kExact}) {
    PoolPlanOptions options;
    options.algorithm = algorithm;
    absl::StatusOr<Plan> plan = PlanPools(set, options);
    ASSERT_TRUE(plan.ok()) << plan.status();
    std::vector<Bytes> offsets;
    for (const BufferPlacement& p : plan->placements) offsets.push_back(p.allocations[0].offset);
    EXPECT_EQ(offsets, (std::vector<Bytes>{0, 4, 0, 8})) << PackingAlgorithmName(algorithm);
    EXPECT_EQ(plan->peak, 12);
    // Held bytes: 12 at steps 0..2 and 3..6 (f's 4 + m + c), 12 at 7..8.
    EXPECT_EQ(plan->lower_bound, 12);
  }
}

TEST(FixedOffsetPoolsTest, ABoundTheSearchProvesIsThePlansBound) {
  // b cannot go under a (fixed at 2): max-live is 8, every packing needs
  // 10, and the exact search (auto's member too) proves it, so the plan
  // reports 10, with no gap.
  const BufferSet set = FixedCsv("id,lower,upper,size,offset\na,0,2,4,2\nb,1,3,4,\n");
  for (PackingAlgorithm algorithm : {PackingAlgorithm::kExact, PackingAlgorithm::kAuto}) {
    PoolPlanOptions options;
    options.algorithm = algorithm;
    absl::StatusOr<Plan> plan = PlanPools(set, options);
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_EQ(plan->peak, 10) << PackingAlgorithmName(algorithm);
    EXPECT_EQ(plan->lower_bound, 10) << PackingAlgorithmName(algorithm);
    ASSERT_EQ(plan->pools.size(), 1u);
    EXPECT_EQ(plan->pools[0].lower_bound, 10);
  }
  // A heuristic proves nothing: max-live.
  PoolPlanOptions options;
  options.algorithm = PackingAlgorithm::kBestFitSpatial;
  absl::StatusOr<Plan> plan = PlanPools(set, options);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->lower_bound, 8);
}

TEST(FixedOffsetPoolsTest, TheLowerBoundCountsAWindowsBytes) {
  // a holds 8 of its 16 bytes at steps 1..2, where b (8 B) lives: 16 bytes
  // live at most, though the packers read a as whole (extent 24).
  const BufferSet set = FixedCsv("id,lower,upper,size,gaps\na,0,4,16,1-3@0:8\nb,1,3,8,\n");
  absl::StatusOr<Plan> plan = PlanPools(set, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->peak, 24);
  EXPECT_EQ(plan->lower_bound, 16);
  ASSERT_EQ(plan->pools.size(), 1u);
  EXPECT_EQ(plan->pools[0].lower_bound, 16);
  // A fixed buffer wholly in a window at its top still spans its size.
  const BufferSet top = FixedCsv("id,lower,upper,size,offset,gaps\nt,0,4,16,0,0-4@0:8\n");
  plan = PlanPools(top, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->peak, 16);
  EXPECT_EQ(plan->lower_bound, 8);
}

TEST(FixedOffsetPoolsTest, PlanPoolsRefusesCollisions) {
  const BufferSet set = FixedCsv("id,lower,upper,size,offset\nx,0,4,8,0\ny,2,6,8,4\n");
  absl::StatusOr<Plan> plan = PlanPools(set, PoolPlanOptions{});
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CsvSolutionPlanTest, TheSolutionBecomesOnePool) {
  const BufferSet problem = FixedCsv("id,lower,upper,size,gaps\nbig,0,10,16,3-6\nmid,3,6,16,\n");
  const BufferSet solution = FixedCsv("id,lower,upper,size,offset\nmid,3,6,16,0\nbig,0,10,16,0\n");
  absl::StatusOr<Plan> plan = PlanOfCsvSolution(problem, solution, "s.csv");
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->peak, 16);
  EXPECT_EQ(plan->lower_bound, 16);
  ASSERT_EQ(plan->pools.size(), 1u);
  EXPECT_EQ(plan->pools[0].total_bytes, 32);
  const BufferSet differs = FixedCsv("id,lower,upper,size,offset\nmid,3,7,16,0\nbig,0,10,16,0\n");
  EXPECT_EQ(PlanOfCsvSolution(problem, differs, "s.csv").status().message(),
            "s.csv:2:7: error: buffer 'mid' is lower 3, upper 7, size 16 here but lower 3, upper 6, "
            "size 16 in the problem 't.csv'");
  const BufferSet extra =
      FixedCsv("id,lower,upper,size,offset\nmid,3,6,16,0\nbig,0,10,16,0\nzz,0,1,1,0\n");
  EXPECT_EQ(PlanOfCsvSolution(problem, extra, "s.csv").status().message(),
            "s.csv:4:1: error: buffer 'zz' is not in the problem 't.csv'");
  const BufferSet unplaced = FixedCsv("id,lower,upper,size,offset\nmid,3,6,16,\nbig,0,10,16,0\n");
  EXPECT_EQ(PlanOfCsvSolution(problem, unplaced, "s.csv").status().message(),
            "s.csv:2:12: error: buffer 'mid' has no offset");
}

}  // namespace
}  // namespace memplan
