// One test per HLO aliasing rule (io/hlo/importer.h), each with the exact
// buffer (alias set) the rule makes.
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/io/hlo/hlo_test_util.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using hlo_test::BufferOf;
using hlo_test::Import;
using Names = std::vector<std::string>;

TEST(HloAliasingTest, TupleAndGetTupleElementShareElementBuffers) {
  const Program p = Import(R"(HloModule t, is_scheduled=true
ENTRY %main (a: f32[4], b: f32[2]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  %e = f32[4]{0} exponential(f32[4]{0} %a)
  %t = (f32[4]{0}, f32[2]{0}) tuple(%e, %b)
  %g = f32[4]{0} get-tuple-element(%t), index=0
  ROOT %n = f32[4]{0} negate(%g)
}
)");
  EXPECT_EQ(BufferOf(p, "e"), (Names{"e", "g", "t/0"}));
  EXPECT_EQ(BufferOf(p, "b"), (Names{"b", "t/1"}));
  EXPECT_EQ(BufferOf(p, "n"), (Names{"n"}));
  // Tuple and get-tuple-element move no bytes; the get-tuple-element reads
  // only the element it selects.
  const Op& gte = p.ops[static_cast<std::size_t>(p.values[static_cast<std::size_t>(p.FindValue("g"))].defining_op)];
  EXPECT_EQ(gte.cost.bytes_accessed, 0);
  EXPECT_EQ(gte.operands, (std::vector<ValueId>{p.FindValue("t/0")}));
}

TEST(HloAliasingTest, BitcastIsAView) {
  const Program p = Import(R"(HloModule t, is_scheduled=true
ENTRY %main (a: f32[2,3]) -> f32[6] {
  %a = f32[2,3]{1,0} parameter(0)
  %e = f32[2,3]{1,0} exponential(%a)
  %bc = f32[6]{0} bitcast(%e)
  ROOT %n = f32[6]{0} negate(%bc)
}
)");
  EXPECT_EQ(BufferOf(p, "bc"), (Names{"bc", "e"}));
  EXPECT_EQ(p.values[static_cast<std::size_t>(p.FindValue("bc"))].alias, AliasKind::kView);
}

constexpr const char* kWhile = R"(HloModule w, is_scheduled=true
%cond (c: (s32[], f32[8])) -> pred[] {
  %c = (s32[], f32[8]{0}) parameter(0)
  %ci = s32[] get-tuple-element(%c), index=0
  %k = s32[] constant(4)
  ROOT %lt = pred[] compare(%ci, %k), direction=LT
}
%body (p: (s32[], f32[8])) -> (s32[], f32[8]) {
  %p = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element(%p), index=0
  %x = f32[8]{0} get-tuple-element(%p), index=1
  %one = s32[] constant(1)
  %i2 = s32[] add(%i, %one)
  %x2 = f32[8]{0} exponential(%x)
  ROOT %r = (s32[], f32[8]{0}) tuple(%i2, %x2)
}
ENTRY %main (a: f32[8]) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  %z = s32[] constant(0)
  %t = (s32[], f32[8]{0}) tuple(%z, %a)
  %w = (s32[], f32[8]{0}) while(%t), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"4"}}
  ROOT %out = f32[8]{0} get-tuple-element(%w), index=1
}
)";

TEST(HloAliasingTest, WhileLoopCarriedLeavesShareOneBufferEach) {
  const Program p = Import(kWhile);
  // The constant and the entry parameter are copied into the loop (XLA's
  // copy insertion); operand, condition and body parameters, body root and
  // result share storage leaf by leaf.
  EXPECT_EQ(BufferOf(p, "w/1"), (Names{"c/1", "out", "p/1", "r/1", "t/1.copy", "w/1", "x", "x2"}));
  EXPECT_EQ(BufferOf(p, "w/0"), (Names{"c/0", "ci", "i", "i2", "p/0", "r/0", "t/0.copy", "w/0"}));
  EXPECT_EQ(BufferOf(p, "a"), (Names{"a", "t/1"}));
  const Op& loop = p.ops[static_cast<std::size_t>(p.values[static_cast<std::size_t>(p.FindValue("w/0"))].defining_op)];
  EXPECT_EQ(loop.opcode, "while");
  EXPECT_EQ(loop.trip_count, 4);
}

