#include "verify/region_checks.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ir/program_builder.h"
#include "verify/data_sources.h"
#include "verify/interval_map.h"

namespace memplan {
namespace {

// The program of examples/region.mpir, grown by a view and a read-write
// dispatch:
//   entry func @main(%input: 4096 external, %ready: timepoint) {
//     %out, %finished = execute(%input, %ready) {callee = @stage}      op 0
//   }
//   region @stage(%in: 4096, %await: timepoint) {
//     %zeros = fill() : 8192                        op 1, wave 0
//     %t0 = dispatch(%in) : 8192                    op 2, wave 0
//     %t1 = dispatch(%t0, %zeros) : 8192            op 3
//     %acc = update(%t1, %zeros) : 8192 tied(%t1)   op 4 (writes its first 4096 bytes)
//     %v = slice(%t0) : 4096 view(%t0, 4096)        op 5 (no command)
//     %acc2 = dispatch(%acc, %v) : 8192 tied(%acc)  op 6 (read-write)
//     %o = dispatch(%acc2) : 4096                   op 7
//     %done = barrier(%await) : timepoint           op 8
//     return %o, %done
//   }
struct Ids {
  ValueId input, ready, out, finished, in, await, zeros, t0, t1, acc, v, acc2, o, done;
  OpId execute, fill, d_t0, d_t1, update, slice, d_acc2, d_o, barrier;
};

Program RegionProgram(Ids& id) {
  ProgramBuilder b("region");
  const ComputationId main = b.AddComputation("main");
  const ComputationId stage = b.AddComputation("stage", ComputationKind::kRegion);
  b.SetEntry(main);
  id.input = b.AddParam(main, "input", 4096);
  b.value(id.input).lifetime = Lifetime::kExternal;
  id.ready = b.AddParam(main, "ready", 0);
  b.value(id.ready).is_timepoint = true;
  id.execute = b.AddOp(main, "execute", {id.input, id.ready});
  b.op(id.execute).callees = {stage};
  id.out = b.AddResult(id.execute, "out", 4096);
  id.finished = b.AddResult(id.execute, "finished", 0);
  b.value(id.finished).is_timepoint = true;
  b.SetReturn(main, {id.out, id.finished});

  id.in = b.AddParam(stage, "in", 4096);
  id.await = b.AddParam(stage, "await", 0);
  b.value(id.await).is_timepoint = true;
  id.fill = b.AddOp(stage, "fill", {});
  id.zeros = b.AddResult(id.fill, "zeros", 8192);
  id.d_t0 = b.AddOp(stage, "dispatch", {id.in});
  id.t0 = b.AddResult(id.d_t0, "t0", 8192);
  id.d_t1 = b.AddOp(stage, "dispatch", {id.t0, id.zeros});
  id.t1 = b.AddResult(id.d_t1, "t1", 8192);
  id.update = b.AddOp(stage, "update", {id.t1, id.zeros});
  id.acc = b.AddResult(id.update, "acc", 8192);
  b.value(id.acc).alias = AliasKind::kTied;
  b.value(id.acc).alias_of = id.t1;
  id.slice = b.AddOp(stage, "slice", {id.t0});
  id.v = b.AddResult(id.slice, "v", 4096);
  b.value(id.v).alias = AliasKind::kView;
  b.value(id.v).alias_of = id.t0;
  b.value(id.v).view_offset = 4096;
  id.d_acc2 = b.AddOp(stage, "dispatch", {id.acc, id.v});
  id.acc2 = b.AddResult(id.d_acc2, "acc2", 8192);
  b.value(id.acc2).alias = AliasKind::kTied;
  b.value(id.acc2).alias_of = id.acc;
  id.d_o = b.AddOp(stage, "dispatch", {id.acc2});
  id.o = b.AddResult(id.d_o, "o", 4096);
  id.barrier = b.AddOp(stage, "barrier", {id.await});
  id.done = b.AddResult(id.barrier, "done", 0);
  b.value(id.done).is_timepoint = true;
  b.SetReturn(stage, {id.o, id.done});
  return std::move(b).Finish();
}

// Slab offsets of the three slab buffers (bytes from the slab's start).
struct Layout {
  Bytes zeros = 0;
  Bytes t0 = 8192;
  Bytes t1 = 16384;
};

constexpr Bytes kSlabBase = 4096;      // the slab pool's offset in the default space
constexpr Bytes kResultsBase = 28672;  // the results pool's offset
constexpr std::int32_t kExternal = 0, kSlab = 1, kResults = 2;  // resource indices

Buffer MakeBuffer(std::string name, std::vector<ValueId> values, Bytes size, TimeStep start,
                  TimeStep end) {
  Buffer b;
  b.name = std::move(name);
  b.values = std::move(values);
  b.size = size;
  b.start = start;
  b.end = end;
  return b;
}

Slice MakeSlice(BufferId buffer, Bytes offset, const Buffer& b) {
  Slice s;
  s.buffer = buffer;
  s.offset = SizeExpr::Constant(offset);
  s.size = SizeExpr::Constant(b.size);
  s.offset_bytes = offset;
  s.size_bytes = b.size;
  s.start = b.start;
  s.end = b.end;
  return s;
}

Resource MakeResource(std::string name, ResourceKind kind, Bytes size, TimeStep start,
                      TimeStep end) {
  Resource r;
  r.name = std::move(name);
  r.kind = kind;
  r.size = SizeExpr::Constant(size);
  r.size_bytes = size;
  r.start = start;
  r.end = end;
  return r;
}

PoolInfo MakePool(std::string name, Bytes offset, Bytes size) {
  PoolInfo p;
  p.name = std::move(name);
  p.offset = offset;
  p.size = size;
  return p;
}

CommandRange MakeRange(std::int32_t resource, Bytes offset, Bytes length, Access access,
                       ValueId value) {
  CommandRange r;
  r.resource = resource;
  r.offset = SizeExpr::Constant(offset);
  r.length = SizeExpr::Constant(length);
  r.offset_bytes = offset;
  r.length_bytes = length;
  r.access = access;
  r.value = value;
  return r;
}

Command MakeCommand(CommandKind kind, OpId op, TimeStep time, std::vector<CommandRange> ranges,
                    std::int32_t concurrent = -1) {
  Command c;
  c.kind = kind;
  c.op = op;
  c.time = time;
  c.concurrent = concurrent;
  c.ranges = std::move(ranges);
  return c;
}

HostStep MakeStep(HostStepKind kind, std::string signal, std::vector<std::string> awaits,
                  std::int32_t resource = kNoId) {
  HostStep s;
  s.kind = kind;
  s.signal = std::move(signal);
  s.awaits = std::move(awaits);
  s.resource = resource;
  return s;
}

// A program, its buffers and a valid region plan for it. Times: input 0,
// wave 0 (fill, %t0) 1, %t1 2, %acc 3, %v 4, %acc2 5, %o 6, output 7.
struct Fixture {
  Ids id;
  Program program;
  BufferSet buffers;
  Plan plan;

