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

// The module `input` written for `rewritten`, a copy of the import with
// spaces set.
std::string Emit(const Program& original, const Program& rewritten, const char* input = kLoop) {
  absl::StatusOr<HloModule> module = ParseHloModule(input, "t.hlo");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  absl::StatusOr<std::string> text = EmitHloWithMemorySpaces(input, *module, original, rewritten);
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

// %b is called from both call sites of %a, each called from %main: four
// program instances of %b, two of %a.
constexpr char kNested[] =
    "HloModule k, is_scheduled=true\n"
    "\n"
    "%b (x: f32[4]) -> f32[4] {\n"
    "  %x = f32[4]{0} parameter(0)\n"
    "  ROOT %y = f32[4]{0} exponential(%x)\n"
    "}\n"
    "\n"
    "%a (u: f32[4]) -> f32[4] {\n"
    "  %u = f32[4]{0} parameter(0)\n"
    "  %s1 = f32[4]{0} call(%u), to_apply=%b\n"
    "  ROOT %s2 = f32[4]{0} call(%s1), to_apply=%b\n"
    "}\n"
    "\n"
    "ENTRY %main (v: f32[4]) -> f32[4] {\n"
    "  %v = f32[4]{0} parameter(0)\n"
    "  %c1 = f32[4]{0} call(%v), to_apply=%a\n"
    "  ROOT %c2 = f32[4]{0} call(%c1), to_apply=%a\n"
    "}\n";

// Only the last instance of %b (second call of %b in the second call of %a)
// computes %y in alternate memory: it is written as a clone %b.clone (its
// root evicted back for the call's default-memory result), called from a
// clone %a.clone for %c2 whose %s2 calls it; every other call site shares
// the computation as read. The written module imports to the same program.
TEST(HloEmitterTest, CallSitePlannedApartCallsAClone) {
  const Program original = hlo_test::Import(kNested);
  Program rewritten = original;
  rewritten.values[rewritten.FindValue("c2/s2/y")].space = 1;
  const std::string text = Emit(original, rewritten, kNested);
  EXPECT_EQ(text,
            "HloModule k, is_scheduled=true\n"
            "\n"
            "%b (x: f32[4]) -> f32[4] {\n"
            "  %x = f32[4]{0} parameter(0)\n"
            "  ROOT %y = f32[4]{0} exponential(%x)\n"
            "}\n"
            "\n"
            "%b.clone (x.clone: f32[4]) -> f32[4] {\n"
            "  %x.clone = f32[4]{0} parameter(0)\n"
            "  %y.clone = f32[4]{0:S(1)} exponential(%x.clone)\n"
            "  %y.clone.evict = (f32[4]{0}, f32[4]{0:S(1)}, u32[]) copy-start(%y.clone)\n"
            "  ROOT %y.clone.evicted = f32[4]{0} copy-done(%y.clone.evict)\n"
            "}\n"
            "\n"
            "%a (u: f32[4]) -> f32[4] {\n"
            "  %u = f32[4]{0} parameter(0)\n"
            "  %s1 = f32[4]{0} call(%u), to_apply=%b\n"
            "  ROOT %s2 = f32[4]{0} call(%s1), to_apply=%b\n"
            "}\n"
            "\n"
            "%a.clone (u.clone: f32[4]) -> f32[4] {\n"
            "  %u.clone = f32[4]{0} parameter(0)\n"
            "  %s1.clone = f32[4]{0} call(%u.clone), to_apply=%b\n"
            "  ROOT %s2.clone = f32[4]{0} call(%s1.clone), to_apply=%b.clone\n"
            "}\n"
            "\n"
            "ENTRY %main (v: f32[4]) -> f32[4] {\n"
            "  %v = f32[4]{0} parameter(0)\n"
            "  %c1 = f32[4]{0} call(%v), to_apply=%a\n"
            "  ROOT %c2 = f32[4]{0} call(%c1), to_apply=%a.clone\n"
            "}\n");
  EXPECT_EQ(hlo_test::ProgramDifference(original, hlo_test::Import(text)), "");
}

// Both branches of %c are %f; the second is planned apart and the branch
// list names its clone in its place.
TEST(HloEmitterTest, BranchPlannedApartNamesItsCloneInTheBranchList) {
  constexpr char kBranches[] =
      "HloModule k, is_scheduled=true\n"
      "\n"
      "%f (x: f32[4]) -> f32[4] {\n"
      "  %x = f32[4]{0} parameter(0)\n"
      "  ROOT %y = f32[4]{0} exponential(%x)\n"
      "}\n"
      "\n"
      "ENTRY %main (i: s32[], a: f32[4], b: f32[4]) -> f32[4] {\n"
      "  %i = s32[] parameter(0)\n"
      "  %a = f32[4]{0} parameter(1)\n"
      "  %b = f32[4]{0} parameter(2)\n"
      "  ROOT %c = f32[4]{0} conditional(%i, %a, %b), branch_computations={%f, %f}\n"
      "}\n";
  const Program original = hlo_test::Import(kBranches);
  Program rewritten = original;
  rewritten.values[rewritten.FindValue("c/y")].space = 1;
  const std::string text = Emit(original, rewritten, kBranches);
  EXPECT_THAT(text, HasSubstr("  ROOT %c = f32[4]{0} conditional(%i, %a, %b), branch_computations={%f, %f.clone}\n"));
  EXPECT_THAT(text, HasSubstr("}\n\n%f.clone (x.clone: f32[4]) -> f32[4] {\n"
                              "  %x.clone = f32[4]{0} parameter(0)\n"
                              "  %y.clone = f32[4]{0:S(1)} exponential(%x.clone)\n"));
  EXPECT_EQ(hlo_test::ProgramDifference(original, hlo_test::Import(text)), "");
}

}  // namespace
}  // namespace memplan