TEST(HloAliasingTest, ConditionalBranchesTakeTheirOwnOperandAndShareResults) {
  const Program p = Import(R"(HloModule c, is_scheduled=true
%then (tp: f32[4]) -> f32[4] {
  %tp = f32[4]{0} parameter(0)
  ROOT %te = f32[4]{0} exponential(%tp)
}
%else (ep: f32[2,2]) -> f32[4] {
  %ep = f32[2,2]{1,0} parameter(0)
  ROOT %er = f32[4]{0} reshape(%ep)
}
ENTRY %main (q: pred[], x: f32[4], y: f32[2,2]) -> f32[4] {
  %q = pred[] parameter(0)
  %x = f32[4]{0} parameter(1)
  %y = f32[2,2]{1,0} parameter(2)
  ROOT %c = f32[4]{0} conditional(%q, %x, %y), true_computation=%then, false_computation=%else
}
)");
  EXPECT_EQ(BufferOf(p, "c"), (Names{"c", "er", "te"}));
  EXPECT_EQ(BufferOf(p, "x"), (Names{"c/else/unused1", "tp", "x"}));
  EXPECT_EQ(BufferOf(p, "y"), (Names{"c/then/unused2", "ep", "y"}));
}

TEST(HloAliasingTest, CallSharesArgumentsAndResultsAndIsImportedPerCallSite) {
  const Program p = Import(R"(HloModule k, is_scheduled=true
%f (fa: f32[4]) -> f32[4] {
  %fa = f32[4]{0} parameter(0)
  ROOT %fe = f32[4]{0} exponential(%fa)
}
ENTRY %main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %cl = f32[4]{0} call(%a), to_apply=%f
  %cl2 = f32[4]{0} call(%cl), to_apply=%f
  ROOT %n = f32[4]{0} negate(%cl2)
}
)");
  EXPECT_EQ(BufferOf(p, "a"), (Names{"a", "fa"}));
  EXPECT_EQ(BufferOf(p, "cl"), (Names{"cl", "cl2/fa", "fe"}));
  EXPECT_EQ(BufferOf(p, "cl2"), (Names{"cl2", "cl2/fe"}));
  EXPECT_NE(p.FindComputation("cl2/f"), kNoId);
}

TEST(HloAliasingTest, ComputationsCalledFromClonedCallersGetUniqueNames) {
  const Program p = Import(R"(HloModule k, is_scheduled=true
%b (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %y = f32[4]{0} exponential(%x)
}
%a (u: f32[4]) -> f32[4] {
  %u = f32[4]{0} parameter(0)
  %s1 = f32[4]{0} call(%u), to_apply=%b
  ROOT %s2 = f32[4]{0} call(%s1), to_apply=%b
}
ENTRY %main (v: f32[4]) -> f32[4] {
  %v = f32[4]{0} parameter(0)
  %c1 = f32[4]{0} call(%v), to_apply=%a
  ROOT %c2 = f32[4]{0} call(%c1), to_apply=%a
}
)");
  std::vector<std::string> names;
  for (const Computation& c : p.computations) names.push_back(c.name);
  // A copy is named by the call sites leading to it.
  EXPECT_EQ(names, (Names{"main", "a", "b", "s2/b", "c2/a", "c2/s1/b", "c2/s2/b"}));
  EXPECT_EQ(BufferOf(p, "c1"), (Names{"c1", "c2/s1/x", "c2/u", "s2", "s2/y"}));
}

// A computation called from two sites imports as XLA's FlattenCallGraph
// leaves it, one clone per site: each site's parameters, instructions and
// results are values of their own (no buffer spans both calls), so the
// shared and the cloned module are one program but for names.
constexpr const char* kSharedCalls = R"(HloModule k, is_scheduled=true
%b (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %y = f32[4]{0} exponential(%x)
}
%a (u: f32[4], w: f32[4]) -> f32[4] {
  %u = f32[4]{0} parameter(0)
  %w = f32[4]{0} parameter(1)
  %s1 = f32[4]{0} call(%u), to_apply=%b
  %s2 = f32[4]{0} call(%s1), to_apply=%b
  ROOT %m = f32[4]{0} multiply(%s2, %w)
}
ENTRY %main (v: f32[4], k: f32[4]) -> f32[4] {
  %v = f32[4]{0} parameter(0)
  %k = f32[4]{0} parameter(1)
  %c1 = f32[4]{0} call(%v, %k), to_apply=%a
  %c2 = f32[4]{0} call(%c1, %k), to_apply=%a
  ROOT %n = f32[4]{0} add(%c2, %v)
}
)";