  explicit Fixture(Layout layout = {}) : program(RegionProgram(id)) {
    buffers.time_steps = 8;
    buffers.buffers = {
        MakeBuffer("input", {id.input, id.in}, 4096, 0, 7),      // 0, external pool
        MakeBuffer("zeros", {id.zeros}, 8192, 1, 3),             // 1, slab
        MakeBuffer("t0", {id.t0, id.v}, 8192, 1, 5),             // 2, slab
        MakeBuffer("t1", {id.t1, id.acc, id.acc2}, 8192, 2, 6),  // 3, slab
        MakeBuffer("o", {id.o, id.out}, 4096, 6, 7),             // 4, results
    };
    const Bytes slab_offsets[] = {layout.zeros, layout.t0, layout.t1};

    plan.time_steps = 8;
    plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 0}};
    plan.pools = {MakePool("external", 0, 4096), MakePool("@stage.slab", kSlabBase, 24576),
                  MakePool("@stage.results", kResultsBase, 4096)};
    plan.placements.resize(5);
    plan.placements[0] = {"external", {Allocation{kDefaultSpace, 0, 0, 7}}};
    for (BufferId b = 1; b <= 3; ++b) {
      const Buffer& buf = buffers.buffers[b];
      plan.placements[b] = {
          "@stage.slab",
          {Allocation{kDefaultSpace, kSlabBase + slab_offsets[b - 1], buf.start, buf.end}}};
    }
    plan.placements[4] = {"@stage.results", {Allocation{kDefaultSpace, kResultsBase, 6, 7}}};

