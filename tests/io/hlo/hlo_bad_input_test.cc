// Malformed HLO modules: each is refused with its exact located message
// (exit 2 on the command line, tests/cli/hlo_cli_test.cc).
#include <gtest/gtest.h>

#include "tests/io/hlo/hlo_test_util.h"

namespace memplan {
namespace {

using hlo_test::ImportError;

TEST(HloBadInputTest, TruncatedModule) {
  EXPECT_EQ(ImportError("HloModule m, is_scheduled=true\nENTRY %main (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n"),
            "t.hlo:4:1: error: unexpected end of input, expected '}' closing computation %main (opened at 2:35)");
  EXPECT_EQ(ImportError("HloModule m\nENTRY %main {\n  %a = f32[4]{0} parameter(0)\n  ROOT %b = f32[4]{0} add(%a,"),
            "t.hlo:4:30: error: expected an operand name, got end of input");
  EXPECT_EQ(ImportError(""), "t.hlo:1:1: error: expected 'HloModule' at the start of an HLO module");
}

TEST(HloBadInputTest, UnknownComputation) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(%a), to_apply=%nope
}
)"),
            "t.hlo:4:42: error: unknown computation %nope");
}

TEST(HloBadInputTest, UnknownOperandAndUseBeforeDefinition) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %b = f32[4]{0} add(%a, %zz)
}
)"),
            "t.hlo:4:31: error: unknown operand %zz");
  EXPECT_EQ(ImportError(R"(HloModule m, is_scheduled=true
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} add(%a, %c)
  ROOT %c = f32[4]{0} exponential(%a)
}
)"),
            "t.hlo:4:26: error: operand %c is used before it is defined (at 5:8)");
}

TEST(HloBadInputTest, ShapeMismatchBetweenOperandAndUse) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %b = f32[4]{0} negate(f32[5]{0} %a)
}
)"),
            "t.hlo:4:30: error: operand %a is used as f32[5] but defined as f32[4] at 3:3");
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  %b = f32[3]{0} parameter(1)
  ROOT %c = f32[4]{0} add(%a, %b)
}
)"),
            "t.hlo:5:31: error: add operand 1 %b is f32[3] but the result is f32[4] (elementwise operands have the result's dimensions)");
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[2,64]{1,0} parameter(0)
  %b = f32[32,8]{1,0} parameter(1)
  ROOT %c = f32[2,8]{1,0} dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)"),
            "t.hlo:5:27: error: dot contracts lhs %a dim 1 (size 64) with rhs %b dim 0 (size 32)");
}

TEST(HloBadInputTest, GetTupleElementIndexAndShape) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = (f32[4]{0}, s32[]) parameter(0)
  ROOT %g = f32[4]{0} get-tuple-element(%a), index=2
}
)"),
            "t.hlo:4:52: error: get-tuple-element index 2 is out of range for %a (f32[4], s32[]) (2 elements)");
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = (f32[4]{0}, s32[]) parameter(0)
  ROOT %g = f32[4]{0} get-tuple-element(%a), index=1
}
)"),
            "t.hlo:4:8: error: get-tuple-element %g is f32[4] but element 1 of %a is s32[]");
}

TEST(HloBadInputTest, SyntaxErrors) {
  EXPECT_EQ(ImportError("HloModule m\nENTRY %main {\n  ROOT %a = f31[4]{0} parameter(0)\n}\n"),
            "t.hlo:3:13: error: unknown element type 'f31'");
  EXPECT_EQ(ImportError("HloModule m\nENTRY %main {\n  ROOT %a = f32[?]{0} parameter(0)\n}\n"),
            "t.hlo:3:17: error: unbounded dynamic dimension '?': memplan needs a bound (<=N)");
}

TEST(HloBadInputTest, WhileBodyMustKeepTheLoopCarriedShape) {
  EXPECT_EQ(ImportError(R"(HloModule m
%c (p: f32[4]) -> pred[] {
  %p = f32[4]{0} parameter(0)
  ROOT %t = pred[] constant(true)
}
%b (q: f32[4]) -> f32[2] {
  %q = f32[4]{0} parameter(0)
  ROOT %s = f32[2]{0} slice(%q), slice={[0:2]}
}
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %w = f32[4]{0} while(%a), condition=%c, body=%b
}
)"),
            "t.hlo:12:53: error: while body %b returns f32[2]; the loop-carried shape is f32[4] and the while returns f32[4]");
}

TEST(HloBadInputTest, AsyncDoneMustFollowItsStart) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %d = f32[4]{0} copy-done(%a)
}
)"),
            "t.hlo:4:33: error: copy-done operand %a is not a copy-start");
}

TEST(HloBadInputTest, CallsAndParameters) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(%a)
}
)"),
            "t.hlo:4:23: error: call needs to_apply=%COMPUTATION");
  // A parameter number far past the parameters is a gap, not an allocation.
  EXPECT_EQ(ImportError(R"(HloModule m
%f (x: f32[4]) -> f32[4] {
  ROOT %x = f32[4]{0} parameter(1000000000)
}
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  ROOT %c = f32[4]{0} call(%a), to_apply=%f
}
)"),
            "t.hlo:3:8: error: parameter(1000000000) of %f skips parameter(0)");
}

