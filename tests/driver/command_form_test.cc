// The command form (regions/command_form.h, `plan --emit-ir` with regions):
// ordinary text IR that parses back, prints identically, and plans again.
#include "regions/command_form.h"

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

// examples/`name` parsed and printed again (the printer's canonical form).
std::string CanonicalExample(const std::string& name) {
  absl::StatusOr<Program> p = ParseProgramFile(std::string(MEMPLAN_SOURCE_DIR) + "/examples/" + name);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? PrintProgram(*p) : "";
}

TEST(CommandForm, RegionExampleGolden) {
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(CanonicalExample("region.mpir"));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(PrintProgram(CommandProgram(p->program, p->analysis, p->plan)), R"(program @region

entry func @main(%input: 4096 external, %ready: timepoint) {
  %stage.results.external, %stage.results.external.ready = resource.alloca(%ready) : 4096 external, timepoint {affinity = "gpu0"}
  %stage.slab, %stage.slab.ready = resource.alloca(%ready) : 24576 transient, timepoint {affinity = "gpu0"}
  %out = resource.subview(%stage.results.external) : 4096 view(%stage.results.external, 0)
  %stage.await = timepoint.join(%ready, %stage.results.external.ready, %stage.slab.ready) : timepoint
  %stage.done = execute(%stage.results.external, %stage.slab, %input, %stage.await) : timepoint {callee = @stage}
  %stage.slab.freed = resource.dealloca(%stage.slab, %stage.done) : timepoint
  %stage.joined = timepoint.join(%stage.done, %stage.slab.freed) : timepoint
  return %out, %stage.joined
}

region @stage(%stage/stage.results.external: 4096, %stage/stage.slab: 24576, %stage/input: 4096, %stage/await: timepoint) affinity("gpu0") {
  cmd.fill(%stage/stage.slab[0 for 8192]) {wave = 0, access = ["write"], values = ["zeros"]}
  cmd.dispatch(%stage/input[0 for 4096], %stage/stage.slab[16384 for 8192]) {wave = 0, access = ["read", "write"], values = ["in", "t0"], op = "dispatch"}
  cmd.dispatch(%stage/stage.slab[16384 for 8192], %stage/stage.slab[0 for 8192], %stage/stage.slab[8192 for 8192]) {wave = 1, access = ["read", "read", "write"], values = ["t0", "zeros", "t1"], op = "dispatch"}
  cmd.copy(%stage/stage.slab[0 for 8192], %stage/stage.slab[8192 for 8192]) {wave = 2, access = ["read", "write"], values = ["zeros", "acc"]}
  cmd.dispatch(%stage/stage.slab[8192 for 8192], %stage/stage.results.external[0 for 4096], %stage/stage.slab[0 for 1024]) {wave = 3, access = ["read", "write", "read-write"], values = ["acc", "o", "o.scratch"], op = "dispatch"}
  return %stage/await
}
)");
}

// A tied result reached through a chain of subviews maps to its operand
// through one subview created outside the region, with the summed offset.
TEST(CommandForm, TiedResultThroughSubviewChain) {
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(R"(
entry func @main(%x: 4096 external, %ready: timepoint) {
  %y, %done = execute(%x, %ready) : 1024, timepoint {callee = @r}
  %z = dispatch(%y) : 64
  return %z, %done
}
region @r(%operand: 4096, %await: timepoint) affinity("gpu0") {
  %v = subview(%operand) : 2048 view(%operand, 1024)
  %w = subview(%v) : 1024 view(%v, 512)
  %f = fill(%w[0 for 1024]) : 1024 tied(%w)
  return %f, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(PrintProgram(CommandProgram(p->program, p->analysis, p->plan)),
            R"(entry func @main(%x: 4096 external, %ready: timepoint) {
  %r.await = timepoint.join(%ready) : timepoint
  %r.done = execute(%x, %r.await) : timepoint {callee = @r}
  %y = resource.subview(%x) : 1024 view(%x, 1536)
  %z = dispatch(%y) : 64
  return %z, %r.done
}

region @r(%r/x: 4096, %r/await: timepoint) affinity("gpu0") {
  cmd.fill(%r/x[1536 for 1024]) {access = ["write"], values = ["f"]}
  return %r/await
}
)");
}

// Every region example's command form is valid IR at a fixed point of
// print(parse(...)), and plans and verifies again.
TEST(CommandForm, EveryRegionExampleRoundTripsAndPlans) {
  int seen = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(MEMPLAN_SOURCE_DIR) + "/examples")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("region")) continue;
    ++seen;
    absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(CanonicalExample(name));
    ASSERT_TRUE(p.ok()) << name << ": " << p.status();
    const std::string text = PrintProgram(CommandProgram(p->program, p->analysis, p->plan));
    absl::StatusOr<Program> parsed = ParseProgram(text, name);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status() << "\n" << text;
    EXPECT_EQ(PrintProgram(*parsed), text) << name;
    absl::StatusOr<testing_regions::Planned> again = testing_regions::PlanText(text);
    EXPECT_TRUE(again.ok()) << name << ": " << again.status();
  }
  EXPECT_GE(seen, 4);
}

}  // namespace
}  // namespace memplan
