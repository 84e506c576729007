#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/prefetch_picker.h"
#include "tests/msa/picker_candidates.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using testing::Candidates;

// 25 steps all owned by computation 0.
LocalTimeline Flat() { return LocalTimeline(std::vector<ComputationId>(25, 0)); }

// Steps 3..5 belong to a called computation 1 (e.g. a while body).
LocalTimeline WithCallee() {
  std::vector<ComputationId> owner(12, 0);
  owner[3] = owner[4] = owner[5] = 1;
  return LocalTimeline(owner);
}

TEST(InstructionCountPickerTest, CandidatesIncreaseFromMaxOverlapToMinOverlap) {
  const LocalTimeline timeline = Flat();
  InstructionCountPicker picker(timeline, 2, 10);
  // done 20: starts 20-10 = 10 .. 20-2-1 = 17 (at least two ops in between).
  EXPECT_THAT(Candidates(picker, {8, 0, 20, 0}), ElementsAre(10, 11, 12, 13, 14, 15, 16, 17));
  // The earliest start cuts the window.
  EXPECT_THAT(Candidates(picker, {8, 12, 20, 0}), ElementsAre(12, 13, 14, 15, 16, 17));
  // Too short: no step leaves two ops before the done.
  EXPECT_THAT(Candidates(picker, {8, 0, 2, 0}), IsEmpty());
  EXPECT_THAT(Candidates(picker, {8, 0, 3, 0}), ElementsAre(0));
}

TEST(InstructionCountPickerTest, CandidatesAreOwnStepsOfTheUsesComputation) {
  const LocalTimeline timeline = WithCallee();
  InstructionCountPicker picker(timeline, 2, 10);
  // done 9 (computation 0): steps 0..6 minus the callee's 3..5.
  EXPECT_THAT(Candidates(picker, {8, 0, 9, 0}), ElementsAre(0, 1, 2, 6));
  // done 5 (inside the callee): only its own steps 3 and 4 could start, and
  // 5-3-1 = 1 < 2 ops lie in between: none.
  EXPECT_THAT(Candidates(picker, {8, 0, 5, 0}), IsEmpty());
}

TEST(InstructionCountPickerTest, NoCopyEvictionLatestAndPreferred) {
  const LocalTimeline flat = Flat();
  InstructionCountPicker picker(flat, 2, 10);
  EXPECT_TRUE(picker.AllowsNoCopy(8, 1, 11));
  EXPECT_FALSE(picker.AllowsNoCopy(8, 1, 12));
  EXPECT_EQ(picker.EvictionDone(8, 4, 20), 6);
  EXPECT_EQ(picker.EvictionDone(8, 4, 5), 5);
  EXPECT_EQ(picker.LatestStart({8, 0, 20, 0}), 17);
  EXPECT_EQ(picker.LatestStart({8, 5, 6, 0}), 3);  // below the earliest start 5: none
  EXPECT_EQ(picker.PreferredStart(8, 3, 17, 20), 10);
  EXPECT_EQ(picker.PreferredStart(8, 12, 17, 20), 12);

  const LocalTimeline callee = WithCallee();
  InstructionCountPicker around(callee, 2, 10);
  // From step 2 the eviction would end at 4, inside the callee: the last own
  // step at or before it is 2 itself (too short for the caller to use).
  EXPECT_EQ(around.EvictionDone(8, 2, 11), 2);
  EXPECT_EQ(around.EvictionDone(8, 1, 11), 2);
}

}  // namespace
}  // namespace memplan
