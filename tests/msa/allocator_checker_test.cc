// The test checker (allocator_test_util.h) must catch broken results, or the
// scenario tests prove nothing.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing::Assign;
using testing::CheckResult;
using testing::HarnessOptions;
using testing::Load;

constexpr char kProgram[] = R"(
entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %add = add(%p0, %p1) : f32[2,3]
  %sub = sub(%p0, %p1) : f32[2,3]
  %mul = mul(%add, %sub) : f32[2,3]
  %neg = negate(%mul) : f32[2,3]
  %out = add(%neg, %p0) : f32[2,3]
  return %out
}
)";

TEST(CheckerTest, AcceptsTheAllocatorsResult) {
  auto f = Load(kProgram);
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), Assign(*f, HarnessOptions())), "");
}

TEST(CheckerTest, CatchesOverlapCapacityAndMisalignment) {
  auto f = Load(kProgram);
  const MsaOptions o = HarnessOptions();
  MsaResult r = Assign(*f, o);
  const BufferId add = f->Buffer("add");
  const BufferId sub = f->Buffer("sub");
  r.alternate[sub][0].offset = r.alternate[add][0].offset;
  EXPECT_THAT(CheckResult(*f, o, r), HasSubstr("overlap"));
  r.alternate[sub][0].offset = 120;
  EXPECT_THAT(CheckResult(*f, o, r), HasSubstr("over capacity"));
  r.alternate[sub][0].offset = 28;
  EXPECT_THAT(CheckResult(*f, o, r), HasSubstr("misaligned"));
}

TEST(CheckerTest, CatchesStaleReadsAndLateCopies) {
  auto f = Load(kProgram);
  const MsaOptions o = HarnessOptions();
  const BufferId p0 = f->Buffer("p0");
  // p0 is read at steps 0, 1 and 4: a prefetch from 2 done at 4 is fine, one
  // done at 5 is too late for step 4's read, and an alternate segment
  // without a copy holds no data.
  MsaResult r = Assign(*f, o);
  r.alternate[p0] = {Allocation{kAlternateSpace, 96, 2, 4}};
  r.copies.push_back(AsyncCopy{p0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 4, 24});
  r.alternate_peak = 120;
  EXPECT_EQ(CheckResult(*f, o, r), "");
  r.copies.back().start = 3;
  EXPECT_THAT(CheckResult(*f, o, r), HasSubstr("prefetch opens no segment"));
  r.copies.pop_back();
  EXPECT_THAT(CheckResult(*f, o, r), HasSubstr("stale read at step 4 (alternate)"));
  // A buffer produced in fast memory and read from default memory later
  // without an eviction.
  MsaResult s = Assign(*f, o);
  const BufferId add = f->Buffer("add");
  s.needs_default[add] = true;
  s.alternate[add][0].end = 1;
  EXPECT_THAT(CheckResult(*f, o, s), HasSubstr("stale read at step 2 (default)"));
}

}  // namespace
}  // namespace memplan
