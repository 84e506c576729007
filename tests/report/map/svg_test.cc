#include "report/map/svg.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "tests/report/map/test_plans.h"

namespace memplan {
namespace {

std::size_t Count(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

TEST(SvgMapTest, OneRectPerSegment) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(Count(svg, " data-b=\""), 3u);
  EXPECT_EQ(Count(svg, "<path"), 0u);  // nothing merged into coverage
}

TEST(SvgMapTest, KnownRectangleCoordinatesAndTooltip) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(svg.find("<rect class=\"k0 o\" data-b=\"1\" x=\"359\" y=\"114\" width=\"813\" "
                     "height=\"160\"><title>b\nsize 1 MiB (1048576 B)\nlive [1, 3]\n"
                     "pool transient, space default (0), offset 1048576 (1 MiB)</title></rect>"),
            std::string::npos)
      << svg;
}

TEST(SvgMapTest, AxisLabelsLinesAndLegend) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  for (std::string_view label : {">0.5 MiB</text>", ">1 MiB</text>", ">2 MiB</text>",
                                 ">transient extent 2 MiB (0.0 % over bound)</text>",
                                 ">lower bound 2 MiB</text>", ">transient</text>",
                                 ">time step</text>"}) {
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  }
  EXPECT_EQ(Count(svg, "<line class=\"line peak\""), 2u);   // plot and legend
  EXPECT_EQ(Count(svg, "<line class=\"line bound\""), 2u);
}

// An extent one byte above its bound is not "0.0 %" over it.
TEST(SvgMapTest, ATinyGapIsNotZeroPercent) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  p.plan.lower_bound = p.plan.peak - 1;
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(svg.find(">transient extent 2097152 B (&lt;0.1 % over bound)</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(" · &lt;0.1 % over the bound · "), std::string::npos) << svg;
  EXPECT_EQ(svg.find("0.0 %"), std::string::npos) << svg;
}

TEST(SvgMapTest, StandaloneAndWellFormedFrame) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "width=\"1200\"",
                      0),
            0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(Count(svg, "<script"), 0u);
  EXPECT_EQ(Count(svg, "href"), 0u);
  EXPECT_EQ(Count(svg, "url("), 0u);
}

TEST(SvgMapTest, EscapesHostileNames) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  p.buffers.buffers[0].name = "<script>alert(\"x & 'y'\")</script>";
  MapOptions options;
  options.title = "map of <evil> & \"co\"";
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<evil>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;alert(&quot;x &amp; &#39;y&#39;&quot;)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(svg.find(">map of &lt;evil&gt; &amp; &quot;co&quot;</text>"), std::string::npos);
}

TEST(SvgMapTest, ValueNamesWhenAProgramIsGiven) {
  maptest::PlannedBuffers p = maptest::SmallPlan();
  Program program;
  program.values.resize(2);
  program.values[0].name = "x";
  program.values[1].name = "x_relu";
  p.buffers.buffers[2].values = {0, 1};
  MapOptions options;
  options.program = &program;
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  EXPECT_NE(svg.find("<title>c\nvalues: %x, %x_relu\nsize 512 KiB"), std::string::npos);
}

TEST(SvgMapTest, Deterministic) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  EXPECT_EQ(RenderSvgMap(p.buffers, p.plan, MapOptions{}),
            RenderSvgMap(p.buffers, p.plan, MapOptions{}));
}

