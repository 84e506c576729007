// Costs from HLO shapes (io/hlo/cost.h) as the importer attaches them.
#include <gtest/gtest.h>

#include "tests/io/hlo/hlo_test_util.h"

namespace memplan {
namespace {

const OpCost& CostOf(const Program& p, const std::string& value) {
  return p.ops[static_cast<std::size_t>(p.values[static_cast<std::size_t>(p.FindValue(value))].defining_op)].cost;
}

TEST(HloCostTest, Costs) {
  const Program p = hlo_test::Import(R"(HloModule c, is_scheduled=true
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
%softmax (p0: f32[4,128]) -> f32[4,128] {
  %p0 = f32[4,128]{1,0} parameter(0)
  %e = f32[4,128]{1,0} exponential(%p0)
  %z = f32[] constant(0)
  %r = f32[4]{0} reduce(%e, %z), dimensions={1}, to_apply=%add
  %b = f32[4,128]{1,0} broadcast(%r), dimensions={0}
  ROOT %d = f32[4,128]{1,0} divide(%e, %b)
}
ENTRY %main (a: f32[4,64], w: f32[64,128], img: f32[2,8,8,16], k: f32[3,3,16,32]) -> (f32[4,128], f32[2,4,4,32]) {
  %a = f32[4,64]{1,0} parameter(0)
  %w = f32[64,128]{1,0} parameter(1)
  %img = f32[2,8,8,16]{3,2,1,0} parameter(2)
  %k = f32[3,3,16,32]{3,2,1,0} parameter(3)
  %dot = f32[4,128]{1,0} dot(%a, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %sm = f32[4,128]{1,0} fusion(%dot), kind=kLoop, calls=%softmax
  %th = f32[4,128]{1,0} tanh(%sm)
  %conv = f32[2,8,8,32]{3,2,1,0} convolution(%img, %k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  %z0 = f32[] constant(0)
  %mx = f32[2,4,4,32]{3,2,1,0} reduce-window(%conv, %z0), window={size=1x2x2x1 stride=1x2x2x1}, to_apply=%add
  %un = f32[2,4,4,32]{3,2,1,0} frobnicate(%mx)
  ROOT %t = (f32[4,128]{1,0}, f32[2,4,4,32]{3,2,1,0}) tuple(%th, %un)
}
)");
  // dot: 2 * 4*128 results * 64 contracted.
  EXPECT_EQ(CostOf(p, "dot").flops, 2.0 * 4 * 128 * 64);
  // convolution: 2 * 2*8*8*32 results * (3*3*16*32 kernel / 32 output features).
  EXPECT_EQ(CostOf(p, "conv").flops, 2.0 * 2 * 8 * 8 * 32 * (3 * 3 * 16));
  // fusion: exponential 512 transcendentals; reduce 512 + divide 512 flops.
  EXPECT_EQ(CostOf(p, "sm").transcendentals, 512);
  EXPECT_EQ(CostOf(p, "sm").flops, 1024);
  EXPECT_FALSE(CostOf(p, "sm").bytes_accessed.has_value());  // operands + results
  EXPECT_EQ(CostOf(p, "th").transcendentals, 512);
  // reduce-window: 2*4*4*32 results * 4 window elements.
  EXPECT_EQ(CostOf(p, "mx").flops, 2.0 * 4 * 4 * 32 * 4);
  // An unknown opcode: accepted, no flops, default bytes.
  EXPECT_EQ(CostOf(p, "un").flops, 0);
  EXPECT_EQ(p.ops[static_cast<std::size_t>(p.values[static_cast<std::size_t>(p.FindValue("un"))].defining_op)].opcode,
            "hlo.frobnicate");
}

}  // namespace
}  // namespace memplan
