// Names written inside the map's panels (report/map/labels.h): pool band
// labels clear of the reference lines, and the largest blocks' names.
#include "report/map/labels.h"

#include <gtest/gtest.h>

#include "report/map/svg.h"
#include "tests/report/map/test_plans.h"

namespace memplan::memmap {
namespace {

TEST(ShortBufferNameTest, DropsThePathPartsAnExporterRepeats) {
  EXPECT_EQ(ShortBufferName("/features/features.2/conv/conv.0/conv.0.0/Conv_output_0"),
            "/features.2/conv.0.0/Conv_output_0");
  EXPECT_EQ(ShortBufferName("/bert/encoder/layer.0/attention/Softmax_output_0"),
            "/bert/encoder/layer.0/attention/Softmax_output_0");
  EXPECT_EQ(ShortBufferName("conv/conv.1"), "conv.1");
  EXPECT_EQ(ShortBufferName("a"), "a");
  EXPECT_EQ(ShortBufferName(""), "");
}

// SmallPlan (test_plans.h): boxes b (359, 114, 813 x 160), a (88, 274,
// 542 x 160), c (630, 354, 542 x 80); the reference lines at y 114, the peak
// step's line at x 494.5 with its label at the top right of it. Each name
// starts 4 px inside its box, on the box's middle (baseline + 3.5, rounded).
TEST(PlaceBlockLabelsTest, TheLargestBlocksAreNamedInsideThemselves) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  const std::vector<BlockLabel>& labels = layout.panels[0].block_labels;
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[0].buffer, 1);
  EXPECT_EQ(labels[0].text, "b");
  EXPECT_DOUBLE_EQ(labels[0].x, 363);
  EXPECT_DOUBLE_EQ(labels[0].y, 198);
  EXPECT_EQ(labels[1].buffer, 0);
  EXPECT_DOUBLE_EQ(labels[1].x, 92);
  EXPECT_DOUBLE_EQ(labels[1].y, 358);
  EXPECT_EQ(labels[2].buffer, 2);
  EXPECT_DOUBLE_EQ(labels[2].y, 398);
  // At most MapOptions::block_labels of them, the largest first.
  MapOptions two;
  two.block_labels = 2;
  EXPECT_EQ(LayoutMap(p.buffers, p.plan, two).panels[0].block_labels.size(), 2u);
  // In the SVG, on top of the marks.
  EXPECT_NE(RenderSvgMap(p.buffers, p.plan, MapOptions{})
                .find("<text class=\"block-label\" data-of=\"1\" x=\"363\" y=\"198\">b</text>"),
            std::string::npos);
}

TEST(PlaceBlockLabelsTest, ALongPathLosesItsLeadingPartsAndNoNameCrossesALine) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  p.buffers.buffers[1].name = "/model/encoder/encoder.3/block/block.1/attention/MatMul_output_0";
  // The lower bound's line at 512 KiB (y 354) crosses a's middle row, where
  // its name would go (text over y 348..361): a stays unnamed.
  p.plan.lower_bound = maptest::kMiB / 2;
  const Panel panel = LayoutMap(p.buffers, p.plan, MapOptions{}).panels[0];
  ASSERT_FALSE(panel.block_labels.empty());
  // 34 characters at most: "/model/encoder.3/block.1/attention/MatMul_output_0"
  // (its repeated parts gone) loses its leading parts.
  EXPECT_EQ(panel.block_labels[0].text, "…/attention/MatMul_output_0");
  for (const BlockLabel& label : panel.block_labels) {
    EXPECT_NE(label.buffer, 0) << "a's name would sit on the lower bound's line";
  }
}

// A hand-made panel: a band at (88, 100) 500 x 60 whose bottom row (text
// over y 142..155) meets a line at y 150, so its label goes to the top row
// (baseline 115); with a second line at y 112 neither row is clear and only
// a never-reused pool's band keeps a label (at its bottom left).
TEST(PlaceBandLabelsTest, ALabelTakesTheRowNoLineCrosses) {
  Panel panel;
  panel.plot = {88, 90, 600, 200};
  BandMark band;
  band.box = {88, 100, 500, 60};
  band.label = "constant pool";
  band.labeled = true;
  panel.bands.push_back(band);
  panel.lines.push_back({LineMark::Style::kDashed, 150, "", 600, 0});
  PlaceBandLabels(panel);
  ASSERT_TRUE(panel.bands[0].labeled);
  EXPECT_DOUBLE_EQ(panel.bands[0].label_x, 92);
  EXPECT_DOUBLE_EQ(panel.bands[0].label_y, 115);

  panel.lines.push_back({LineMark::Style::kSolid, 112, "", 600, 0});
  panel.bands[0].labeled = true;
  PlaceBandLabels(panel);
  EXPECT_FALSE(panel.bands[0].labeled);
  panel.bands[0].labeled = true;
  panel.bands[0].resident = true;
  PlaceBandLabels(panel);
  ASSERT_TRUE(panel.bands[0].labeled);
  EXPECT_DOUBLE_EQ(panel.bands[0].label_y, 156);
}

}  // namespace
}  // namespace memplan::memmap
