#include "msa/cost_model.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/msa/msa_test_util.h"

namespace memplan {
namespace {

using testing::Analyze;
using testing::RoundTarget;

OpId OpDefining(const Program& p, const char* value) {
  return p.values[p.FindValue(value)].defining_op;
}

// The worked example of cost_model.h.
TEST(CostModelTest, HeaderExample) {
  auto a = Analyze(R"(
entry func @main(%a: u8[4194304], %b: u8[4194304]) {
  %c = add(%a, %b) : u8[4194304] {flops = 1000000}
  return %c
}
)");
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, Target{});
  const OpId add = OpDefining(a->program, "c");
  EXPECT_DOUBLE_EQ(model.ComputeSeconds(add), 1e-6);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllDefault(add), 12582912 / 1e10);
  const std::vector<int> first = {0};
  EXPECT_DOUBLE_EQ(model.OpElapsed(add, first, {}), 4194304 / 1e11 + 8388608 / 1e10);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllAlternate(add), 12582912 / 1e11);
  EXPECT_DOUBLE_EQ(model.CopySeconds(8388608), 8388608 / 1e10);
}

TEST(CostModelTest, BytesAccessedScalesTheShares) {
  auto a = Analyze(R"(
entry func @main(%a: u8[100], %b: u8[300]) {
  %c = add(%a, %b) : u8[100] {flops = 500, bytes_accessed = 1000}
  %d = exp(%c) : u8[100] {flops = 10, transcendentals = 100}
  return %d
}
)");
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, RoundTarget());
  const OpId add = OpDefining(a->program, "c");
  EXPECT_DOUBLE_EQ(model.OperandBytesAccessed(add, 0), 200);
  EXPECT_DOUBLE_EQ(model.OperandBytesAccessed(add, 1), 600);
  EXPECT_DOUBLE_EQ(model.ResultBytesAccessed(add, 0), 200);
  EXPECT_DOUBLE_EQ(model.OperandBytesAccessed(add, 2), 0);
  EXPECT_DOUBLE_EQ(model.ResultBytesAccessed(add, -1), 0);
  EXPECT_DOUBLE_EQ(model.ComputeSeconds(add), 0.5);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllDefault(add), 10);
  const std::vector<int> second = {1}, result = {0};
  // (600 + 200) / 400 + 200 / 100.
  EXPECT_DOUBLE_EQ(model.OpElapsed(add, second, result), 4);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllAlternate(add), 2.5);

  // Transcendentals dominate: max(10 / 1000, 100 / 100) = 1 s of compute,
  // which hides the 0.5 s all-alternate memory time.
  const OpId exp = OpDefining(a->program, "d");
  EXPECT_DOUBLE_EQ(model.ComputeSeconds(exp), 1);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllDefault(exp), 2);
  EXPECT_DOUBLE_EQ(model.OpElapsedAllAlternate(exp), 1);
}

// t0 a, t1 k (cond), t2 n, t3 m, t4 o (body), t5 while, t6 r.
constexpr const char* kLoop = R"(
entry func @main(%x: u8[100]) {
  %a = negate(%x) : u8[100]
  %w = while(%a) : u8[100] {cond = @c, body = @b, trip_count = 4}
  %r = negate(%w) : u8[100]
  return %r
}

func @c(%p: u8[100]) {
  %k = compare(%p) : pred[]
  return %k
}

func @b(%q: u8[100]) {
  %n = negate(%q) : u8[100]
  %m = negate(%n) : u8[100]
  %o = negate(%m) : u8[100]
  return %o
}
)";

TEST(CostModelTest, WhileLoopsWeightTimeByTripCount) {
  auto a = Analyze(kLoop);
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, RoundTarget());
  const Program& p = a->program;
  EXPECT_EQ(model.ExecutionCount(OpDefining(p, "a")), 1);
  EXPECT_EQ(model.ExecutionCount(OpDefining(p, "k")), 4);
  EXPECT_EQ(model.ExecutionCount(OpDefining(p, "m")), 4);
  EXPECT_EQ(model.ExecutionCount(OpDefining(p, "w")), 1);
  // The while op itself costs nothing; its body is timed inside.
  EXPECT_EQ(model.OpElapsedAllDefault(OpDefining(p, "w")), 0);
  EXPECT_EQ(model.OperandBytesAccessed(OpDefining(p, "w"), 0), 0);
  EXPECT_EQ(model.OpElapsedAllDefault(OpDefining(p, "k")), 1.01);

  const int depths[] = {0, 1, 1, 1, 1, 0, 0};
  for (TimeStep t = 0; t < 7; ++t) EXPECT_EQ(model.LoopDepthAt(t), depths[t]) << t;
  EXPECT_EQ(model.LoopDepthAt(-1), 0);
  EXPECT_EQ(model.LoopDepthAt(7), 0);

  // Weighted step times: t0 2, t1 4.04, t2..t4 8 each, t5 0, t6 2.
  EXPECT_NEAR(model.ElapsedBetween(-1, 7), 32.04, 1e-12);
  EXPECT_NEAR(model.ElapsedBetween(0, 6), 28.04, 1e-12);
  EXPECT_NEAR(model.ElapsedBetween(0, 3), 12.04, 1e-12);
  // Inside the loop the interval is normalised to one iteration.
  EXPECT_DOUBLE_EQ(model.ElapsedBetween(2, 4), 2);
  EXPECT_DOUBLE_EQ(model.ElapsedBetween(1, 4), 4);
  EXPECT_EQ(model.ElapsedBetween(2, 3), 0);
  EXPECT_EQ(model.ElapsedBetween(3, 3), 0);
  EXPECT_EQ(model.ElapsedBetween(5, 2), 0);
}

