#include "msa/simulator.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/msa/msa_test_util.h"

namespace memplan {
namespace {

using testing::Alt;
using testing::Analyze;
using testing::BufferOf;
using testing::EmptyResult;
using testing::RoundTarget;

AsyncCopy CopyOfBuffer(BufferId b, CopyKind kind, TimeStep start, TimeStep done, Bytes bytes) {
  AsyncCopy c;
  c.buffer = b;
  c.kind = kind;
  c.from_space = kind == CopyKind::kPrefetch ? kDefaultSpace : kAlternateSpace;
  c.to_space = kind == CopyKind::kPrefetch ? kAlternateSpace : kDefaultSpace;
  c.start = start;
  c.done = done;
  c.bytes = bytes;
  return c;
}

// The reference's lone-copy scenario: an f32[1,1,1024,2048] (8 MiB) copy at
// 1 B/s takes 8,388,608 s, and nothing else costs anything.
TEST(SimulatorTest, LoneCopyTakesBytesOverBandwidth) {
  auto a = Analyze(R"(
entry func @main(%p: f32[1,1,1024,2048]) {
  %z = iota() : f32[] {bytes_accessed = 0}
  %y = negate(%p) : f32[] {bytes_accessed = 0}
  return %y
}
)");
  ASSERT_NE(a, nullptr);
  Target target = RoundTarget();
  target.copy_bandwidth = 1;
  CostModel cost(a->program, a->analysis, target);
  MsaResult r = EmptyResult(*a);
  const BufferId p = BufferOf(*a, "p");
  r.alternate[p] = {Alt(0, 0, 1)};
  r.copies = {CopyOfBuffer(p, CopyKind::kPrefetch, 0, 1, 8388608)};
  SimulationResult s = SimulateMsa(a->analysis, cost, r);
  EXPECT_EQ(s.elapsed_s, 8388608);
  EXPECT_EQ(s.copy_wait_s, 8388608);
  EXPECT_EQ(s.copy_busy_s, 8388608);
  EXPECT_EQ(s.op_s, 0);
  EXPECT_EQ(SimulateMsa(a->analysis, cost, EmptyResult(*a)).elapsed_s, 0);
  // Issued before the first step, the copy still ends at 8,388,608 s.
  r.copies[0].start = -1;
  EXPECT_EQ(SimulateMsa(a->analysis, cost, r).elapsed_s, 8388608);
}

// simulator.h's example: the use waits for the prefetch, then runs faster.
TEST(SimulatorTest, UseWaitsForItsPrefetch) {
  auto a = Analyze(R"(
entry func @main(%x: u8[50], %w: u8[150]) {
  %a = negate(%x) : u8[50]
  %b = add(%a, %w) : u8[50]
  return %b
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  MsaResult r = EmptyResult(*a);
  const BufferId w = BufferOf(*a, "w");
  r.alternate[w] = {Alt(0, 0, 1)};
  r.copies = {CopyOfBuffer(w, CopyKind::kPrefetch, 0, 1, 150)};
  // Step 0: 1 s; the copy runs 1..4 s; step 1 reads w from alternate memory:
  // 150 / 400 + 100 / 100 = 1.375 s.
  SimulationResult s = SimulateMsa(a->analysis, cost, r);
  EXPECT_DOUBLE_EQ(s.elapsed_s, 5.375);
  EXPECT_DOUBLE_EQ(s.op_s, 2.375);
  EXPECT_DOUBLE_EQ(s.copy_wait_s, 3);
  EXPECT_DOUBLE_EQ(s.copy_busy_s, 3);
  EXPECT_DOUBLE_EQ(TimeAllDefault(a->analysis, cost), 3.5);
  EXPECT_DOUBLE_EQ(TimeAllFast(a->analysis, cost), 0.875);
}

// Before a prefetch's done, its segment is reserved but the data is not
// there yet: the defining write at the copy's start step goes to default.
TEST(SimulatorTest, AccessesBeforeThePrefetchIsDoneUseDefaultMemory) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %a = negate(%x) : u8[100]
  %b = negate(%x) : u8[100]
  %c = add(%a, %b) : u8[100]
  return %c
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  MsaResult r = EmptyResult(*a);
  const BufferId buf = BufferOf(*a, "a");
  r.alternate[buf] = {Alt(0, 0, 2)};
  r.copies = {CopyOfBuffer(buf, CopyKind::kPrefetch, 0, 2, 100)};
  // t0 0..2 s (writes a in default), copy 2..4 s, t1 2..4 s, t2 4..6.25 s.
  EXPECT_DOUBLE_EQ(SimulateMsa(a->analysis, cost, r).elapsed_s, 6.25);
  // Produced in alternate memory instead (no copy): 1.25 + 2 + 2.25.
  r.copies.clear();
  EXPECT_DOUBLE_EQ(SimulateMsa(a->analysis, cost, r).elapsed_s, 5.5);
}

// One DMA queue: copies issued together run one after the other.
TEST(SimulatorTest, CopiesShareOneQueueInIssueOrder) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100], %w1: u8[50], %w2: u8[50]) {
  %a = negate(%x) : u8[100]
  %b = add(%a, %w1) : u8[100]
  %c = add(%b, %w2) : u8[100]
  return %c
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  MsaResult r = EmptyResult(*a);
  const BufferId w1 = BufferOf(*a, "w1"), w2 = BufferOf(*a, "w2");
  r.alternate[w1] = {Alt(0, 0, 1)};
  r.alternate[w2] = {Alt(64, 0, 2)};
  r.copies = {CopyOfBuffer(w1, CopyKind::kPrefetch, 0, 1, 50), CopyOfBuffer(w2, CopyKind::kPrefetch, 0, 2, 50)};
  // t0 0..2; w1 copied 2..3, w2 3..4; t1 3..5.125 (waits 1 s); t2 5.125..7.25.
  SimulationResult s = SimulateMsa(a->analysis, cost, r);
  EXPECT_DOUBLE_EQ(s.elapsed_s, 7.25);
  EXPECT_DOUBLE_EQ(s.copy_wait_s, 1);
  EXPECT_DOUBLE_EQ(s.copy_busy_s, 2);
}

// An eviction's done blocks the stream like any copy-done; the evicted
// buffer's later reads come from default memory.
TEST(SimulatorTest, EvictionDoneBlocksTheStream) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %a = negate(%x) : u8[100]
  %b = negate(%x) : u8[100]
  %c = add(%a, %b) : u8[100]
  return %c
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  MsaResult r = EmptyResult(*a);
  const BufferId buf = BufferOf(*a, "a");
  r.alternate[buf] = {Alt(0, 0, 1)};
  r.copies = {CopyOfBuffer(buf, CopyKind::kEviction, 0, 1, 100)};
  // t0 writes a in alternate: 0..1.25; eviction 1.25..3.25; t1 3.25..5.25;
  // t2 reads a from default: 5.25..8.25.
  SimulationResult s = SimulateMsa(a->analysis, cost, r);
  EXPECT_DOUBLE_EQ(s.elapsed_s, 8.25);
  EXPECT_DOUBLE_EQ(s.copy_wait_s, 2);
}

