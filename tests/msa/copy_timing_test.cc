// Copy timing at the edges of the conventions (msa/assignment.h): a copy is
// done before the ops of its done step and issued after the ops of its start
// step, so an eviction's source is held through done - 1 only.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/msa/allocator_test_util.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

// Fast memory for exactly one f32[2,3] (24 B); the f32[4,4] chain never
// fits. x is produced at 0, read at 1 and again at 16 (too long to stay), so
// it is evicted; the entry parameter p2 is read at 5.

TEST(CopyTimingTest, EvictionDoneWhereAnotherPrefetchStartsSharesTheChunk) {
  auto f = Load(ReadTestData("mpir/evict_then_prefetch.mpir"));
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 24;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // x (three accesses) goes first: produced at 0, evicted (0, 2) — the
  // instruction-count picker's two steps — so its chunk is held through step
  // 1 only, and prefetched back for step 16 at the first candidate, 6.
  EXPECT_THAT(Segments(r, f->Buffer("x")), ElementsAre("0-1@0", "6-16@0"));
  EXPECT_THAT(Copies(r, f->Buffer("x")), ElementsAre("eviction 0->2", "prefetch 6->16"));
  // p2's candidates for the read at 5 are -1..2; only 2 is free: its
  // prefetch is issued after the op at 2, when x's eviction has completed
  // (before that op), so both use the only 24 bytes at step 2.
  EXPECT_THAT(Segments(r, f->Buffer("p2")), ElementsAre("2-5@0"));
  EXPECT_THAT(Copies(r, f->Buffer("p2")), ElementsAre("prefetch 2->5"));
  EXPECT_THAT(Segments(r, f->Buffer("p1")), IsEmpty());
  EXPECT_EQ(r.alternate_peak, 24);
}

}  // namespace
}  // namespace memplan