TEST(HloBadInputTest, MalformedInputOutputAlias) {
  EXPECT_EQ(ImportError(R"(HloModule m, input_output_alias={ {}: (7, {}, may-alias) }
ENTRY %main {
  ROOT %a = f32[4]{0} parameter(0)
}
)"),
            "t.hlo:1:33: error: input_output_alias names parameter 7; the entry has 1");
  EXPECT_EQ(ImportError(R"(HloModule m, input_output_alias={ {1}: (0, {}, may-alias) }
ENTRY %main {
  ROOT %a = f32[4]{0} parameter(0)
}
)"),
            "t.hlo:1:33: error: input_output_alias names output {1}, which the result f32[4] does not have");
  EXPECT_EQ(ImportError(R"(HloModule m, input_output_alias={ {0}: 0 }
ENTRY %main {
  ROOT %a = f32[4]{0} parameter(0)
}
)"),
            "t.hlo:1:33: error: malformed input_output_alias (expected { {OUT}: (PARAM, {IN}, may-alias), ... })");
}

// Entry -> %f0 -> ... -> %f{n-1}: %f{n-1} is nested n calls deep. Deepest
// first, so %f{i} sits on lines 4(n-1-i)+2..+5.
std::string CallChain(int n) {
  std::string text = "HloModule m\n";
  for (int i = n - 1; i >= 0; --i) {
    const std::string callee = i + 1 < n ? "call(%x), to_apply=%f" + std::to_string(i + 1) : "negate(%x)";
    text += "%f" + std::to_string(i) + " (x: f32[4]) -> f32[4] {\n  %x = f32[4]{0} parameter(0)\n  ROOT %r = f32[4]{0} " +
            callee + "\n}\n";
  }
  return text + "ENTRY %main (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n  ROOT %c = f32[4]{0} call(%a), " +
         "to_apply=%f0\n}\n";
}

// As in the text IR (tests/ir/nesting_depth_test.cc): 256 deep is accepted,
// 257 refused at the call that nests too deep (in %f255, line 8).
TEST(HloBadInputTest, CallsNestAtMost256Deep) {
  EXPECT_EQ(ImportError(CallChain(256)), "");
  EXPECT_EQ(ImportError(CallChain(257)),
            "t.hlo:8:8: error: computation %f256 is nested 257 calls deep (each while, conditional or call adds one); "
            "the limit is 256");
}

// A while whose backend_config carries `n` as its known_trip_count.
std::string WhileWithTripCount(const std::string& n) {
  return R"(HloModule w
%cond (c: s32[]) -> pred[] {
  %c = s32[] parameter(0)
  %k = s32[] constant(4)
  ROOT %lt = pred[] compare(%c, %k), direction=LT
}
%body (p: s32[]) -> s32[] {
  %p = s32[] parameter(0)
  %one = s32[] constant(1)
  ROOT %i = s32[] add(%p, %one)
}
ENTRY %main (a: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  ROOT %w = s32[] while(%a), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":)" +
         n + "}}\n}\n";
}

TEST(HloBadInputTest, MalformedKnownTripCount) {
  EXPECT_EQ(ImportError(WhileWithTripCount(R"("3")")), "");
  EXPECT_EQ(ImportError(WhileWithTripCount("9223372036854775807")), "");
  const std::string expected = " (expected {\"n\":\"N\"}, N a whole number from 0 to 9223372036854775807)";
  EXPECT_EQ(ImportError(WhileWithTripCount(R"("-3")")),
            "t.hlo:14:74: error: while %w has a malformed known_trip_count \"-3\"" + expected);
  EXPECT_EQ(ImportError(WhileWithTripCount(R"("abc")")),
            "t.hlo:14:74: error: while %w has a malformed known_trip_count \"abc\"" + expected);
  EXPECT_EQ(ImportError(WhileWithTripCount(R"("99999999999999999999999")")),
            "t.hlo:14:74: error: while %w has a malformed known_trip_count \"99999999999999999999999\"" + expected);
  EXPECT_EQ(ImportError(WhileWithTripCount(R"("")")),
            "t.hlo:14:74: error: while %w has a malformed known_trip_count \"\"" + expected);
}

// Operand numbers count from 0, as in XLA.
TEST(HloBadInputTest, OperandNumbersCountFromZero) {
  EXPECT_EQ(ImportError(R"(HloModule m
ENTRY %main {
  %a = f32[4]{0} parameter(0)
  %i = s32[] parameter(1)
  ROOT %d = f32[8]{0} dynamic-update-slice(%a, %a, %i)
}
)"),
            "t.hlo:5:8: error: dynamic-update-slice %d is f32[8] but its operand 0 is f32[4]");
}

}  // namespace
}  // namespace memplan
