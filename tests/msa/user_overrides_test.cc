// The user's overrides and the reference's remaining knobs, under the
// harness of msa.md §6 (128 B of fast memory, alignment 8, instruction-count
// picker min 2 / max 10, reference mode): the assign-first sort-order
// override (scenario 17), memory-space pins of values and uses, the
// inefficient-allocation rule and an explicit max_repacks of 0.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/user_overrides.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::MsaFixture;
using testing::Segments;

// Interleaved negate and tanh chains of f32[3,4] (48 B): negate_i runs at
// step 2i and lives [2i, 2i+2], tanh_i at 2i+1 and lives [2i+1, 2i+3]; the
// last of each is an output. Two 48 B chunks fit in 128 B, and at every step
// two buffers of each chain are live.
constexpr char kChains[] = R"(
entry func @main(%p0: f32[3,4], %p1: f32[3,4]) {
  %negate0 = negate(%p1) : f32[3,4]
  %tanh0 = tanh(%p0) : f32[3,4]
  %negate1 = negate(%negate0) : f32[3,4]
  %tanh1 = tanh(%tanh0) : f32[3,4]
  %negate2 = negate(%negate1) : f32[3,4]
  %tanh2 = tanh(%tanh1) : f32[3,4]
  %negate3 = negate(%negate2) : f32[3,4]
  %tanh3 = tanh(%tanh2) : f32[3,4]
  %negate4 = negate(%negate3) : f32[3,4]
  %tanh4 = tanh(%tanh3) : f32[3,4]
  return %negate4, %tanh4
}
)";

absl::Status StatusOf(const MsaFixture& f, const MsaOptions& o) {
  return AssignMemorySpaces(f.program, f.analysis, *f.cost, o).status();
}

// The reference's MemoryBoundednessOverrideSortOrderAssignFirst: with
// "negate.*" first, negate0..3 alternate between offsets 0 and 48 and leave
// no 48 B hole while tanh0..2 live; negate4 (an output) and those tanhs stay
// in default memory. Only at the tail, where the output negate4 takes no
// fast memory, does tanh3 [7, 9] find offset 0 free after negate2.
TEST(AssignFirstTest, NegatesFirstAsTheReference) {
  auto f = Load(kChains);
  MsaOptions o = HarnessOptions();
  o.assign_first = "negate.*";
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Segments(r, f->Buffer("negate0")), ElementsAre("0-2@0"));
  EXPECT_THAT(Segments(r, f->Buffer("negate1")), ElementsAre("2-4@48"));
  EXPECT_THAT(Segments(r, f->Buffer("negate2")), ElementsAre("4-6@0"));
  EXPECT_THAT(Segments(r, f->Buffer("negate3")), ElementsAre("6-8@48"));
  EXPECT_THAT(Segments(r, f->Buffer("negate4")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("negate4")]);
  for (const char* v : {"tanh0", "tanh1", "tanh2", "tanh4"}) {
    EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
  }
  EXPECT_THAT(Segments(r, f->Buffer("tanh3")), ElementsAre("7-9@0"));
  EXPECT_THAT(r.copies, IsEmpty());

  // Without the override the lower ids of the same-boundedness negates come
  // first anyway; the override is what turns it around (next test).
  const MsaResult plain = Assign(*f, HarnessOptions());
  EXPECT_THAT(Segments(plain, f->Buffer("negate0")), ElementsAre("0-2@0"));
}

// The other way round the tanh chain gets the two chunks; negate0 [0, 2]
// still fits at 48, free until tanh1 takes it at step 3.
TEST(AssignFirstTest, TanhFirstTurnsTheOutcomeAround) {
  auto f = Load(kChains);
  MsaOptions o = HarnessOptions();
  o.assign_first = "tanh.*";
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Segments(r, f->Buffer("tanh0")), ElementsAre("1-3@0"));
  EXPECT_THAT(Segments(r, f->Buffer("tanh1")), ElementsAre("3-5@48"));
  EXPECT_THAT(Segments(r, f->Buffer("tanh2")), ElementsAre("5-7@0"));
  EXPECT_THAT(Segments(r, f->Buffer("tanh3")), ElementsAre("7-9@48"));
  EXPECT_THAT(Segments(r, f->Buffer("negate0")), ElementsAre("0-2@48"));
  for (const char* v : {"negate1", "negate2", "negate3", "negate4", "tanh4"}) {
    EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
  }
}

TEST(AssignFirstTest, InvalidRegexIsAnError) {
  auto f = Load(kChains);
  MsaOptions o = HarnessOptions();
  o.assign_first = "negate(";
  const absl::Status s = StatusOf(*f, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("--assign-first 'negate(' is not a valid regular expression"));
}

// add and sub (24 B) both fit; pinning add to default memory moves sub to
// offset 0; pinning sub to alternate memory keeps it there wholly.
constexpr char kAddSubFitProgram[] = R"(
entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %add = add(%p0, %p1) : f32[2,3]
  %sub = sub(%p0, %p1) : f32[2,3]
  %mul = mul(%add, %sub) : f32[2,3]
  return %mul
}
)";

TEST(PinTest, WholeValueToDefault) {
  auto f = Load(kAddSubFitProgram);
  MsaOptions o = HarnessOptions();
  o.pins = {MsaPin{"add", "", kDefaultSpace}};
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Segments(r, f->Buffer("add")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("add")]);
  EXPECT_THAT(Segments(r, f->Buffer("sub")), ElementsAre("1-2@0"));
}

