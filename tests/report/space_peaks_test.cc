// Per-space peaks (report/space_peaks.h) and the segments view they are
// measured on (report/space_view.h), on hand-built plans.
#include "report/space_peaks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/space_view.h"
#include "tests/buffer_maker.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

// The example of the header: a (4 B, [0,1]) and b (8 B, [1,2]) in alternate
// memory at offsets 0 and 4, the constant w (16 B, [0,2]) in default memory.
TEST(SpacePeaksTest, ActivationsAllInFastMemory) {
  BufferSet buffers;
  buffers.time_steps = 3;
  buffers.buffers = {Make("a", 4, 0, 1), Make("b", 8, 1, 2),
                     Make("w", 16, 0, 2, Lifetime::kConstant)};
  Plan plan;
  plan.time_steps = 3;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 16, 1},
                 SpaceInfo{"alternate", kAlternateSpace, 64, 12, 1}};
  plan.placements = {{"transient", {Allocation{kAlternateSpace, 0, 0, 1}}},
                     {"transient", {Allocation{kAlternateSpace, 4, 1, 2}}},
                     {"constant", {Allocation{kDefaultSpace, 0, 0, 2}}}};
  const std::vector<SpacePeak> peaks = ComputeSpacePeaks(buffers, plan);
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].space, kDefaultSpace);
  EXPECT_EQ(peaks[0].max_live_bytes, 16);
  EXPECT_EQ(peaks[0].peak_step, 0);
  EXPECT_EQ(peaks[0].transient_peak, 0);  // Plan::peak
  EXPECT_EQ(peaks[0].transient_lower_bound, 0);
  EXPECT_EQ(peaks[0].transient_step, kNoId);
  EXPECT_EQ(peaks[0].transient_buffers, 0);
  EXPECT_EQ(peaks[1].space, kAlternateSpace);
  EXPECT_EQ(peaks[1].max_live_bytes, 12);
  EXPECT_EQ(peaks[1].peak_step, 1);
  EXPECT_EQ(peaks[1].transient_peak, 12);
  EXPECT_EQ(peaks[1].transient_lower_bound, 12);
  EXPECT_EQ(peaks[1].transient_step, 1);
  EXPECT_EQ(peaks[1].transient_buffers, 2);
}

// A staged copy's chunk (AsyncCopy::via) is live bytes of its intermediate
// level over [max(start, 0), done]: sram (space 2) holds act (8 B, [0,3]),
// k (4 B, its resident "constant" pool) and w's chunk (16 B at 12, [0,1];
// w is homed in flash, space 3, in a pool also named "constant"), so 28 B
// at steps 0-1, 12 B after. The chunk is a weight's: no activation.
TEST(SpacePeaksTest, StagedChunkCountsInTheIntermediateLevel) {
  BufferSet buffers;
  buffers.time_steps = 4;
  buffers.buffers = {Make("act", 8, 0, 3), Make("k", 4, 0, 3, Lifetime::kConstant),
                     Make("w", 16, 0, 3, Lifetime::kConstant)};
  Plan plan;
  plan.time_steps = 4;
  plan.spaces = {SpaceInfo{"dram", kDefaultSpace, std::nullopt, 0, 1},
                 SpaceInfo{"tcm", kAlternateSpace, 64, 16, 1},
                 SpaceInfo{"sram", 2, 64, 28, 1}, SpaceInfo{"flash", 3, 64, 16, 1}};
  plan.pools = {
      PoolInfo{"constant", Lifetime::kConstant, 2, 8, 4, 4, 1, 4, std::nullopt, std::nullopt},
      PoolInfo{"constant", Lifetime::kConstant, 3, 0, 16, 16, 1, 16, std::nullopt, std::nullopt}};
  plan.placements = {{"sram.transient", {Allocation{2, 0, 0, 3}}},
                     {"constant", {Allocation{2, 8, 0, 3}}},
                     {"constant", {Allocation{3, 0, 0, 3}, Allocation{kAlternateSpace, 0, 2, 3}}}};
  AsyncCopy copy{2, CopyKind::kPrefetch, 3, kAlternateSpace, -1, 1, 16};
  copy.via = CopyVia{2, 12};
  plan.copies = {copy};

  const SpaceView view = ViewSpace(buffers, plan, 2);
  ASSERT_EQ(view.size(), 3u);
  EXPECT_FALSE(view.staged(1));
  EXPECT_TRUE(view.staged(2));
  EXPECT_EQ(view.origin(2), 2);
  EXPECT_EQ(view.offset(2), 12);
  EXPECT_EQ(view.segments().buffers[2].size, 16);
  EXPECT_EQ(view.segments().buffers[2].start, 0);
  EXPECT_EQ(view.segments().buffers[2].end, 1);

  const std::vector<SpacePeak> peaks = ComputeSpacePeaks(buffers, plan);
  ASSERT_EQ(peaks.size(), 4u);
  const SpacePeak& sram = peaks[2];
  EXPECT_EQ(sram.max_live_bytes, 28);
  EXPECT_EQ(sram.peak_step, 0);
  // k's pool is held all run; the chunk, though its buffer's pool has the
  // same name, only over its copy's steps.
  EXPECT_EQ(sram.resident_bytes, 4);
  EXPECT_THAT(sram.resident_pools, ElementsAre("constant"));
  EXPECT_EQ(sram.resident_max_live_bytes, 28);
  EXPECT_EQ(sram.resident_peak_step, 0);
  EXPECT_EQ(sram.transient_lower_bound, 8);
  EXPECT_EQ(sram.transient_buffers, 1);
  // tcm holds w from step 2 only; the chunk is not there.
  EXPECT_EQ(peaks[1].max_live_bytes, 16);
  EXPECT_EQ(peaks[1].peak_step, 2);
}

