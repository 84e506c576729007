// Happens-before in the region verifier (verify/region_checks.h, rules 4 and
// 5) on two regions whose slabs take the same bytes at disjoint times.
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ir/program_builder.h"
#include "region_plan_builders.h"
#include "verify/region_checks.h"

namespace memplan {
namespace {

using namespace region_test;

//   entry func @main(%x: 4096 external) {
//     %a = execute(%x) {callee = @ra}              op 0
//     %b = execute(%a) {callee = @rb}              op 1
//     return %b
//   }
//   region @ra(%in_a: 4096) {
//     %t = dispatch(%in_a) : 65536                 op 2, time 1
//     %oa = dispatch(%t) : 4096                    op 3, time 2
//     return %oa
//   }
//   region @rb(%in_b: 4096) {
//     %u = dispatch(%in_b) : 65536                 op 4, time 3
//     %ob = dispatch(%u) : 4096                    op 5, time 4
//     return %ob
//   }
struct Ids {
  ValueId x, a, b, in_a, t, oa, in_b, u, ob;
  OpId d_t, d_oa, d_u, d_ob;
};

Program PairProgram(Ids& id) {
  ProgramBuilder b("pair");
  const ComputationId main = b.AddComputation("main");
  const ComputationId ra = b.AddComputation("ra", ComputationKind::kRegion);
  const ComputationId rb = b.AddComputation("rb", ComputationKind::kRegion);
  b.SetEntry(main);
  id.x = b.AddParam(main, "x", 4096);
  b.value(id.x).lifetime = Lifetime::kExternal;
  const OpId exec_a = b.AddOp(main, "execute", {id.x});
  b.op(exec_a).callees = {ra};
  id.a = b.AddResult(exec_a, "a", 4096);
  const OpId exec_b = b.AddOp(main, "execute", {id.a});
  b.op(exec_b).callees = {rb};
  id.b = b.AddResult(exec_b, "b", 4096);
  b.SetReturn(main, {id.b});

  id.in_a = b.AddParam(ra, "in_a", 4096);
  id.d_t = b.AddOp(ra, "dispatch", {id.in_a});
  id.t = b.AddResult(id.d_t, "t", 65536);
  id.d_oa = b.AddOp(ra, "dispatch", {id.t});
  id.oa = b.AddResult(id.d_oa, "oa", 4096);
  b.SetReturn(ra, {id.oa});

  id.in_b = b.AddParam(rb, "in_b", 4096);
  id.d_u = b.AddOp(rb, "dispatch", {id.in_b});
  id.u = b.AddResult(id.d_u, "u", 65536);
  id.d_ob = b.AddOp(rb, "dispatch", {id.u});
  id.ob = b.AddResult(id.d_ob, "ob", 4096);
  b.SetReturn(rb, {id.ob});
  return std::move(b).Finish();
}

constexpr std::int32_t kExternal = 0, kRaSlab = 1, kRaResults = 2, kRbSlab = 3, kRbResults = 4;
constexpr Bytes kExternalBase = 65536, kRaResultsBase = 69632, kRbResultsBase = 73728;
constexpr Bytes kFreeBase = 77824;  // past every resource

// A valid plan: rb's slab is allocated once ra's is released, and rb's execute
// waits for ra's (whose result it reads).
//   0 host: input %x              5 alloca rb.slab (awaits ra.slab.freed)
//   1 alloca ra.slab              6 alloca rb.results
//   2 alloca ra.results           7 execute @rb (awaits 5, 6, ra.done)
//   3 execute @ra (awaits 1, 2)   8 dealloca rb.slab (awaits rb.done)
//   4 dealloca ra.slab            9 host: output %b (awaits rb.done)
struct PairFixture {
  Ids id;
  Program program;
  BufferSet buffers;
  Plan plan;

