#include "report/map/html.h"

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/report/map/test_plans.h"

namespace memplan {
namespace {

using maptest::kMiB;

// The page's embedded hover data.
nlohmann::json Data(const std::string& html) {
  constexpr std::string_view kOpen = "<script type=\"application/json\" id=\"memplan-data\">";
  const std::size_t begin = html.find(kOpen);
  if (begin == std::string::npos) return nullptr;
  const std::size_t from = begin + kOpen.size();
  return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

TEST(HtmlMapTest, SelfContained) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n", 0), 0u);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("fetch("), std::string::npos);
  EXPECT_EQ(html.substr(html.size() - 16), "</body>\n</html>\n");
}

TEST(HtmlMapTest, SummaryHeader) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  for (std::string_view row :
       {"<tr><th>input</th><td>msa.mp</td></tr>", "<tr><th>algorithm</th><td>msa</td></tr>",
        "<tr><th>transient extent</th><td>512 KiB (524288 B)</td></tr>",
        "<tr><th>lower bound</th><td>512 KiB (524288 B)</td></tr>",
        "<tr><th>over the bound</th><td>0.0 %</td></tr>",
        "<tr><th>space</th><td>alternate (1): used 512 KiB of 1 MiB</td></tr>",
        "<tr><td>transient</td><td>default</td><td class=\"n\">0 B</td>"
        "<td class=\"n\">512 KiB</td><td class=\"n\">2</td>",
        "<tr><th>estimated time</th><td>1.5 ms</td></tr>",
        "<tr><th>prefetches</th><td>1 (0 B)</td></tr>"}) {
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
}

// Window prefetches are not among the prefetches: a row of their own, as
// in the plan summary; the block says where it is.
TEST(HtmlMapTest, SummaryListsWindowPrefetchesAndTheBlock) {
  const maptest::PlannedBuffers p = maptest::WindowAndBlockPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(html.find("<tr><th>window prefetches</th><td>1 (128 KiB)</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><th>prefetch block</th><td>256 KiB at offset "), std::string::npos);
  // Both embedded views would share one pattern id otherwise.
  EXPECT_NE(html.find("<pattern id=\"map-hatch\""), std::string::npos);
  const maptest::PlannedBuffers plain = maptest::MsaPlan();
  const std::string without = RenderHtmlMap(plain.buffers, plain.plan, MapOptions{});
  EXPECT_EQ(without.find("window prefetches"), std::string::npos);
  EXPECT_EQ(without.find("prefetch block"), std::string::npos);
}

TEST(HtmlMapTest, EmbedsTheMapWithoutItsTitleRows) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(html.find("<div id=\"map\" class=\"figure\">\n<svg width=\"1200\""), std::string::npos);
  EXPECT_NE(html.find("<rect id=\"map-hl\""), std::string::npos);
  EXPECT_NE(html.find("<line id=\"live-cursor\""), std::string::npos);
  EXPECT_EQ(html.find("class=\"subtitle\""), std::string::npos);
  // Same rectangles as the SVG export, without native tooltips.
  EXPECT_NE(html.find("<rect class=\"k0 o\" data-b=\"1\" x=\"359\" y=\"114\" width=\"813\" "
                      "height=\"160\"/>"),
            std::string::npos);
}

TEST(HtmlMapTest, HoverDataDescribesBuffersAndSegments) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const nlohmann::json data = Data(RenderHtmlMap(p.buffers, p.plan, MapOptions{}));
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["tmax"], 10);
  EXPECT_EQ(data["pools"], nlohmann::json({"transient"}));
  EXPECT_EQ(data["spaces"], nlohmann::json::parse(R"([[0,"default"],[1,"alternate"]])"));
  // [name, size, start, end, pool, segments, values, values left out]
  EXPECT_EQ(data["buffers"][1], nlohmann::json::parse(R"(["y",262144,0,9,0,2,[],0])"));
  // Segments per panel: [buffer, allocation, offset, start, end] flattened.
  EXPECT_EQ(data["panels"][0]["segs"], nlohmann::json({0, 0, 0, 0, 3, 1, 1, 262144, 3, 9}));
  EXPECT_EQ(data["panels"][1]["segs"], nlohmann::json({0, 1, 0, 2, 6, 1, 0, 262144, 0, 4}));
  EXPECT_EQ(data["panels"][1]["lane"]["slots"], nlohmann::json({0, 0, 1, 1}));
  EXPECT_FALSE(data["panels"][0].contains("lane"));
  EXPECT_EQ(data["copies"][1], nlohmann::json({1, 1, 1, 0, 3, 4, 262144}));
}

