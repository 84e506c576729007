// A hand-made plan for the verifier's rule tests: each test breaks a valid
// plan in exactly one way and expects the verifier's message.
#pragma once

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "verify/verifier.h"

namespace memplan::testing_verify {

struct HandMadePlan {
  BufferSet set;
  Plan plan;
  VerifyOptions options;
};

// "OK" when the verifier accepts `m`, else its message; a refusal must be
// FailedPrecondition (a broken rule, not bad arguments).
inline std::string Verify(const HandMadePlan& m) {
  absl::Status s = VerifyPlan(m.set, m.plan, m.options);
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  return std::string(s.message());
}

// The "transient" pool of `size` bytes, its lower bound too, holding
// `buffers` buffers of `total_bytes` bytes together.
inline PoolInfo TransientPool(Bytes size, std::int64_t buffers, Bytes total_bytes) {
  PoolInfo pool;
  pool.name = "transient";
  pool.size = size;
  pool.lower_bound = size;
  pool.buffers = buffers;
  pool.total_bytes = total_bytes;
  return pool;
}

// MSA statistics that count `prefetches` and `evictions`, each copy of
// `copy_bytes` bytes.
inline MsaStats CopyStats(std::int64_t prefetches, std::int64_t evictions, Bytes copy_bytes) {
  MsaStats stats;
  stats.prefetches = prefetches;
  stats.evictions = evictions;
  stats.prefetch_bytes = prefetches * copy_bytes;
  stats.eviction_bytes = evictions * copy_bytes;
  return stats;
}

}  // namespace memplan::testing_verify
