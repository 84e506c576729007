#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/problem.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Load;

// "time:rw!" per access: r read only, w write, ! alternate memory allowed.
std::vector<std::string> Accesses(const MsaBuffer& b) {
  std::vector<std::string> out;
  for (const BufferAccess& a : b.accesses) {
    out.push_back(std::to_string(a.time) + ":" + (a.write ? "w" : "r") + (a.alternate_ok ? "!" : ""));
  }
  return out;
}

// The example of msa/problem.h.
TEST(ProblemTest, PoliciesAndAccesses) {
  auto f = Load(R"(
entry func @main(%p: f32[4]) {
  %a = exp(%p) : f32[4]
  %b = relu(%a) : f32[4] tied(%a)
  %c = add(%b, %p) : f32[4]
  return %c
}
)");
  const MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 128);
  const MsaBuffer& p = problem.buffers[f->Buffer("p")];
  const MsaBuffer& a = problem.buffers[f->Buffer("a")];
  const MsaBuffer& c = problem.buffers[f->Buffer("c")];
  EXPECT_EQ(f->Buffer("a"), f->Buffer("b"));
  EXPECT_EQ(p.policy, AltPolicy::kReadCopies);
  EXPECT_FALSE(p.defined_by_op);
  EXPECT_THAT(Accesses(p), ElementsAre("0:r!", "2:r!"));
  EXPECT_EQ(a.policy, AltPolicy::kAnywhere);
  EXPECT_TRUE(a.defined_by_op);
  EXPECT_THAT(Accesses(a), ElementsAre("0:w!", "1:w!", "2:r!"));
  EXPECT_EQ(c.policy, AltPolicy::kReadCopies);  // an entry result
  EXPECT_THAT(Accesses(c), ElementsAre("2:w"));
  EXPECT_GT(a.memory_boundedness, 0);
  // Reading a 16 B operand from alternate memory saves 16 B x (1/1e10 - 1/1e11) s.
  EXPECT_DOUBLE_EQ(a.accesses[2].saving_s, 16 * (1 / 1e10 - 1 / 1e11));
  EXPECT_EQ(problem.time_steps, 3);
}

TEST(ProblemTest, WeightParametersAndScratch) {
  auto f = Load(R"(
entry func @main(%x: f32[8], %w: f32[8,8] constant, %bias: f32[8] constant, %t: f32[8]) {
  %h = matmul(%x, %w) : f32[8] {scratch = 64}
  %v = view(%t) : f32[4] view(%t, 0)
  %g = gather(%t, %v) : f32[8]
  %y = add(%h, %bias) : f32[8]
  %z = add(%y, %g) : f32[8]
  return %z
}
)");
  const MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 1024);
  EXPECT_TRUE(problem.buffers[f->Buffer("w")].weight_parameter);      // matmul operand 1
  EXPECT_FALSE(problem.buffers[f->Buffer("x")].weight_parameter);     // matmul operand 0
  EXPECT_FALSE(problem.buffers[f->Buffer("bias")].weight_parameter);  // read by add
  // t is a gather table and the index view of itself (judged by the gather).
  EXPECT_FALSE(problem.buffers[f->Buffer("t")].weight_parameter);
  ASSERT_EQ(problem.scratch.size(), 1u);
  EXPECT_EQ(f->analysis.buffers.buffers[problem.scratch[0]].name, "h.scratch");
  EXPECT_EQ(problem.buffers[problem.scratch[0]].policy, AltPolicy::kDefaultOnly);
  // w (256 B) is larger than a 128 B fast memory.
  EXPECT_EQ(BuildMsaProblem(f->program, f->analysis, *f->cost, 128).buffers[f->Buffer("w")].policy,
            AltPolicy::kDefaultOnly);
}

TEST(ProblemTest, ControlFlowAndPinsAreDefaultOnlyOrPinned) {
  auto f = Load(R"(
entry func @main(%x: f32[4]) {
  %y = call(%x) : f32[4] {callee = @f}
  %s = copy-start(%y) : f32[4] space(1)
  %n = negate(%x) : f32[4] space(0)
  %d = copy-done(%s) : f32[4] space(1)
  %z = add(%d, %n) : f32[4] space(2)
  %r = negate(%z) : f32[4]
  return %r
}
func @f(%p: f32[4]) {
  %q = negate(%p) : f32[4]
  %local = negate(%q) : f32[4]
  return %local
}
)");
  const MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 1024);
  // x crosses the call (straight-line code): an entry parameter read by q at
  // 0, by the call op at 2 (a free read) and by n at 4.
  const MsaBuffer& x = problem.buffers[f->Buffer("x")];
  EXPECT_EQ(x.policy, AltPolicy::kReadCopies);
  ASSERT_EQ(x.accesses.size(), 3u);
  EXPECT_EQ(x.accesses[0].time, 0);
  EXPECT_EQ(x.accesses[1].time, 2);
  EXPECT_EQ(x.accesses[1].saving_s, 0);
  EXPECT_EQ(x.accesses[2].time, 4);
  EXPECT_GT(x.accesses[2].saving_s, 0);
  // The callee result is read by an async copy-start: default memory only.
  EXPECT_EQ(problem.buffers[f->Buffer("y")].policy, AltPolicy::kDefaultOnly);
  EXPECT_EQ(problem.buffers[f->Buffer("q")].policy, AltPolicy::kAnywhere);      // local to @f
  EXPECT_EQ(problem.buffers[f->Buffer("s")].policy, AltPolicy::kPinnedAlternate);
  EXPECT_EQ(problem.buffers[f->Buffer("n")].policy, AltPolicy::kDefaultOnly);
  EXPECT_EQ(problem.buffers[f->Buffer("z")].policy, AltPolicy::kOtherSpace);
  // Steps: q 0, local 1, call 2, s 3, n 4, d 5, z 6, r 7.
  EXPECT_THAT(problem.timeline.StepsOfOwner(0), ElementsAre(0, 1));
  EXPECT_THAT(problem.timeline.StepsOfOwner(7), ElementsAre(2, 3, 4, 5, 6, 7));
}

}  // namespace
}  // namespace memplan