TEST(HtmlMapTest, LiveCurveFollowsTheMapTimeAxis) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  // Live: 1 MiB at step 0, 2 MiB at 1, 1.5 MiB at 2-3; axis top 2 MiB (the
  // peak label has its own row above the plot) over 130 px from y 58
  // (bottom at 188); x as in the map (271 px per step from 88).
  EXPECT_NE(html.find("<path class=\"live-area\" data-space=\"0\" fill=\"#4e79a7\" "
                      "stroke=\"#4e79a7\" d=\"M88 188V123H359V58H630V90.5H1172V188H1172V188Z\"/>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find(">lower bound 2 MiB</text>"), std::string::npos);
  EXPECT_NE(html.find(">default memory, transient · max 2 MiB</text>"), std::string::npos);
  const nlohmann::json data = Data(html);
  EXPECT_EQ(data["live"]["values"],
            nlohmann::json({0, kMiB, 1, 2 * kMiB, 2, 3 * kMiB / 2, 4, 0}));
  EXPECT_EQ(data["live"]["exact"], true);
}

TEST(HtmlMapTest, EscapesHostileNames) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string hostile = "</script><img src=x onerror=alert(1)>\"&'";
  p.buffers.buffers[0].name = hostile;
  p.plan.input = "<b>in & out</b>";
  p.plan.pools[0].name = "<pool>";
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_EQ(html.find("<pool>"), std::string::npos);
  EXPECT_NE(html.find("<td>&lt;b&gt;in &amp; out&lt;/b&gt;</td>"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script\\u003e\\u003cimg src=x onerror=alert(1)\\u003e\\\"\\u0026'"),
            std::string::npos);
  const nlohmann::json data = Data(html);
  EXPECT_EQ(data["buffers"][0][0], hostile);
}

TEST(HtmlMapTest, ValueNamesWhenAProgramIsGiven) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  Program program;
  for (int i = 0; i < 10; ++i) {
    program.values.emplace_back();
    program.values.back().name = fmt::format("v{}", i);
  }
  p.buffers.buffers[2].values = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  MapOptions options;
  options.program = &program;
  const nlohmann::json data = Data(RenderHtmlMap(p.buffers, p.plan, options));
  EXPECT_EQ(data["buffers"][2][6],
            nlohmann::json({"%v0", "%v1", "%v2", "%v3", "%v4", "%v5", "%v6", "%v7"}));
  EXPECT_EQ(data["buffers"][2][7], 2);
}

TEST(HtmlMapTest, Deterministic) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  EXPECT_EQ(RenderHtmlMap(p.buffers, p.plan, MapOptions{}),
            RenderHtmlMap(p.buffers, p.plan, MapOptions{}));
}

TEST(HtmlMapTest, EmptyPlanRenders) {
  const std::string html = RenderHtmlMap(BufferSet{}, Plan{}, MapOptions{});
  EXPECT_NE(html.find(">no buffers in this space</text>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td colspan=\"8\">no pools reported</td></tr>"), std::string::npos);
  const nlohmann::json data = Data(html);
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["buffers"], nlohmann::json::array());
  EXPECT_EQ(data["panels"][0]["segs"], nlohmann::json::array());
  EXPECT_EQ(data["live"]["values"], nlohmann::json({0, 0}));
  EXPECT_EQ(html.find("=\"nan"), std::string::npos);
}

TEST(HtmlMapTest, LongScheduleCurveIsPerPixelColumn) {
  const maptest::PlannedBuffers p = maptest::LargePlan(5000);
  const nlohmann::json data = Data(RenderHtmlMap(p.buffers, p.plan, MapOptions{}));
  EXPECT_EQ(data["live"]["exact"], false);
  // One (start, max) pair per pixel column of the 1084-px plot.
  EXPECT_EQ(data["live"]["values"].size(), 2u * 1084);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

using maptest::kKiB;
using maptest::kMiB;

TEST(HtmlMapLiveChartTest, CoversBothSpacesWithTheirPeaks) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  const nlohmann::json live = Data(html)["live"];
  ASSERT_EQ(live["series"].size(), 2u);
  // Default memory: x [0,3] and y [3,9]; alternate memory: x [2,6], y [0,4].
  EXPECT_EQ(live["series"][0]["name"], "default memory, transient");
  EXPECT_EQ(live["series"][0]["values"],
            nlohmann::json({0, 256 * kKiB, 3, 512 * kKiB, 4, 256 * kKiB, 10, 0}));
  EXPECT_EQ(live["values"], live["series"][0]["values"]);
  EXPECT_EQ(live["series"][1]["space"], 1);
  EXPECT_EQ(live["series"][1]["name"], "alternate memory");
  EXPECT_EQ(live["series"][1]["values"],
            nlohmann::json({0, 256 * kKiB, 2, 512 * kKiB, 5, 256 * kKiB, 7, 0}));
  // Axis top 600 KiB (steps of 200 KiB, the first whole step above 512
  // KiB) over 130 px from y 72, under the two peak labels' rows; 108.4 px a
  // time step.
  EXPECT_EQ(live["top"], 600 * 1024);
  EXPECT_EQ(live["y"], 72);
  EXPECT_NE(html.find(">alternate memory · max 512 KiB</text>"), std::string::npos);
  EXPECT_NE(html.find("<path class=\"live-area\" data-space=\"1\" fill=\"#76b7b2\""),
            std::string::npos);
  // Peak markers: default at step 3 (x 88 + 3.5 * 108.4), alternate at step 2.
  EXPECT_NE(html.find("<g class=\"peak-marker\" data-space=\"0\" data-step=\"3\"><line "
                      "class=\"peak-step\" stroke=\"#2c4d73\" x1=\"467.4\" y1=\"41\" "
                      "x2=\"467.4\" y2=\"202\"/><text class=\"line-label peak-label\" "
                      "fill=\"#2c4d73\" x=\"471.4\" y=\"51\">default memory, transient: peak "
                      "step 3 · 512 KiB</text>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<g class=\"peak-marker\" data-space=\"1\" data-step=\"2\"><line "
                      "class=\"peak-step\" stroke=\"#2f7a74\" x1=\"359\" y1=\"55\" x2=\"359\" "
                      "y2=\"202\"/><text class=\"line-label peak-label\" fill=\"#2f7a74\" "
                      "x=\"363\" y=\"65\">alternate memory: peak step 2 · 512 KiB</text>"),
            std::string::npos)
      << html;
}