TEST(SimulatorTest, LoopBodiesCountEveryIteration) {
  auto a = Analyze(R"(
entry func @main(%x: u8[100]) {
  %a = negate(%x) : u8[100]
  %w = while(%a) : u8[100] {cond = @c, body = @b, trip_count = 4}
  %r = negate(%w) : u8[100]
  return %r
}
func @c(%p: u8[100]) {
  %k = compare(%p) : pred[]
  return %k
}
func @b(%q: u8[100]) {
  %n = negate(%q) : u8[100]
  %m = negate(%n) : u8[100]
  %o = negate(%m) : u8[100]
  return %o
}
)");
  ASSERT_NE(a, nullptr);
  CostModel cost(a->program, a->analysis, RoundTarget());
  // 2 + 4 * 1.01 + 4 * 3 * 2 + 2.
  EXPECT_NEAR(TimeAllDefault(a->analysis, cost), 32.04, 1e-12);
  // 0.5 + 4 * 101 / 400 + 4 * 3 * 0.5 + 0.5.
  EXPECT_NEAR(TimeAllFast(a->analysis, cost), 8.01, 1e-12);
  EXPECT_NEAR(SimulateMsa(a->analysis, cost, EmptyResult(*a)).elapsed_s, 32.04, 1e-12);

  // n is produced in alternate memory and read there by m (each iteration):
  // t2 and t3 each save 4 * 0.75 s.
  MsaResult r = EmptyResult(*a);
  r.alternate[BufferOf(*a, "n")] = {Alt(0, 2, 3)};
  EXPECT_NEAR(SimulateMsa(a->analysis, cost, r).elapsed_s, 26.04, 1e-12);
  // A copy issued inside the body runs once per iteration: 4 * 2 s.
  r.copies = {CopyOfBuffer(BufferOf(*a, "n"), CopyKind::kEviction, 2, 3, 100)};
  EXPECT_NEAR(SimulateMsa(a->analysis, cost, r).elapsed_s, 26.04 + 8, 1e-12);
}

TEST(SimulatorTest, MaxOutstandingCopiesCountsClosedRanges) {
  std::vector<AsyncCopy> copies = {CopyOfBuffer(0, CopyKind::kPrefetch, 1, 3, 8),
                                   CopyOfBuffer(1, CopyKind::kEviction, 3, 5, 8),
                                   CopyOfBuffer(2, CopyKind::kPrefetch, 4, 5, 8),
                                   CopyOfBuffer(3, CopyKind::kPrefetch, 6, 7, 8)};
  EXPECT_EQ(MaxOutstandingCopies(copies), 2);
  copies.push_back(CopyOfBuffer(4, CopyKind::kPrefetch, 2, 4, 8));
  EXPECT_EQ(MaxOutstandingCopies(copies), 3);
  EXPECT_EQ(MaxOutstandingCopies({}), 0);
}

}  // namespace
}  // namespace memplan
