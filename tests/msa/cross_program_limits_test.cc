// The cross-program prefetch counts against max_outstanding_prefetches: the
// plan shows it as a prefetch over [start, start] of its buffer (driver/
// pools.h), so with a limit of 1 no other prefetch may be in flight at that
// step, and with a limit of 0 there is none (a user-level regression: `memplan
// plan examples/mlp.mpir --fast-memory 1MiB --max-outstanding-prefetches 1`
// failed verification).
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::MaxOutstanding;

// %w is a matmul weight (the cross-program prefetch); %v, read at step 2,
// is prefetched from before the first op (start -1, an entry parameter)
// when nothing stops it (the harness picker with a minimum overlap of 1 op).
constexpr char kWeightAndLateInput[] = R"(
entry func @main(%x: f32[4], %w: f32[2,2], %v: f32[4]) {
  %a = matmul(%x, %w) : f32[4]
  %b = negate(%a) : f32[4]
  %c = add(%b, %v) : f32[4]
  return %c
}
)";

TEST(CrossProgramLimitsTest, UnlimitedPrefetchOverlapsTheCrossProgramPrefetch) {
  auto f = Load(kWeightAndLateInput);
  MsaOptions o = HarnessOptions();
  o.min_overlap_ops = 1;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  ASSERT_TRUE(r.cross_program_prefetch.has_value());
  EXPECT_EQ(r.cross_program_prefetch->buffer, f->Buffer("w"));
  EXPECT_THAT(Copies(r, f->Buffer("v")), ElementsAre("prefetch -1->2"));
  EXPECT_EQ(MaxOutstanding(r, CopyKind::kPrefetch), 2);
}

TEST(CrossProgramLimitsTest, LimitOfOneCountsTheCrossProgramPrefetch) {
  auto f = Load(kWeightAndLateInput);
  MsaOptions o = HarnessOptions();
  o.min_overlap_ops = 1;
  o.max_outstanding_prefetches = 1;
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    o.mode = mode;
    const MsaResult r = Assign(*f, o);
    EXPECT_EQ(CheckResult(*f, o, r), "");
    EXPECT_EQ(MaxOutstanding(r, CopyKind::kPrefetch), 1);
  }
  o.mode = MsaMode::kReference;
  const MsaResult r = Assign(*f, o);
  // The weight is placed first and keeps its prefetch; %v's would overlap it.
  ASSERT_TRUE(r.cross_program_prefetch.has_value());
  EXPECT_EQ(r.cross_program_prefetch->buffer, f->Buffer("w"));
  EXPECT_THAT(Copies(r, f->Buffer("v")), ::testing::IsEmpty());
}

TEST(CrossProgramLimitsTest, LimitOfZeroMeansNoCrossProgramPrefetch) {
  auto f = Load(kWeightAndLateInput);
  MsaOptions o = HarnessOptions();
  o.min_overlap_ops = 1;
  o.max_outstanding_prefetches = 0;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_FALSE(r.cross_program_prefetch.has_value());
  EXPECT_EQ(MaxOutstanding(r, CopyKind::kPrefetch), 0);
}

}  // namespace
}  // namespace memplan