constexpr const char* kClonedCalls = R"(HloModule k, is_scheduled=true
%b (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  ROOT %y = f32[4]{0} exponential(%x)
}
%b.clone (x.clone: f32[4]) -> f32[4] {
  %x.clone = f32[4]{0} parameter(0)
  ROOT %y.clone = f32[4]{0} exponential(%x.clone)
}
%a (u: f32[4], w: f32[4]) -> f32[4] {
  %u = f32[4]{0} parameter(0)
  %w = f32[4]{0} parameter(1)
  %s1 = f32[4]{0} call(%u), to_apply=%b
  %s2 = f32[4]{0} call(%s1), to_apply=%b.clone
  ROOT %m = f32[4]{0} multiply(%s2, %w)
}
%b.clone.1 (x.clone.1: f32[4]) -> f32[4] {
  %x.clone.1 = f32[4]{0} parameter(0)
  ROOT %y.clone.1 = f32[4]{0} exponential(%x.clone.1)
}
%b.clone.2 (x.clone.2: f32[4]) -> f32[4] {
  %x.clone.2 = f32[4]{0} parameter(0)
  ROOT %y.clone.2 = f32[4]{0} exponential(%x.clone.2)
}
%a.clone (u.clone: f32[4], w.clone: f32[4]) -> f32[4] {
  %u.clone = f32[4]{0} parameter(0)
  %w.clone = f32[4]{0} parameter(1)
  %s1.clone = f32[4]{0} call(%u.clone), to_apply=%b.clone.1
  %s2.clone = f32[4]{0} call(%s1.clone), to_apply=%b.clone.2
  ROOT %m.clone = f32[4]{0} multiply(%s2.clone, %w.clone)
}
ENTRY %main (v: f32[4], k: f32[4]) -> f32[4] {
  %v = f32[4]{0} parameter(0)
  %k = f32[4]{0} parameter(1)
  %c1 = f32[4]{0} call(%v, %k), to_apply=%a
  %c2 = f32[4]{0} call(%c1, %k), to_apply=%a.clone
  ROOT %n = f32[4]{0} add(%c2, %v)
}
)";

TEST(HloAliasingTest, SharedCalleeImportsAsItsFlattenedClones) {
  const Program shared = Import(kSharedCalls);
  const Program cloned = Import(kClonedCalls);
  EXPECT_EQ(hlo_test::ProgramDifference(shared, cloned), "");
  // A clone computing something else is another program (its cost differs).
  std::string other = kClonedCalls;
  other.replace(other.find("%y.clone.2 = f32[4]{0} exponential"), 34, "%y.clone.2 = f32[4]{0} negate     ");
  EXPECT_EQ(hlo_test::ProgramDifference(shared, Import(other)), "op c2/s2/y / y.clone.2");
  // Each call site's parameter is its argument's buffer, not one buffer for
  // both sites (%x of the first call of %b is %u, of the second %s1).
  EXPECT_EQ(BufferOf(shared, "v"), (Names{"u", "v", "x"}));
  EXPECT_EQ(BufferOf(cloned, "v"), (Names{"u", "v", "x"}));
  EXPECT_EQ(BufferOf(shared, "c1"), (Names{"c1", "c2/s1/x", "c2/u", "m"}));
  EXPECT_EQ(BufferOf(cloned, "c1"), (Names{"c1", "m", "u.clone", "x.clone.1"}));
  EXPECT_EQ(BufferOf(shared, "k"), (Names{"c2/w", "k", "w"}));
  EXPECT_EQ(BufferOf(cloned, "k"), (Names{"k", "w", "w.clone"}));
}

