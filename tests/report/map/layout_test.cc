#include "report/map/layout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/report/map/test_plans.h"

namespace memplan::memmap {
namespace {

using maptest::kKiB;
using maptest::kMiB;
using ::testing::ElementsAre;

std::vector<std::string> Labels(const std::vector<Tick>& ticks) {
  std::vector<std::string> labels;
  for (const Tick& tick : ticks) labels.push_back(tick.label);
  return labels;
}

TEST(NiceAddressAxisTest, PicksBinaryUnitAndOneTwoFiveStep) {
  AddressAxis axis = NiceAddressAxis(2.0 * kMiB, 8);
  EXPECT_EQ(axis.unit, kMiB);
  EXPECT_DOUBLE_EQ(axis.step, 0.5 * kMiB);
  EXPECT_DOUBLE_EQ(axis.top, 2.0 * kMiB);

  axis = NiceAddressAxis(1.2 * kMiB, 8);
  EXPECT_DOUBLE_EQ(axis.step, 0.2 * kMiB);
  EXPECT_DOUBLE_EQ(axis.top, 1.2 * kMiB);

  axis = NiceAddressAxis(1023, 8);  // below 1 KiB: bytes, step 200 B
  EXPECT_EQ(axis.unit, 1);
  EXPECT_DOUBLE_EQ(axis.step, 200);
  EXPECT_DOUBLE_EQ(axis.top, 1200);

  axis = NiceAddressAxis(5, 8);  // never a fractional byte step
  EXPECT_DOUBLE_EQ(axis.step, 1);
  EXPECT_DOUBLE_EQ(axis.top, 5);

  axis = NiceAddressAxis(0, 8);
  EXPECT_EQ(axis.unit, 1);
  EXPECT_DOUBLE_EQ(axis.step, 1);
  EXPECT_DOUBLE_EQ(axis.top, 1);
}

TEST(AddressTicksTest, LabelsInTheAxisUnitFromTheBottomUp) {
  const std::vector<Tick> ticks = AddressTicks(NiceAddressAxis(2.0 * kMiB, 8), 434, 320);
  EXPECT_THAT(Labels(ticks), ElementsAre("0", "0.5 MiB", "1 MiB", "1.5 MiB", "2 MiB"));
  EXPECT_DOUBLE_EQ(ticks[0].pos, 434);
  EXPECT_DOUBLE_EQ(ticks[2].pos, 274);
  EXPECT_DOUBLE_EQ(ticks[4].pos, 114);
}

TEST(PoolColorTest, LifetimePoolsHaveTheirOwnColors) {
  EXPECT_EQ(PoolColor("transient"), kColorTransient);
  EXPECT_EQ(PoolColor("staging"), kColorStaging);
  EXPECT_EQ(PoolColor("scratch"), kColorOtherPool);
  EXPECT_EQ(ColorHex(kColorTransient), "#4e79a7");
  EXPECT_EQ(ColorLabel(kColorEviction), "eviction");
}

TEST(LayoutMapTest, SmallPlanGeometry) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(layout.time_top, 4);
  EXPECT_DOUBLE_EQ(layout.plot_x, 88);
  EXPECT_DOUBLE_EQ(layout.plot_w, 1084);
  EXPECT_THAT(Labels(layout.time_ticks), ElementsAre("0", "1", "2", "3", "4"));
  EXPECT_DOUBLE_EQ(layout.time_ticks[1].pos, 359);
  ASSERT_EQ(layout.panels.size(), 1u);
  const Panel& panel = layout.panels[0];
  EXPECT_EQ(panel.space, kDefaultSpace);
  EXPECT_EQ(panel.title, "default memory (space 0) · used 2 MiB");
  EXPECT_DOUBLE_EQ(panel.plot.y, 114);
  EXPECT_DOUBLE_EQ(panel.plot.h, 320);
  EXPECT_THAT(Labels(panel.address_ticks),
              ElementsAre("0", "0.5 MiB", "1 MiB", "1.5 MiB", "2 MiB"));
  ASSERT_EQ(panel.segments.size(), 3u);
  EXPECT_TRUE(panel.coverage.empty());
  const Box& b = panel.segments[1].box;
  EXPECT_EQ(panel.segments[1].buffer, 1);
  EXPECT_DOUBLE_EQ(b.x, 359);
  EXPECT_DOUBLE_EQ(b.y, 114);
  EXPECT_DOUBLE_EQ(b.w, 813);
  EXPECT_DOUBLE_EQ(b.h, 160);
  const Box& c = panel.segments[2].box;
  EXPECT_DOUBLE_EQ(c.x, 630);
  EXPECT_DOUBLE_EQ(c.y, 354);
  EXPECT_DOUBLE_EQ(c.w, 542);
  EXPECT_DOUBLE_EQ(c.h, 80);
  EXPECT_THAT(layout.legend_colors, ElementsAre(kColorTransient));
  EXPECT_EQ(layout.subtitle,
            "algorithm hand · 3 buffers · 4 time steps · transient extent 2 MiB · lower bound "
            "2 MiB · 0.0 % over the bound · verified");
}

TEST(LayoutMapTest, PeakAndBoundLinesKeepTheirLabelsApart) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  ASSERT_EQ(panel.lines.size(), 2u);
  const LineMark& peak = panel.lines[0];
  const LineMark& bound = panel.lines[1];
  EXPECT_EQ(peak.style, LineMark::Style::kSolid);
  EXPECT_EQ(peak.label, "transient extent 2 MiB (0.0 % over bound)");
  EXPECT_EQ(bound.style, LineMark::Style::kDashed);
  EXPECT_EQ(bound.label, "lower bound 2 MiB");
  // Both lines sit on the plot's top edge: labels go below it, stacked.
  EXPECT_DOUBLE_EQ(peak.y, 114);
  EXPECT_DOUBLE_EQ(bound.y, 114);
  EXPECT_DOUBLE_EQ(peak.label_y, 126);
  EXPECT_DOUBLE_EQ(peak.label_x, 1166);
  EXPECT_DOUBLE_EQ(bound.label_y, 138);
  EXPECT_DOUBLE_EQ(bound.label_x, 1166);
}

