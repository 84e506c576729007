// Block prefetching (msa/block_prefetch.h) on a scenario with exact
// outcome: the 8-byte input x read at step 0 and three 32-byte weights read
// at steps 1, 3 and 5, a 64-byte block at the top of 128 bytes of fast
// memory. x and w1 fill the block from before the first op; w2 and w3 take
// their freed bytes once both have had their last read, copies issued
// after the op at step 2.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/block_prefetch.h"
#include "msa/problem.h"
#include "msa/simulator.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

constexpr char kThreeWeights[] = R"(
entry func @main(%x: f32[2], %w1: f32[8], %w2: f32[8], %w3: f32[8]) {
  %a = negate(%x) : f32[2]
  %b = add(%a, %w1) : f32[2]
  %c = negate(%b) : f32[2]
  %d = add(%c, %w2) : f32[2]
  %e = negate(%d) : f32[2]
  %f = add(%e, %w3) : f32[2]
  return %f
}
)";

MsaOptions WithBlock(Bytes block) {
  MsaOptions o = HarnessOptions();
  o.block_prefetch_bytes = block;
  return o;
}

TEST(BlockPrefetchScenarioTest, FifoOrderSlotsAndReuse) {
  auto f = Load(kThreeWeights);
  MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 128);
  BlockPlan block = ReserveBlock(128, 64, 8);
  EXPECT_EQ(block.offset, 64);
  EXPECT_EQ(block.size, 64);
  PlanBlockPrefetch(problem, f->program.entry, 8, block);
  ASSERT_EQ(block.slots.size(), 4u);
  // FIFO by first read: x (read at 0), w1 (1), w2 (3), w3 (5). x and w1
  // fill [64, 104) before the first op; w2 needs 32 bytes, free only once
  // both have had their last read (x at 0, w1 at 1): from step 2, in x's
  // and w1's old bytes at 64; w3 (not before w2's start) beside it at 96.
  const std::vector<BufferId> order = {f->Buffer("x"), f->Buffer("w1"), f->Buffer("w2"),
                                       f->Buffer("w3")};
  const std::vector<Bytes> offsets = {64, 72, 64, 96};
  const std::vector<TimeStep> starts = {-1, -1, 2, 2};
  const std::vector<TimeStep> dones = {0, 1, 3, 5};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(block.slots[i].buffer, order[i]) << i;
    EXPECT_EQ(block.slots[i].offset, offsets[i]) << i;
    EXPECT_EQ(block.slots[i].start, starts[i]) << i;
    EXPECT_EQ(block.slots[i].done, dones[i]) << i;
    EXPECT_EQ(block.slots[i].last_use, dones[i]) << i;
  }
}

TEST(BlockPrefetchScenarioTest, ReferenceModeWithTheBlock) {
  auto f = Load(kThreeWeights);
  const MsaOptions o = WithBlock(64);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  ASSERT_TRUE(r.block.has_value());
  EXPECT_EQ(*r.block, (PrefetchBlock{64, 64}));
  EXPECT_THAT(Segments(r, f->Buffer("x")), ElementsAre("0-0@64"));
  EXPECT_THAT(Segments(r, f->Buffer("w1")), ElementsAre("0-1@72"));
  EXPECT_THAT(Segments(r, f->Buffer("w2")), ElementsAre("2-3@64"));
  EXPECT_THAT(Segments(r, f->Buffer("w3")), ElementsAre("2-5@96"));
  EXPECT_THAT(Copies(r, f->Buffer("w1")), ElementsAre("prefetch -1->1"));
  EXPECT_THAT(Copies(r, f->Buffer("w2")), ElementsAre("prefetch 2->3"));
  EXPECT_THAT(Copies(r, f->Buffer("w3")), ElementsAre("prefetch 2->5"));
  // Every copy is a block prefetch; the transients stay below the block.
  EXPECT_EQ(r.copies.size(), 4u);
  for (const AsyncCopy& c : r.copies) EXPECT_TRUE(c.block);
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-1@0"));
  // The four copies queue one after another (3.2 ns per 32 bytes): w2's,
  // issued after op 2, holds up op 3, and w3's follows it.
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 1.224e-08);
}

TEST(BlockPrefetchScenarioTest, ReferenceModeWithoutTheBlockIsUnchanged) {
  auto f = Load(kThreeWeights);
  const MsaOptions o = HarnessOptions();
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_FALSE(r.block.has_value());
  for (const AsyncCopy& c : r.copies) EXPECT_FALSE(c.block);
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 7.6e-09);
}

TEST(BlockPrefetchScenarioTest, DefaultModeKeepsTheBlockOnlyWhenFaster) {
  auto f = Load(kThreeWeights);
  MsaOptions o = WithBlock(64);
  o.mode = MsaMode::kDefault;
  const MsaResult r = Assign(*f, o);
  // Here the block costs more than it saves (the copies queue up), so
  // default mode keeps a plan without it.
  EXPECT_EQ(r.variant, "reference-sliced-4");
  EXPECT_FALSE(r.block.has_value());
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 7.6e-09);
}

}  // namespace
}  // namespace memplan