// examples/hlo/call_remat.hlo calls %checkpoint_block from %call.9 and
// %call.10; with the block cloned for %call.10 (XLA's names) it imports to
// the same program.
TEST(HloAliasingTest, CallRematImportsAsItsFlattenedClone) {
  std::ifstream in(ExamplePath("hlo/call_remat.hlo"));
  std::stringstream read;
  read << in.rdbuf();
  const std::string shared = read.str();
  const std::size_t begin = shared.find("%checkpoint_block (");
  // The closing line, not the `}` ending `rhs_contracting_dims={0}`.
  const std::size_t end = shared.find("\n}\n", begin) + 3;
  ASSERT_NE(begin, std::string::npos);
  std::string clone = shared.substr(begin, end - begin);
  for (const char* name : {"checkpoint_block", "x.2", "w_in.3", "w_out.4", "dot.5", "fusion.6", "dot.7", "add.8"}) {
    const std::regex use("([%( ])" + std::regex_replace(std::string(name), std::regex("\\."), "\\.") + "([ ,):])");
    clone = std::regex_replace(clone, use, std::string("$1") + name + ".clone$2");
  }
  std::string cloned = shared.substr(0, end) + "\n" + clone + shared.substr(end);
  const std::size_t call10 = cloned.find("to_apply=%checkpoint_block\n", cloned.find("%call.10 ="));
  ASSERT_NE(call10, std::string::npos);
  cloned.insert(call10 + std::string("to_apply=%checkpoint_block").size(), ".clone");
  ASSERT_NE(cloned.find("%checkpoint_block.clone (x.2.clone: f32[128,1024]"), std::string::npos) << cloned;
  ASSERT_NE(cloned.find("ROOT %add.8.clone = f32[128,1024]{1,0} add(f32[128,1024]{1,0} %x.2.clone, "), std::string::npos) << cloned;
  const Program a = Import(shared);
  const Program b = Import(cloned);
  EXPECT_EQ(b.FindComputation("call.10/checkpoint_block"), kNoId);
  EXPECT_NE(b.FindComputation("checkpoint_block.clone"), kNoId);
  EXPECT_EQ(hlo_test::ProgramDifference(a, b), "");
  EXPECT_EQ(BufferOf(a, "call.9"), (Names{"add.8", "call.10/x.2", "call.9"}));
  EXPECT_EQ(BufferOf(b, "call.9"), (Names{"add.8", "call.9", "x.2.clone"}));
}

TEST(HloAliasingTest, DynamicUpdateSliceWritesInPlaceUnlessTheOperandIsReadLater) {
  const Program p = Import(R"(HloModule d, is_scheduled=true
ENTRY %main (u: f32[1,4], i: s32[]) -> (f32[8,4], f32[8,4], f32[8,4]) {
  %u = f32[1,4]{1,0} parameter(0)
  %i = s32[] parameter(1)
  %zero = f32[] constant(0)
  %z = s32[] constant(0)
  %buf = f32[8,4]{1,0} broadcast(%zero), dimensions={}
  %d = f32[8,4]{1,0} dynamic-update-slice(%buf, %u, %i, %z)
  %buf2 = f32[8,4]{1,0} broadcast(%zero), dimensions={}
  %d2 = f32[8,4]{1,0} dynamic-update-slice(%buf2, %u, %i, %z)
  %n = f32[8,4]{1,0} negate(%buf2)
  ROOT %r = (f32[8,4]{1,0}, f32[8,4]{1,0}, f32[8,4]{1,0}) tuple(%d, %d2, %n)
}
)");
  EXPECT_EQ(BufferOf(p, "d"), (Names{"buf", "d", "r/0"}));
  EXPECT_EQ(BufferOf(p, "d2"), (Names{"d2", "r/1"}));
  EXPECT_EQ(BufferOf(p, "buf2"), (Names{"buf2"}));
}

TEST(HloAliasingTest, FusionWhoseRootIsDynamicUpdateSliceWritesInPlace) {
  const Program p = Import(R"(HloModule f, is_scheduled=true
%fused (p0: f32[8,4], p1: f32[1,4], p2: s32[]) -> f32[8,4] {
  %p0 = f32[8,4]{1,0} parameter(0)
  %p1 = f32[1,4]{1,0} parameter(1)
  %p2 = s32[] parameter(2)
  %z = s32[] constant(0)
  ROOT %dus = f32[8,4]{1,0} dynamic-update-slice(%p0, %p1, %p2, %z)
}
ENTRY %main (u: f32[1,4], i: s32[]) -> f32[8,4] {
  %u = f32[1,4]{1,0} parameter(0)
  %i = s32[] parameter(1)
  %zero = f32[] constant(0)
  %buf = f32[8,4]{1,0} broadcast(%zero), dimensions={}
  ROOT %fu = f32[8,4]{1,0} fusion(%buf, %u, %i), kind=kLoop, calls=%fused
}
)");
  EXPECT_EQ(BufferOf(p, "fu"), (Names{"buf", "fu"}));
}