TEST(LayoutMapTest, PeakCloseToCapacityStacksTheLabels) {
  maptest::PlannedBuffers p = maptest::MsaPlan();
  p.plan.spaces[1].peak = 1000 * kKiB;  // 24 KiB under the 1 MiB capacity
  const Panel fast = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[1];
  ASSERT_EQ(fast.lines.size(), 2u);
  const LineMark& capacity = fast.lines[0];
  const LineMark& peak = fast.lines[1];
  EXPECT_EQ(capacity.label, "capacity 1 MiB");
  EXPECT_EQ(peak.label, "used 1000 KiB");
  // Axis top 1 MiB over 320 px: the capacity line is the plot's top edge,
  // the peak line 24/1024 * 320 = 7.5 px lower. Neither label fits above
  // its line; the capacity label goes below (12 px), the peak label under it.
  EXPECT_DOUBLE_EQ(capacity.y, fast.plot.y);
  EXPECT_DOUBLE_EQ(peak.y, fast.plot.y + 7.5);
  EXPECT_DOUBLE_EQ(capacity.label_y, fast.plot.y + 12);
  EXPECT_DOUBLE_EQ(peak.label_y, fast.plot.y + 24);
  EXPECT_DOUBLE_EQ(capacity.label_x, fast.plot.x + fast.plot.w - 6);
  EXPECT_DOUBLE_EQ(peak.label_x, fast.plot.x + fast.plot.w - 6);
}