TEST(PinTest, UseToDefaultEvictsAroundIt) {
  // a is read at steps 1 and 2 and by the root at 3; its read by c is pinned
  // to default memory, so it is produced in fast memory, evicted over
  // [0, 1]... and read from default memory from then on (no prefetch fits
  // the two-op minimum overlap before step 3).
  auto f = Load(R"(
entry func @main(%p: f32[4]) {
  %a = negate(%p) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%a) : f32[4]
  %r = add(%b, %c) : f32[4]
  return %r
}
)");
  MsaOptions o = HarnessOptions();
  const MsaResult free_run = Assign(*f, o);
  EXPECT_THAT(Segments(free_run, f->Buffer("a")), ElementsAre("0-2@0"));
  o.pins = {MsaPin{"a", "c", kDefaultSpace}};
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-1@0"));
  EXPECT_THAT(Copies(r, f->Buffer("a")), ElementsAre("eviction 0->1"));
  EXPECT_TRUE(r.needs_default[f->Buffer("a")]);
}

TEST(PinTest, UseToAlternateThatCannotBeServedIsAnError) {
  // p0 is an entry parameter read first at step 0: no prefetch can bring it
  // into fast memory by then.
  auto f = Load(kAddSubFitProgram);
  MsaOptions o = HarnessOptions();
  o.pins = {MsaPin{"p0", "add", kAlternateSpace}};
  const absl::Status s = StatusOf(*f, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(s.message(), HasSubstr("buffer %p0 is pinned to the alternate memory space at time "
                                     "step 0 (--pin) but no chunk"));
}

TEST(PinTest, PinsThatCanNeverBeHonouredAreErrors) {
  auto f = Load(kAddSubFitProgram);
  const auto message = [&](std::vector<MsaPin> pins) {
    MsaOptions o = HarnessOptions();
    o.pins = std::move(pins);
    const absl::Status s = StatusOf(*f, o);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    return std::string(s.message());
  };
  EXPECT_EQ(message({{"nope", "", kDefaultSpace}}), "--pin nope=default: the program has no value %nope");
  EXPECT_EQ(message({{"add", "nope", kDefaultSpace}}),
            "--pin add@nope=default: the program has no op %nope");
  EXPECT_EQ(message({{"add", "sub", kDefaultSpace}}),
            "--pin add@sub=default: op %sub does not read %add");
  EXPECT_THAT(message({{"p0", "", kAlternateSpace}}),
              HasSubstr("--pin p0=alternate: its buffer is an entry parameter or result"));
  EXPECT_EQ(message({{"add", "", kDefaultSpace}, {"add", "", kAlternateSpace}}),
            "--pin add=alternate: contradicts --pin add=default (same buffer)");
  EXPECT_EQ(message({{"add", "mul", kAlternateSpace}, {"add", "", kDefaultSpace}}),
            "--pin add=default: contradicts --pin add@mul=alternate (same buffer)");

  auto big = Load(R"(
entry func @main(%p: f32[64]) {
  %a = negate(%p) : f32[64]
  %r = negate(%a) : f32[64]
  return %r
}
)");
  MsaOptions o = HarnessOptions();
  o.pins = {MsaPin{"a", "", kAlternateSpace}};
  const absl::Status s = StatusOf(*big, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "--pin a=alternate: its buffer (256 bytes) is larger than the fast "
                         "memory (128 bytes)");
}

// p (64 B) is read once, at step 4, by an add that accesses only 8 of its
// bytes (bytes_accessed 24 spread over three 64 B operands and results). A
// prefetch would copy 64 B to serve 8: a use-to-copy ratio of 1/8.
constexpr char kThinRead[] = R"(
entry func @main(%x: f32[16], %p: f32[16]) {
  %a = negate(%x) : f32[16]
  %b = negate(%a) : f32[16]
  %c = negate(%b) : f32[16]
  %d = negate(%c) : f32[16]
  %y = add(%d, %p) : f32[16] {bytes_accessed = 24}
  return %y
}
)";

MsaOptions ThinReadOptions(double ratio) {
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 192;  // room for p besides two chain buffers
  o.inefficient_use_to_copy_ratio = ratio;
  return o;
}

TEST(InefficientAllocationTest, OffByDefaultKeepsTheThinPrefetch) {
  auto f = Load(kThinRead);
  const MsaOptions o = ThinReadOptions(0);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // The first start of [max(-1, 4 - 10), 4 - 2 - 1] = [-1, 1] wins (an entry
  // parameter's copy may be issued before the first op).
  EXPECT_THAT(Copies(r, f->Buffer("p")), ElementsAre("prefetch -1->4"));
  EXPECT_THAT(Segments(r, f->Buffer("p")), ElementsAre("0-4@128"));
}

TEST(InefficientAllocationTest, RatioSkipsACopyUsingTooFewBytes) {
  auto f = Load(kThinRead);
  // 8 used of 64 copied = 0.125: kept at 0.1, skipped at 0.5.
  const MsaOptions low = ThinReadOptions(0.1);
  EXPECT_THAT(Copies(Assign(*f, low), f->Buffer("p")), ElementsAre("prefetch -1->4"));
  const MsaOptions high = ThinReadOptions(0.5);
  const MsaResult r = Assign(*f, high);
  EXPECT_EQ(CheckResult(*f, high, r), "");
  EXPECT_THAT(Copies(r, f->Buffer("p")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("p")), IsEmpty());
  // The chain is untouched: its segments are produced in place, no copies.
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-1@0"));
  EXPECT_THAT(r.copies, IsEmpty());
}

TEST(InefficientAllocationTest, NegativeRatioIsAnError) {
  auto f = Load(kThinRead);
  const absl::Status s = StatusOf(*f, ThinReadOptions(-1));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("inefficient use-to-copy ratio"));
}

}  // namespace
}  // namespace memplan
