// Region programs written the way IREE's own tests are, which memplan used
// to refuse or to plan with the wrong flags (issue 31): scratch allocas, a
// host function returning an alloca, a timepoint returned from a call, a
// region in a loop of an initializer (not run-once), and the host's
// resource ops with a completion timepoint (tests/data/regions).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "io/file_io.h"
#include "ir/text_parser.h"
#include "tests/driver/region_test_util.h"
#include "tests/ir/parse_ok.h"

namespace memplan {
namespace {

absl::StatusOr<testing_regions::Planned> PlanData(const std::string& name) {
  absl::StatusOr<std::string> text =
      ReadFile(std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/regions/" + name);
  if (!text.ok()) return text.status();
  return testing_regions::PlanText(*text);
}

// The host steps without their commands.
std::vector<std::string> StepLines(const testing_regions::Planned& p) {
  std::vector<std::string> lines;
  for (const std::string& line : testing_regions::Steps(p)) {
    if (!line.starts_with("  ")) lines.push_back(line);
  }
  return lines;
}

// A dispatch result tied to a region-local alloca reads and writes scratch
// bytes nobody wrote: not an uninitialized read.
TEST(RegionValidPrograms, DispatchTiedToAnAllocaIsScratch) {
  absl::StatusOr<testing_regions::Planned> p = PlanData("alloca_scratch.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->plan.regions->regions[0].slab_bytes, 4096);
  EXPECT_EQ(testing_regions::Join(testing_regions::Resources(*p), "\n"),
            "r.results.external results external [gpu0] 1024: y@0\n"
            "r.slab slab transient [gpu0] 4096: s@0");
}

TEST(RegionValidPrograms, HostFunctionReturnsAnAlloca) {
  absl::StatusOr<testing_regions::Planned> p = PlanData("host_alloca.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
}

// %t is what @first_stage returns, @first's completion: @second waits on it.
TEST(RegionValidPrograms, TimepointReturnedFromACallIsFollowed) {
  absl::StatusOr<testing_regions::Planned> p = PlanData("call_timepoint.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(testing_regions::Join(StepLines(*p), "\n"),
            "join -> ready\n"
            "host\n"
            "alloca first.results -> first.results.ready <- ready\n"
            "execute @first -> first.done <- ready,first.results.ready\n"
            "alloca second.results.external -> second.results.external.ready <- first.done\n"
            "execute @second -> second.done <- first.done,second.results.external.ready\n"
            "dealloca first.results -> first.results.freed <- first.done,second.done\n"
            "host <- second.done");
}

// `once` is run-once: @setup, executed by the initializer, is; @step, in a
// while body with trip_count = 4, is not, and its slab and result
// reservation are allocated and released inside the body (each iteration).
TEST(RegionValidPrograms, RegionInALoopOfAnInitializerIsNotRunOnce) {
  absl::StatusOr<testing_regions::Planned> p = PlanData("loop_in_initializer.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  const std::vector<RegionInfo>& regions = p->plan.regions->regions;
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].name, "setup");
  EXPECT_TRUE(regions[0].once);
  EXPECT_EQ(regions[1].name, "step");
  EXPECT_FALSE(regions[1].once);
  EXPECT_EQ(testing_regions::Join(StepLines(*p), "\n"),
            "host\nhost\n"
            "join -> go\n"
            "alloca setup.results.variable -> setup.results.variable.ready <- go\n"
            "execute @setup -> setup.done <- go,setup.results.variable.ready\n"
            "host\n"
            "join -> t\n"
            "alloca step.results -> step.results.ready <- t\n"
            "alloca step.slab -> step.slab.ready <- t\n"
            "execute @step -> step.done <- t,step.results.ready,step.slab.ready\n"
            "dealloca step.slab -> step.slab.freed <- step.done\n"
            "join -> step.joined <- step.done,step.slab.freed\n"
            "host <- step.done\n"
            "dealloca step.results -> step.results.freed <- step.done\n"
            "host\n"
            "host <- step.done,setup.done");
  // The body runs over [6, 9]: both allocations of @step stay inside it.
  for (const Resource& r : p->plan.regions->resources) {
    if (r.region != "step") continue;
    EXPECT_GE(r.start, 6) << r.name;
    EXPECT_LE(r.end, 9) << r.name;
  }
}

// import/export move no data; alloc is host scratch the region ties a
// dispatch to; the execute's extra timepoint result is @r's completion.
TEST(RegionValidPrograms, HostResourceOpsAndACompletionTimepoint) {
  absl::StatusOr<testing_regions::Planned> p = PlanData("host_resources.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(testing_regions::Join(StepLines(*p), "\n"),
            "host\n"
            "alloca r.results.external -> r.results.external.ready\n"
            "execute @r -> r.done <- r.results.external.ready\n"
            "host <- r.done");
  const Program& program = p->program;
  EXPECT_EQ(p->analysis.value_buffer[program.FindValue("d")],
            p->analysis.value_buffer[program.FindValue("x")]);
  EXPECT_EQ(p->analysis.value_buffer[program.FindValue("e")],
            p->analysis.value_buffer[program.FindValue("y")]);
}

TEST(RegionValidPrograms, HostResourceOpErrors) {
  EXPECT_EQ(Err("entry func @m(%x: 64) {\n  %y, %t = execute(%x) : 64, 8 {callee = @r}\n  return %y\n}\n"
                "region @r(%p: 64) { %q = dispatch(%p) : 64  return %q }\n"),
            "t.mpir:2:12: error: execute @r returns 1 value but the execute has 2 results (results "
            "past the region's must be timepoints)");
  EXPECT_EQ(Err("entry func @m(%x: 64) {\n  %y = execute(%x) : 64 {callee = @r}\n  return %y\n}\n"
                "region @r(%p: 64) { %s = alloc() : 64\n  %q = dispatch(%p, %s) : 64  return %q }\n"),
            "t.mpir:5:26: error: alloc is a host op; inside a region use alloca");
  EXPECT_EQ(Err("entry func @m(%x: 64) {\n  %d = import(%x) : 64 {affinity = \"gpu0\"}\n  return %d\n}\n"),
            "t.mpir:2:8: error: import moves no data: its result must be view(%x, 0) with the "
            "operand's size");
  EXPECT_EQ(Err("entry func @m(%x: 64) {\n  %d = export(%x) : 64 view(%x, 0)\n  return %d\n}\n"),
            "t.mpir:2:8: error: export needs the device it takes the buffer from: {affinity = "
            "\"...\"}");
  EXPECT_EQ(Err("entry func @m() {\n  %a = alloc() : 64 constant\n  %b = alloc(%a) : 64\n  return %b\n}\n"),
            "t.mpir:3:8: error: alloc takes no operands and has one fresh result (not tied, not a "
            "view)");
}

}  // namespace
}  // namespace memplan
