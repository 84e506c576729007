// Rule 3 of verify/verifier.h under control flow: with the program, a
// buffer's bytes are free at the steps where it holds no data (a branch that
// has not yet defined the conditional's result), derived by the verifier
// itself (verify/program_liveness.h); elsewhere overlaps are still rejected.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "verify/program_liveness.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Program Parse(const std::string& text) {
  absl::StatusOr<Program> p = ParseProgram(text, "test.mpir");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *std::move(p) : Program{};
}

// The example of verify/program_liveness.h.
TEST(ProgramLivenessTest, BranchBeforeItsResultIsDead) {
  const Program p = Parse(R"(
    entry func @main(%p: pred[], %x0: 4) {
      %x = exp(%x0) : 4                                   # 0
      %r = conditional(%p, %x) : 4 {branches = [@a, @b]}  # 4
      %s = negate(%r) : 4                                 # 5
      return %s
    }
    func @a(%pa: 4) { %u = exp(%pa) : 4  return %u }      # 1
    func @b(%pb: 4) {
      %t = negate(%pb) : 4                                # 2
      %v = exp(%t) : 4                                    # 3
      return %v
    })");
  ASSERT_NE(p.entry, kNoId);
  BufferSet set;
  set.time_steps = 6;
  Buffer r;
  r.name = "r";
  r.size = 4;
  r.values = {p.FindValue("r"), p.FindValue("u"), p.FindValue("v")};
  r.start = 1;
  r.end = 5;
  Buffer t;
  t.name = "t";
  t.size = 4;
  t.values = {p.FindValue("t")};
  t.start = 2;
  t.end = 3;
  Buffer scratch;  // no values: live throughout
  scratch.name = "scratch";
  scratch.size = 8;
  scratch.start = 0;
  scratch.end = 5;
  set.buffers = {r, t, scratch};
  std::vector<std::vector<StepRange>> dead = verify_internal::DeadSteps(p, set);
  ASSERT_EQ(dead.size(), 3u);
  EXPECT_THAT(dead[0], ElementsAre(StepRange{2, 2}));
  EXPECT_THAT(dead[1], IsEmpty());
  EXPECT_THAT(dead[2], IsEmpty());
  // A buffer set that disagrees with the program about the live range gets
  // no dead steps (it is taken as live throughout).
  set.buffers[0].start = 0;
  EXPECT_THAT(verify_internal::DeadSteps(p, set)[0], IsEmpty());
}

// tests/analysis/control_flow_liveness_test.cc's two branches: the result
// {y, ay, by} holds data at t1 (branch a) and t4-t6 (branch b, then outside),
// not at t2-t3 where b1 and b2 run.
class TwoBranchesPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    program_ = Parse(R"(
      entry func @main(%flag: pred[], %x: 1024) {
        %y = conditional(%flag, %x) : 1024 {branches = [@a, @b]}
        %z = mul(%y, %x) : 1024
        return %z
      }
      func @a(%ax: 1024) {
        %a1 = exp(%ax) : 4096
        %ay = negate(%a1) : 1024
        return %ay
      }
      func @b(%bx: 1024) {
        %b1 = exp(%bx) : 3072
        %b2 = negate(%b1) : 3072
        %by = add(%b2) : 1024
        return %by
      })");
    ASSERT_NE(program_.entry, kNoId);
    set_.time_steps = 7;
    set_.buffers = {MakeBuffer("y", 1024, 1, 6, {"y", "ay", "by"}),
                    MakeBuffer("b1", 3072, 2, 3, {"b1"}), MakeBuffer("b2", 3072, 3, 4, {"b2"}),
                    MakeBuffer("a1", 4096, 0, 1, {"a1"})};
  }

  Buffer MakeBuffer(std::string name, Bytes size, TimeStep start, TimeStep end,
                    const std::vector<std::string>& values) const {
    Buffer b;
    b.name = std::move(name);
    b.size = size;
    b.start = start;
    b.end = end;
    for (const std::string& v : values) b.values.push_back(program_.FindValue(v));
    return b;
  }

  // One transient pool at 0 holding every buffer at `offsets`; peak 6144.
  Plan PlanAt(const std::vector<Bytes>& offsets) const {
    Plan plan;
    plan.time_steps = set_.time_steps;
    plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 6144}};
    PoolInfo pool;
    pool.name = "transient";
    pool.size = 6144;
    pool.lower_bound = 6144;
    pool.buffers = 4;
    pool.total_bytes = 11264;
    plan.pools = {pool};
    plan.peak = 6144;
    plan.lower_bound = 6144;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const Buffer& b = set_.buffers[i];
      plan.placements.push_back(
          {"transient", {Allocation{kDefaultSpace, offsets[i], b.start, b.end}}});
    }
    return plan;
  }

  std::string Verify(const Plan& plan, bool with_program) const {
    VerifyOptions options;
    if (with_program) options.program = &program_;
    const absl::Status s = VerifyPlan(set_, plan, options);
    return s.ok() ? "OK" : std::string(s.message());
  }

  Program program_;
  BufferSet set_;
};

TEST_F(TwoBranchesPlan, TemporaryMayUseTheResultsBytesBeforeItsBranchDefinesIt) {
  // b1 sits on y's bytes during y's dead steps t2-t3.
  const Plan plan = PlanAt({0, 0, 3072, 1024});
  EXPECT_EQ(Verify(plan, true), "OK");
  // Without the program nothing says y is dead then.
  EXPECT_EQ(Verify(plan, false),
            "buffer 'b1' (id 1) allocation 0 (space 0, bytes [0, 3072), time [2, 3]) overlaps "
            "buffer 'y' (id 0) allocation 0 (space 0, bytes [0, 1024), time [1, 6]) at time 2");
}

TEST_F(TwoBranchesPlan, TemporaryMayNotOverlapTheResultWhereItsBranchHoldsIt) {
  // b2 is still live at t4, when branch b has defined %by into y's bytes.
  const Plan plan = PlanAt({0, 3072, 0, 1024});
  EXPECT_EQ(Verify(plan, true),
            "buffer 'y' (id 0) allocation 0 (space 0, bytes [0, 1024), time [1, 6]) overlaps "
            "buffer 'b2' (id 2) allocation 0 (space 0, bytes [0, 3072), time [3, 4]) at time 4");
  // a1 overlapping y at t1 (branch a holds %ay) is rejected too.
  EXPECT_EQ(Verify(PlanAt({0, 0, 3072, 0}), true),
            "buffer 'y' (id 0) allocation 0 (space 0, bytes [0, 1024), time [1, 6]) overlaps "
            "buffer 'a1' (id 3) allocation 0 (space 0, bytes [0, 4096), time [0, 1]) at time 1");
}

TEST_F(TwoBranchesPlan, PlannersGapsAreNotTrusted) {
  // Gaps claimed in the buffer set (here wrongly, over t4) change nothing:
  // the verifier derives dead steps from the program.
  set_.buffers[0].mutable_gaps() = {{2, 4}};
  EXPECT_THAT(Verify(PlanAt({0, 3072, 0, 1024}), true), ::testing::HasSubstr("at time 4"));
}

}  // namespace
}  // namespace memplan
