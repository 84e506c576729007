// Subviews at offsets given by dims (`view(%x, align(%n, 64))`, issue 31
// item 8): parsed as size expressions, printed back, proved inside their
// operand for every binding, and refused outside execution regions.
#include <string>

#include "gtest/gtest.h"
#include "ir/dims.h"
#include "ir/text_printer.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

const char* const kDynamicViewHead =
    "dim %n <= 1024\n"
    "entry func @main(%x: (2*%n + 64) external, %ready: timepoint) {\n"
    "  %y, %done = execute(%x, %ready) : 64, timepoint {callee = @r}\n"
    "  return %y, %done\n"
    "}\n"
    "region @r(%in: (2*%n + 64), %await: timepoint) affinity(\"gpu0\") {\n";

std::string DynamicViewRegion(const std::string& body) {
  return std::string(kDynamicViewHead) + body + "  return %o, %await\n}\n";
}

TEST(DynamicViewTest, ParsesAsAnExpressionAndPrintsBack) {
  const std::string text = DynamicViewRegion(
      "  %buf = dispatch(%in) : (align(4*%n, 64) + 256)\n"
      "  %tail = subview(%buf) : 256 view(%buf, align(4*%n, 64))\n"
      "  %w = subview(%in) : (%n) view(%in, %n + 64)\n"
      "  %o = dispatch(%tail, %w) : 64\n");
  const Program program = ParseOk(text);
  ASSERT_EQ(program.values.size(), 10u);
  const Value& tail = program.values[7];
  ASSERT_EQ(tail.name, "tail");
  ASSERT_TRUE(tail.view_offset_expr.has_value());
  EXPECT_EQ(tail.view_offset_expr->ToString(DimNames(program)), "align(4*%n, 64)");
  EXPECT_EQ(tail.view_offset, 4096);  // at the evaluation point n = 1024
  const Value& w = program.values[8];
  ASSERT_EQ(w.name, "w");
  EXPECT_EQ(w.view_offset, 1088);
  const std::string printed = PrintProgram(program);
  EXPECT_NE(printed.find("%tail = subview(%buf) : 256 view(%buf, align(4*%n, 64))"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("%w = subview(%in) : (%n) view(%in, %n + 64)"), std::string::npos)
      << printed;
  const Program again = ParseOk(printed);
  EXPECT_EQ(PrintProgram(again), printed);
}

TEST(DynamicViewTest, ConstantExpressionIsAPlainOffset) {
  const Program program = ParseOk(DynamicViewRegion(
      "  %w = subview(%in) : 32 view(%in, (16 + 16))\n  %o = dispatch(%w) : 64\n"));
  const Value& w = program.values[6];
  EXPECT_FALSE(w.view_offset_expr.has_value());
  EXPECT_EQ(w.view_offset, 32);
}

TEST(DynamicViewTest, AtTheBindingOfTheDims) {
  Program program = ParseOk(
      DynamicViewRegion("  %w = subview(%in) : (%n) view(%in, %n + 64)\n  %o = dispatch(%w) : 64\n"));
  ASSERT_TRUE(BindDims(program, {{"n", 10}}).ok());
  EXPECT_EQ(program.values[6].view_offset, 74);
  EXPECT_EQ(program.values[6].size, 10);
}

TEST(DynamicViewTest, ProvablyPastTheEndIsLocated) {
  EXPECT_EQ(Err(DynamicViewRegion("  %w = subview(%in) : (%n) view(%in, %n + 65)\n"
                                  "  %o = dispatch(%w) : 64\n")),
            "t.mpir:7:3: error: view %w (%n bytes at offset %n + 65) exceeds operand %in "
            "(2*%n + 64 bytes)");
}

TEST(DynamicViewTest, NotProvablyInsideIsLocated) {
  // Fits at the bound (n = 1024: 1024 + 128 <= 2112) but not at n = 1.
  EXPECT_EQ(Err(DynamicViewRegion("  %w = subview(%in) : 128 view(%in, %n)\n"
                                  "  %o = dispatch(%w) : 64\n")),
            "t.mpir:7:3: error: view %w (128 bytes at offset %n) exceeds operand %in "
            "(2*%n + 64 bytes) for some binding of the dims within their bounds (not provably "
            "inside it: bound the dims or align the sizes)");
}

TEST(DynamicViewTest, RefusedOutsideARegion) {
  EXPECT_EQ(Err("dim %n <= 4096\nentry func @m(%x: (4*%n)) {\n"
                "  %v = slice(%x) : (2*%n) view(%x, 2*%n)\n  return %v\n}"),
            "t.mpir:3:3: error: view %v at offset 2*%n: a subview at an offset given by dims "
            "must be defined in an execution region (`region @r`), whose slices keep symbolic "
            "offsets; buffers outside regions are laid out at constant byte offsets");
}

}  // namespace
}  // namespace memplan
