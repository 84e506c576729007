// Rules 6 and 7 of verify/verifier.h: pools and summary figures.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

std::string PoolRef(const PoolInfo& pool) {
  return absl::StrCat("pool '", pool.name, "' in space ", pool.space);
}

std::optional<Bytes> DeclaredCapacity(const Plan& plan, MemorySpace space) {
  for (const SpaceInfo& s : plan.spaces) {
    if (s.id == space) return s.capacity;
  }
  return std::nullopt;
}

absl::Status CheckPoolFields(const Plan& plan, const VerifyOptions& options) {
  for (const PoolInfo& pool : plan.pools) {
    const std::string ref = PoolRef(pool);
    if (std::none_of(plan.spaces.begin(), plan.spaces.end(),
                     [&](const SpaceInfo& s) { return s.id == pool.space; })) {
      return Violation(ref + " is in a space the plan does not declare");
    }
    if (pool.offset < 0) return Violation(ref + " has a negative offset");
    if (pool.size < 0) return Violation(ref + " has a negative size");
    if (pool.offset > std::numeric_limits<Bytes>::max() - pool.size) {
      return Violation(ref + " ends beyond the largest representable offset");
    }
    if (pool.lower_bound < 0 || pool.lower_bound > pool.size) {
      return Violation(absl::StrCat(ref, " has lower bound ", pool.lower_bound,
                                    " bytes outside [0, its size ", pool.size, "]"));
    }
    std::optional<Bytes> capacity = DeclaredCapacity(plan, pool.space);
    if (auto it = options.capacity.find(pool.space); it != options.capacity.end()) {
      capacity = capacity ? std::min(*capacity, it->second) : it->second;
    }
    if (capacity && pool.offset + pool.size > *capacity) {
      return Violation(absl::StrCat(ref, " ends at byte ", pool.offset + pool.size,
                                    ", beyond the capacity ", *capacity, " of its space"));
    }
  }
  // Pools of one space are disjoint: sorted by offset, each non-empty pool
  // starts at or after the furthest end so far.
  std::vector<std::size_t> order(plan.pools.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](std::size_t i) { return std::make_tuple(plan.pools[i].space, plan.pools[i].offset, i); };
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
  std::optional<std::size_t> furthest;  // non-empty pool of the current space ending last
  for (std::size_t i : order) {
    const PoolInfo& pool = plan.pools[i];
    if (pool.size == 0) continue;
    if (furthest && plan.pools[*furthest].space != pool.space) furthest.reset();
    if (furthest) {
      const PoolInfo& prev = plan.pools[*furthest];
      if (pool.offset < prev.offset + prev.size) {
        return Violation(absl::StrCat("pools '", prev.name, "' (bytes [", prev.offset, ", ",
                                      prev.offset + prev.size, ")) and '", pool.name, "' (bytes [",
                                      pool.offset, ", ", pool.offset + pool.size,
                                      ")) overlap in space ", pool.space));
      }
    }
    furthest = i;
  }
  return absl::OkStatus();
}

struct PoolTally {
  std::int64_t buffers = 0;
  Bytes total_bytes = 0;  // saturates instead of overflowing
  Bytes max_end = 0;      // highest segment end in the pool's space
  bool any_segment = false;
};

absl::Status CheckPoolMembers(const BufferSet& buffers, const Plan& plan) {
  std::map<std::pair<std::string, MemorySpace>, std::size_t> by_key;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    by_key.emplace(std::make_pair(plan.pools[i].name, plan.pools[i].space), i);
  }
  std::vector<PoolTally> tally(plan.pools.size());
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    const MemorySpace home = b.space.value_or(kDefaultSpace);
    const std::string& name = plan.placements[id].pool;
    auto found = by_key.find({name, home});
    if (found == by_key.end()) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " belongs to pool '", name,
                                    "', which space ", home, " does not have"));
    }
    const PoolInfo& pool = plan.pools[found->second];
    PoolTally& t = tally[found->second];
    ++t.buffers;
    if (__builtin_add_overflow(t.total_bytes, b.size, &t.total_bytes)) {
      t.total_bytes = std::numeric_limits<Bytes>::max();
    }
    const std::vector<Allocation>& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].space != home) continue;
      const Bytes end = segs[k].offset + b.size;
      if (segs[k].offset < pool.offset || end > pool.offset + pool.size) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k), " lies outside pool '",
                                      pool.name, "' (bytes [", pool.offset, ", ",
                                      pool.offset + pool.size, "))"));
      }
      t.max_end = t.any_segment ? std::max(t.max_end, end) : end;
      t.any_segment = true;
    }
  }
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    const PoolInfo& pool = plan.pools[i];
    const PoolTally& t = tally[i];
    if (pool.buffers != t.buffers) {
      return Violation(absl::StrCat(PoolRef(pool), " reports ", pool.buffers, " buffers but ",
                                    t.buffers, " belong to it"));
    }
    if (pool.total_bytes != t.total_bytes) {
      return Violation(absl::StrCat(PoolRef(pool), " reports ", pool.total_bytes,
                                    " total bytes but its buffers have ", t.total_bytes));
    }
    const Bytes size = t.any_segment ? t.max_end - pool.offset : 0;
    if (pool.size != size) {
      return Violation(absl::StrCat(PoolRef(pool), " reports size ", pool.size,
                                    " bytes but its buffers reach ", size,
                                    " bytes above its offset ", pool.offset));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSpacePeaks(const BufferSet& buffers, const Plan& plan) {
  std::map<MemorySpace, Bytes> peak;
  for (const PoolInfo& pool : plan.pools) {
    peak[pool.space] = std::max(peak[pool.space], pool.offset + pool.size);
  }
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    for (const Allocation& a : plan.placements[id].allocations) {
      peak[a.space] = std::max(peak[a.space], a.offset + buffers.buffers[id].size);
    }
  }
  for (const SpaceInfo& space : plan.spaces) {
    const Bytes expected = peak[space.id];
    if (space.peak != expected) {
      return Violation(absl::StrCat("space ", space.id, " reports peak ", space.peak,
                                    " bytes but its pools and allocations reach ", expected));
    }
    if (space.capacity && space.peak > *space.capacity) {
      return Violation(absl::StrCat("space ", space.id, " peaks at ", space.peak,
                                    " bytes, beyond its declared capacity ", *space.capacity));
    }
  }
  return absl::OkStatus();
}

