// The HLO text parser (io/hlo/parser.h): module header, computations,
// instructions, shapes, layouts and attributes.
#include <gtest/gtest.h>

#include "io/hlo/parser.h"
#include "tests/io/hlo/hlo_test_util.h"
#include "io/hlo/shape.h"

namespace memplan {
namespace {

HloModule Parse(const std::string& text) {
  absl::StatusOr<HloModule> m = ParseHloModule(text, "t.hlo");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : HloModule{};
}

TEST(HloParserTest, HeaderComputationsAndInstructions) {
  const HloModule m = Parse(R"(HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[2,3]{1,0})->f32[2,3]{1,0}}

%helper (x: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  ROOT %y = f32[] negate(f32[] %x)
}

ENTRY %main.3 (Arg_0.1: f32[2,3]) -> f32[2,3] {
  %Arg_0.1 = f32[2,3]{1,0} parameter(0), metadata={op_name="x" source_line=3}
  ROOT %exponential.2 = f32[2,3]{1,0:S(1)} exponential(f32[2,3]{1,0} %Arg_0.1), metadata={op_type="exp"}
}
)");
  EXPECT_EQ(m.name, "jit_f");
  EXPECT_TRUE(m.is_scheduled);
  ASSERT_EQ(m.computations.size(), 2u);
  EXPECT_EQ(m.entry, 1u);
  const HloComputation& main = m.computations[1];
  EXPECT_EQ(main.name, "main.3");
  ASSERT_EQ(main.instructions.size(), 2u);
  EXPECT_EQ(main.root, 1u);
  const HloInstruction& exp = main.instructions[1];
  EXPECT_EQ(exp.opcode, "exponential");
  EXPECT_EQ(exp.shape.ToString(), "f32[2,3]");
  EXPECT_EQ(exp.shape.memory_space, 1);
  ASSERT_EQ(exp.operands.size(), 1u);
  EXPECT_EQ(exp.operands[0].name, "Arg_0.1");
  ASSERT_TRUE(exp.operands[0].shape.has_value());
  EXPECT_EQ(exp.operands[0].loc, (SourceLocation{10, 70}));
  EXPECT_EQ(main.instructions[0].parameter_number, 0);
  ASSERT_NE(main.instructions[0].Find("metadata"), nullptr);
  EXPECT_EQ(main.instructions[0].Find("metadata")->value, "{op_name=\"x\" source_line=3}");
}

TEST(HloParserTest, TupleShapesCommentsAndBareNames) {
  const HloModule m = Parse(R"(HloModule m
ENTRY main {
  p = (s32[], (bf16[4,8]{1,0}, /*index=1*/pred[3])) parameter(0)
  ROOT g = s32[] get-tuple-element(p), index=0
}
)");
  const HloShape& s = m.computations[0].instructions[0].shape;
  EXPECT_FALSE(m.is_scheduled);
  EXPECT_EQ(s.ToString(), "(s32[], (bf16[4,8], pred[3]))");
  EXPECT_EQ(s.LeafCount(), 3u);
  EXPECT_EQ(m.computations[0].instructions[1].Find("index")->value, "0");
}

TEST(HloParserTest, ElementSizes) {
  HloShape s;
  s.dims = {3, 5};
  for (const auto& [type, bytes] : std::vector<std::pair<std::string, Bytes>>{
           {"pred", 15}, {"s4", 8}, {"u8", 15}, {"f16", 30}, {"bf16", 30}, {"f32", 60},
           {"s64", 120}, {"c64", 120}, {"c128", 240}, {"f8e4m3fn", 15}, {"token", 0}}) {
    s.element_type = type;
    EXPECT_EQ(HloArrayBytes(s), bytes) << type;
  }
}

TEST(HloParserTest, DynamicBoundedDimsUseTheirBound) {
  const HloModule m = Parse("HloModule m\nENTRY e {\n  ROOT p = f32[<=16,4]{1,0} parameter(0)\n}\n");
  EXPECT_EQ(m.computations[0].instructions[0].shape.dims, (std::vector<std::int64_t>{16, 4}));
}

TEST(HloParserTest, RecognisesHloText) {
  EXPECT_TRUE(LooksLikeHloText("  /* dump */\nHloModule x, is_scheduled=true"));
  EXPECT_FALSE(LooksLikeHloText("HloModules x"));
  EXPECT_FALSE(LooksLikeHloText("func @main() {}"));
}

// As XLA's HLO text parser: a module without an ENTRY computation takes its
// last computation as the entry.
TEST(HloParserTest, WithoutEntryTheLastComputationIsTheEntry) {
  const Program p = hlo_test::Import(R"(HloModule m
%neg (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%x)
}
%main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(%a), to_apply=%neg
}
)");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(p.computations[static_cast<std::size_t>(p.entry)].name, "main");
  EXPECT_NE(p.FindValue("c"), kNoId);
}

}  // namespace
}  // namespace memplan