    RegionPlan& rp = plan.regions.emplace();
    rp.resources = {MakeResource("external", ResourceKind::kPool, 4096, 0, 7),
                    MakeResource("@stage.slab", ResourceKind::kSlab, 24576, 1, 6),
                    MakeResource("@stage.results", ResourceKind::kResults, 4096, 1, 7)};
    rp.resources[kExternal].lifetime = Lifetime::kExternal;
    rp.resources[kExternal].slices = {MakeSlice(0, 0, buffers.buffers[0])};
    for (BufferId b = 1; b <= 3; ++b) {
      rp.resources[kSlab].slices.push_back(MakeSlice(b, slab_offsets[b - 1], buffers.buffers[b]));
    }
    rp.resources[kResults].slices = {MakeSlice(4, 0, buffers.buffers[4])};
    RegionInfo region;
    region.name = "stage";
    region.computation = 1;
    region.execute = id.execute;
    region.resources = {kExternal, kSlab, kResults};
    rp.regions = {region};

    const Bytes z = layout.zeros, t0 = layout.t0, t1 = layout.t1;
    HostStep input = MakeStep(HostStepKind::kHost, "", {});
    input.commands = {MakeCommand(CommandKind::kInput, kNoId, 0,
                                  {MakeRange(kExternal, 0, 4096, Access::kWrite, id.input)})};
    HostStep execute = MakeStep(HostStepKind::kExecute, "e0", {"a0", "a1"});
    execute.region = 0;
    execute.commands = {
        MakeCommand(CommandKind::kFill, id.fill, 1,
                    {MakeRange(kSlab, z, 8192, Access::kWrite, id.zeros)}, 0),
        MakeCommand(CommandKind::kDispatch, id.d_t0, 1,
                    {MakeRange(kExternal, 0, 4096, Access::kRead, id.in),
                     MakeRange(kSlab, t0, 8192, Access::kWrite, id.t0)},
                    0),
        MakeCommand(CommandKind::kDispatch, id.d_t1, 2,
                    {MakeRange(kSlab, t0, 8192, Access::kRead, id.t0),
                     MakeRange(kSlab, z, 8192, Access::kRead, id.zeros),
                     MakeRange(kSlab, t1, 8192, Access::kWrite, id.t1)}),
        MakeCommand(CommandKind::kCopy, id.update, 3,
                    {MakeRange(kSlab, z, 4096, Access::kRead, id.zeros),
                     MakeRange(kSlab, t1, 4096, Access::kWrite, id.acc)}),
        MakeCommand(CommandKind::kDispatch, id.d_acc2, 5,
                    {MakeRange(kSlab, t0 + 4096, 4096, Access::kRead, id.v),
                     MakeRange(kSlab, t1, 8192, Access::kReadWrite, id.acc2)}),
        MakeCommand(CommandKind::kDispatch, id.d_o, 6,
                    {MakeRange(kSlab, t1, 8192, Access::kRead, id.acc2),
                     MakeRange(kResults, 0, 4096, Access::kWrite, id.o)}),
        MakeCommand(CommandKind::kBarrier, id.barrier, 6, {}),
    };
    HostStep output = MakeStep(HostStepKind::kHost, "", {"j0"});
    output.commands = {MakeCommand(CommandKind::kOutput, kNoId, 7,
                                   {MakeRange(kResults, 0, 4096, Access::kRead, id.out)})};
    rp.steps = {input,
                MakeStep(HostStepKind::kAlloca, "a0", {}, kSlab),
                MakeStep(HostStepKind::kAlloca, "a1", {}, kResults),
                execute,
                MakeStep(HostStepKind::kDealloca, "d0", {"e0"}, kSlab),
                MakeStep(HostStepKind::kJoin, "j0", {"e0"}),
                output};
  }

