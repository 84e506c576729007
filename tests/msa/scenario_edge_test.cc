// Degenerate inputs and options: no or tiny fast memory, buffers larger than
// it, zero-size buffers, programs without ops, pinned buffers, bad options.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

constexpr char kChain[] = R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[2]
  %b = negate(%a) : f32[2]
  %c = negate(%b) : f32[2]
  %d = add(%c, %a) : f32[2]
  return %d
}
)";

TEST(EdgeTest, ZeroFastMemoryKeepsEverythingInDefaultMemory) {
  auto f = Load(kChain);
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    MsaOptions o = HarnessOptions();
    o.mode = mode;
    o.fast_memory_bytes = 0;
    const MsaResult r = Assign(*f, o);
    EXPECT_EQ(CheckResult(*f, o, r), "");
    EXPECT_THAT(r.copies, IsEmpty());
    EXPECT_EQ(r.alternate_peak, 0);
    for (std::size_t b = 0; b < r.alternate.size(); ++b) {
      EXPECT_THAT(r.alternate[b], IsEmpty());
      EXPECT_TRUE(r.needs_default[b]);
    }
  }
}

TEST(EdgeTest, TinyFastMemoryHoldsOneEightByteBufferAtATime) {
  auto f = Load(kChain);
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 8;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // a lives [0, 3] and is read at 1 and 3; b [1, 2], c [2, 3]. a is read
  // twice, so it goes first and keeps the only 8 bytes for its whole life.
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-3@0"));
  EXPECT_THAT(Segments(r, f->Buffer("b")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("c")), IsEmpty());
  EXPECT_EQ(r.alternate_peak, 8);
}

TEST(EdgeTest, BufferLargerThanFastMemoryStaysInDefaultMemory) {
  auto f = Load(R"(
entry func @main(%x: f32[64]) {
  %big = negate(%x) : f32[64]
  %small = reduce(%big) : f32[2]
  %out = negate(%small) : f32[2]
  return %out
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());  // 256 B > 128 B
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  EXPECT_THAT(Segments(r, f->Buffer("big")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("big")]);
  EXPECT_THAT(Segments(r, f->Buffer("small")), ElementsAre("1-2@0"));
}

TEST(EdgeTest, ZeroSizeBuffersStayInDefaultMemory) {
  auto f = Load(R"(
entry func @main(%x: f32[2]) {
  %e = negate(%x) : f32[0]
  %y = add(%x, %e) : f32[2]
  %z = negate(%y) : f32[2]
  return %z
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  EXPECT_THAT(Segments(r, f->Buffer("e")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("e")]);
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("1-2@0"));
}

TEST(EdgeTest, ProgramWithoutOps) {
  auto f = Load("entry func @main(%x: f32[4]) {\n  return %x\n}\n");
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    MsaOptions o = HarnessOptions();
    o.mode = mode;
    const MsaResult r = Assign(*f, o);
    EXPECT_EQ(CheckResult(*f, o, r), "");
    ASSERT_EQ(r.alternate.size(), 1u);
    EXPECT_THAT(r.alternate[0], IsEmpty());
    EXPECT_TRUE(r.needs_default[0]);
    EXPECT_THAT(r.copies, IsEmpty());
    EXPECT_FALSE(r.cross_program_prefetch.has_value());
  }
}

TEST(EdgeTest, PinnedBuffersKeepTheirSpace) {
  auto f = Load(R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[2] space(1)
  %b = negate(%a) : f32[2] space(0)
  %c = add(%b, %a) : f32[2]
  return %c
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-2@0"));  // its whole life
  EXPECT_FALSE(r.needs_default[f->Buffer("a")]);
  EXPECT_THAT(Segments(r, f->Buffer("b")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("b")]);
}

TEST(EdgeTest, PinnedBufferThatCannotFitIsAnError) {
  auto f = Load(R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[64] space(1)
  %b = negate(%a) : f32[2]
  return %b
}
)");
  absl::StatusOr<MsaResult> r = AssignMemorySpaces(f->program, f->analysis, *f->cost, HarnessOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(r.status().message(), HasSubstr("%a (256 bytes) is pinned to the alternate memory space"));
  EXPECT_THAT(r.status().message(), HasSubstr("during [0, 1] (fast memory: 128 bytes)"));
}

TEST(EdgeTest, BadOptionsAreInvalidArguments) {
  auto f = Load(kChain);
  auto status_of = [&](auto mutate) {
    MsaOptions o = HarnessOptions();
    mutate(o);
    return AssignMemorySpaces(f->program, f->analysis, *f->cost, o).status();
  };
  auto message = [](const absl::Status& s) { return std::string(s.message()); };
  absl::Status s = status_of([](MsaOptions& o) { o.fast_memory_bytes = -1; });
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(message(s), HasSubstr("fast memory size must be >= 0"));
  EXPECT_THAT(message(status_of([](MsaOptions& o) { o.alignment = 0; })), HasSubstr("alignment"));
  EXPECT_THAT(message(status_of([](MsaOptions& o) { o.min_overlap_ops = 11; })),
              HasSubstr("min overlap <= max overlap"));
  EXPECT_THAT(message(status_of([](MsaOptions& o) { o.preferred_overlap_ratio = 20; })),
              HasSubstr("min ratio <= preferred ratio <= max ratio"));
  EXPECT_THAT(message(status_of([](MsaOptions& o) { o.max_retries = 0; })), HasSubstr("max retries"));
  EXPECT_THAT(message(status_of([](MsaOptions& o) { o.max_repacks = -1; })), HasSubstr("max repacks"));
}

}  // namespace
}  // namespace memplan
