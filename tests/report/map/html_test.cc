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
        "<tr><th>transient peak</th><td>512 KiB (524288 B)</td></tr>",
        "<tr><th>lower bound</th><td>512 KiB (524288 B)</td></tr>",
        "<tr><th>over the bound</th><td>0.0 %</td></tr>",
        "<tr><th>space</th><td>alternate (1): peak 512 KiB of 1 MiB</td></tr>",
        "<tr><td>transient</td><td>default</td><td class=\"n\">0 B</td>"
        "<td class=\"n\">512 KiB</td><td class=\"n\">2</td>",
        "<tr><th>estimated time</th><td>1.5 ms</td></tr>",
        "<tr><th>prefetches</th><td>1 (0 B)</td></tr>"}) {
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
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
  // Live: 1 MiB at step 0, 2 MiB at 1, 1.5 MiB at 2-3; axis top 2 MiB over
  // 130 px (bottom at 156); x as in the map (271 px per step from 88).
  EXPECT_NE(html.find("<path class=\"live-area\" d=\"M88 156V91H359V26H630V58.5H1172V156H1172V156Z\"/>"),
            std::string::npos);
  EXPECT_NE(html.find(">lower bound 2 MiB</text>"), std::string::npos);
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