TEST(LayoutMapTest, MarksBeyondTheBudgetMergeIntoCoverage) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  MapOptions options;
  options.max_rects = 2;
  const Panel panel = LayoutMap(p.buffers, p.plan, options).panels[0];
  // The two largest (b, then a) stay; c (542 x 80 px at 630,354) is merged.
  ASSERT_EQ(panel.segments.size(), 2u);
  EXPECT_EQ(panel.segments[0].buffer, 0);
  EXPECT_EQ(panel.segments[1].buffer, 1);
  EXPECT_THAT(panel.coverage, ElementsAre(PixelRect{kColorTransient, 542, 240, 542, 80}));
}

TEST(LayoutMapTest, SubPixelMarksMergeIntoCoverage) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  // 1 KiB at 2 MiB scale is 0.16 px tall.
  maptest::Add(p, "tiny", kKiB, 0, 0, "transient", {{kDefaultSpace, 1536 * kKiB, 0, 0}});
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  EXPECT_EQ(panel.segments.size(), 3u);
  EXPECT_EQ(panel.segment_count, 4u);
  // x 0..271, y (2 MiB - 1.5 MiB - 1 KiB) = 79.84..80 -> row 79.
  EXPECT_THAT(panel.coverage, ElementsAre(PixelRect{kColorTransient, 0, 79, 271, 1}));
}

TEST(LayoutMapTest, PoolsStackAsBandsInTheirSpace) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  p.plan.pools.insert(p.plan.pools.begin(), PoolInfo{"constant", Lifetime::kConstant, kDefaultSpace, 0, kMiB, kMiB, 1, kMiB, std::nullopt, std::nullopt});
  p.plan.pools[1].offset = kMiB;
  for (BufferPlacement& placement : p.plan.placements) placement.allocations[0].offset += kMiB;
  maptest::Add(p, "w", kMiB, 0, 3, "constant", {{kDefaultSpace, 0, 0, 3}});
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  const Panel& panel = layout.panels[0];
  // Axis top 3 MiB; the transient lines move up by the transient pool offset.
  EXPECT_DOUBLE_EQ(panel.axis.top, 3.0 * kMiB);
  ASSERT_EQ(panel.bands.size(), 2u);
  EXPECT_EQ(panel.bands[0].pool, "constant");
  EXPECT_DOUBLE_EQ(panel.bands[0].box.y, 434 - 320.0 / 3);
  EXPECT_TRUE(panel.bands[0].labeled);
  EXPECT_DOUBLE_EQ(panel.lines[0].y, 114);  // 1 MiB base + 2 MiB peak
  EXPECT_THAT(layout.legend_colors, ElementsAre(kColorTransient, kColorConstant));
}

TEST(LayoutMapTest, AlternateMemoryPanelWithCopiesAndLane) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  ASSERT_EQ(layout.panels.size(), 2u);
  const Panel& fast = layout.panels[1];
  EXPECT_EQ(fast.space, kAlternateSpace);
  EXPECT_EQ(fast.title, "alternate memory (space 1) · capacity 1 MiB · used 512 KiB");
  EXPECT_EQ(fast.segment_count, 2u);
  EXPECT_EQ(fast.copy_count, 2u);
  ASSERT_EQ(fast.lines.size(), 2u);
  EXPECT_EQ(fast.lines[0].label, "capacity 1 MiB");
  EXPECT_EQ(fast.lines[1].label, "used 512 KiB");
  // Capacity is in range: axis top 1 MiB (5 steps of 0.2 MiB), so 256 KiB
  // is 80 px of 320; 10 time steps are 108.4 px each.
  constexpr double kEps = 1e-6;
  EXPECT_NEAR(fast.axis.top, kMiB, kEps);
  // Prefetch of x over its alternate chunk at offset 0, steps 2..3.
  ASSERT_EQ(fast.copies.size(), 2u);
  EXPECT_EQ(fast.copies[0].color, kColorPrefetch);
  EXPECT_NEAR(fast.copies[0].box.x, 88 + 2 * 108.4, kEps);
  EXPECT_NEAR(fast.copies[0].box.w, 2 * 108.4, kEps);
  EXPECT_NEAR(fast.copies[0].box.y, fast.plot.y + 320 - 80, kEps);
  EXPECT_NEAR(fast.copies[0].box.h, 80, kEps);
  // Eviction of y from its chunk at 256 KiB, steps 3..4.
  EXPECT_EQ(fast.copies[1].color, kColorEviction);
  EXPECT_NEAR(fast.copies[1].box.x, 88 + 3 * 108.4, kEps);
  EXPECT_NEAR(fast.copies[1].box.y, fast.plot.y + 320 - 160, kEps);
  // The copies overlap at step 3: two lane rows.
  EXPECT_EQ(fast.lane_rows, 2);
  EXPECT_THAT(fast.lane_slots, ElementsAre(std::pair{0, 0}, std::pair{1, 1}));
  ASSERT_EQ(fast.lane_bars.size(), 2u);
  EXPECT_DOUBLE_EQ(fast.lane_bars[1].box.y, fast.lane.y + kLaneRowPitch);
  EXPECT_THAT(layout.legend_colors,
              ElementsAre(kColorTransient, kColorPrefetch, kColorEviction));
  EXPECT_TRUE(layout.legend_capacity);
  // The default panel has no copies, hence no lane.
  EXPECT_EQ(layout.panels[0].lane_rows, 0);
  EXPECT_DOUBLE_EQ(layout.panels[0].lane.h, 0);
}

