// The fixture of the region verifier's tests (verify/region_checks.h): the
// program of examples/region.mpir grown by a view and a read-write dispatch,
// its buffers and a valid region plan for it, with helpers to break it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "ir/program_builder.h"
#include "region_plan_builders.h"
#include "verify/region_checks.h"

namespace memplan::region_test {

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

inline Program RegionProgram(Ids& id) {
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

// A slab of another region, at the bytes of @stage.slab, with nothing in it;
// its alloca (step 7) awaits `awaits` ("d0": @stage.slab's release).
inline void AddOtherSlab(Fixture& f, TimeStep start, TimeStep end,
                         std::vector<std::string> awaits = {"d0"}) {
  f.plan.pools.push_back(MakePool("@other.slab", kSlabBase + 8192, 0));
  f.rp().resources.push_back(MakeResource("@other.slab", ResourceKind::kSlab, 8192, start, end));
  f.rp().steps.push_back(MakeStep(HostStepKind::kAlloca, "a2", std::move(awaits),
                                  static_cast<std::int32_t>(f.rp().resources.size() - 1)));
}

// A scratch buffer (no values) of `size` bytes at `offset` of @stage.slab,
// live over [start, end].
inline void AddScratch(Fixture& f, Bytes offset, Bytes size, TimeStep start, TimeStep end) {
  const auto b = static_cast<BufferId>(f.buffers.buffers.size());
  f.buffers.buffers.push_back(MakeBuffer("dispatch#7.scratch", {}, size, start, end));
  f.plan.placements.push_back(
      {"@stage.slab", {Allocation{kDefaultSpace, kSlabBase + offset, start, end}}});
  f.rp().resources[kSlab].slices.push_back(MakeSlice(b, offset, f.buffers.buffers[b]));
}

}  // namespace memplan::region_test
