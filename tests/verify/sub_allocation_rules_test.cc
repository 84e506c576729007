// Rule 13 of verify/verifier.h: sub-allocations (Buffer::inside) stay inside
// their containers, and the overlap sweep (rule 3) leaves them out.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using testing_verify::MakeBuffer;

// One transient pool at 0: segments over the live ranges at `offsets`, pool
// size and peak `peak`, lower bound `bound`.
Plan SubAllocationPlan(const BufferSet& set, const std::vector<Bytes>& offsets, Bytes peak,
                       Bytes bound) {
  Plan plan;
  plan.time_steps = set.time_steps;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, peak}};
  PoolInfo pool;
  pool.name = "transient";
  pool.size = peak;
  pool.lower_bound = bound;
  pool.buffers = static_cast<std::int64_t>(set.buffers.size());
  for (std::size_t i = 0; i < set.buffers.size(); ++i) {
    const Buffer& b = set.buffers[i];
    pool.total_bytes += b.size;
    plan.placements.push_back(
        {"transient", {Allocation{kDefaultSpace, offsets[i], b.start, b.end}}});
  }
  plan.pools = {pool};
  plan.peak = peak;
  plan.lower_bound = bound;
  return plan;
}

std::string SubAllocationVerify(const BufferSet& set, const Plan& plan) {
  const absl::Status s = VerifyPlan(set, plan);
  return s.ok() ? "OK" : std::string(s.message());
}

// Vela's shape: a 64-byte scratch area [0,2] holding the NPU's 32-byte
// input [0,1] at byte 0 and its 8-byte output [1,2] at byte 0 (they meet at
// step 1, inside the scratch: the command stream's business), and a
// 16-byte buffer "other" [0,2] beside them at 64.
BufferSet VelaShape() {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {MakeBuffer("scratch", 64, 0, 2), MakeBuffer("in", 32, 0, 1),
                 MakeBuffer("out", 8, 1, 2), MakeBuffer("other", 16, 0, 2)};
  set.buffers[1].mutable_inside() = SubAllocation{0, 0};
  set.buffers[2].mutable_inside() = SubAllocation{0, 0};
  return set;
}

TEST(VerifierSubAllocationTest, NestedBuffersShareTheirContainersBytes) {
  const BufferSet set = VelaShape();
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 0, 64}, 80, 80)), "OK");
  // Without the declaration the same offsets collide.
  BufferSet plain = set;
  for (Buffer& b : plain.buffers) b.mutable_inside().reset();
  EXPECT_EQ(SubAllocationVerify(plain, SubAllocationPlan(plain, {0, 0, 0, 64}, 80, 80)),
            "buffer 'in' (id 1) allocation 0 (space 0, bytes [0, 32), time [0, 1]) overlaps "
            "buffer 'scratch' (id 0) allocation 0 (space 0, bytes [0, 64), time [0, 2]) at time 0");
}

TEST(VerifierSubAllocationTest, ANestedBufferStaysAtItsOffsetInside) {
  BufferSet set = VelaShape();
  set.buffers[2].mutable_inside() = SubAllocation{0, 56};
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 56, 64}, 80, 80)), "OK");
  // The plan puts it elsewhere than the declared 56.
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 48, 64}, 80, 80)),
            "buffer 'out' (id 2) allocation 0 (space 0, bytes [48, 56), time [1, 2]) is not at "
            "byte 56 of a segment of buffer 'scratch' (id 0) that covers its time range in its "
            "space, where it is nested");
  // Past the container's end.
  set.buffers[2].mutable_inside() = SubAllocation{0, 60};
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 60, 64}, 80, 80)),
            "buffer 'out' (id 2) (8 bytes) is nested at byte 60 of buffer 'scratch' (id 0) (64 "
            "bytes): it does not fit inside");
}

TEST(VerifierSubAllocationTest, TheContainerIsLiveWheneverTheNestedBufferIs) {
  BufferSet set = VelaShape();
  set.buffers[0].start = 1;  // scratch [1,2], but in [0,1]
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 0, 64}, 80, 80)),
            "buffer 'in' (id 1) (live [0, 1]) is nested inside buffer 'scratch' (id 0) (live "
            "[1, 2]), which is not live whenever it is");
}

TEST(VerifierSubAllocationTest, OnlyOneLevelAndAnotherBuffer) {
  BufferSet set = VelaShape();
  set.buffers[2].mutable_inside() = SubAllocation{1, 0};  // out inside in, itself nested
  set.buffers[2].start = 1;
  set.buffers[2].end = 1;
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 0, 64}, 80, 80)),
            "buffer 'out' (id 2) is nested inside buffer 'in' (id 1), itself nested: one level "
            "only");
  set.buffers[2].mutable_inside() = SubAllocation{2, 0};
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 0, 64}, 80, 80)),
            "buffer 'out' (id 2) is nested inside buffer id 2, which is not another buffer of "
            "the input");
}

// Another buffer meeting a nested one meets its container: still refused.
TEST(VerifierSubAllocationTest, OutsidersMayNotTouchTheNestedBytes) {
  const BufferSet set = VelaShape();
  EXPECT_EQ(SubAllocationVerify(set, SubAllocationPlan(set, {0, 0, 0, 16}, 64, 80)),
            "buffer 'other' (id 3) allocation 0 (space 0, bytes [16, 32), time [0, 2]) overlaps "
            "buffer 'scratch' (id 0) allocation 0 (space 0, bytes [0, 64), time [0, 2]) at time 0");
}

}  // namespace
}  // namespace memplan