TEST(LayoutMapTest, WindowChunksAndThePrefetchBlockAreDrawn) {
  const maptest::PlannedBuffers p = maptest::WindowAndBlockPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  ASSERT_EQ(layout.panels.size(), 2u);
  const Panel& fast = layout.panels[1];
  constexpr double kEps = 1e-6;
  EXPECT_NEAR(fast.axis.top, kMiB, kEps);
  ASSERT_EQ(fast.windows.size(), 1u);
  EXPECT_EQ(fast.windows[0].window, 0);
  EXPECT_NEAR(fast.windows[0].box.x, 88 + 4 * 108.4, kEps);
  EXPECT_NEAR(fast.windows[0].box.w, 2 * 108.4, kEps);
  EXPECT_NEAR(fast.windows[0].box.y, fast.plot.y + 120, kEps);
  EXPECT_NEAR(fast.windows[0].box.h, 40, kEps);
  ASSERT_TRUE(fast.prefetch_block.has_value());
  EXPECT_NEAR(fast.prefetch_block->box.x, 88, kEps);
  EXPECT_NEAR(fast.prefetch_block->box.w, 1084, kEps);
  EXPECT_NEAR(fast.prefetch_block->box.y, fast.plot.y, kEps);
  EXPECT_NEAR(fast.prefetch_block->box.h, 80, kEps);
  EXPECT_TRUE(fast.prefetch_block->labeled);
  EXPECT_TRUE(layout.legend_window);
  EXPECT_TRUE(layout.legend_block);
  // The default panel has neither.
  EXPECT_TRUE(layout.panels[0].windows.empty());
  EXPECT_FALSE(layout.panels[0].prefetch_block.has_value());
}

// A window of a weight is the only mark of that fast memory in use: the
// activations view hides the weight's segments, not its window or the block.
TEST(LayoutMapTest, ActivationsOnlyKeepsWindowsAndTheBlock) {
  maptest::PlannedBuffers p = maptest::WindowAndBlockPlan();
  p.buffers.buffers[0].lifetime = Lifetime::kConstant;  // x, the window's buffer
  MapOptions options;
  options.activations_only = true;
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  EXPECT_EQ(layout.hidden_buffers, 1u);
  const Panel& fast = layout.panels[1];
  EXPECT_EQ(fast.segment_count, 1u);
  ASSERT_EQ(fast.windows.size(), 1u);
  EXPECT_TRUE(fast.prefetch_block.has_value());
  EXPECT_NEAR(fast.axis.top, kMiB, 1e-6);  // reaches the block
}

