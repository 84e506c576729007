// The executor fails on purpose-built broken plans, naming the op, the value
// read and the write that overwrote it.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/execute/execute_fixture.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using execute_testing::Execute;
using execute_testing::PlacementOf;
using execute_testing::PlanForExecution;

const std::string kEvictThenPrefetch = MEMPLAN_SOURCE_DIR "/tests/data/mpir/evict_then_prefetch.mpir";

TEST(BrokenPlans, OverlapClobbersAnOperandWhileItIsRead) {
  const PlanJobResult planned = PlanForExecution(ExamplePath("basic.mpir"));
  Plan plan = planned.plan;
  ASSERT_TRUE(Execute(planned, plan).ok());
  // %y (64 bytes, step 4) placed over bytes [64, 128) of g's buffer, which
  // holds %row1, the operand %y reads at the same step.
  BufferPlacement& y = PlacementOf(planned, plan, "y");
  y.allocations[0].offset = PlacementOf(planned, plan, "g").allocations[0].offset + 64;
  absl::StatusOr<ExecuteReport> run = Execute(planned, plan);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(run.status().message()),
            "op %y (step 4) reads %row1: byte 64 of default memory (byte 64 of buffer 'g') holds "
            "data of %y (written by op %y at step 4), not data of %h (written by op %h at step 1)");
}

TEST(BrokenPlans, PrefetchDoneTooLate) {
  const PlanJobResult planned = PlanForExecution(kEvictThenPrefetch, 24);
  Plan plan = planned.plan;
  ASSERT_TRUE(Execute(planned, plan).ok());
  // p2's prefetch (start 3, done 5) is read by %y at step 5; done at 6 the
  // fast copy still holds what x left there.
  bool moved = false;
  for (AsyncCopy& copy : plan.copies) {
    if (copy.kind == CopyKind::kPrefetch && copy.start == 3 && copy.done == 5) {
      copy.done = 6;
      moved = true;
    }
  }
  ASSERT_TRUE(moved);
  for (Allocation& a : PlacementOf(planned, plan, "p2").allocations) {
    if (a.space == kAlternateSpace) a.end = 6;
  }
  absl::StatusOr<ExecuteReport> run = Execute(planned, plan);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(run.status().message()),
            "op %y (step 5) reads %p2: byte 0 of alternate memory (byte 0 of buffer 'p2') holds "
            "data of %x (written by op %x at step 0), not data of %p2 (written by the caller (a "
            "program input))");
}

TEST(BrokenPlans, EvictionIntoAnotherBuffersBytes) {
  const PlanJobResult planned = PlanForExecution(kEvictThenPrefetch, 24);
  Plan plan = planned.plan;
  ASSERT_TRUE(Execute(planned, plan).ok());
  ASSERT_EQ(plan.copies.size(), 3u);
  ASSERT_EQ(plan.copies[0].kind, CopyKind::kEviction);  // x: start 0, done 2
  // x's default-space copy moved onto %a's bytes: the eviction, done before
  // the ops of step 2, overwrites %a, which %c1 reads at step 2.
  // (Where the packer puts %a is its business: 0 since --effort fast has
  // room for best-fit-spatial, which reaches the bound and wins ties; 24
  // with skyline-longest before; the clobber is at %a's first byte.)
  const Bytes a_offset = PlacementOf(planned, plan, "a").allocations[0].offset;
  EXPECT_EQ(a_offset, 0);
  for (Allocation& a : PlacementOf(planned, plan, "x").allocations) {
    if (a.space == kDefaultSpace) a.offset = a_offset;
  }
  absl::StatusOr<ExecuteReport> run = Execute(planned, plan);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(run.status().message()),
            "op %c1 (step 2) reads %a: byte 0 of default memory (byte 0 of buffer 'a') holds "
            "data of %x (written by op %x at step 0), moved there by the eviction of buffer 'x' "
            "(start 0, done 2), not data of %a (written by op %a at step 1)");
}

TEST(BrokenPlans, RegionCommandClobbersAnotherSlice) {
  const PlanJobResult planned = PlanForExecution(ExamplePath("region.mpir"));
  Plan plan = planned.plan;
  ASSERT_TRUE(Execute(planned, plan).ok());
  // The dispatch of %t1 writes its result at the slab offset of %zeros,
  // which the same wave reads.
  bool moved = false;
  for (HostStep& step : plan.regions->steps) {
    for (Command& command : step.commands) {
      if (command.op == kNoId || planned.input.program->OpName(command.op) != "t1") continue;
      for (CommandRange& range : command.ranges) {
        if (range.access == Access::kWrite) {
          range.offset_bytes = 0;
          moved = true;
        }
      }
    }
  }
  ASSERT_TRUE(moved);
  absl::StatusOr<ExecuteReport> run = Execute(planned, plan);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(run.status().message()),
            "the dispatch command of op %t1 (step 1) reads %zeros: byte 0 of default memory "
            "(byte 0 of buffer 'zeros') holds data of %t1 (written by the dispatch command of op "
            "%t1 at step 1), not data of %zeros (written by the fill command of op %zeros at step 0)");
}

TEST(BrokenPlans, CsvBuffersSharingBytesAtACommonStep) {
    const std::string path = TestTempPath("execute_overlap.csv");
  {
    std::ofstream out(path);
    out << "id,lower,upper,size\nb1,0,3,8\nb2,2,5,8\n";
  }
  const PlanJobResult planned = PlanForExecution(path);
  Plan plan = planned.plan;
  absl::StatusOr<ExecuteReport> ok = Execute(planned, plan);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->bytes_written, 16);
  EXPECT_EQ(ok->bytes_checked, 16);
  plan.placements[1].allocations[0].offset = 4;
  plan.placements[0].allocations[0].offset = 0;
  absl::StatusOr<ExecuteReport> run = Execute(planned, plan);
  ASSERT_EQ(run.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(run.status().message()),
            "step 2 (the last of buffer 'b1''s live stretch) reads buffer 'b1': byte 4 of default "
            "memory (byte 4 of buffer 'b1') holds data of buffer 'b2' (written by step 2), not "
            "data of buffer 'b1' (written by step 0)");
}

}  // namespace
}  // namespace memplan
