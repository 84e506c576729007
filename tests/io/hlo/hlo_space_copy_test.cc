// Memory-space copies in HLO: the importer folds a copy-start/copy-done pair
// between memory spaces into its source (memplan plans spaces itself), keeps
// a copy within one space as an async pair, and WithMemorySpaces edits S(n).
#include <string>

#include <gtest/gtest.h>

#include "io/hlo/layout_text.h"
#include "tests/io/hlo/hlo_test_util.h"

namespace memplan {
namespace {

using hlo_test::Import;

int CountOpcode(const Program& p, const std::string& opcode) {
  int n = 0;
  for (const Op& op : p.ops) n += op.opcode == opcode;
  return n;
}

TEST(HloSpaceCopyTest, PrefetchPairFoldsIntoItsSource) {
  const Program p = Import(
      "HloModule m, is_scheduled=true\n"
      "ENTRY %main (a: f32[4]) -> f32[4] {\n"
      "  %a = f32[4]{0} parameter(0)\n"
      "  %cs = (f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(f32[4]{0} %a)\n"
      "  %cd = f32[4]{0:S(1)} copy-done((f32[4]{0:S(1)}, f32[4]{0}, u32[]) %cs)\n"
      "  ROOT %e = f32[4]{0:S(1)} exponential(f32[4]{0:S(1)} %cd)\n"
      "}\n");
  ASSERT_EQ(p.ops.size(), 1u);
  const Op& e = p.ops[0];
  EXPECT_EQ(e.opcode, "hlo.exponential");
  ASSERT_EQ(e.operands.size(), 1u);
  EXPECT_EQ(p.values[e.operands[0]].name, "a");
}

TEST(HloSpaceCopyTest, EvictedRootReturnsItsSource) {
  const Program p = Import(
      "HloModule m\n"
      "ENTRY %main (a: f32[4]) -> f32[4] {\n"
      "  %a = f32[4]{0} parameter(0)\n"
      "  %e = f32[4]{0:S(1)} exponential(%a)\n"
      "  %cs = (f32[4]{0}, f32[4]{0:S(1)}, u32[]) copy-start(%e)\n"
      "  ROOT %cd = f32[4]{0} copy-done(%cs)\n"
      "}\n");
  EXPECT_EQ(p.ops.size(), 1u);
  const Computation& entry = p.computations[p.entry];
  ASSERT_EQ(entry.results.size(), 1u);
  EXPECT_EQ(p.values[entry.results[0]].name, "e");
}

TEST(HloSpaceCopyTest, CopyWithinOneSpaceStaysAnAsyncPair) {
  const Program p = Import(
      "HloModule m\n"
      "ENTRY %main (a: f32[4]) -> f32[4] {\n"
      "  %a = f32[4]{0} parameter(0)\n"
      "  %cs = (f32[4]{0}, f32[4]{0}, u32[]) copy-start(%a)\n"
      "  ROOT %cd = f32[4]{0} copy-done(%cs)\n"
      "}\n");
  EXPECT_EQ(CountOpcode(p, "copy-start"), 1);
  EXPECT_EQ(CountOpcode(p, "copy-done"), 1);
}

TEST(HloSpaceCopyTest, ACopyStartReadTwiceIsNotFolded) {
  const Program p = Import(
      "HloModule m\n"
      "ENTRY %main (a: f32[4]) -> (f32[4], (f32[4], f32[4], u32[])) {\n"
      "  %a = f32[4]{0} parameter(0)\n"
      "  %cs = (f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(%a)\n"
      "  %cd = f32[4]{0:S(1)} copy-done(%cs)\n"
      "  ROOT %t = (f32[4]{0:S(1)}, (f32[4]{0:S(1)}, f32[4]{0}, u32[])) tuple(%cd, %cs)\n"
      "}\n");
  EXPECT_EQ(CountOpcode(p, "copy-start"), 1);
  EXPECT_EQ(CountOpcode(p, "copy-done"), 1);
}

TEST(HloLayoutTextTest, SetsAndRemovesMemorySpaces) {
  EXPECT_EQ(WithMemorySpaces("f32[4]{0}", {1}), "f32[4]{0:S(1)}");
  EXPECT_EQ(WithMemorySpaces("f32[4]{0:S(1)}", {0}), "f32[4]{0}");
  EXPECT_EQ(WithMemorySpaces("f32[8,128]{1,0:T(8,128)S(1)}", {2}), "f32[8,128]{1,0:T(8,128)S(2)}");
  EXPECT_EQ(WithMemorySpaces("f32[8,128]{1,0:T(8,128)S(1)}", {0}), "f32[8,128]{1,0:T(8,128)}");
  EXPECT_EQ(WithMemorySpaces("f32[2,3]", {1}), "f32[2,3]{1,0:S(1)}");
  EXPECT_EQ(WithMemorySpaces("s32[]", {1}), "s32[]{:S(1)}");
  EXPECT_EQ(WithMemorySpaces("s32[]", {0}), "s32[]");
  EXPECT_EQ(WithMemorySpaces("(s32[], /*index=1*/f32[4]{0}, (pred[]))", {0, 1, 1}),
            "(s32[], /*index=1*/f32[4]{0:S(1)}, (pred[]{:S(1)}))");
  EXPECT_EQ(WithMemorySpaces("f32[4]{0}", {1, 1}), std::nullopt);  // leaf count differs
  EXPECT_EQ(WithMemorySpaces("(f32[4]{0}", {1}), std::nullopt);    // unclosed tuple
}

}  // namespace
}  // namespace memplan