  RegionPlan& rp() { return *plan.regions; }
  std::vector<Command>& commands() { return rp().steps[kExecuteStep].commands; }
  absl::Status Verify() const { return VerifyRegionPlan(program, buffers, plan); }

  static constexpr std::size_t kExecuteStep = 3;
};

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(RegionChecks, ValidPlanPasses) {
  // Fills, an in-place update whose tied result reads bytes partly written,
  // a read-write tied dispatch, a view read, a wave of two commands on
  // disjoint ranges, an operand captured from the external pool, and
  // alloca/execute/dealloca/join steps.
  Fixture f;
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, PlanWithoutRegionsPasses) {
  Fixture f;
  f.plan.regions.reset();
  f.plan.pools.clear();  // would break rule 1 if regions were checked
  EXPECT_TRUE(f.Verify().ok());
}

TEST(RegionChecks, FailedPreconditionOnViolation) {
  Fixture f;
  f.rp().resources[kResults].name = "@stage.slab";
  EXPECT_EQ(f.Verify().code(), absl::StatusCode::kFailedPrecondition);
}

// Rule 1.

TEST(RegionChecks, DuplicateResourceNames) {
  Fixture f;
  f.rp().resources[kResults].name = "@stage.slab";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.slab, results) has the name of "
            "resource 1");
}

TEST(RegionChecks, ResourceWithoutPool) {
  Fixture f;
  f.plan.pools[kResults].name = "results";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) names no pool of "
            "the default space");
}

TEST(RegionChecks, PoolInAnotherSpaceIsNotTheResourcesPool) {
  Fixture f;
  f.plan.pools[kResults].space = kAlternateSpace;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) names no pool of "
            "the default space");
}

TEST(RegionChecks, PoolLargerThanResource) {
  Fixture f;
  f.plan.pools[kSlab].size = 24640;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 1 (@stage.slab, slab) has size_bytes 24576 but "
            "its pool spans 24640 bytes (must be within [0, size_bytes])");
}

TEST(RegionChecks, ResourceTimeRangeOutsideRun) {
  Fixture f;
  f.rp().resources[kResults].end = 8;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) has time range "
            "[1, 8] outside [0, 8)");
}

// A slab of another region, at the bytes of @stage.slab, with nothing in it.
void AddOtherSlab(Fixture& f, TimeStep start, TimeStep end) {
  f.plan.pools.push_back(MakePool("@other.slab", kSlabBase + 8192, 0));
  f.rp().resources.push_back(MakeResource("@other.slab", ResourceKind::kSlab, 8192, start, end));
  f.rp().steps.push_back(MakeStep(HostStepKind::kAlloca, "a2", {},
                                  static_cast<std::int32_t>(f.rp().resources.size() - 1)));
}

TEST(RegionChecks, TimeDisjointResourcesMayShareBytes) {
  Fixture f;
  AddOtherSlab(f, 7, 7);
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, TimeOverlappingResourcesMayNotShareBytes) {
  Fixture f;
  AddOtherSlab(f, 6, 7);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resources @stage.slab (bytes [4096, 28672) of the "
            "default space, time [1, 6]) and @other.slab (bytes [12288, 20480) of the default "
            "space, time [6, 7]) share bytes [12288, 20480) while both exist at time 6");
}

// Rule 2.

TEST(RegionChecks, SliceOffsetDisagreesWithPlacement) {
  Fixture f;
  Slice& s = f.rp().resources[kSlab].slices[1];
  s.offset_bytes = 8256;
  s.offset = SizeExpr::Constant(8256);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.slab (buffer 't0' (id 2)): the buffer's "
            "default-space segment over time [1, 5] is at byte 12288 but the slice is at pool "
            "offset 4096 + offset_bytes 8256");
}

