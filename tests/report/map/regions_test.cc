// Region allocations in the memory map: outlined boxes over their time range,
// buffers colored by allocation kind, names and tooltips (report/map/layout.h,
// report/map/svg.h, report/map/html.h).
#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report/map/html.h"
#include "report/map/layout.h"
#include "report/map/svg.h"
#include "tests/report/map/test_plans.h"

namespace memplan {
namespace {

using memmap::LayoutMap;
using memmap::LiveStep;
using memmap::MapLayout;
using memmap::OutlineMark;
using maptest::kKiB;
using maptest::kMiB;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(MapRegionsTest, OutlinesOverTimeRangesAndKindColors) {
  const maptest::PlannedBuffers p = maptest::RegionPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  EXPECT_TRUE(layout.regions);
  EXPECT_TRUE(layout.legend_outline);
  EXPECT_THAT(layout.legend_colors, ElementsAre(memmap::kColorSlab, memmap::kColorResults));
  ASSERT_EQ(layout.panels.size(), 1u);
  const memmap::Panel& panel = layout.panels[0];
  EXPECT_TRUE(panel.bands.empty());  // every pool has a time range
  ASSERT_EQ(panel.outlines.size(), 3u);
  const auto expect = [](const OutlineMark& o, int pool, int color, double x, double y, double w,
                         double h) {
    EXPECT_EQ(o.pool, pool);
    EXPECT_EQ(o.color, color);
    EXPECT_DOUBLE_EQ(o.box.x, x);
    EXPECT_DOUBLE_EQ(o.box.y, y);
    EXPECT_DOUBLE_EQ(o.box.w, w);
    EXPECT_DOUBLE_EQ(o.box.h, h);
  };
  expect(panel.outlines[0], 0, memmap::kColorSlab, 88, 274, 542, 160);
  expect(panel.outlines[1], 1, memmap::kColorSlab, 630, 354, 542, 80);
  expect(panel.outlines[2], 2, memmap::kColorResults, 88, 114, 1084, 160);
  // Names at the top left of their box.
  EXPECT_TRUE(panel.outlines[0].labeled);
  EXPECT_DOUBLE_EQ(panel.outlines[0].label_x, 92);
  EXPECT_DOUBLE_EQ(panel.outlines[0].label_y, 285);
  ASSERT_EQ(panel.segments.size(), 3u);
  EXPECT_EQ(panel.segments[0].color, memmap::kColorSlab);
  EXPECT_EQ(panel.segments[1].color, memmap::kColorResults);
  EXPECT_EQ(panel.segments[2].color, memmap::kColorSlab);
}

// The transient figures span the transient region allocations: the peak
// line sits at their top, and the live curve counts their buffers.
TEST(MapRegionsTest, TransientAllocationsMakeThePeakAndTheLiveCurve) {
  maptest::PlannedBuffers p = maptest::RegionPlan();
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  ASSERT_FALSE(layout.panels[0].lines.empty());
  EXPECT_DOUBLE_EQ(layout.panels[0].lines[0].y, 114);  // 2 MiB
  EXPECT_THAT(memmap::TransientLiveProfile(p.buffers, p.plan),
              ElementsAre(LiveStep{0, kMiB}, LiveStep{1, 2 * kMiB}, LiveStep{2, kMiB + 512 * kKiB},
                          LiveStep{4, 0}));
}

// A name whose top-left place meets a line label goes to the bottom left.
TEST(MapRegionsTest, NameAvoidsLineLabels) {
  maptest::PlannedBuffers p = maptest::RegionPlan();
  // r.results over [3, 3] only: x 901..1172, under the peak's label.
  p.plan.pools[2].start = 3;
  p.plan.placements[1].allocations[0].start = 3;
  p.buffers.buffers[1].start = 3;
  const MapLayout layout = LayoutMap(p.buffers, p.plan, MapOptions{});
  const OutlineMark& results = layout.panels[0].outlines[2];
  EXPECT_DOUBLE_EQ(results.box.x, 901);
  EXPECT_TRUE(results.labeled);
  EXPECT_DOUBLE_EQ(results.label_y, 270);  // 114 + 160 - 4
}

TEST(MapRegionsTest, SvgFragments) {
  const maptest::PlannedBuffers p = maptest::RegionPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  for (std::string_view fragment : {
           ".alloc{fill:none;stroke:#333;stroke-width:1}",
           ".k8{fill:#499894}.k9{fill:#d37295}.k10{fill:#b6992d}</style>",
           // Legend: kinds, then the outline.
           ">slab</text>",
           ">results</text>",
           "<rect class=\"alloc\" x=\"",
           ">region allocation</text>",
           // The faint fill under r.slab's buffers, the outline and the name on top.
           "<rect class=\"band k8\" x=\"88\" y=\"274\" width=\"542\" height=\"160\"/>\n",
           "<rect class=\"k8 o\" data-b=\"0\" x=\"88\" y=\"274\" width=\"542\" height=\"160\">"
           "<title>a\nsize 1 MiB (1048576 B)\nlive [0, 1]\npool r.slab (slab of region @r on "
           "gpu0), space default (0), offset 0</title></rect>\n",
           "<rect class=\"alloc\" data-p=\"0\" x=\"88\" y=\"274\" width=\"542\" height=\"160\">"
           "<title>r.slab (slab of region @r on gpu0)\nsize 1 MiB (1048576 B)\nexists [0, 1]\n"
           "1 buffer, 1 MiB in all, lower bound 1 MiB\nspace default (0), offset 0"
           "</title></rect>\n",
           "<rect class=\"alloc\" data-p=\"1\" x=\"630\" y=\"354\" width=\"542\" height=\"80\">",
           "<text class=\"alloc-label\" x=\"92\" y=\"285\">r.slab</text>\n",
           "<text class=\"alloc-label\" x=\"634\" y=\"365\">q.slab</text>\n",
           "<text class=\"alloc-label\" x=\"92\" y=\"125\">r.results</text>\n",
       }) {
    EXPECT_THAT(svg, HasSubstr(std::string(fragment)));
  }
}

// Maps without regions keep their style: no region classes or colors.
TEST(MapRegionsTest, MapsWithoutRegionsHaveNoRegionStyle) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_THAT(svg, HasSubstr(".k7{fill:#e15759}</style>"));
  EXPECT_THAT(svg, Not(HasSubstr(".alloc")));
  EXPECT_THAT(svg, Not(HasSubstr("label-bg")));
}

// The HTML page names each buffer's allocation and region in its pool list,
// and the pool table says when each pool exists.
TEST(MapRegionsTest, HtmlPoolsNameTheirRegions) {
  const maptest::PlannedBuffers p = maptest::RegionPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_THAT(html, HasSubstr("\"pools\":[\"r.slab (slab of region @r on gpu0)\","
                              "\"r.results (results of region @r on gpu0)\","
                              "\"q.slab (slab of region @q on gpu1)\"]"));
  EXPECT_THAT(html, HasSubstr("<th>space</th><th>time</th><th>offset</th>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>q.slab</td><td>default</td><td>[2, 3]</td>"));
}

}  // namespace
}  // namespace memplan
