// Block prefetching (msa/block_prefetch.h) on a scenario with exact
// outcome: three 32-byte weights (constants) read at steps 1, 3 and 5 and the
// 8-byte input x read at step 0, a 64-byte block at the top of 128 bytes of
// fast memory. Only constants are weights: x, a model input, is left to the
// main pass. w1 and w2 fill the block from before the first op; w3 takes
// w1's freed bytes once w1 has had its last read, its copy issued after
// the op at step 2.
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
entry func @main(%x: f32[2], %w1: f32[8] constant, %w2: f32[8] constant, %w3: f32[8] constant) {
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
  ASSERT_EQ(block.slots.size(), 3u);
  // x is an entry parameter of the external lifetime (a model input), not a
  // constant: no weight. FIFO by first read: w1 (read at 1), w2 (3), w3 (5).
  // w1 takes [64, 96) before the first op; w2, also from before the first
  // op, fits beside it in [96, 128) (the block's 64 bytes hold both); w3
  // needs 32 bytes, free only once w1 has had its last read (at 1): from
  // step 2, in w1's old bytes at 64 (w2 holds [96, 128) through step 3).
  const std::vector<BufferId> order = {f->Buffer("w1"), f->Buffer("w2"), f->Buffer("w3")};
  const std::vector<Bytes> offsets = {64, 96, 64};
  const std::vector<TimeStep> starts = {-1, -1, 2};
  const std::vector<TimeStep> dones = {1, 3, 5};
  for (std::size_t i = 0; i < 3; ++i) {
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
  EXPECT_THAT(Segments(r, f->Buffer("w1")), ElementsAre("0-1@64"));
  EXPECT_THAT(Segments(r, f->Buffer("w2")), ElementsAre("0-3@96"));
  EXPECT_THAT(Segments(r, f->Buffer("w3")), ElementsAre("2-5@64"));
  EXPECT_THAT(Copies(r, f->Buffer("w1")), ElementsAre("prefetch -1->1"));
  EXPECT_THAT(Copies(r, f->Buffer("w2")), ElementsAre("prefetch -1->3"));
  EXPECT_THAT(Copies(r, f->Buffer("w3")), ElementsAre("prefetch 2->5"));
  // Every copy is a block prefetch; x (read once, at step 0, with no op
  // before it to hide a copy behind) stays in default memory and the
  // transients stay below the block.
  EXPECT_EQ(r.copies.size(), 3u);
  for (const AsyncCopy& c : r.copies) EXPECT_TRUE(c.block);
  EXPECT_THAT(Copies(r, f->Buffer("x")), ElementsAre());
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-1@0"));
  // The three copies queue one after another (3.2 ns per 32 bytes at 1e10
  // B/s): w1's over [0, 3.2] ns, w2's over [3.2, 6.4], w3's, issued after
  // op 2 (at 3.84 ns), behind w2's over [6.4, 9.6]. Ops: op 0 reads x from
  // default memory (0.8 + 0.08 ns for a), ends at 0.88; op 1 waits for w1
  // (3.2) and runs 0.48 to 3.68; op 2 to 3.84; op 3 waits for w2 (6.4), to
  // 6.88; op 4 to 7.04; op 5 waits for w3 (9.6) and writes the entry result
  // f in default memory (0.8 + 0.08 + 0.32 = 1.2 ns): 10.8 ns. (Before the
  // block took constants only, x was a weight too and the four copies
  // ended at 12.24 ns.)
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 1.08e-08);
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
  // Here the block costs more than it saves (the copies queue up: 10.8 ns
  // with it, above), so default mode keeps a plan without it.
  EXPECT_EQ(r.variant, "reference-sliced-4");
  EXPECT_FALSE(r.block.has_value());
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 7.6e-09);
}

// A weight read only as a matmul's weight operand is also the
// cross-program prefetch's candidate (MsaBuffer::weight_parameter). Once
// the block holds it, the main pass must not pick it again: before, both
// opened w's one alternate segment and the plan failed verification (found
// on bert_base_seq128, mobile-gpu, 256 KiB, a 64 KiB block).
TEST(BlockPrefetchScenarioTest, ABlockWeightIsNotAlsoTheCrossProgramPrefetch) {
  auto f = Load(R"(
entry func @main(%x: f32[2], %w: f32[8] constant) {
  %a = negate(%x) : f32[2]
  %b = matmul(%a, %w) : f32[2]
  %c = negate(%b) : f32[2]
  return %c
}
)");
  const MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 128);
  ASSERT_TRUE(problem.buffers[static_cast<std::size_t>(f->Buffer("w"))].weight_parameter);
  const MsaOptions without = HarnessOptions();
  const MsaResult plain = Assign(*f, without);
  ASSERT_TRUE(plain.cross_program_prefetch.has_value());  // w, without a block
  const MsaOptions o = WithBlock(64);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_FALSE(r.cross_program_prefetch.has_value());
  // w's one segment is its block slot [64, 96), from its block prefetch
  // issued before the first op and done at its read (step 1).
  EXPECT_THAT(Segments(r, f->Buffer("w")), ElementsAre("0-1@64"));
  EXPECT_THAT(Copies(r, f->Buffer("w")), ElementsAre("prefetch -1->1"));
}

}  // namespace
}  // namespace memplan