TEST(LayoutMapTest, MapsWithoutWindowsOrBlockHaveNoSuchLegend) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  EXPECT_FALSE(layout.legend_window);
  EXPECT_FALSE(layout.legend_block);
}

TEST(LayoutMapHierarchyTest, LevelPoolsAndPinnedBuffersTakeTheirLifetimesColors) {
  const maptest::PlannedBuffers p = maptest::HierarchyPlan();
  EXPECT_EQ(PoolColor(p.plan, "sram.transient"), kColorTransient);
  EXPECT_EQ(PoolColor(p.plan, "alternate"), kColorOtherPool);
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  ASSERT_EQ(layout.panels.size(), 3u);
  ASSERT_EQ(layout.panels[1].segments.size(), 2u);
  EXPECT_EQ(layout.panels[1].segments[0].color, kColorConstant);   // w
  EXPECT_EQ(layout.panels[1].segments[1].color, kColorTransient);  // fast
  ASSERT_EQ(layout.panels[2].segments.size(), 1u);
  EXPECT_EQ(layout.panels[2].segments[0].color, kColorTransient);
  EXPECT_THAT(layout.legend_colors,
              ElementsAre(kColorTransient, kColorConstant, kColorOtherPool));
}

TEST(LayoutMapHierarchyTest, ActivationsOnlyHidesAWeightInAnActivationPool) {
  const maptest::PlannedBuffers p = maptest::HierarchyPlan();
  MapOptions options;
  options.activations_only = true;
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  EXPECT_EQ(layout.hidden_buffers, 1u);
  ASSERT_EQ(layout.panels[1].segments.size(), 1u);
  EXPECT_EQ(layout.panels[1].segments[0].buffer, 2);
  ASSERT_TRUE(layout.panels[1].peak.has_value());
  EXPECT_EQ(layout.panels[1].peak->bytes, 128 * kKiB);
}

TEST(LayoutMapTest, EmptyPlanHasAnEmptyDefaultPanel) {
  const MapLayout layout = LayoutMap(BufferSet{}, Plan{}, MapOptions{});
  EXPECT_EQ(layout.time_top, 1);
  EXPECT_EQ(layout.title, "memory map");
  ASSERT_EQ(layout.panels.size(), 1u);
  EXPECT_EQ(layout.panels[0].segment_count, 0u);
  EXPECT_TRUE(layout.panels[0].lines.empty());
  EXPECT_THAT(Labels(layout.panels[0].address_ticks), ElementsAre("0", "1 B"));
  EXPECT_GT(layout.height, layout.panels[0].plot.y + layout.panels[0].plot.h);
}

TEST(LayoutMapTest, MalformedSegmentsAreSkipped) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  maptest::Add(p, "backwards", kKiB, 3, 1, "transient", {{kDefaultSpace, 0, 3, 1}});
  maptest::Add(p, "empty", 0, 0, 1, "transient", {{kDefaultSpace, 0, 0, 1}});
  p.plan.placements.pop_back();  // fewer placements than buffers
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  EXPECT_EQ(panel.segment_count, 3u);
  EXPECT_EQ(panel.segments.size(), 3u);
}

TEST(TransientLiveProfileTest, SumsLiveTransientBytesPerStep) {
  maptest::PlannedBuffers p;
  maptest::Add(p, "u", 4, 0, 1, "transient", {});
  maptest::Add(p, "v", 8, 1, 2, "transient", {});
  maptest::Add(p, "k", 100, 0, 2, "constant", {});  // not transient: ignored
  EXPECT_THAT(TransientLiveProfile(p.buffers, p.plan),
              ElementsAre(LiveStep{0, 4}, LiveStep{1, 12}, LiveStep{2, 8}, LiveStep{3, 0}));
}

