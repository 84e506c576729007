// The memory map of a hierarchy's fallback layout (weights filed in a
// level's transient pool): the weights are drawn over the whole run, and
// in the activations-only view the transient extent's line says that it
// counts the weights hidden there.
#include <string>

#include <gtest/gtest.h>

#include "report/map/svg.h"
#include "tests/report/map/test_plans.h"

namespace memplan {
namespace {

TEST(FallbackLayoutMapTest, WeightsInTransientPoolsSpanTheWholeRun) {
  const maptest::PlannedBuffers p = maptest::FallbackLayoutPlan();
  const std::string svg = RenderSvgMap(p.buffers, p.plan, MapOptions{});
  // a ends after its last use: 2 steps of 271 px.
  EXPECT_NE(svg.find("<rect class=\"k0 o\" data-b=\"0\" x=\"88\" y=\"274\" width=\"542\" "
                     "height=\"160\">"),
            std::string::npos)
      << svg;
  // w and f over all 4 steps (they ended at steps 1 and 0: 542 and 271 px).
  EXPECT_NE(svg.find("<rect class=\"k0 o\" data-b=\"1\" x=\"88\" y=\"114\" width=\"1084\" "
                     "height=\"160\">"),
            std::string::npos);
  EXPECT_NE(svg.find(" data-b=\"2\" x=\"88\" y=\"550.93\" width=\"1084\" height=\"273.07\">"
                     "<title>f\nsize 256 KiB (262144 B)\nlive [0, 0]\npool flash.transient"),
            std::string::npos);
}

TEST(FallbackLayoutMapTest, ActivationsViewSaysTheExtentCountsHiddenWeights) {
  const maptest::PlannedBuffers p = maptest::FallbackLayoutPlan();
  MapOptions options;
  options.activations_only = true;
  const std::string svg = RenderSvgMap(p.buffers, p.plan, options);
  EXPECT_EQ(svg.find(" data-b=\"1\""), std::string::npos);  // w hidden
  EXPECT_NE(svg.find(">transient extent 2 MiB (0.0 % over bound) · counts 1 weight or model "
                     "input/output hidden</text>"),
            std::string::npos)
      << svg;
  // Without hidden weights in the pool the line reads as before.
  const maptest::PlannedBuffers small = maptest::SmallPlan();
  const std::string plain = RenderSvgMap(small.buffers, small.plan, options);
  EXPECT_NE(plain.find(">transient extent 2 MiB (0.0 % over bound)</text>"), std::string::npos)
      << plain;
}

}  // namespace
}  // namespace memplan