TEST(HloAliasingTest, InputOutputAliasTiesTheParameterToTheOutput) {
  const Program p = Import(R"(HloModule a, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias) }
ENTRY %main (w: f32[4], g: f32[4]) -> (f32[4], f32[4]) {
  %w = f32[4]{0} parameter(0)
  %g = f32[4]{0} parameter(1)
  %nw = f32[4]{0} subtract(%w, %g)
  %e = f32[4]{0} exponential(%g)
  ROOT %r = (f32[4]{0}, f32[4]{0}) tuple(%nw, %e)
}
)");
  EXPECT_EQ(BufferOf(p, "w"), (Names{"nw", "r/0", "w"}));
  EXPECT_EQ(BufferOf(p, "e"), (Names{"e", "r/1"}));
}

TEST(HloAliasingTest, DonatedParameterRunsThroughAWhileWithoutACopy) {
  const Program p = Import(R"(HloModule a, is_scheduled=true, input_output_alias={ {}: (0, {}, may-alias) }
%cond (c: f32[4]) -> pred[] {
  %c = f32[4]{0} parameter(0)
  ROOT %f = pred[] constant(false)
}
%body (q: f32[4]) -> f32[4] {
  %q = f32[4]{0} parameter(0)
  ROOT %e = f32[4]{0} exponential(%q)
}
ENTRY %main (s: f32[4]) -> f32[4] {
  %s = f32[4]{0} parameter(0)
  ROOT %w = f32[4]{0} while(%s), condition=%cond, body=%body
}
)");
  EXPECT_EQ(BufferOf(p, "s"), (Names{"c", "e", "q", "s", "w"}));
  EXPECT_EQ(p.values.size(), 6u);  // the five above and the predicate: no copy
}

// A copy within one memory space (a copy between spaces folds into its
// source: hlo_space_copy_test.cc).
TEST(HloAliasingTest, AsyncCopyPairSharesTheDestinationAndViewsTheSource) {
  const Program p = Import(R"(HloModule c, is_scheduled=true
ENTRY %main (a: f32[64]) -> f32[64] {
  %a = f32[64]{0} parameter(0)
  %cs = (f32[64]{0}, f32[64]{0}, u32[]) copy-start(%a)
  %cd = f32[64]{0} copy-done(%cs)
  ROOT %n = f32[64]{0} negate(%cd)
}
)");
  EXPECT_EQ(BufferOf(p, "cd"), (Names{"cd", "cs/0"}));
  EXPECT_EQ(BufferOf(p, "a"), (Names{"a", "cs/1"}));
  EXPECT_EQ(BufferOf(p, "cs/2"), (Names{"cs/2"}));
}

// A generic async-start's element {0} is the tuple of its operands (even of
// one operand), so {0,i} is a view of operand i, not a buffer of its own.
TEST(HloAliasingTest, AsyncStartOperandElementsViewTheOperands) {
  const Program p = Import(R"(HloModule c, is_scheduled=true
%add (x: f32[64], y: f32[64]) -> f32[64] {
  %x = f32[64]{0} parameter(0)
  %y = f32[64]{0} parameter(1)
  ROOT %s = f32[64]{0} add(%x, %y)
}
%neg (z: f32[64]) -> f32[64] {
  %z = f32[64]{0} parameter(0)
  ROOT %m = f32[64]{0} negate(%z)
}
ENTRY %main (a: f32[64], b: f32[64]) -> (f32[64], f32[64]) {
  %a = f32[64]{0} parameter(0)
  %b = f32[64]{0} parameter(1)
  %s1 = ((f32[64]{0}), f32[64]{0}, s32[]) async-start(%a), calls=%neg
  %d1 = f32[64]{0} async-done(%s1), calls=%neg
  %s2 = ((f32[64]{0}, f32[64]{0}), f32[64]{0}, s32[]) async-start(%a, %b), calls=%add
  %d2 = f32[64]{0} async-done(%s2), calls=%add
  ROOT %t = (f32[64]{0}, f32[64]{0}) tuple(%d1, %d2)
}
)");
  EXPECT_EQ(BufferOf(p, "a"), (Names{"a", "s1/0/0", "s2/0/0"}));
  EXPECT_EQ(BufferOf(p, "b"), (Names{"b", "s2/0/1"}));
}

}  // namespace
}  // namespace memplan