TEST(TransientLiveProfileTest, CountsTheHullOfDefaultMemorySegments) {
  // x: default [0,3] (then alternate); y: alternate, then default [3,9].
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  EXPECT_THAT(TransientLiveProfile(p.buffers, p.plan),
              ElementsAre(LiveStep{0, 256 * kKiB}, LiveStep{3, 512 * kKiB},
                          LiveStep{4, 256 * kKiB}, LiveStep{10, 0}));
  maptest::PlannedBuffers fast_only;
  maptest::Add(fast_only, "f", 64, 0, 5, "transient", {{kAlternateSpace, 0, 0, 5}});
  EXPECT_THAT(TransientLiveProfile(fast_only.buffers, fast_only.plan),
              ElementsAre(LiveStep{0, 0}));
}

TEST(TransientLiveProfileTest, SkipsDeadGapsAndTheMapDoesNotDrawThem) {
  // r: a conditional's result, dead over [1,2] (the branch before it defines
  // r); t: that branch's temporary, at the same offset during the gap.
  maptest::PlannedBuffers p;
  maptest::Add(p, "r", 16, 0, 4, "transient", {{kDefaultSpace, 0, 0, 4}});
  p.buffers.buffers.back().mutable_gaps() = {{1, 2}};
  maptest::Add(p, "t", 16, 1, 2, "transient", {{kDefaultSpace, 0, 1, 2}});
  EXPECT_THAT(TransientLiveProfile(p.buffers, p.plan),
              ElementsAre(LiveStep{0, 16}, LiveStep{5, 0}));
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  ASSERT_EQ(panel.segments.size(), 3u);  // r before and after its gap, and t
  EXPECT_EQ(panel.segment_count, 3u);
}

TEST(TransientLiveProfileTest, StartsAtZeroAndFallsBackToLifetimes) {
  BufferSet buffers;
  Buffer late;
  late.size = 5;
  late.start = 2;
  late.end = 2;
  buffers.buffers.push_back(late);  // no placement: the lifetime (transient) decides
  EXPECT_THAT(TransientLiveProfile(buffers, Plan{}),
              ElementsAre(LiveStep{0, 0}, LiveStep{2, 5}, LiveStep{3, 0}));
  EXPECT_THAT(TransientLiveProfile(BufferSet{}, Plan{}), ElementsAre(LiveStep{0, 0}));
}

}  // namespace
}  // namespace memplan::memmap