  explicit PairFixture(Bytes rb_slab_base = 0) : program(PairProgram(id)) {
    buffers.time_steps = 6;
    buffers.buffers = {
        region_test::MakeBuffer("x", {id.x, id.in_a}, 4096, 0, 5), region_test::MakeBuffer("t", {id.t}, 65536, 1, 2),
        region_test::MakeBuffer("a", {id.oa, id.a, id.in_b}, 4096, 2, 3), region_test::MakeBuffer("u", {id.u}, 65536, 3, 4),
        region_test::MakeBuffer("b", {id.ob, id.b}, 4096, 4, 5)};
    const Bytes bases[] = {kExternalBase, 0, kRaResultsBase, rb_slab_base, kRbResultsBase};
    const char* names[] = {"external", "ra.slab", "ra.results", "rb.slab", "rb.results"};
    const ResourceKind kinds[] = {ResourceKind::kPool, ResourceKind::kSlab, ResourceKind::kResults,
                                  ResourceKind::kSlab, ResourceKind::kResults};
    const TimeStep starts[] = {0, 1, 1, 3, 3};
    const TimeStep ends[] = {5, 2, 3, 4, 5};

    plan.time_steps = 6;
    plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 0}};
    RegionPlan& rp = plan.regions.emplace();
    for (std::int32_t r = 0; r < 5; ++r) {  // buffer r lives alone in resource r
      const Buffer& buf = buffers.buffers[r];
      plan.pools.push_back(MakePool(names[r], bases[r], buf.size));
      plan.placements.push_back(
          {names[r], {Allocation{kDefaultSpace, bases[r], buf.start, buf.end}}});
      rp.resources.push_back(MakeResource(names[r], kinds[r], buf.size, starts[r], ends[r]));
      rp.resources[r].slices = {MakeSlice(r, 0, buf)};
    }
    RegionInfo ra, rb;
    ra.name = "ra";
    rb.name = "rb";
    rp.regions = {ra, rb};

    HostStep input = MakeStep(HostStepKind::kHost, "", {});
    input.commands = {MakeCommand(CommandKind::kInput, kNoId, 0,
                                  {MakeRange(kExternal, 0, 4096, Access::kWrite, id.x)})};
    HostStep run_a =
        MakeStep(HostStepKind::kExecute, "ra.done", {"ra.slab.ready", "ra.results.ready"});
    run_a.region = 0;
    run_a.commands = {MakeCommand(CommandKind::kDispatch, id.d_t, 1,
                                  {MakeRange(kExternal, 0, 4096, Access::kRead, id.in_a),
                                   MakeRange(kRaSlab, 0, 65536, Access::kWrite, id.t)}),
                      MakeCommand(CommandKind::kDispatch, id.d_oa, 2,
                                  {MakeRange(kRaSlab, 0, 65536, Access::kRead, id.t),
                                   MakeRange(kRaResults, 0, 4096, Access::kWrite, id.oa)})};
    HostStep run_b = MakeStep(HostStepKind::kExecute, "rb.done",
                              {"rb.slab.ready", "rb.results.ready", "ra.done"});
    run_b.region = 1;
    run_b.commands = {MakeCommand(CommandKind::kDispatch, id.d_u, 3,
                                  {MakeRange(kRaResults, 0, 4096, Access::kRead, id.in_b),
                                   MakeRange(kRbSlab, 0, 65536, Access::kWrite, id.u)}),
                      MakeCommand(CommandKind::kDispatch, id.d_ob, 4,
                                  {MakeRange(kRbSlab, 0, 65536, Access::kRead, id.u),
                                   MakeRange(kRbResults, 0, 4096, Access::kWrite, id.ob)})};
    HostStep output = MakeStep(HostStepKind::kHost, "", {"rb.done"});
    output.commands = {MakeCommand(CommandKind::kOutput, kNoId, 5,
                                   {MakeRange(kRbResults, 0, 4096, Access::kRead, id.b)})};
    rp.steps = {input,
                MakeStep(HostStepKind::kAlloca, "ra.slab.ready", {}, kRaSlab),
                MakeStep(HostStepKind::kAlloca, "ra.results.ready", {}, kRaResults),
                run_a,
                MakeStep(HostStepKind::kDealloca, "ra.slab.freed", {"ra.done"}, kRaSlab),
                MakeStep(HostStepKind::kAlloca, "rb.slab.ready", {"ra.slab.freed"}, kRbSlab),
                MakeStep(HostStepKind::kAlloca, "rb.results.ready", {}, kRbResults),
                run_b,
                MakeStep(HostStepKind::kDealloca, "rb.slab.freed", {"rb.done"}, kRbSlab),
                output};
  }

