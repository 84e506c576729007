// ReserveBlock and IsBlockWeight (msa/block_prefetch.h): where the block
// goes and which buffers block prefetching may take.
#include "msa/block_prefetch.h"

#include "gtest/gtest.h"
#include "msa/problem.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

TEST(ReserveBlockTest, TopOfFastMemoryAligned) {
  BlockPlan b = ReserveBlock(1000, 300, 64);  // the header's example
  EXPECT_EQ(b.offset, 640);
  EXPECT_EQ(b.size, 300);
  b = ReserveBlock(128, 500, 8);  // clamped to the fast memory
  EXPECT_EQ(b.offset, 0);
  EXPECT_EQ(b.size, 128);
  b = ReserveBlock(128, 0, 8);  // no block
  EXPECT_EQ(b.offset, 128);
  EXPECT_EQ(b.size, 0);
}

TEST(IsBlockWeightTest, ReadOnlyConstantsThatFitTheBlock) {
  auto f = testing::Load(R"(
entry func @main(%x: f32[2], %w: f32[8] constant, %v: f32[8]) {
  %a = add(%x, %w) : f32[2]
  %c = add(%a, %v) : f32[2]
  %b = negate(%c) : f32[2]
  return %b
}
)");
  const MsaProblem p = BuildMsaProblem(f->program, f->analysis, *f->cost, 128);
  const ComputationId entry = f->program.entry;
  EXPECT_TRUE(IsBlockWeight(p, f->Buffer("w"), entry, 32));
  EXPECT_FALSE(IsBlockWeight(p, f->Buffer("w"), entry, 31));  // larger than the block
  // Read-only entry parameters that are no constants are model inputs, not
  // weights, whatever their size.
  EXPECT_FALSE(IsBlockWeight(p, f->Buffer("x"), entry, 32));
  EXPECT_FALSE(IsBlockWeight(p, f->Buffer("v"), entry, 32));
  EXPECT_FALSE(IsBlockWeight(p, f->Buffer("a"), entry, 32));  // written by an op
  EXPECT_FALSE(IsBlockWeight(p, f->Buffer("b"), entry, 32));  // the entry result
}

}  // namespace
}  // namespace memplan