namespace memplan::memmap {
namespace {

TEST(LayoutMapWeightsTest, NeverReusedPoolsSpanTheWholeRun) {
  const maptest::PlannedBuffers p = maptest::WeightsPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  const Panel& panel = layout.panels[0];
  EXPECT_DOUBLE_EQ(panel.axis.top, 3.0 * kMiB);
  // w1 (used [0,1]) and w2 (used [2,2]) are drawn over all 4 steps.
  ASSERT_EQ(panel.segments.size(), 5u);
  for (std::size_t i : {3u, 4u}) {
    EXPECT_EQ(panel.segments[i].color, kColorConstant);
    EXPECT_DOUBLE_EQ(panel.segments[i].box.x, 88);
    EXPECT_DOUBLE_EQ(panel.segments[i].box.w, 1084);
  }
  EXPECT_NEAR(panel.segments[3].box.y, 434 - 2.5 * 320 / 3, 1e-9);
  EXPECT_NEAR(panel.segments[3].box.h, 0.5 * 320 / 3, 1e-9);
  // Hover data spans the whole run too: [0, 3].
  ASSERT_EQ(panel.hover.size(), 5u);
  EXPECT_EQ(panel.hover[4].buffer, 4);
  EXPECT_EQ(panel.hover[4].start, 0);
  EXPECT_EQ(panel.hover[4].end, 3);
  EXPECT_EQ(panel.hover[0].end, 1);  // a transient keeps its live range
  // The constant pool's band says what it is.
  ASSERT_EQ(panel.bands.size(), 2u);
  EXPECT_EQ(panel.bands[1].label, "constant pool · 2 buffers, 1 MiB · resident for the whole run");
  EXPECT_TRUE(panel.bands[1].labeled);
  EXPECT_EQ(panel.bands[0].label, "transient pool");
  EXPECT_EQ(layout.hidden_buffers, 0u);
}

TEST(LayoutMapWeightsTest, ActivationsOnlyHidesWeightsAndRefitsTheAxis) {
  const maptest::PlannedBuffers p = maptest::WeightsPlan();
  MapOptions options;
  options.activations_only = true;
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  EXPECT_TRUE(layout.activations_only);
  EXPECT_EQ(layout.hidden_buffers, 2u);
  const Panel& panel = layout.panels[0];
  EXPECT_DOUBLE_EQ(panel.axis.top, 2.0 * kMiB);
  EXPECT_EQ(panel.title, "default memory (space 0) · activations only, up to 2 MiB");
  ASSERT_EQ(panel.segments.size(), 3u);
  EXPECT_EQ(panel.hover.size(), 3u);
  ASSERT_EQ(panel.bands.size(), 1u);
  EXPECT_EQ(panel.bands[0].pool, "transient");
  EXPECT_THAT(layout.legend_colors, ElementsAre(kColorTransient));
}

TEST(LayoutMapPeakTest, MarksThePeakStepWithItsOp) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  MapOptions options;
  options.describe_step = [](TimeStep t) { return t == 1 ? "%b = conv" : "?"; };
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  // Live 1 MiB, 2 MiB, 1.5 MiB, 1.5 MiB: the peak is step 1, 2 MiB; the line
  // runs through the middle of its column (88 + 1.5 * 271).
  ASSERT_TRUE(layout.panels[0].peak.has_value());
  const PeakMark& peak = *layout.panels[0].peak;
  EXPECT_EQ(peak.step, 1);
  EXPECT_EQ(peak.bytes, 2 * kMiB);
  EXPECT_DOUBLE_EQ(peak.x, 494.5);
  EXPECT_EQ(peak.label, "peak step 1 · 2 MiB live · %b = conv");
  EXPECT_EQ(peak.full_label, peak.label);
  EXPECT_FALSE(peak.label_end);
  EXPECT_DOUBLE_EQ(peak.label_x, 498.5);
  EXPECT_DOUBLE_EQ(peak.label_y, 126);  // under the plot top (114)
  EXPECT_TRUE(layout.legend_peak_step);
}

TEST(LayoutMapPeakTest, LabelGoesLeftAndIsElidedWhenRoomIsShort) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  // Make the last step the peak: c grows to 1.5 MiB at [3,3] only.
  p.buffers.buffers[2].size = 3 * kMiB / 2;
  p.buffers.buffers[2].start = 3;
  p.plan.placements[2].allocations[0] = {kDefaultSpace, 0, 3, 3};
  MapOptions options;
  options.describe_step = [](TimeStep) { return std::string(200, 'x'); };
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  const PeakMark& peak = *layout.panels[0].peak;
  EXPECT_EQ(peak.step, 3);
  EXPECT_EQ(peak.bytes, 5 * kMiB / 2);
  EXPECT_DOUBLE_EQ(peak.x, 88 + 3.5 * 271);
  EXPECT_TRUE(peak.label_end);
  // Room left of the line: 1036.5 - 88 - 8 = 940.5 px, 151 characters
  // (counted in bytes): the step and bytes keep theirs (27), the op gets
  // 151 - 27 - 3 = 121: 120 of its characters and an ellipsis.
  const std::string head = "peak step 3 · 2.5 MiB live · ";
  EXPECT_EQ(peak.label, head + std::string(60, 'x') + "\u2026" + std::string(60, 'x'));
  EXPECT_EQ(peak.full_label.size(), std::string("peak step 3 · 2.5 MiB live · ").size() + 200);
}