TEST(SvgMapTest, AlternateMemoryPanelShowsCopies) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(Count(svg, "<g class=\"panel\" data-space="), 2u);
  EXPECT_NE(svg.find("<g class=\"panel\" data-space=\"1\">"), std::string::npos);
  EXPECT_EQ(Count(svg, " data-b=\""), 4u);  // two segments per buffer
  EXPECT_EQ(Count(svg, " data-c=\""), 4u);  // each copy over its chunk and in the lane
  EXPECT_NE(svg.find("<title>prefetch of x\nspace default (0) -&gt; alternate (1)\n"
                     "copy-start 2, copy-done 3\n256 KiB (262144 B)</title>"),
            std::string::npos);
  EXPECT_NE(svg.find(">async copies</text>"), std::string::npos);
  EXPECT_NE(svg.find(">capacity 1 MiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">eviction</text>"), std::string::npos);
}

TEST(SvgMapTest, WindowChunkAndPrefetchBlockWithTooltipsAndLegend) {
  const maptest::PlannedBuffers p = maptest::WindowAndBlockPlan();
  MapOptions options;
  options.describe_step = [](TimeStep step) {
    return step == 5 ? std::string("%y = onnx.MatMul") : std::string();
  };
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  // The alternate plot starts at y 504.
  EXPECT_NE(svg.find("<rect class=\"win\" fill=\"url(#map-hatch)\" data-w=\"0\" x=\"521.6\" "
                     "y=\"624\" width=\"216.8\" height=\"40\"><title>window of x for %y = "
                     "onnx.MatMul\nfirst 128 KiB (131072 B) of the buffer, operand 1\n"
                     "space alternate (1), offset "),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("<rect class=\"pblock\" x=\"88\" y=\"504\" width=\"1084\" "
                     "height=\"80\"><title>prefetch block\n256 KiB (262144 B) reserved for the "
                     "whole run"),
            std::string::npos);
  EXPECT_NE(svg.find("<text class=\"pblock-label\" x=\"92\" y=\"515\">prefetch block</text>"),
            std::string::npos);
  EXPECT_NE(svg.find("<pattern id=\"map-hatch\""), std::string::npos);
  EXPECT_NE(svg.find(">window prefetch</text>"), std::string::npos);
  EXPECT_NE(svg.find(">prefetch block</text>"), std::string::npos);
  // Without a describe_step, the op's id.
  const std::string plain = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(plain.find("<title>window of x for op 7\n"), std::string::npos);
}

TEST(SvgMapTest, NoWindowStyleWithoutWindows) {
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_EQ(svg.find("hatch"), std::string::npos);
  EXPECT_EQ(svg.find("pblock"), std::string::npos);
}

TEST(SvgMapTest, HierarchyLegendHasTheActivationClass) {
  const maptest::PlannedBuffers p = maptest::HierarchyPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  EXPECT_NE(svg.find("<rect class=\"k0\" x=\"88\" y=\"62\" width=\"14\" height=\"12\"/>"
                     "<text x=\"108\" y=\"72\">transient</text>"),
            std::string::npos)
      << svg.substr(0, 3000);
}

TEST(SvgMapTest, StagedChunkInItsIntermediateLevel) {
  const maptest::PlannedBuffers p = maptest::StagedPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  // One staged chunk (copy 0) in the sram panel, over steps [0,1] (x 88,
  // 2 * 271 px wide), bytes [512 KiB, 768 KiB) on the sram axis (top 1 MiB,
  // the capacity, at y 917: 320 px per MiB), with its tooltip; and in the
  // legend.
  EXPECT_EQ(Count(svg, " data-s=\""), 1u);
  const std::size_t sram = svg.find(">sram memory (space 2)");
  const std::size_t flash = svg.find(">flash memory (space 3)");
  const std::size_t chunk = svg.find("<rect class=\"k6 copy staged\" data-s=\"0\" x=\"88\" ");
  ASSERT_NE(chunk, std::string::npos) << svg;
  EXPECT_LT(sram, chunk);
  EXPECT_LT(chunk, flash);
  EXPECT_EQ(svg.find("<rect class=\"k6 copy staged\" data-s=\"0\" x=\"88\" y=\"997\" "
                     "width=\"542\" height=\"80\"><title>staged chunk of w\nprefetch space "
                     "flash (3) -&gt; tcm (1) through sram (2), offset 524288 (512 KiB)\n256 KiB "
                     "(262144 B) held over [0, 1]</title></rect>"),
            chunk)
      << svg.substr(chunk, 400);
  EXPECT_NE(svg.find("<line class=\"line capacity\" x1=\"88\" y1=\"917\"", sram),
            std::string::npos);
  EXPECT_NE(svg.find(">staged chunk</text>"), std::string::npos);
  EXPECT_NE(svg.find(".staged{"), std::string::npos);
  // The sram panel's peak counts the chunk: 768 KiB at step 0.
  EXPECT_NE(svg.find(">peak step 0 · 768 KiB live</text>", sram), std::string::npos);
  // The copy unstaged: no chunk in sram, no staged style.
  Plan unstaged = p.plan;
  unstaged.copies[0].via.reset();
  const std::string plain = RenderSvgMap(p.buffers, unstaged, MapOptions{});
  EXPECT_EQ(plain.find(" data-s=\""), std::string::npos);
  EXPECT_EQ(plain.find(".staged{"), std::string::npos);
  EXPECT_NE(plain.find(">peak step 0 · 512 KiB live</text>"), std::string::npos);
}

TEST(SvgMapTest, EmptyPlanRenders) {
  const std::string svg = RenderSvgMap(BufferSet{}, Plan{}, MapOptions{});
  EXPECT_NE(svg.find(">no buffers in this space</text>"), std::string::npos);
  EXPECT_EQ(Count(svg, " data-b=\""), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  for (std::string_view bad : {"=\"nan", "=\"-nan", "=\"inf", "=\"-inf"}) {
    EXPECT_EQ(svg.find(bad), std::string::npos) << bad;
  }
}

TEST(SvgMapTest, HundredThousandBuffersStaySmall) {
  const maptest::PlannedBuffers p = maptest::LargePlan(100000);
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  // Every buffer is 0.01 px wide: all of them merge into coverage paths.
  EXPECT_EQ(Count(svg, " data-b=\""), 0u);
  EXPECT_EQ(Count(svg, "<path class=\"k0\""), 1u);
  EXPECT_LT(svg.size(), 2'000'000u);
}

TEST(SvgMapTest, RectBudgetCapsIndividualRects) {
  const maptest::PlannedBuffers p = maptest::LargePlan(2000);
  MapOptions options;
  options.max_rects = 100;
  options.min_rect_px = 0;  // only the budget limits
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  EXPECT_EQ(Count(svg, " data-b=\""), 100u);
  EXPECT_EQ(Count(svg, "<path class=\"k0\""), 1u);
}

}  // namespace
}  // namespace memplan