// Where the plan puts data outside its buffer's home space, if it does: the
// first such segment (buffer, index), else nullopt. Only memory space
// assignment moves buffers between spaces.
std::optional<std::pair<BufferId, std::size_t>> FirstMovedSegment(const BufferSet& buffers,
                                                                 const Plan& plan) {
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const MemorySpace home = buffers.buffers[id].space.value_or(kDefaultSpace);
    const std::vector<Allocation>& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].space != home) return std::make_pair(id, k);
    }
  }
  return std::nullopt;
}

std::string Seconds(double s) { return fmt::format("{:.12g} s", s); }

// The run-time estimate lies between its bounds: all data in fast memory
// (nothing is faster) and all in default memory (MSA never reports a plan
// slower than none). The relative slack absorbs decimal round trips.
absl::Status CheckMsaTimes(const MsaStats& m) {
  const std::pair<const char*, double> times[] = {
      {"estimated_time_s", m.estimated_time_s},
      {"time_all_default_s", m.time_all_default_s},
      {"time_all_fast_s", m.time_all_fast_s},
  };
  for (const auto& [name, value] : times) {
    if (!std::isfinite(value) || value < 0) {
      return Violation(absl::StrCat("the MSA statistics report ", name, " = ", Seconds(value),
                                    ", not a finite time >= 0"));
    }
  }
  constexpr double kSlack = 1e-9;
  if (m.estimated_time_s < m.time_all_fast_s * (1 - kSlack)) {
    return Violation(absl::StrCat("the MSA statistics report estimated_time_s = ",
                                  Seconds(m.estimated_time_s), ", below time_all_fast_s = ",
                                  Seconds(m.time_all_fast_s),
                                  " (every buffer in fast memory, the fastest possible)"));
  }
  if (m.estimated_time_s > m.time_all_default_s * (1 + kSlack)) {
    return Violation(absl::StrCat("the MSA statistics report estimated_time_s = ",
                                  Seconds(m.estimated_time_s), ", above time_all_default_s = ",
                                  Seconds(m.time_all_default_s),
                                  " (every buffer in default memory; a plan is never slower)"));
  }
  return absl::OkStatus();
}

absl::Status CheckPlanFigures(const BufferSet& buffers, const Plan& plan) {
  Bytes peak = 0;
  Bytes lower_bound = 0;
  for (const PoolInfo& pool : plan.pools) {
    if (pool.name == "transient" && pool.space == kDefaultSpace) {
      peak = pool.size;
      lower_bound = pool.lower_bound;
    }
  }
  if (plan.peak != peak) {
    return Violation(absl::StrCat("the plan reports peak ", plan.peak,
                                  " bytes but the default space's transient pool has size ", peak));
  }
  if (plan.lower_bound != lower_bound) {
    return Violation(absl::StrCat("the plan reports lower bound ", plan.lower_bound,
                                  " bytes but the default space's transient pool has ",
                                  lower_bound));
  }
  if (!plan.msa) {
    if (!plan.copies.empty()) {
      return Violation(absl::StrCat("the plan has ", plan.copies.size(),
                                    " async copies but no MSA statistics"));
    }
    if (auto moved = FirstMovedSegment(buffers, plan)) {
      return Violation(absl::StrCat(SegmentRef(buffers, plan, moved->first, moved->second),
                                    " lies outside the buffer's home space, which only memory "
                                    "space assignment does, but the plan has no MSA statistics"));
    }
    return absl::OkStatus();
  }
  if (absl::Status s = CheckMsaTimes(*plan.msa); !s.ok()) return s;
  std::int64_t prefetches = 0, evictions = 0;
  Bytes prefetch_bytes = 0, eviction_bytes = 0;
  for (const AsyncCopy& c : plan.copies) {
    const bool prefetch = c.kind == CopyKind::kPrefetch;
    ++(prefetch ? prefetches : evictions);
    Bytes& bytes = prefetch ? prefetch_bytes : eviction_bytes;
    if (__builtin_add_overflow(bytes, c.bytes, &bytes)) bytes = std::numeric_limits<Bytes>::max();
  }
  const std::tuple<const char*, std::int64_t, std::int64_t> figures[] = {
      {"prefetches", plan.msa->prefetches, prefetches},
      {"evictions", plan.msa->evictions, evictions},
      {"prefetch_bytes", plan.msa->prefetch_bytes, prefetch_bytes},
      {"eviction_bytes", plan.msa->eviction_bytes, eviction_bytes},
  };
  for (const auto& [name, reported, actual] : figures) {
    if (reported != actual) {
      return Violation(absl::StrCat("the MSA statistics report ", name, " = ", reported,
                                    " but the copies give ", actual));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckSummaries(const BufferSet& buffers, const Plan& plan,
                            const VerifyOptions& options) {
  if (absl::Status s = CheckPoolFields(plan, options); !s.ok()) return s;
  if (absl::Status s = CheckPoolMembers(buffers, plan); !s.ok()) return s;
  if (absl::Status s = CheckSpacePeaks(buffers, plan); !s.ok()) return s;
  return CheckPlanFigures(buffers, plan);
}

}  // namespace memplan::verify_internal