TEST(HtmlMapLiveChartTest, ActivationsAllInFastMemoryAreNotAnEmptyChart) {
  // Everything in alternate memory: the default series is flat at 0, the
  // alternate one carries the bytes.
  maptest::PlannedBuffers p = maptest::MsaPlan();
  p.plan.placements[0].allocations = {{kAlternateSpace, 0, 0, 6}};
  p.plan.placements[1].allocations = {{kAlternateSpace, 256 * kKiB, 0, 9}};
  p.plan.copies.clear();
  p.plan.peak = 0;
  p.plan.lower_bound = 0;
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(html.find(">default memory, transient · max 0 B</text>"), std::string::npos);
  EXPECT_NE(html.find(">alternate memory · max 512 KiB</text>"), std::string::npos);
  EXPECT_NE(html.find("data-space=\"1\" data-step=\"0\">"), std::string::npos);
  EXPECT_EQ(html.find("data-space=\"0\" data-step="), std::string::npos);
}

TEST(HtmlMapToggleTest, ActivationsOnlyViewWhenThereAreWeights) {
  const maptest::PlannedBuffers p = maptest::WeightsPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  // The activations view is the default: checked, shown; the full map
  // hidden until unchecked (or #all).
  EXPECT_NE(html.find("<label id=\"act-toggle\" class=\"toggle\"><input type=\"checkbox\" "
                      "id=\"act\" checked> activations only: the 2 buffers of never-reused pools"),
            std::string::npos);
  EXPECT_NE(html.find("<div id=\"map-act\" class=\"figure\">\n<svg width=\"1200\""),
            std::string::npos);
  EXPECT_NE(html.find("<div id=\"map\" class=\"figure\" hidden>\n<svg width=\"1200\""),
            std::string::npos);
  EXPECT_NE(html.find("show(location.hash !== \"#all\")"), std::string::npos);
  EXPECT_NE(html.find("<rect id=\"act-hl\" class=\"hl\""), std::string::npos);
  EXPECT_NE(html.find("<line id=\"act-cursor\" class=\"cursor\""), std::string::npos);
  EXPECT_NE(html.find(">default memory (space 0) · activations only, up to 2 MiB</text>"),
            std::string::npos);
  const nlohmann::json data = Data(html);
  // Full view: weights over the whole run [0, 3]; activations view: none.
  EXPECT_EQ(data["panels"][0]["segs"],
            nlohmann::json({0, 0, 0, 0, 1, 1, 0, kMiB, 1, 3, 2, 0, 0, 2, 3, 3, 0, 2 * kMiB, 0, 3,
                            4, 0, 5 * kMiB / 2, 0, 3}));
  EXPECT_EQ(data["act"]["panels"][0]["segs"],
            nlohmann::json({0, 0, 0, 0, 1, 1, 0, kMiB, 1, 3, 2, 0, 0, 2, 3}));
  EXPECT_EQ(data["act"]["panels"][0]["top"], 2 * kMiB);
  EXPECT_EQ(data["panels"][0]["top"], 3 * kMiB);
  EXPECT_EQ(data["resident"], nlohmann::json({1}));
  // The weights' band, across the whole plot, says what it is.
  EXPECT_NE(html.find(">constant pool · 2 buffers, 1 MiB · resident for the whole run</text>"),
            std::string::npos);
}

TEST(HtmlMapToggleTest, NoToggleWithoutAnythingToHide) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(html.find("id=\"act-toggle\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"map-act\""), std::string::npos);
  EXPECT_NE(html.find("<div id=\"map\" class=\"figure\">\n"), std::string::npos);
  EXPECT_FALSE(Data(html).contains("act"));
}

TEST(HtmlMapLayoutTest, FiguresScaleToTheWindow) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string html = RenderHtmlMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(html.find(".figure svg{display:block;width:100%;height:auto}"), std::string::npos);
  // Up to 1.4 x 1200 + 2 borders, never below the layout width: the text
  // is never drawn under its nominal size.
  EXPECT_NE(html.find(".figure{max-width:1682px}.figure svg{min-width:1200px}"),
            std::string::npos);
  EXPECT_NE(html.find("overflow-x:auto"), std::string::npos);
  EXPECT_NE(html.find("<meta name=\"viewport\" content=\"width=device-width\">"),
            std::string::npos);
}

}  // namespace
}  // namespace memplan