TEST(RegionChecks, MisalignedSlice) {
  Fixture f(Layout{.zeros = 0, .t0 = 8224, .t1 = 16448});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.slab (buffer 't0' (id 2)): offset_bytes "
            "8224 is not a multiple of the offset alignment 64");
}

TEST(RegionChecks, SliceOutsideResource) {
  Fixture f;
  f.rp().resources[kSlab].size_bytes = 20480;
  f.rp().resources[kSlab].size = SizeExpr::Constant(20480);
  f.plan.pools[kSlab].size = 20480;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 2 of @stage.slab (buffer 't1' (id 3)): bytes "
            "[16384, 24576) lie outside the resource's [0, 20480)");
}

TEST(RegionChecks, BufferInTwoSlices) {
  Fixture f;
  f.rp().resources[kSlab].slices.push_back(f.rp().resources[kSlab].slices[0]);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 3 of @stage.slab (buffer 'zeros' (id 1)): the buffer "
            "is also in slice 0 of @stage.slab");
}

TEST(RegionChecks, SliceOfBufferHomedElsewhere) {
  Fixture f;
  f.rp().resources[kResults].slices.push_back(f.rp().resources[kSlab].slices[0]);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.results (buffer 'zeros' (id 1)): the "
            "buffer is homed in pool '@stage.slab' of space 0, not in the resource's pool");
}

TEST(RegionChecks, SliceTimeRangeOutsideResource) {
  Fixture f;
  f.rp().resources[kSlab].start = 2;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 0 of @stage.slab (buffer 'zeros' (id 1)): time range "
            "[1, 3] lies outside the resource's [2, 6]");
}

// The fixture with a dim %n <= 4096 and the slab's size written as 6*%n.
Fixture SymbolicFixture() {
  Fixture f;
  DimDecl n;
  n.name = "n";
  n.bound = 4096;
  f.program.dims = {n};
  f.rp().resources[kSlab].size = SizeExpr::Dim(0).Scaled(6);
  return f;
}

TEST(RegionChecks, SymbolicSizeAtTheEvaluationPointPasses) {
  Fixture f = SymbolicFixture();
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, SymbolicSizeDisagreesWithSizeBytes) {
  Fixture f = SymbolicFixture();
  f.program.dims[0].binding = 2048;  // the plan was not re-evaluated
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.slab: size (6*%n) is 12288 at the "
            "evaluation point but size_bytes is 24576");
}

TEST(RegionChecks, SymbolicRangeLengthDisagrees) {
  Fixture f = SymbolicFixture();
  f.commands()[0].ranges[0].length = SizeExpr::Dim(0).Scaled(3);  // 12288, not 8192
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): step 3 (execute @stage): fill %zeros (op fill#1) range 0 "
            "(write %zeros at @stage.slab [0, 8192)): length (3*%n) is 12288 at the evaluation "
            "point but length_bytes is 8192");
}

TEST(RegionChecks, SizeMentioningAnUndeclaredDim) {
  Fixture f;
  f.rp().resources[kSlab].slices[0].size = SizeExpr::Dim(1);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 0 of @stage.slab (buffer 'zeros' (id 1)): size "
            "mentions dim #1 but the program declares 0 dims");
}

// Rule 3.

TEST(RegionChecks, CommandRangePastResource) {
  Fixture f;
  f.rp().steps[0].commands[0].ranges[0] = MakeRange(kExternal, 0, 8192, Access::kWrite, f.id.input);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 0 (host): input range 0 (write %input at "
            "external [0, 8192)) lies outside external's [0, 4096)");
}

TEST(RegionChecks, CommandRangeOutsideItsValuesSegment) {
  Fixture f;
  f.commands()[2].ranges[0] = MakeRange(kSlab, 8256, 8192, Access::kRead, f.id.t0);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %t1 (op "
            "dispatch#3) range 0 (read %t0 at @stage.slab [8256, 16448)) lies outside buffer "
            "'t0' (id 2), which holds @stage.slab [8192, 16384) at time 2");
}

