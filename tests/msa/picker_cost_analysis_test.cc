#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/prefetch_picker.h"
#include "tests/msa/picker_candidates.h"
#include "msa/problem.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

// Every op takes exactly 1 s (1 flop at 1 flop/s; memory traffic is
// negligible) and an 8-byte copy takes 1 s.
Target OneSecondTarget() {
  Target t;
  t.flops_per_second = 1;
  t.transcendentals_per_second = 1;
  t.default_bandwidth = 1e12;
  t.alternate_bandwidth = 1e12;
  t.copy_bandwidth = 8;
  return t;
}

// A chain of `steps` 1-second ops.
std::string Chain(int steps) {
  std::string text = "entry func @main(%x: f32[2]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < steps; ++i) {
    const std::string v = "%t" + std::to_string(i);
    text += "  " + v + " = negate(" + prev + ") : f32[2] {flops = 1}\n";
    prev = v;
  }
  return text + "  return " + prev + "\n}\n";
}

struct PickerFixture {
  std::unique_ptr<testing::MsaFixture> f;
  LocalTimeline timeline;
};

PickerFixture Make(const std::string& text) {
  PickerFixture p;
  p.f = testing::Load(text, OneSecondTarget());
  p.timeline = BuildMsaProblem(p.f->program, p.f->analysis, *p.f->cost, 8).timeline;
  return p;
}

using testing::Candidates;

TEST(CostAnalysisPickerTest, HeaderExamplePreferredThenLaterThenEarlier) {
  PickerFixture p = Make(Chain(5));
  // min 1, preferred 2, max 10; an 8 B (1 s) copy done at step 4: step 2
  // overlaps 1 s (latest), step 1 overlaps 2 s (preferred), step 0 3 s.
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 1, 2, 10, 8);
  EXPECT_THAT(Candidates(picker, {8, 0, 4, 0}), ElementsAre(1, 2, 0));
  EXPECT_EQ(picker.LatestStart({8, 0, 4, 0}), 2);
  EXPECT_EQ(picker.PreferredStart(8, 0, 2, 4), 1);
}

TEST(CostAnalysisPickerTest, AlternatesUntilOneSideIsExhausted) {
  PickerFixture p = Make(Chain(12));
  // 16 B: a 2 s copy. Latest start overlaps >= 0.8 x 2 = 1.6 s: step 8
  // (2 s); preferred overlap 1.5 x 2 = 3 s: step 7; residency limit
  // 10 x max(2, 1) = 20 s allows step 0.
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 0.8, 1.5, 10, 8);
  EXPECT_THAT(Candidates(picker, {16, 0, 11, 0}), ElementsAre(7, 8, 6, 5, 4, 3, 2, 1, 0));
}

TEST(CostAnalysisPickerTest, ResidencyLimitAndUseSaving) {
  PickerFixture p = Make(Chain(12));
  // Ratios 1 / 2 / 3 with a 1 s copy: residency limit 3 s -> earliest start
  // 7 (3 s before step 11), latest 9, preferred 8 (2 s).
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 1, 2, 3, 8);
  EXPECT_THAT(Candidates(picker, {8, 3, 11, 0}), ElementsAre(8, 9, 7));
  // A use that itself saves 1 s may start its copy as late as step 10.
  EXPECT_THAT(Candidates(picker, {8, 3, 11, 1.0}), ElementsAre(8, 9, 7, 10));
  EXPECT_EQ(picker.LatestStart({8, 3, 11, 1.0}), 10);
}

TEST(CostAnalysisPickerTest, NoCopyLimitDoublesPerRetry) {
  PickerFixture p = Make(Chain(12));
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 1, 2, 3, 8);
  EXPECT_TRUE(picker.AllowsNoCopy(8, 0, 3));   // 2 s < 3 s
  EXPECT_FALSE(picker.AllowsNoCopy(8, 0, 4));  // 3 s
  picker.SetRetry(1);                          // limit 3 x max(2 x 1, 1) = 6 s
  EXPECT_TRUE(picker.AllowsNoCopy(8, 0, 4));
  EXPECT_FALSE(picker.AllowsNoCopy(8, 0, 7));
}

TEST(CostAnalysisPickerTest, EvictionEndsOnceTheCopyIsCovered) {
  PickerFixture p = Make(Chain(12));
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 1, 2, 10, 8);
  EXPECT_EQ(picker.EvictionDone(8, 0, 10), 2);   // 1 s copy: one op in between
  EXPECT_EQ(picker.EvictionDone(24, 0, 10), 4);  // 3 s copy: three ops
  EXPECT_EQ(picker.EvictionDone(24, 0, 3), 3);   // never covered: the latest done
}

TEST(CostAnalysisPickerTest, SkipsTheStepsOfCalledComputations) {
  // @f's ops run at steps 2 and 3, the call itself (free) at step 4.
  PickerFixture p = Make(R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[2] {flops = 1}
  %b = negate(%a) : f32[2] {flops = 1}
  %c = call(%b) : f32[2] {callee = @f}
  %d = negate(%c) : f32[2] {flops = 1}
  %e = negate(%d) : f32[2] {flops = 1}
  return %e
}
func @f(%p: f32[2]) {
  %q = negate(%p) : f32[2] {flops = 1}
  %r = negate(%q) : f32[2] {flops = 1}
  return %r
}
)");
  CostAnalysisPicker picker(p.timeline, *p.f->cost, 1, 2, 10, 8);
  // Done at step 6: overlaps are step 0: 4 s, 1: 3 s, 4: 1 s, 5: 0 s. Latest
  // start 4; preferred 2 s is equally far from 3 s and 1 s: the earlier, 1.
  EXPECT_THAT(Candidates(picker, {8, 0, 6, 0}), ElementsAre(1, 4, 0));
}

}  // namespace
}  // namespace memplan
