// The gathers(...) result qualifier: parsing, printing and its errors.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/program_builder.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "ir/validate.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

constexpr std::string_view kConcat = R"(program @c

entry func @main(%x: f32[1,4]) {
  %a = exp(%x) : f32[1,4]
  %b = negate(%x) : f32[1,4]
  %c = concatenate(%a, %b) : f32[1,8] gathers(%a, 0, %b, 16) space(1) {bytes_accessed = 0}
  return %c
}
)";

TEST(GathersTest, ParsesAndPrintsCanonically) {
  absl::StatusOr<Program> p = ParseProgram(kConcat, "t.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  const Value& c = p->values[p->FindValue("c")];
  EXPECT_EQ(c.alias, AliasKind::kNone);
  EXPECT_EQ(c.gathers, (std::vector<GatheredOperand>{{p->FindValue("a"), 0}, {p->FindValue("b"), 16}}));
  EXPECT_EQ(c.space, 1);
  EXPECT_EQ(PrintProgram(*p), kConcat);
}

TEST(GathersTest, OrderInTheQualifierIsKept) {
  const std::string text =
      "entry func @m(%x: 8) {\n  %a = exp(%x) : 4\n  %b = exp(%x) : 4\n"
      "  %c = concatenate(%a, %b) : 8 gathers(%b, 0, %a, 4)\n  return %c\n}\n";
  absl::StatusOr<Program> p = ParseProgram(text, "t.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(PrintProgram(*p), text);
}

TEST(GathersTest, SyntaxErrors) {
  const std::string head = "entry func @m(%x: 8) {\n  %a = exp(%x) : 4\n  %b = exp(%x) : 4\n";
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%z, 0)\n}"),
            "t.mpir:4:40: error: gathers(%z): %z is not an operand of this op");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, 0, %a, 4)\n}"),
            "t.mpir:4:47: error: gathers(...) names %a twice; an operand has one place in the result");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a)\n}"),
            "t.mpir:4:42: error: expected ',' and the operand's byte offset in the result, got ')'");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, -4)\n}"),
            "t.mpir:4:44: error: a gathered byte offset must be >= 0, got -4");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, 0) gathers(%b, 4)\n}"),
            "t.mpir:4:47: error: duplicate gathers(...) qualifier");
  EXPECT_EQ(Err("entry func @m(%x: 8 gathers(%x, 0)) {}"),
            "t.mpir:1:21: error: gathers(...) is only allowed on op results");
}

TEST(GathersTest, ValidationErrors) {
  const std::string head = "entry func @m(%x: 8) {\n  %a = exp(%x) : 4\n  %b = exp(%x) : 4\n";
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, 0, %b, 6)\n  return %c\n}"),
            "t.mpir:4:3: error: gathered operand %b (4 bytes at offset 6) exceeds result %c (8 bytes)");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, 0, %b, 2)\n  return %c\n}"),
            "t.mpir:4:3: error: gathered operands %a (4 bytes at offset 0) and %b (at offset 2) of %c overlap");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 4 tied(%a) gathers(%b, 0)\n  return %c\n}"),
            "t.mpir:4:3: error: %c cannot both gather operands and be tied");
  EXPECT_EQ(Err(head + "  %c = concatenate(%a, %b) : 8 gathers(%a, 0)\n"
                       "  %d = concatenate(%a, %b) : 8 gathers(%a, 0)\n  return %c, %d\n}"),
            "t.mpir:5:3: error: %d gathers %a, which %c already gathers; a value has one place");
  EXPECT_EQ(Err(head + "  %c, %d = split(%a, %b) : 8 gathers(%a, 0), 4 view(%a, 0)\n  return %c\n}"),
            "t.mpir:4:3: error: %c gathers %a, which result %d of the same op also aliases");
  EXPECT_EQ(Err("entry func @m(%x: 8) {\n  %w = while(%x) : 8 gathers(%x, 0) {cond = @c, body = @b}\n"
                "  return %w\n}\n"
                "func @c(%p: 8) { %k = compare(%p) : pred[]  return %k }\n"
                "func @b(%q: 8) { return %q }"),
            "t.mpir:2:3: error: gathers(...) is only allowed on results of compute ops in a func, not on while");
}

// Programs built in code: ids out of range are reported, not followed.
TEST(GathersTest, BuiltProgramWithABadId) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 8);
  const OpId op = b.AddOp(main, "concatenate", {x});
  const ValueId c = b.AddResult(op, "c", 8);
  b.value(c).gathers = {GatheredOperand{42, 0}};
  b.SetReturn(main, {c});
  const Program p = std::move(b).Finish();
  const absl::Status s = ValidateProgram(p, "built");
  EXPECT_EQ(s.message(), "built: error: value %c gathers value id 42, which is out of range");
}

}  // namespace
}  // namespace memplan