TEST(RegionChecks, CommandRangeOnTimepoint) {
  Fixture f;
  f.commands()[6].ranges = {MakeRange(kSlab, 0, 0, Access::kRead, f.id.await)};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): barrier %done (op "
            "barrier#8) range 0 (read %await at @stage.slab [0, 0)): %await is a timepoint, "
            "which has no storage");
}

TEST(RegionChecks, CommandRangeInAnotherResourceThanItsValue) {
  Fixture f;
  f.commands()[5].ranges[1].resource = kSlab;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 1 (write %o at @stage.slab [0, 4096)): %o's buffer 'o' (id 4) is "
            "homed in pool '@stage.results' of space 0, not in @stage.slab's pool");
}

TEST(RegionChecks, CommandOutsideItsValuesTime) {
  Fixture f;
  f.commands()[5].time = 5;  // %o's buffer lives from 6
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 1 (write %o at @stage.results [0, 4096)): buffer 'o' (id 4) has "
            "no default-space segment at time 5");
}

// Rule 4.

TEST(RegionChecks, TimepointAwaitedBeforeSignalled) {
  Fixture f;
  f.rp().steps[Fixture::kExecuteStep].awaits.push_back("d0");
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 3 (execute @stage) awaits timepoint 'd0', which "
            "no earlier step signals");
}

TEST(RegionChecks, TimepointSignalledTwice) {
  Fixture f;
  f.rp().steps[5].signal = "e0";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 5 (join) signals timepoint 'e0', already "
            "signalled by step 3 (execute @stage)");
}

TEST(RegionChecks, ExecuteNotPrecededByAllocaOfItsSlab) {
  Fixture f;
  f.rp().steps[Fixture::kExecuteStep].awaits = {"a1"};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 3 (execute @stage) touches @stage.slab but does "
            "not await the timepoint 'a0' of step 1 (alloca @stage.slab), directly or through "
            "other steps");
}

TEST(RegionChecks, AllocaAwaitedThroughAnotherStep) {
  Fixture f;
  f.rp().steps[2].awaits = {"a0"};  // results alloca after the slab's
  f.rp().steps[Fixture::kExecuteStep].awaits = {"a1"};
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, DeallocaNotPrecededByExecute) {
  Fixture f;
  f.rp().steps[4].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 4 (dealloca @stage.slab) does not await the "
            "timepoint 'e0' of step 3 (execute @stage), which touches @stage.slab, directly or "
            "through other steps");
}

TEST(RegionChecks, CommandAfterDealloca) {
  Fixture f;
  HostStep load = MakeStep(HostStepKind::kHost, "", {"d0"});
  load.commands = {MakeCommand(CommandKind::kLoad, kNoId, 6,
                               {MakeRange(kSlab, 16384, 8192, Access::kRead, f.id.acc2)})};
  f.rp().steps.insert(f.rp().steps.begin() + 5, load);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): load in step 5 (host) touches @stage.slab after step 4 "
            "(dealloca @stage.slab)");
}

TEST(RegionChecks, SlabTouchedBeforeItsAlloca) {
  Fixture f;
  std::swap(f.rp().steps[1], f.rp().steps[Fixture::kExecuteStep]);  // execute first
  f.rp().steps[1].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): fill %zeros (op fill#1) in step 1 (execute @stage) "
            "touches slab resource @stage.slab before any alloca step of it");
}

TEST(RegionChecks, SlabWithoutAlloca) {
  Fixture f;
  AddOtherSlab(f, 7, 7);
  f.rp().steps.pop_back();  // its alloca
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): slab resource @other.slab has no alloca step");
}

TEST(RegionChecks, ResourceReleasedTwice) {
  Fixture f;
  f.rp().steps.push_back(MakeStep(HostStepKind::kDealloca, "d1", {"d0"}, kSlab));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): @stage.slab has two dealloca steps: step 4 (dealloca "
            "@stage.slab) and step 7 (dealloca @stage.slab)");
}

// Rule 5.

TEST(RegionChecks, Clobber) {
  // %t1 shares bytes with %zeros, which the update still reads after %t1 is
  // written.
  Fixture f(Layout{.zeros = 0, .t0 = 8192, .t1 = 0});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): clobber: copy %acc (op update#4) reads %zeros at "
            "@stage.slab [0, 4096) but bytes [0, 4096) hold %t1 (written by dispatch %t1)");
}