// A buffer fast memory receives twice counts twice in the view but once
// among the space's transient buffers; its gap inside a segment is kept.
TEST(SpaceViewTest, OneEntryPerSegment) {
  BufferSet buffers;
  buffers.time_steps = 8;
  Buffer a = Make("a", 8, 0, 7);
  a.mutable_gaps() = {StepRange{5, 5}};
  buffers.buffers = {a};
  Plan plan;
  plan.time_steps = 8;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 8, 1},
                 SpaceInfo{"alternate", kAlternateSpace, 64, 40, 1}};
  plan.placements = {{"transient",
                      {Allocation{kDefaultSpace, 0, 0, 1}, Allocation{kAlternateSpace, 0, 2, 3},
                       Allocation{kAlternateSpace, 32, 4, 7}}}};
  const SpaceView view = ViewSpace(buffers, plan, kAlternateSpace);
  ASSERT_EQ(view.size(), 2u);
  EXPECT_NE(&view.segments(), &buffers);
  EXPECT_EQ(view.origin(0), 0);
  EXPECT_EQ(view.origin(1), 0);
  EXPECT_EQ(view.offset(0), 0);
  EXPECT_EQ(view.offset(1), 32);
  EXPECT_EQ(view.segments().buffers[0].start, 2);
  EXPECT_EQ(view.segments().buffers[0].end, 3);
  EXPECT_TRUE(view.segments().buffers[0].gaps().empty());
  ASSERT_EQ(view.segments().buffers[1].gaps().size(), 1u);
  EXPECT_EQ(view.segments().buffers[1].gaps()[0].first, 5);

  const std::vector<SpacePeak> peaks = ComputeSpacePeaks(buffers, plan);
  EXPECT_EQ(peaks[1].transient_buffers, 1);
  EXPECT_EQ(peaks[1].transient_peak, 40);        // highest end: 32 + 8
  EXPECT_EQ(peaks[1].transient_lower_bound, 8);  // never two copies at once
  EXPECT_EQ(peaks[1].transient_step, 2);
}

// A plan without fast memory: the view is the input itself (no copy), and
// the figures are those of the copy it stands for, whose buffers without
// bytes (size 0, sub-allocations) are left out.
TEST(SpaceViewTest, APlanOfOneSegmentPerBufferIsViewedInPlace) {
  BufferSet buffers;
  buffers.time_steps = 4;
  Buffer inside = Make("inside", 4, 1, 2);
  inside.mutable_inside() = SubAllocation{0, 0};
  buffers.buffers = {Make("a", 16, 0, 3), Make("empty", 0, 0, 3), inside, Make("b", 8, 1, 2)};
  Plan plan;
  plan.time_steps = 4;
  plan.peak = 24;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 24, 1}};
  plan.placements = {{"transient", {Allocation{kDefaultSpace, 0, 0, 3}}},
                     {"transient", {Allocation{kDefaultSpace, 900, 0, 3}}},
                     {"transient", {Allocation{kDefaultSpace, 0, 1, 2}}},
                     {"transient", {Allocation{kDefaultSpace, 16, 1, 2}}}};
  const SpaceView view = ViewSpace(buffers, plan, kDefaultSpace);
  EXPECT_EQ(&view.segments(), &buffers);
  ASSERT_EQ(view.size(), 4u);
  EXPECT_EQ(view.origin(3), 3);
  EXPECT_EQ(view.offset(3), 16);
  const std::vector<SpacePeak> peaks = ComputeSpacePeaks(buffers, plan);
  ASSERT_EQ(peaks.size(), 1u);
  EXPECT_EQ(peaks[0].transient_buffers, 2);  // a and b
  EXPECT_EQ(peaks[0].max_live_bytes, 24);
  EXPECT_EQ(peaks[0].peak_step, 1);
  // A second segment in the space: a copy again.
  plan.placements[3].allocations.push_back(Allocation{kDefaultSpace, 16, 3, 3});
  EXPECT_NE(&ViewSpace(buffers, plan, kDefaultSpace).segments(), &buffers);
}

}  // namespace
}  // namespace memplan
