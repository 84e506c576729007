// ParseSizeExpr (ir/text_parser.h): a lone size expression over a program's
// dims, as the JSON plan reads expression text back.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/dims.h"
#include "ir/text_parser.h"

namespace memplan {
namespace {

Program TwoDims() {
  absl::StatusOr<Program> p = ParseProgram(
      "dim %n <= 4096\n"
      "dim %m <= 8\n"
      "entry func @main(%x: (4*%n)) {\n"
      "}\n",
      "t.mpir");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : Program{};
}

std::string Error(std::string_view text) {
  const Program p = TwoDims();
  absl::StatusOr<SizeExpr> e = ParseSizeExpr(text, p, "e");
  if (e.ok()) return "parsed: " + e->ToString(DimNames(p));
  EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(e.status().message());
}

// Every canonical text (SizeExpr::ToString) reads back as the same expression.
TEST(ParseSizeExprTest, CanonicalTextRoundTrips) {
  const Program p = TwoDims();
  const std::vector<std::string> names = DimNames(p);
  const SizeExpr n = SizeExpr::Dim(0), m = SizeExpr::Dim(1);
  absl::StatusOr<SizeExpr> nm = SizeExpr::Multiply(n, m);
  ASSERT_TRUE(nm.ok());
  const std::vector<SizeExpr> cases = {
      SizeExpr::Constant(0),
      SizeExpr::Constant(24576),
      n.Scaled(4) + SizeExpr::Constant(64),
      SizeExpr::AlignUp(n.Scaled(4), 64) + SizeExpr::Constant(8192),
      SizeExpr::Max(m.Scaled(8), SizeExpr::Constant(256)),
      *nm + n,
  };
  for (const SizeExpr& e : cases) {
    const std::string text = e.ToString(names);
    absl::StatusOr<SizeExpr> back = ParseSizeExpr(text, p, "e");
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_TRUE(*back == e) << text << " read back as " << back->ToString(names);
  }
}

TEST(ParseSizeExprTest, NonCanonicalTextNormalises) {
  EXPECT_EQ(Error("(%n + 1) * 2"), "parsed: 2*%n + 2");
  EXPECT_EQ(Error("align(64 + 4*%n, 64)"), "parsed: align(4*%n, 64) + 64");
}

TEST(ParseSizeExprTest, ErrorsAreLocatedInTheText) {
  EXPECT_EQ(Error("4*%k"), "e:1:3: error: unknown dim %k");
  EXPECT_EQ(Error("4 %n"),
            "e:1:3: error: expected '+', '*' or the end of the size expression, got '%n'");
  EXPECT_EQ(Error(""),
            "e:1:1: error: unexpected end of input, expected a size (an integer, a dim %name, '(', "
            "max(...) or align(...))");
  EXPECT_EQ(Error("max(4, %n"), "e:1:10: error: unexpected end of input, expected ',' or ')' "
                                "closing max(");
  EXPECT_EQ(Error("\xff"), "e:1:1: error: invalid UTF-8 (byte 0xFF)");
}

}  // namespace
}  // namespace memplan