TEST(RegionChecks, ReadOfNeverWrittenBytes) {
  Fixture f;
  f.commands().erase(f.commands().begin());  // no fill
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): uninitialized read: dispatch %t1 (op dispatch#3) "
            "reads %zeros at @stage.slab [0, 8192) but bytes [0, 8192) were never written");
}

TEST(RegionChecks, RaceInsideAWave) {
  Fixture f;
  f.commands()[2].concurrent = 0;  // %t1 joins the wave that writes %t0
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): race in wave 0 of step 3 (execute @stage): "
            "dispatch %t0 (op dispatch#2) writes %t0 at @stage.slab [8192, 16384) while "
            "dispatch %t1 (op dispatch#3) reads %t0 at @stage.slab [8192, 16384): both touch "
            "bytes [8192, 16384)");
}

TEST(RegionChecks, RaceWithAnEarlierWriterOfTheWave) {
  // The reader comes after the writer in the list: still a race.
  Fixture f;
  std::swap(f.commands()[0], f.commands()[1]);
  f.commands()[1].ranges.push_back(MakeRange(kSlab, 8192, 64, Access::kRead, f.id.t0));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 5 (shadow execution): race in wave 0 of step 3 (execute @stage): "
            "dispatch %t0 (op dispatch#2) writes %t0 at @stage.slab [8192, 16384) while fill "
            "%zeros (op fill#1) reads %t0 at @stage.slab [8192, 8256): both touch bytes "
            "[8192, 8256)");
}

