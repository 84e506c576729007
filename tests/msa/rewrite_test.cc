#include "msa/rewrite.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "tests/msa/msa_test_util.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing::Analyze;
using testing::Analyzed;
using testing::Alt;
using testing::BufferOf;
using testing::EmptyResult;

AsyncCopy Copy(const Analyzed& a, const char* value, CopyKind kind, TimeStep start,
               TimeStep done) {
  AsyncCopy c;
  c.buffer = BufferOf(a, value);
  c.kind = kind;
  c.from_space = kind == CopyKind::kPrefetch ? kDefaultSpace : kAlternateSpace;
  c.to_space = kind == CopyKind::kPrefetch ? kAlternateSpace : kDefaultSpace;
  c.start = start;
  c.done = done;
  c.bytes = a.analysis.buffers.buffers[c.buffer].size;
  return c;
}

// Rewrites, checks the result re-parses, re-analyses and prints identically,
// and returns its text.
std::string RewriteText(const Analyzed& a, const MsaResult& r) {
  absl::StatusOr<Program> out = RewriteSchedule(a.program, a.analysis, r);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return "";
  const std::string text = PrintProgram(*out);
  absl::StatusOr<Program> back = ParseProgram(text, "rewritten.mpir");
  EXPECT_TRUE(back.ok()) << back.status() << "\n" << text;
  if (!back.ok()) return text;
  EXPECT_EQ(PrintProgram(*back), text);
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*back);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  return text;
}

// rewrite.h's example.
TEST(RewriteTest, PrefetchBecomesACopyPairBeforeTheUse) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = mul(%a, %w) : f32[4]
  return %b
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "w")] = {Alt(0, 0, 1)};
  r.copies = {Copy(*a, "w", CopyKind::kPrefetch, 0, 1)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %w.prefetch = copy-start(%w) : f32[4] space(1)
  %w.prefetched = copy-done(%w.prefetch) : f32[4] space(1)
  %b = mul(%a, %w.prefetched) : f32[4]
  return %b
}
)");
}

// a is produced in alternate memory, evicted (0 -> 2), read from default
// memory at 3 and prefetched back (3 -> 4) for its read at 4. At step 2 the
// eviction's done comes before the step's op and w's prefetch start after it.
TEST(RewriteTest, EvictionAndPrefetchBack) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%b) : f32[4]
  %g = add(%c, %a) : f32[4]
  %e = add(%g, %a) : f32[4]
  %f = mul(%e, %w) : f32[4]
  return %f
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "a")] = {Alt(0, 0, 2), Alt(16, 3, 4)};
  r.alternate[BufferOf(*a, "w")] = {Alt(32, 2, 5)};
  r.copies = {Copy(*a, "a", CopyKind::kEviction, 0, 2), Copy(*a, "w", CopyKind::kPrefetch, 2, 5),
              Copy(*a, "a", CopyKind::kPrefetch, 3, 4)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4] space(1)
  %a.evict = copy-start(%a) : f32[4] space(0)
  %b = negate(%a) : f32[4]
  %a.evicted = copy-done(%a.evict) : f32[4] space(0)
  %c = negate(%b) : f32[4]
  %w.prefetch = copy-start(%w) : f32[4] space(1)
  %g = add(%c, %a.evicted) : f32[4]
  %a.evicted.prefetch = copy-start(%a.evicted) : f32[4] space(1)
  %a.evicted.prefetched = copy-done(%a.evicted.prefetch) : f32[4] space(1)
  %e = add(%g, %a.evicted.prefetched) : f32[4]
  %w.prefetched = copy-done(%w.prefetch) : f32[4] space(1)
  %f = mul(%e, %w.prefetched) : f32[4]
  return %f
}
)");
}

// A use of part of the buffer reads a view of the prefetched copy.
TEST(RewriteTest, PartialUseReadsAViewOfTheCopy) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %v = view(%x) : u8[40] view(%x, 20)
  %y = negate(%v) : u8[40]
  %z = negate(%v) : u8[40]
  return %y, %z
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "x")] = {Alt(0, 0, 2)};
  r.copies = {Copy(*a, "x", CopyKind::kPrefetch, 0, 1)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: u8[100]) {
  %v = view(%x) : u8[40] view(%x, 20)
  %x.prefetch = copy-start(%x) : u8[100] space(1)
  %x.prefetched = copy-done(%x.prefetch) : u8[100] space(1)
  %v.in.x.prefetched = view(%x.prefetched) : u8[40] view(%x.prefetched, 20) {bytes_accessed = 0}
  %y = negate(%v.in.x.prefetched) : u8[40]
  %v.in.x.prefetched.1 = view(%x.prefetched) : u8[40] view(%x.prefetched, 20) {bytes_accessed = 0}
  %z = negate(%v.in.x.prefetched.1) : u8[40]
  return %y, %z
}
)");
}