// A label's box as the layout estimates it: 6.2 px a character (counted in
// bytes), 12 px tall above its baseline, ending at `right`.
struct LabelBox {
  double left, right, top, bottom;
};
LabelBox BoxEndingAt(double right, double baseline, const std::string& text) {
  return {right - 6.2 * static_cast<double>(text.size()), right, baseline - 12, baseline};
}
bool Intersect(const LabelBox& a, const LabelBox& b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

TEST(LayoutMapPeakTest, LineLabelsStayClearOfAPeakLineNearTheRightEdge) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  // The last step is the peak (c grows to 1.5 MiB at [3,3] only): its line
  // at 88 + 3.5 * 271 = 1036.5 would cross the extent's label, which would
  // end at the plot's right edge (1166).
  p.buffers.buffers[2].size = 3 * kMiB / 2;
  p.buffers.buffers[2].start = 3;
  p.plan.placements[2].allocations[0] = {kDefaultSpace, 0, 3, 3};
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  ASSERT_TRUE(panel.peak.has_value());
  const PeakMark& peak = *panel.peak;
  EXPECT_DOUBLE_EQ(peak.x, 1036.5);
  ASSERT_EQ(panel.lines.size(), 2u);
  EXPECT_EQ(panel.lines[0].label, "transient extent 2 MiB (0.0 % over bound)");
  EXPECT_EQ(panel.lines[1].label, "lower bound 2 MiB");
  // Stacked under the plot's top edge: the extent's label (254 px) ends 6
  // px left of the peak line; the bound's (105 px) fits right of it.
  EXPECT_DOUBLE_EQ(panel.lines[0].label_x, 1030.5);
  EXPECT_DOUBLE_EQ(panel.lines[0].label_y, 126);
  EXPECT_DOUBLE_EQ(panel.lines[1].label_x, 1166);
  EXPECT_DOUBLE_EQ(panel.lines[1].label_y, 138);
  // The peak label (left of its line) goes to the first row left clear.
  EXPECT_TRUE(peak.label_end);
  EXPECT_DOUBLE_EQ(peak.label_y, 138);
  const LabelBox peak_label = BoxEndingAt(peak.label_x, peak.label_y, peak.label);
  for (const LineMark& line : panel.lines) {
    const LabelBox box = BoxEndingAt(line.label_x, line.label_y, line.label);
    EXPECT_TRUE(box.right < peak.x || box.left > peak.x) << line.label;
    EXPECT_FALSE(Intersect(box, peak_label)) << line.label;
  }
}

TEST(LayoutMapPeakTest, LineLabelsKeepTheRightEdgeWhenThePeakLineIsClear) {
  // SmallPlan's peak step 1 (x 494.5) is far left of the labels.
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  ASSERT_TRUE(panel.peak.has_value());
  EXPECT_DOUBLE_EQ(panel.peak->x, 494.5);
  for (const LineMark& line : panel.lines) EXPECT_DOUBLE_EQ(line.label_x, 1166) << line.label;
}

TEST(LayoutMapPeakTest, EveryPanelMarksItsOwnPeak) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  ASSERT_EQ(layout.panels.size(), 2u);
  ASSERT_TRUE(layout.panels[0].peak && layout.panels[1].peak);
  EXPECT_EQ(layout.panels[0].peak->step, 3);  // x [0,3] and y [3,9] in default memory
  EXPECT_EQ(layout.panels[0].peak->bytes, 512 * kKiB);
  EXPECT_EQ(layout.panels[1].peak->step, 2);  // x [2,6] and y [0,4] in alternate memory
  EXPECT_EQ(layout.panels[1].peak->bytes, 512 * kKiB);
  EXPECT_EQ(layout.panels[1].peak->label, "peak step 2 · 512 KiB live");
}

TEST(LayoutMapPeakTest, NoMarkerWhenNothingIsLive) {
  const MapLayout layout = LayoutMap(BufferSet{}, Plan{}, MapOptions{});
  EXPECT_FALSE(layout.panels[0].peak.has_value());
  EXPECT_FALSE(layout.legend_peak_step);
}

}  // namespace
}  // namespace memplan::memmap