TEST(RegionChecks, NonAdjacentRepeatOfAWaveIsANewBlock) {
  // The update (wave 0 again, after %t1) reads %zeros, which the first wave 0
  // block writes: no race, as the blocks are apart.
  Fixture f;
  f.commands()[3].concurrent = 0;
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, ACommandReadsTheMemoryBeforeItsWrites) {
  // The read-write range of %acc2 split into a write listed first and a read
  // of %acc: the read still sees %acc's bytes (and %t1's), not %acc2's.
  Fixture f;
  std::vector<CommandRange>& ranges = f.commands()[4].ranges;
  ranges[1] = MakeRange(kSlab, 16384, 8192, Access::kWrite, f.id.acc2);
  ranges.push_back(MakeRange(kSlab, 16384, 8192, Access::kRead, f.id.acc));
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

// Data sources, directly.

TEST(DataSources, CallWhileConditionalAndAsync) {
  ProgramBuilder b;
  const ComputationId main = b.AddComputation("main");
  const ComputationId f = b.AddComputation("f");
  const ComputationId cond = b.AddComputation("cond");
  const ComputationId body = b.AddComputation("body");
  const ComputationId then_b = b.AddComputation("then");
  const ComputationId else_b = b.AddComputation("else");
  b.SetEntry(main);
  const ValueId x = b.AddParam(main, "x", 8);
  const ValueId p = b.AddParam(main, "p", 1);
  // call
  const OpId call = b.AddOp(main, "call", {x});
  b.op(call).callees = {f};
  const ValueId fx = b.AddParam(f, "fx", 8);
  const OpId fop = b.AddOp(f, "neg", {fx});
  const ValueId fy = b.AddResult(fop, "fy", 8);
  b.SetReturn(f, {fy});
  const ValueId y = b.AddResult(call, "y", 8);
  // while
  const OpId loop = b.AddOp(main, "while", {y});
  b.op(loop).callees = {cond, body};
  const ValueId cx = b.AddParam(cond, "cx", 8);
  const OpId cop = b.AddOp(cond, "less", {cx});
  b.SetReturn(cond, {b.AddResult(cop, "c", 1)});
  const ValueId bx = b.AddParam(body, "bx", 8);
  const OpId bop = b.AddOp(body, "inc", {bx});
  const ValueId by = b.AddResult(bop, "by", 8);
  b.SetReturn(body, {by});
  const ValueId w = b.AddResult(loop, "w", 8);
  // conditional
  const OpId cnd = b.AddOp(main, "conditional", {p, w});
  b.op(cnd).callees = {then_b, else_b};
  const ValueId tx = b.AddParam(then_b, "tx", 8);
  b.SetReturn(then_b, {tx});
  const ValueId ex = b.AddParam(else_b, "ex", 8);
  const OpId eop = b.AddOp(else_b, "neg", {ex});
  const ValueId ey = b.AddResult(eop, "ey", 8);
  b.SetReturn(else_b, {ey});
  const ValueId r = b.AddResult(cnd, "r", 8);
  // async pair
  const OpId start = b.AddOp(main, "copy-start", {r});
  const ValueId s = b.AddResult(start, "s", 8);
  const OpId done = b.AddOp(main, "copy-done", {s});
  const ValueId d = b.AddResult(done, "d", 8);
  const Program program = std::move(b).Finish();

  region_verify::DataSources sources(program);
  EXPECT_TRUE(sources.IsSource(d, d));
  EXPECT_TRUE(sources.IsSource(s, d));   // X-done result <- X-start result
  EXPECT_FALSE(sources.IsSource(r, d));  // the copy-start writes s itself
  EXPECT_TRUE(sources.IsSource(ey, r));  // any branch's result
  EXPECT_TRUE(sources.IsSource(tx, r));
  EXPECT_TRUE(sources.IsSource(w, tx));  // branch param <- arg (not the predicate)
  EXPECT_FALSE(sources.IsSource(p, tx));
  EXPECT_TRUE(sources.IsSource(by, w));   // while result <- body result
  EXPECT_TRUE(sources.IsSource(by, bx));  // later iterations
  EXPECT_TRUE(sources.IsSource(by, cx));
  EXPECT_TRUE(sources.IsSource(y, cx));  // first iteration
  EXPECT_TRUE(sources.IsSource(fy, y));  // call result <- callee result
  EXPECT_TRUE(sources.IsSource(x, fx));  // callee param <- call operand
  EXPECT_FALSE(sources.IsSource(x, y));  // f computes fy, it does not pass fx through
  EXPECT_FALSE(sources.IsSource(y, x));  // parents only point backwards in data flow
  EXPECT_FALSE(sources.IsSource(by, y));
}

// The interval map behind the tagged memory.

TEST(IntervalMap, SplitsAndMerges) {
  region_verify::IntervalMap<int> map;
  map.Assign(0, 100, 1);
  map.Assign(40, 60, 2);
  map.Assign(60, 80, 2);  // merges with [40, 60)
  map.Assign(200, 300, 1);
  std::vector<std::string> pieces;
  map.Visit(10, 250, [&](const region_verify::IntervalMap<int>::Piece& p) {
    pieces.push_back(std::to_string(p.begin) + "-" + std::to_string(p.end) + ":" +
                     (p.tag ? std::to_string(*p.tag) : "none"));
    return true;
  });
  EXPECT_EQ(pieces, (std::vector<std::string>{"10-40:1", "40-80:2", "80-100:1", "100-200:none",
                                              "200-250:1"}));
  map.Assign(30, 90, 1);  // everything from 0 to 100 is 1 again: one piece
  pieces.clear();
  map.Visit(0, 100, [&](const region_verify::IntervalMap<int>::Piece& p) {
    pieces.push_back(std::to_string(p.begin) + "-" + std::to_string(p.end));
    return true;
  });
  EXPECT_EQ(pieces, (std::vector<std::string>{"0-100"}));
}

TEST(IntervalMap, LargeRangesCostNoMemoryPerByte) {
  region_verify::IntervalMap<int> map;
  const Bytes gib = Bytes{1} << 30;
  for (int i = 0; i < 64; ++i) map.Assign(i * gib, (i + 1) * gib, i % 2);
  int pieces = 0;
  map.Visit(0, 64 * gib, [&](const region_verify::IntervalMap<int>::Piece&) {
    ++pieces;
    return true;
  });
  EXPECT_EQ(pieces, 64);
}

}  // namespace
}  // namespace memplan