// An in-place write into the prefetched copy ties to the copy, and later
// reads of the written value need no replacement.
TEST(RewriteTest, InPlaceWriteIntoTheCopy) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = negate(%x) : f32[4]
  %c = relu(%a) : f32[4] tied(%a)
  %d = add(%c, %b) : f32[4]
  return %d
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "a")] = {Alt(0, 0, 3)};
  r.copies = {Copy(*a, "a", CopyKind::kPrefetch, 0, 2)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %a.prefetch = copy-start(%a) : f32[4] space(1)
  %b = negate(%x) : f32[4]
  %a.prefetched = copy-done(%a.prefetch) : f32[4] space(1)
  %c = relu(%a.prefetched) : f32[4] tied(%a.prefetched)
  %d = add(%c, %b) : f32[4]
  return %d
}
)");
}

// The cross-program prefetch is issued before the first op and awaited
// before the first read of its segment.
TEST(RewriteTest, CrossProgramPrefetchIsExplicit) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = mul(%a, %w) : f32[4]
  return %b
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "w")] = {Alt(0, 0, 1)};
  r.cross_program_prefetch = CrossProgramPrefetch{BufferOf(*a, "w"), 0, 2, false};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4], %w: f32[4]) {
  %w.prefetch = copy-start(%w) : f32[4] space(1)
  %a = exp(%x) : f32[4]
  %w.prefetched = copy-done(%w.prefetch) : f32[4] space(1)
  %b = mul(%a, %w.prefetched) : f32[4]
  return %b
}
)");
}

TEST(RewriteTest, NoCopiesLeavesTheScheduleAlone) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = negate(%a) : f32[4]
  return %b
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "a")] = {Alt(0, 0, 1)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4] space(1)
  %b = negate(%a) : f32[4]
  return %b
}
)");
}

TEST(RewriteTest, DefaultReadWithoutEvictionIsRefused) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = add(%b, %a) : f32[4]
  return %c
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "a")] = {Alt(0, 0, 1)};
  absl::StatusOr<Program> out = RewriteSchedule(a->program, a->analysis, r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(out.status().message(),
            "cannot rewrite the use of %a by c at time 2: buffer 'a' holds no data in default "
            "memory then");
}

// XLA writes a copy's start and done in one computation. A prefetch done at
// the first step of @g (called from @f, called from @main) is done in @main
// right before the call to @f, which passes the copy in; an eviction
// started after @g's last step is started in @main right after the call to
// @f, from its result. Steps: a 0, h 1 (@g), e 2 (@f), c 3, d 4.
TEST(RewriteTest, CopiesAcrossCallsAreWrittenAroundTheCall) {
  auto a = Analyze(R"(
entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %c = call(%a, %w) : f32[4] {callee = @f}
  %d = negate(%c) : f32[4]
  return %d
}
func @f(%p: f32[4], %q: f32[4]) {
  %e = call(%p, %q) : f32[4] {callee = @g}
  return %e
}
func @g(%r: f32[4], %s: f32[4]) {
  %h = mul(%r, %s) : f32[4]
  return %h
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "w")] = {Alt(0, 0, 1)};
  r.alternate[BufferOf(*a, "h")] = {Alt(16, 1, 3)};
  r.copies = {Copy(*a, "w", CopyKind::kPrefetch, 0, 1), Copy(*a, "h", CopyKind::kEviction, 1, 4)};
  EXPECT_EQ(RewriteText(*a, r), R"(entry func @main(%x: f32[4], %w: f32[4]) {
  %a = exp(%x) : f32[4]
  %w.prefetch = copy-start(%w) : f32[4] space(1)
  %w.prefetched = copy-done(%w.prefetch) : f32[4] space(1)
  %c = call(%a, %w.prefetched) : f32[4] space(1) {callee = @f}
  %c.evict = copy-start(%c) : f32[4] space(0)
  %c.evicted = copy-done(%c.evict) : f32[4] space(0)
  %d = negate(%c.evicted) : f32[4]
  return %d
}

func @f(%p: f32[4], %q: f32[4] space(1)) {
  %e = call(%p, %q) : f32[4] space(1) {callee = @g}
  return %e
}

func @g(%r: f32[4], %s: f32[4] space(1)) {
  %h = mul(%r, %s) : f32[4] space(1)
  return %h
}
)");
}

TEST(RewriteTest, CopyAcrossControlFlowIsRefused) {
  auto a = Analyze(R"(
entry func @main(%x: u8[8], %y: u8[8]) {
  %w = while(%x) : u8[8] {cond = @c, body = @b, trip_count = 2}
  %r = add(%w, %y) : u8[8]
  return %r
}
func @c(%p: u8[8]) {
  %k = compare(%p) : pred[]
  return %k
}
func @b(%q: u8[8]) {
  %n = negate(%q) : u8[8]
  return %n
}
)");
  ASSERT_NE(a, nullptr);
  MsaResult r = EmptyResult(*a);
  // y prefetched from inside the loop body (step 1) for its use at step 3.
  r.alternate[BufferOf(*a, "y")] = {Alt(0, 1, 3)};
  r.copies = {Copy(*a, "y", CopyKind::kPrefetch, 1, 3)};
  absl::StatusOr<Program> out = RewriteSchedule(a->program, a->analysis, r);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(out.status().message(), HasSubstr("is not visible in @b"));
}

}  // namespace
}  // namespace memplan
