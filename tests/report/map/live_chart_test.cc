// The live-bytes chart's axis and label rows (report/map/live_chart.h).
#include "report/map/live_chart.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/report/map/test_plans.h"

namespace memplan::memmap {
namespace {

// One transient buffer of 3.83 MiB (4016046 bytes): the axis ends at the
// first whole step above it, 4 MiB in steps of 1 MiB (not 6 MiB, as when
// the peak label's room was taken from the axis), and the label has its own
// row above the plot (14 px, plus 4).
TEST(LiveChartTest, TheAxisEndsJustAboveTheHighestCurve) {
  maptest::PlannedBuffers p;
  p.buffers.time_steps = 3;
  p.plan.time_steps = 3;
  p.plan.peak = 4016046;
  p.plan.lower_bound = 4016046;
  p.plan.spaces = {{"default", kDefaultSpace, std::nullopt, 4016046}};
  p.plan.pools = {{"transient", Lifetime::kTransient, kDefaultSpace, 0, 4016046, 4016046, 1,
                   4016046, std::nullopt, std::nullopt}};
  maptest::Add(p, "x", 4016046, 1, 1, "transient", {{kDefaultSpace, 0, 1, 1}});
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  const LiveChart chart = BuildLiveChart(layout, p.buffers, p.plan, MapOptions{});
  EXPECT_DOUBLE_EQ(chart.axis.top, 4.0 * maptest::kMiB);
  EXPECT_DOUBLE_EQ(chart.axis.step, 1.0 * maptest::kMiB);
  ASSERT_EQ(chart.series.size(), 1u);
  ASSERT_TRUE(chart.series[0].peak.has_value());
  EXPECT_DOUBLE_EQ(chart.plot_top, 58);
  EXPECT_DOUBLE_EQ(chart.series[0].peak->label_y, 51);  // above the plot
  EXPECT_DOUBLE_EQ(chart.height, 58 + kLiveHeight + 34);
}

// A peak label short of room shortens the op, never the step and bytes.
TEST(LiveChartTest, ALongOpIsShortenedButTheNumbersStay) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  MapOptions options;
  options.describe_step = [](TimeStep) { return "%" + std::string(300, 'x') + " = onnx.Conv"; };
  const MapLayout layout = LayoutMap(p.buffers, p.plan, options);
  const LiveChart chart = BuildLiveChart(layout, p.buffers, p.plan, options);
  ASSERT_TRUE(chart.series[0].peak.has_value());
  const PeakMark& peak = *chart.series[0].peak;
  EXPECT_EQ(peak.label.rfind("default memory, transient: peak step 1 · 2 MiB · %x", 0), 0u)
      << peak.label;
  EXPECT_NE(peak.label.find("x\u2026x"), std::string::npos);
  EXPECT_TRUE(peak.label.ends_with(" = onnx.Conv"));
  // With no room for the op at all, the space name is shortened instead.
  options.width_px = 480;
  const MapLayout narrow = LayoutMap(p.buffers, p.plan, options);
  const LiveChart narrow_chart = BuildLiveChart(narrow, p.buffers, p.plan, options);
  ASSERT_TRUE(narrow_chart.series[0].peak.has_value());
  EXPECT_TRUE(narrow_chart.series[0].peak->label.ends_with(": peak step 1 · 2 MiB"))
      << narrow_chart.series[0].peak->label;
}

}  // namespace
}  // namespace memplan::memmap
