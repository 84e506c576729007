// Nesting depth of computations (ir/validate.h kMaxNestingDepth): programs up
// to 256 levels of calls, loops and conditionals parse; deeper ones get a
// located error at the op that calls the first computation too deep, quickly
// and without deep recursion (20,000 levels).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ir/text_parser.h"
#include "ir/validate.h"

namespace memplan {
namespace {

// @main calls @f1, @fK calls @f(K+1), ..., @fN is a leaf: @fK is K deep.
std::string CallChain(int n) {
  std::string text = "entry func @main(%x: 64) {\n  %y = call(%x) : 64 {callee = @f1}\n  return %y\n}\n";
  for (int k = 1; k <= n; ++k) {
    const std::string a = "%a" + std::to_string(k);
    const std::string b = "%b" + std::to_string(k);
    text += "func @f" + std::to_string(k) + "(" + a + ": 64) {\n";
    text += k < n ? "  " + b + " = call(" + a + ") : 64 {callee = @f" + std::to_string(k + 1) + "}\n"
                  : "  " + b + " = exp(" + a + ") : 64\n";
    text += "  return " + b + "\n}\n";
  }
  return text;
}

// @main loops with cond @c1 and body @w1; body @wK loops with @c(K+1),
// @w(K+1): @cK and @wK are K deep.
std::string LoopNest(int n) {
  std::string text =
      "entry func @main(%x: 64) {\n  %y = while(%x) : 64 {cond = @c1, body = @w1}\n  return %y\n}\n";
  for (int k = 1; k <= n; ++k) {
    const std::string i = std::to_string(k);
    text += "func @c" + i + "(%p" + i + ": 64) {\n  %q" + i + " = compare(%p" + i + ") : pred[]\n  return %q" + i +
            "\n}\n";
    text += "func @w" + i + "(%a" + i + ": 64) {\n";
    text += k < n ? "  %b" + i + " = while(%a" + i + ") : 64 {cond = @c" + std::to_string(k + 1) + ", body = @w" +
                        std::to_string(k + 1) + "}\n"
                  : "  %b" + i + " = exp(%a" + i + ") : 64\n";
    text += "  return %b" + i + "\n}\n";
  }
  return text;
}

// "L:C" of the first occurrence of `needle` in `text` (1-based).
std::string LineColumnOf(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  const std::size_t line_start = text.rfind('\n', at) + 1;  // npos + 1 == 0
  int line = 1;
  for (std::size_t i = 0; i < line_start; ++i) line += text[i] == '\n';
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

TEST(NestingDepthTest, LimitIs256) { EXPECT_EQ(kMaxNestingDepth, 256); }

TEST(NestingDepthTest, CallsUpToTheLimitParse) {
  absl::StatusOr<Program> program = ParseProgram(CallChain(256), "t.mpir");
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(program->computations.size(), 257u);
}

TEST(NestingDepthTest, OneCallDeeperIsALocatedError) {
  const std::string text = CallChain(257);
  absl::StatusOr<Program> program = ParseProgram(text, "t.mpir");
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(program.status().message(),
            "t.mpir:" + LineColumnOf(text, "call(%a256)") +
                ": error: computation @f257 is nested 257 calls deep (each call, while, conditional or "
                "execute adds one); the limit is 256");
}

TEST(NestingDepthTest, LoopsCountLikeCalls) {
  ASSERT_TRUE(ParseProgram(LoopNest(256), "t.mpir").ok());
  const std::string text = LoopNest(257);
  absl::StatusOr<Program> program = ParseProgram(text, "t.mpir");
  ASSERT_FALSE(program.ok());
  // @c257 and @w257 are both 257 deep; the first defined is named.
  EXPECT_EQ(program.status().message(),
            "t.mpir:" + LineColumnOf(text, "while(%a256)") +
                ": error: computation @c257 is nested 257 calls deep (each call, while, conditional or "
                "execute adds one); the limit is 256");
}

TEST(NestingDepthTest, TwentyThousandLevelsFailFast) {
  const std::string text = CallChain(20000);
  absl::StatusOr<Program> program = ParseProgram(text, "t.mpir");
  ASSERT_FALSE(program.ok());
  EXPECT_THAT(std::string(program.status().message()),
              ::testing::EndsWith(": error: computation @f257 is nested 257 calls deep (each call, while, "
                                  "conditional or execute adds one); the limit is 256"));
}

}  // namespace
}  // namespace memplan