namespace memplan {
namespace {

TEST(SvgMapPeakTest, MarksThePeakStepWithLineAndLabel) {
  const maptest::PlannedBuffers p = maptest::SmallPlan();
  MapOptions options;
  options.describe_step = [](TimeStep) { return std::string("%b = <conv>"); };
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  // Step 1 holds 2 MiB: a line through the middle of its column, from the
  // plot top (114) to its bottom (434), the label just right of it.
  EXPECT_NE(svg.find("<g class=\"peak-marker\" data-step=\"1\"><line class=\"peak-step\" "
                     "x1=\"494.5\" y1=\"114\" x2=\"494.5\" y2=\"434\"/><text class=\"line-label "
                     "peak-label\" x=\"498.5\" y=\"126\">peak step 1 · 2 MiB live · %b = "
                     "&lt;conv&gt;</text><title>peak step 1 · 2 MiB live · %b = "
                     "&lt;conv&gt;</title></g>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">peak step</text>"), std::string::npos);  // legend entry
}

TEST(SvgMapWeightsTest, WeightsSpanTheWholeRunInALabelledBand) {
  const maptest::PlannedBuffers p = maptest::WeightsPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  // w1 (2 MiB .. 2.5 MiB, used [0,1]) from x 88 over the full 1084 px.
  EXPECT_NE(svg.find("<rect class=\"k1 o\" data-b=\"3\" x=\"88\" y=\"167.33\" width=\"1084\" "
                     "height=\"53.33\"><title>w1\nsize 512 KiB (524288 B)\nlive [0, 1]\n"),
            std::string::npos)
      << svg;
  // At the band's bottom left, 5 px above its edge (the transient extent's
  // line), on a pale box.
  EXPECT_NE(svg.find("<text class=\"band-label\" x=\"92\" y=\"212.67\">constant pool · 2 "
                     "buffers, 1 MiB · resident for the whole run</text>"),
            std::string::npos);
}

}  // namespace
}  // namespace memplan
