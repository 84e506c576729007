// io/hlo/emitter.h on plans set by hand: where a plan holds a value in
// another memory space than an aliasing edge of a while needs, the emitter
// writes a copy into the needed space before the edge (as XLA's pass would),
// and the loop's condition parameter and result take the spaces the body
// parameter has. The written module re-imports to the original program.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/hlo/emitter.h"
#include "io/hlo/parser.h"
#include "tests/io/hlo/hlo_test_util.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;

constexpr char kLoop[] =
    "HloModule m, is_scheduled=true\n"
    "\n"
    "%body (p: (s32[], f32[4])) -> (s32[], f32[4]) {\n"
    "  %p = (s32[], f32[4]{0}) parameter(0)\n"
    "  %i = s32[] get-tuple-element(%p), index=0\n"
    "  %x = f32[4]{0} get-tuple-element(%p), index=1\n"
    "  %one = s32[] constant(1)\n"
    "  %n = s32[] add(%i, %one)\n"
    "  %e = f32[4]{0} exponential(%x)\n"
    "  ROOT %t = (s32[], f32[4]{0}) tuple(%n, %e)\n"
    "}\n"
    "\n"
    "%cond (q: (s32[], f32[4])) -> pred[] {\n"
    "  %q = (s32[], f32[4]{0}) parameter(0)\n"
    "  %qi = s32[] get-tuple-element(%q), index=0\n"
    "  %ten = s32[] constant(10)\n"
    "  ROOT %lt = pred[] compare(%qi, %ten), direction=LT\n"
    "}\n"
    "\n"
    "ENTRY %main (a: f32[4]) -> (s32[], f32[4]) {\n"
    "  %a = f32[4]{0} parameter(0)\n"
    "  %zero = s32[] constant(0)\n"
    "  %init = (s32[], f32[4]{0}) tuple(%zero, %a)\n"
    "  ROOT %w = (s32[], f32[4]{0}) while(%init), condition=%cond, body=%body\n"
    "}\n";

// The module written for `rewritten`, a copy of the import with spaces set.
std::string Emit(const Program& original, const Program& rewritten) {
  absl::StatusOr<HloModule> module = ParseHloModule(kLoop, "t.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  absl::StatusOr<std::string> text = EmitHloWithMemorySpaces(kLoop, *module, original, rewritten);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

// Element 1 is carried in default memory, but the body writes its new value
// %e in alternate memory: the body root reads an eviction of it, and the
// while's result stays in default memory.
TEST(HloEmitterTest, BodyRootLeafInAnotherSpaceIsCopiedBack) {
  const Program original = hlo_test::Import(kLoop);
  Program rewritten = original;
  rewritten.values[rewritten.FindValue("e")].space = 1;
  rewritten.values[rewritten.FindValue("w/1")].space = 1;  // forced to the carried space
  const std::string text = Emit(original, rewritten);
  EXPECT_THAT(text, HasSubstr("  %e = f32[4]{0:S(1)} exponential(%x)\n"
                              "  %e.evict = (f32[4]{0}, f32[4]{0:S(1)}, u32[]) copy-start(%e)\n"
                              "  %e.evicted = f32[4]{0} copy-done(%e.evict)\n"
                              "  ROOT %t = (s32[], f32[4]{0}) tuple(%n, %e.evicted)\n"));
  EXPECT_THAT(text, HasSubstr("  ROOT %w = (s32[], f32[4]{0}) while(%init)"));
  const Program again = hlo_test::Import(text);
  EXPECT_EQ(again.ops.size(), original.ops.size());  // the copy folds into %e
}

// Element 1 is carried in alternate memory: the loop's operand reads a
// prefetch of %a written before the tuple, and the condition's parameter,
// the body's and the while's result all have S(1) on element 1.
TEST(HloEmitterTest, CarriedInAlternateMemoryPrefetchesTheOperand) {
  const Program original = hlo_test::Import(kLoop);
  Program rewritten = original;
  rewritten.values[rewritten.FindValue("p/1")].space = 1;
  const std::string text = Emit(original, rewritten);
  const std::string carried = "(s32[], f32[4]{0:S(1)})";
  EXPECT_THAT(text, HasSubstr("  %p = " + carried + " parameter(0)\n"));
  EXPECT_THAT(text, HasSubstr("  %x = f32[4]{0:S(1)} get-tuple-element(%p), index=1\n"));
  EXPECT_THAT(text, HasSubstr("  %q = " + carried + " parameter(0)\n"));
  EXPECT_THAT(text, HasSubstr("  %a.prefetch = (f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(%a)\n"
                              "  %a.prefetched = f32[4]{0:S(1)} copy-done(%a.prefetch)\n"
                              "  %init = " + carried + " tuple(%zero, %a.prefetched)\n"
                              "  ROOT %w = " + carried + " while(%init)"));
  // The body's new value %e (default memory) is prefetched for the root.
  EXPECT_THAT(text, HasSubstr("  %e.prefetched = f32[4]{0:S(1)} copy-done(%e.prefetch)\n"
                              "  ROOT %t = " + carried + " tuple(%n, %e.prefetched)\n"));
  const Program again = hlo_test::Import(text);
  EXPECT_EQ(again.ops.size(), original.ops.size());
}

}  // namespace
}  // namespace memplan
