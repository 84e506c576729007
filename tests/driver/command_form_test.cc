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

// tests/data/regions/`name`'s command form.
std::string CommandFormOf(const std::string& name) {
  absl::StatusOr<Program> program =
      ParseProgramFile(std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/regions/" + name);
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return "";
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(PrintProgram(*program));
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? PrintProgram(CommandProgram(p->program, p->analysis, p->plan)) : "";
}

// Issue 31, item 1: a symbolic range into a captured operand stays symbolic
// (it was written at the bound, [64 for 4096], which does not re-read).
TEST(CommandForm, RangeIntoACapturedOperandStaysSymbolic) {
  EXPECT_EQ(CommandFormOf("captured_symbolic_range.mpir"), R"(dim %n <= 4096

entry func @main(%x: (%n + 64) external, %ready: timepoint) {
  %r.await = timepoint.join(%ready) : timepoint
  %r.done = execute(%x, %r.await) : timepoint {callee = @r}
  return %x, %r.done
}

region @r(%r/x: (%n + 64), %r/await: timepoint) affinity("gpu0") {
  cmd.fill(%r/x[64 for %n]) {access = ["write"], values = ["f"]}
  return %r/await
}
)");
}

// Issue 31, item 2: the in-order command form of two dynamic slices reads
// back (the range's end align(%m, 64) + %n is provably within the operand).
TEST(CommandForm, RangeBesideAnotherAlignTermReReads) {
  EXPECT_TRUE(ParseProgram(R"(dim %n <= 100
dim %m <= 100
entry func @main(%x: (align(%m, 64) + align(%n, 64)) external) {
  %y = exp(%x[align(%m, 64) for %n]) : 4  return %y }
)", "t.mpir").ok());
}

// Issue 31, item 3a: the upload of a constant the region only returns is
// neither awaited nor passed in; its ready timepoint joins downstream.
TEST(CommandForm, UnreadUploadJoinsDownstream) {
  EXPECT_EQ(CommandFormOf("unread_constant.mpir"),
            R"(entry func @main(%x: 1024 external, %ready: timepoint) {
  %r.upload.constant, %r.upload.constant.ready = resource.constants() : 256 constant, timepoint {affinity = "gpu0", values = ["k"]}
  %r.results.external, %r.results.external.ready = resource.alloca(%ready) : 1024 external, timepoint {affinity = "gpu0"}
  %y = resource.subview(%r.results.external) : 1024 view(%r.results.external, 0)
  %k = resource.subview(%r.upload.constant) : 256 view(%r.upload.constant, 0)
  %r.await = timepoint.join(%ready, %r.results.external.ready) : timepoint
  %r.done = execute(%r.results.external, %x, %r.await) : timepoint {callee = @r}
  %r.joined = timepoint.join(%r.done, %r.upload.constant.ready) : timepoint
  return %y, %k, %r.joined
}

region @r(%r/r.results.external: 1024, %r/x: 1024, %r/await: timepoint) affinity("gpu0") {
  cmd.dispatch(%r/x[0 for 1024], %r/r.results.external[0 for 1024]) {access = ["read", "write"], values = ["in", "o"], op = "dispatch"}
  return %r/await
}
)");
}

// Issue 31, item 3b: a transient result reservation is released after its
// last user, awaiting every execute that touched it, as in the JSON.
TEST(CommandForm, TransientReservationIsReleased) {
  EXPECT_EQ(CommandFormOf("transient_results.mpir"),
            R"(entry func @main(%x: 1024 external, %ready: timepoint) {
  %first.results, %first.results.ready = resource.alloca(%ready) : 2048 transient, timepoint {affinity = "gpu0"}
  %h = resource.subview(%first.results) : 2048 view(%first.results, 0)
  %first.await = timepoint.join(%ready, %first.results.ready) : timepoint
  %first.done = execute(%first.results, %x, %first.await) : timepoint {callee = @first}
  %second.results.external, %second.results.external.ready = resource.alloca(%first.done) : 1024 external, timepoint {affinity = "gpu0"}
  %y = resource.subview(%second.results.external) : 1024 view(%second.results.external, 0)
  %second.await = timepoint.join(%first.done, %second.results.external.ready) : timepoint
  %second.done = execute(%second.results.external, %h, %second.await) : timepoint {callee = @second}
  %first.results.freed = resource.dealloca(%first.results, %first.done, %second.done) : timepoint
  return %y, %second.done
}

region @first(%first/first.results: 2048, %first/x: 1024, %first/await: timepoint) affinity("gpu0") {
  cmd.dispatch(%first/x[0 for 1024], %first/first.results[0 for 2048]) {access = ["read", "write"], values = ["a", "p"], op = "dispatch"}
  return %first/await
}

region @second(%second/second.results.external: 1024, %second/h: 2048, %second/await: timepoint) affinity("gpu0") {
  cmd.dispatch(%second/h[0 for 2048], %second/second.results.external[0 for 1024]) {access = ["read", "write"], values = ["b", "q"], op = "dispatch"}
  return %second/await
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