TEST(CostModelTest, DefaultTripCountPerNestLevel) {
  auto a = Analyze(R"(
entry func @main(%x: u8[8]) {
  %w = while(%x) : u8[8] {cond = @c, body = @b}
  return %w
}
func @c(%p: u8[8]) {
  %k = compare(%p) : pred[]
  return %k
}
func @b(%q: u8[8]) {
  %v = while(%q) : u8[8] {cond = @c2, body = @b2}
  return %v
}
func @c2(%p2: u8[8]) {
  %k2 = compare(%p2) : pred[]
  return %k2
}
func @b2(%q2: u8[8]) {
  %n = negate(%q2) : u8[8]
  return %n
}
)");
  ASSERT_NE(a, nullptr);
  const OpId inner = OpDefining(a->program, "n");
  const OpId outer = OpDefining(a->program, "k");
  CostModel five(a->program, a->analysis, RoundTarget());
  EXPECT_EQ(five.ExecutionCount(inner), 25);
  EXPECT_EQ(five.ExecutionCount(outer), 5);
  CostModel three(a->program, a->analysis, RoundTarget(), CostModelOptions{.default_trip_count = 3});
  EXPECT_EQ(three.ExecutionCount(inner), 9);
  EXPECT_EQ(three.ExecutionCount(outer), 3);
}

TEST(CostModelTest, BenefitsAndMemoryBoundedness) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %a = negate(%x) : u8[100]
  %b = exp(%a) : u8[100] {transcendentals = 1000}
  %c = add(%a, %b) : u8[100]
  %z = negate(%c) : u8[0]
  return %c, %z
}
)");
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, RoundTarget());
  const Program& p = a->program;
  const OpId neg = OpDefining(p, "a"), exp = OpDefining(p, "b"), add = OpDefining(p, "c");
  // negate: memory bound (2 s); its result in alternate memory: 1.25 s.
  EXPECT_DOUBLE_EQ(model.DefinitionBenefit(neg, 0), 0.75);
  EXPECT_DOUBLE_EQ(model.UseBenefit(neg, 0), 0.75);
  // exp: compute bound (10 s vs 2 s): the distance to memory boundedness.
  EXPECT_DOUBLE_EQ(model.UseBenefit(exp, 0), -8);
  EXPECT_DOUBLE_EQ(model.DefinitionBenefit(exp, 0), -8);
  // add: 3 s; one operand in alternate memory: 0.25 + 2 = 2.25 s.
  EXPECT_DOUBLE_EQ(model.UseBenefit(add, 0), 0.75);

  auto buffer = [&](const char* v) { return a->analysis.value_buffer[p.FindValue(v)]; };
  // a: 0.75 (definition), max with -8 (exp), + 0.75 (add) = 1.5, / sqrt(100).
  EXPECT_DOUBLE_EQ(model.MemoryBoundedness(buffer("a")), 0.15);
  // b: -8, then max with 0.75.
  EXPECT_DOUBLE_EQ(model.MemoryBoundedness(buffer("b")), 0.075);
  // x: a parameter (no definition benefit), read by negate.
  EXPECT_DOUBLE_EQ(model.MemoryBoundedness(buffer("x")), 0.075);
  EXPECT_EQ(model.MemoryBoundedness(buffer("z")), 0);
}

TEST(CostModelTest, BenefitInsideLoopCountsEveryIteration) {
  auto a = Analyze(kLoop);
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, RoundTarget());
  EXPECT_DOUBLE_EQ(model.DefinitionBenefit(OpDefining(a->program, "n"), 0), 3);
  EXPECT_DOUBLE_EQ(model.UseBenefit(OpDefining(a->program, "m"), 0), 3);
}

TEST(CostModelTest, ProgramWithoutOps) {
  auto a = Analyze(R"(
entry func @main(%x: u8[16]) {
  return %x
}
)");
  ASSERT_NE(a, nullptr);
  CostModel model(a->program, a->analysis, RoundTarget());
  EXPECT_EQ(model.ElapsedBetween(-1, 1), 0);
  EXPECT_EQ(model.LoopDepthAt(0), 0);
  EXPECT_EQ(model.MemoryBoundedness(0), 0);
  EXPECT_DOUBLE_EQ(model.CopySeconds(100), 2);
}

}  // namespace
}  // namespace memplan