  std::vector<HostStep>& steps() { return plan.regions->steps; }
  absl::Status Verify(RegionFailureSite* site = nullptr) const {
    return VerifyRegionPlan(program, buffers, plan, site);
  }

  static constexpr std::size_t kRbSlabAlloca = 5, kRunB = 7;
};

TEST(RegionOrder, SlabReleasedBeforeTheNextIsAllocatedPasses) {
  PairFixture f;
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionOrder, ConcurrentRegionsMayNotShareBytes) {
  // Neither region awaits the other (rb only awaits ra's result reservation):
  // their time ranges are disjoint, yet both slabs may exist at once.
  PairFixture f;
  f.steps()[PairFixture::kRbSlabAlloca].awaits = {};
  f.steps()[PairFixture::kRunB].awaits = {"rb.slab.ready", "rb.results.ready", "ra.results.ready"};
  RegionFailureSite site;
  EXPECT_EQ(Message(f.Verify(&site)),
            "region rule 4 (timepoints): ra.slab (bytes [0, 65536)) and rb.slab (bytes [0, "
            "65536)) share bytes [0, 65536) but neither is released before the other is "
            "allocated: step 5 (alloca rb.slab) does not wait for step 4 (dealloca ra.slab)");
  EXPECT_FALSE(site.has_command);
}

TEST(RegionOrder, ReleaseAwaitedThroughAJoinPasses) {
  PairFixture f;
  f.steps().insert(f.steps().begin() + PairFixture::kRbSlabAlloca,
                   MakeStep(HostStepKind::kJoin, "ra.joined", {"ra.done", "ra.slab.freed"}));
  f.steps()[PairFixture::kRbSlabAlloca + 1].awaits = {"ra.joined"};
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionOrder, ReleaseAwaitedByAHostStepInBetweenPasses) {
  // The host reads %a once ra's slab is released; the alloca after it in
  // program order awaits nothing itself.
  PairFixture f;
  HostStep load = MakeStep(HostStepKind::kHost, "", {"ra.slab.freed"});
  load.commands = {MakeCommand(CommandKind::kLoad, kNoId, 2,
                               {MakeRange(kRaResults, 0, 4096, Access::kRead, f.id.a)})};
  f.steps().insert(f.steps().begin() + PairFixture::kRbSlabAlloca, load);
  f.steps()[PairFixture::kRbSlabAlloca + 1].awaits = {};
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionOrder, ReleaseNotAwaitedByTheHostStepInBetween) {
  PairFixture f;
  f.steps().insert(f.steps().begin() + PairFixture::kRbSlabAlloca,
                   MakeStep(HostStepKind::kHost, "", {"ra.done"}));
  f.steps()[PairFixture::kRbSlabAlloca + 1].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): ra.slab (bytes [0, 65536)) and rb.slab (bytes [0, "
            "65536)) share bytes [0, 65536) but neither is released before the other is "
            "allocated: step 6 (alloca rb.slab) does not wait for step 4 (dealloca ra.slab)");
}

TEST(RegionOrder, UnorderedReadAcrossRegions) {
  // rb's slab elsewhere, so nothing orders rb after ra: rb reads %a from
  // ra.results, possibly before ra has written it.
  PairFixture f(kFreeBase);
  f.steps()[PairFixture::kRbSlabAlloca].awaits = {};
  f.steps()[PairFixture::kRunB].awaits = {"rb.slab.ready", "rb.results.ready", "ra.results.ready"};
  RegionFailureSite site;
  EXPECT_EQ(Message(f.Verify(&site)),
            "region rule 5 (shadow execution): unordered read: dispatch %u (op dispatch#4) "
            "reads %in_b at ra.results [0, 4096), written by dispatch %oa in step 3, which step "
            "7 does not wait for");
  EXPECT_TRUE(site.has_command);
  EXPECT_EQ(site.step, PairFixture::kRunB);
  EXPECT_EQ(site.command, 0u);
}

TEST(RegionOrder, ReadAwaitedThroughTheSlabReleasePasses) {
  // rb's slab alloca awaits ra's release, which awaits ra: rb's execute need
  // not await ra itself.
  PairFixture f;
  f.steps()[PairFixture::kRunB].awaits = {"rb.slab.ready", "rb.results.ready"};
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

}  // namespace
}  // namespace memplan
