// `memplan plan --profile` (report/profile_csv.h) on hand-built plans whose
// every row is computed by hand, and on a small program (op and node names).
#include "report/profile_csv.h"

#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "ir/text_parser.h"
#include "tests/buffer_maker.h"

namespace memplan {
namespace {

// a 4 B [0,1], b 8 B [1,2], c 2 B [3,3] transient and k 100 B [0,3]
// constant, planned as PlanPools would: transient pool [0,12) with a@0 b@4
// c@0, constant pool [12,112).
struct ProfileCase {
  BufferSet buffers;
  Plan plan;
};

ProfileCase PlainCase() {
  ProfileCase c;
  c.buffers.input = "in.csv";
  c.buffers.time_steps = 4;
  c.buffers.buffers = {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3),
                       Make("k", 100, 0, 3, Lifetime::kConstant)};
  Plan& p = c.plan;
  p.time_steps = 4;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 112, 1}};
  p.pools = {PoolInfo{"transient", Lifetime::kTransient, kDefaultSpace, 0, 12, 12, 3, 14, std::nullopt, std::nullopt},
             PoolInfo{"constant", Lifetime::kConstant, kDefaultSpace, 12, 100, 100, 1, 100, std::nullopt, std::nullopt}};
  p.placements = {{"transient", {Allocation{kDefaultSpace, 0, 0, 1}}},
                  {"transient", {Allocation{kDefaultSpace, 4, 1, 2}}},
                  {"transient", {Allocation{kDefaultSpace, 0, 3, 3}}},
                  {"constant", {Allocation{kDefaultSpace, 12, 0, 3}}}};
  p.peak = 12;
  p.lower_bound = 12;
  return c;
}

std::string Profile(const ProfileCase& c) {
  return WriteProfileCsv(SummaryInput{c.buffers, nullptr, nullptr}, c.plan);
}

// Live bytes 4 12 8 2 of the transient pool: the max row (step 1) is the
// plan's lower bound, 12, and each row's pools sum to the space's column.
TEST(ProfileCsvTest, OneRowPerStepWithPoolsAndEvents) {
  EXPECT_EQ(Profile(PlainCase()),
            "step,op,default.live_bytes,default.transient.live_bytes,"
            "default.constant.live_bytes,defined,freed\n"
            "0,,104,4,100,a;k,\n"
            "1,,112,12,100,b,a\n"
            "2,,108,8,100,,b\n"
            "3,,102,2,100,c,c;k\n");
}

// b moved to fast memory over [1,2] (as memory space assignment would):
// default memory no longer holds it, the alternate columns do.
TEST(ProfileCsvTest, FastMemorySegmentsCountInTheirSpace) {
  ProfileCase c = PlainCase();
  c.plan.spaces.push_back(SpaceInfo{"alternate", kAlternateSpace, 64, 8, 1});
  c.plan.placements[1].allocations = {Allocation{kAlternateSpace, 0, 1, 2}};
  EXPECT_EQ(Profile(c),
            "step,op,default.live_bytes,default.transient.live_bytes,"
            "default.constant.live_bytes,alternate.live_bytes,alternate.transient.live_bytes,"
            "defined,freed\n"
            "0,,104,4,100,0,0,a;k,\n"
            "1,,104,4,100,8,8,b,a\n"
            "2,,100,0,100,8,8,,b\n"
            "3,,102,2,100,0,0,c,c;k\n");
}

// A buffer holds nothing in its dead gaps; a name with a comma is quoted.
TEST(ProfileCsvTest, GapsAndQuoting) {
  ProfileCase c = PlainCase();
  c.buffers.buffers[3].mutable_gaps() = {StepRange{1, 2}};
  c.buffers.buffers[0].name = "a,\"x\"";
  EXPECT_EQ(Profile(c),
            "step,op,default.live_bytes,default.transient.live_bytes,"
            "default.constant.live_bytes,defined,freed\n"
            "0,,104,4,100,\"a,\"\"x\"\";k\",\n"
            "1,,12,12,0,b,\"a,\"\"x\"\"\"\n"
            "2,,8,8,0,,b\n"
            "3,,102,2,100,c,c;k\n");
}

// A time line past kDenseProfileSteps gets rows only where something
// happens: a [0,10] and b [5, 2^39] over 2^40 steps.
TEST(ProfileCsvTest, LongTimeLineRowsAtChanges) {
  const TimeStep far = TimeStep{1} << 39;
  ProfileCase c;
  c.buffers.time_steps = TimeStep{1} << 40;
  c.buffers.buffers = {Make("a", 4, 0, 10), Make("b", 8, 5, far)};
  c.plan.time_steps = c.buffers.time_steps;
  c.plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 12, 1}};
  c.plan.pools = {PoolInfo{"transient", Lifetime::kTransient, kDefaultSpace, 0, 12, 12, 2, 12, std::nullopt, std::nullopt}};
  c.plan.placements = {{"transient", {Allocation{kDefaultSpace, 0, 0, 10}}},
                       {"transient", {Allocation{kDefaultSpace, 4, 5, far}}}};
  EXPECT_EQ(Profile(c),
            "step,op,default.live_bytes,default.transient.live_bytes,defined,freed\n"
            "0,,4,4,a,\n"
            "5,,12,12,b,\n"
            "10,,12,12,,a\n"
            "11,,8,8,,\n"
            "549755813888,,8,8,,b\n"
            "549755813889,,0,0,,\n");
}

// Ops by step as "%result = opcode"; an op's `name` attribute (an ONNX
// node name) fills the node column. Sizes: x 16 (live [0,0]: its last
// read), y 8 ([0,1]), z 4 (the result, [1,1]).
TEST(ProfileCsvTest, ProgramOpsAndNodeNames) {
  absl::StatusOr<Program> program = ParseProgram(
      "entry func @main(%x: 16) {\n"
      "  %y = exp(%x) : 8 {name = \"Exp_0\"}\n"
      "  %z = negate(%y) : 4\n"
      "  return %z\n"
      "}\n",
      "t.mpir");
  ASSERT_TRUE(program.ok()) << program.status();
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const BufferSet& buffers = analysis->buffers;
  ASSERT_EQ(buffers.buffers.size(), 3u);
  Plan plan;
  plan.time_steps = buffers.time_steps;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 28, 1}};
  plan.pools = {PoolInfo{"transient", Lifetime::kTransient, kDefaultSpace, 0, 8, 8, 1, 8, std::nullopt, std::nullopt},
                PoolInfo{"external", Lifetime::kExternal, kDefaultSpace, 8, 20, 20, 2, 20, std::nullopt, std::nullopt}};
  Bytes external_offset = 8;
  for (const Buffer& b : buffers.buffers) {
    const bool transient = b.lifetime == Lifetime::kTransient;
    plan.placements.push_back(
        {transient ? "transient" : "external",
         {Allocation{kDefaultSpace, transient ? 0 : external_offset, b.start, b.end}}});
    if (!transient) external_offset += b.size;
  }
  EXPECT_EQ(WriteProfileCsv(SummaryInput{buffers, &*program, &analysis->schedule}, plan),
            "step,op,node,default.live_bytes,default.transient.live_bytes,"
            "default.external.live_bytes,defined,freed\n"
            "0,%y = exp,Exp_0,24,8,16,x;y,x\n"
            "1,%z = negate,,12,8,4,z,y;z\n");
}

}  // namespace
}  // namespace memplan
