// The peak step, its op and the largest live buffers (report/peak_attribution.h),
// on hand-built buffer sets and a small program whose figures are computed by hand.
#include "report/peak_attribution.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "ir/text_parser.h"
#include "tests/buffer_maker.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

bool All(const Buffer&) { return true; }
bool Transient(const Buffer& b) { return b.lifetime == Lifetime::kTransient; }

TEST(AttributePeakTest, FirstMaxStepAndLargestFirst) {
  BufferSet set;
  set.time_steps = 4;
  // Live bytes 4 12 8 2: the peak is step 1 with b (8) and a (4).
  set.buffers = {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)};
  const PeakAttribution peak = AttributePeak(set, All, 5);
  EXPECT_EQ(peak.step, 1);
  EXPECT_EQ(peak.live_bytes, 12);
  EXPECT_EQ(peak.live_buffers, 2);
  EXPECT_THAT(peak.largest, ElementsAre(1, 0));
}

TEST(AttributePeakTest, TopCutsTheListAndTiesGoByBufferId) {
  BufferSet set;
  set.time_steps = 2;
  set.buffers = {Make("a", 4, 0, 1), Make("b", 8, 0, 1), Make("c", 4, 0, 1), Make("d", 1, 1, 1)};
  const PeakAttribution peak = AttributePeak(set, All, 2);
  EXPECT_EQ(peak.step, 1);
  EXPECT_EQ(peak.live_bytes, 17);
  EXPECT_EQ(peak.live_buffers, 4);
  EXPECT_THAT(peak.largest, ElementsAre(1, 0));  // b (8), then a before c (both 4)
}

TEST(AttributePeakTest, SelectionAndDeadGapsCount) {
  BufferSet set;
  set.time_steps = 4;
  // w is constant (not selected); x holds nothing during its gap [1,2], so
  // the peak is step 3 (x + y = 16), not step 1 (y alone would be 10).
  Buffer x = Make("x", 6, 0, 3);
  x.mutable_gaps() = {StepRange{1, 2}};
  set.buffers = {Make("w", 100, 0, 3, Lifetime::kConstant), x, Make("y", 10, 1, 3)};
  const PeakAttribution peak = AttributePeak(set, Transient, 5);
  EXPECT_EQ(peak.step, 3);
  EXPECT_EQ(peak.live_bytes, 16);
  EXPECT_THAT(peak.largest, ElementsAre(2, 1));
}

TEST(AttributePeakTest, NothingLive) {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {Make("w", 8, 0, 2, Lifetime::kConstant)};
  const PeakAttribution peak = AttributePeak(set, Transient, 5);
  EXPECT_EQ(peak.step, kNoId);
  EXPECT_EQ(peak.live_bytes, 0);
  EXPECT_TRUE(peak.largest.empty());
}

TEST(DescribeOpAtTest, NamesTheOpOfEachStep) {
  absl::StatusOr<Program> program = ParseProgram(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = negate(%a) : f32[4]
  return %b
}
)",
                                                  "test.mpir");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_EQ(DescribeOpAt(*program, analysis->schedule, 0), "%a = exp");
  EXPECT_EQ(DescribeOpAt(*program, analysis->schedule, 1), "%b = negate");
  EXPECT_EQ(DescribeOpAt(*program, analysis->schedule, 2), std::nullopt);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

Allocation At(MemorySpace space, TimeStep start, TimeStep end) {
  Allocation a;
  a.space = space;
  a.start = start;
  a.end = end;
  return a;
}

// With fast memory the peak is the default-memory pool's: a buffer held only
// in alternate memory counts nowhere, one evicted late counts from its
// default chunk's start.
TEST(DefaultMemoryViewTest, OnlyDefaultSpaceAllocationsCount) {
  BufferSet set;
  set.time_steps = 4;
  set.buffers = {Make("fast", 100, 0, 3), Make("evicted", 8, 0, 3), Make("plain", 4, 1, 2)};
  Plan plan;
  plan.placements.resize(3);
  plan.placements[0].allocations = {At(kAlternateSpace, 0, 3)};
  plan.placements[1].allocations = {At(kAlternateSpace, 0, 1), At(kDefaultSpace, 1, 3)};
  plan.placements[2].allocations = {At(kDefaultSpace, 1, 2)};
  const DerivedBufferSet derived = DefaultMemoryView(set, plan);
  const BufferSet& view = derived.get();
  EXPECT_NE(&view, &set);
  ASSERT_EQ(view.buffers.size(), 3u);
  EXPECT_EQ(view.buffers[0].size, 0);
  EXPECT_EQ(view.buffers[1].start, 1);
  EXPECT_EQ(view.buffers[1].end, 3);
  const PeakAttribution peak = AttributePeak(view, All, 5);
  EXPECT_EQ(peak.step, 1);
  EXPECT_EQ(peak.live_bytes, 12);
  EXPECT_THAT(peak.largest, ElementsAre(1, 2));
  // Default allocations that cover every buffer: the input itself.
  plan.placements[0].allocations = {At(kDefaultSpace, 0, 3)};
  plan.placements[1].allocations = {At(kDefaultSpace, 0, 1), At(kDefaultSpace, 2, 3)};
  EXPECT_EQ(&DefaultMemoryView(set, plan).get(), &set);
}

}  // namespace
}  // namespace memplan
