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
#include "ir/plural.h"
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

// Pools of one space share no byte while both exist (a pool without a time
// range exists for the whole run): a sweep over time with one map of live
// pools per space, keyed by offset, as in overlap_sweep.cc. O(P log P).
absl::Status CheckPoolsDisjoint(const Plan& plan) {
  struct Event {
    TimeStep time;
    int phase;  // 0: the pool appears, 1: it is gone after the step
    std::size_t pool;
  };
  std::vector<Event> events;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    const PoolInfo& pool = plan.pools[i];
    if (pool.size == 0) continue;
    events.push_back(Event{pool.start.value_or(0), 0, i});
    events.push_back(Event{pool.end.value_or(std::numeric_limits<TimeStep>::max()), 1, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) {
    return std::tie(x.time, x.phase, x.pool) < std::tie(y.time, y.phase, y.pool);
  });
  std::map<MemorySpace, std::map<Bytes, std::size_t>> live;
  for (const Event& e : events) {
    const PoolInfo& pool = plan.pools[e.pool];
    std::map<Bytes, std::size_t>& chunks = live[pool.space];
    if (e.phase == 1) {
      chunks.erase(pool.offset);
      continue;
    }
    auto next = chunks.lower_bound(pool.offset);
    std::vector<std::size_t> candidates;
    if (next != chunks.begin()) candidates.push_back(std::prev(next)->second);
    if (next != chunks.end()) candidates.push_back(next->second);
    for (std::size_t other : candidates) {
      const PoolInfo& prev = plan.pools[other];
      if (prev.offset < pool.offset + pool.size && pool.offset < prev.offset + prev.size) {
        return Violation(absl::StrCat("pools '", prev.name, "' (bytes [", prev.offset, ", ",
                                      prev.offset + prev.size, ")) and '", pool.name, "' (bytes [",
                                      pool.offset, ", ", pool.offset + pool.size,
                                      ")) overlap in space ", pool.space,
                                      pool.start || prev.start
                                          ? absl::StrCat(" at time ", e.time)
                                          : std::string()));
      }
    }
    chunks.emplace(pool.offset, e.pool);
  }
  return absl::OkStatus();
}

// A --capacity POOL=BYTES limit (Plan::pool_capacity) bounds the default
// space's pools of its lifetime: together they span at most that many bytes,
// from the lowest offset to the highest end.
absl::Status CheckPoolCapacities(const Plan& plan) {
  for (const auto& [lifetime, capacity] : plan.pool_capacity) {
    std::optional<Bytes> low;
    Bytes high = 0;
    for (const PoolInfo& pool : plan.pools) {
      if (pool.space != kDefaultSpace || pool.lifetime != lifetime) continue;
      low = std::min(low.value_or(pool.offset), pool.offset);
      high = std::max(high, pool.offset + pool.size);
    }
    if (!low || high - *low <= capacity) continue;
    return Violation(fmt::format("the {} pools of space {} span {} (bytes [{}, {})), beyond "
                                 "their capacity {}",
                                 LifetimeName(lifetime), kDefaultSpace, CountOf(high - *low, "byte"),
                                 *low, high, capacity));
  }
  return absl::OkStatus();
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
    if (pool.start.has_value() != pool.end.has_value() ||
        (pool.start && (*pool.start < 0 || *pool.start > *pool.end ||
                        *pool.end >= plan.time_steps))) {
      return Violation(absl::StrCat(ref, " has a time range that is not within [0, ",
                                    plan.time_steps - 1, "]"));
    }
    if (pool.lower_bound < 0 || pool.lower_bound > pool.size) {
      return Violation(absl::StrCat(ref, " has lower bound ", CountOf(pool.lower_bound, "byte"),
                                    " outside [0, its size ", pool.size, "]"));
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
  if (absl::Status s = CheckPoolCapacities(plan); !s.ok()) return s;
  return CheckPoolsDisjoint(plan);
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
  const HomeSpaces homes(buffers, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    const MemorySpace home = homes(id);
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
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].space != home) continue;
      const Bytes end = segs[k].offset + b.size;
      if (segs[k].offset < pool.offset || end > pool.offset + pool.size) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k), " lies outside pool '",
                                      pool.name, "' (bytes [", pool.offset, ", ",
                                      pool.offset + pool.size, "))"));
      }
      if (pool.start && (segs[k].start < *pool.start || segs[k].end > *pool.end)) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k),
                                      " lies outside the time range [", *pool.start, ", ",
                                      *pool.end, "] of pool '", pool.name, "'"));
      }
      t.max_end = t.any_segment ? std::max(t.max_end, end) : end;
      t.any_segment = true;
    }
  }
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    const PoolInfo& pool = plan.pools[i];
    const PoolTally& t = tally[i];
    if (pool.buffers != t.buffers) {
      return Violation(absl::StrCat(PoolRef(pool), " reports ", CountOf(pool.buffers, "buffer"),
                                    " but ", t.buffers, " belong to it"));
    }
    if (pool.total_bytes != t.total_bytes) {
      return Violation(absl::StrCat(PoolRef(pool), " reports ",
                                    CountOf(pool.total_bytes, "total byte"),
                                    " but its buffers have ", t.total_bytes));
    }
    // A pool with a time range is an allocation of a region: its size may
    // include the padding of its last slice.
    const Bytes size = t.any_segment ? t.max_end - pool.offset : 0;
    if (pool.start ? pool.size < size : pool.size != size) {
      return Violation(absl::StrCat(PoolRef(pool), " reports size ", CountOf(pool.size, "byte"),
                                    " but its buffers reach ", CountOf(size, "byte"),
                                    " above its offset ", pool.offset));
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
  // Window prefetch chunks (rule 16) count too.
  for (const WindowPrefetch& w : plan.window_prefetches) {
    peak[w.space] = std::max(peak[w.space], w.offset + w.bytes);
  }
  // So do staged copies' chunks (rule 15).
  for (const AsyncCopy& c : plan.copies) {
    if (c.via) peak[c.via->space] = std::max(peak[c.via->space], c.via->offset + c.bytes);
  }
  for (const SpaceInfo& space : plan.spaces) {
    const Bytes expected = peak[space.id];
    if (space.peak != expected) {
      return Violation(absl::StrCat("space ", space.id, " reports peak ",
                                    CountOf(space.peak, "byte"),
                                    " but its pools and allocations reach ", expected));
    }
    if (space.capacity && space.peak > *space.capacity) {
      return Violation(absl::StrCat("space ", space.id, " peaks at ", CountOf(space.peak, "byte"),
                                    ", beyond its declared capacity ", *space.capacity));
    }
  }
  return absl::OkStatus();
}

// Where the plan puts data outside its buffer's home space, if it does: the
// first such segment (buffer, index), else nullopt. Only memory space
// assignment moves buffers between spaces.
std::optional<std::pair<BufferId, std::size_t>> FirstMovedSegment(const BufferSet& buffers,
                                                                 const Plan& plan) {
  const HomeSpaces homes(buffers, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const MemorySpace home = homes(id);
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].space != home) return std::make_pair(id, k);
    }
  }
  return std::nullopt;
}

std::string Seconds(double s) { return fmt::format("{:.12g} s", s); }

// The run-time estimate lies between its bounds: all data in fast memory
// (nothing is faster) and all in default memory when that fits (MSA never
// reports a plan slower than none), and at or above the time bound when
// the plan has one (msa/time_bound.h: no plan with that fast memory is
// faster). The relative slack absorbs decimal round trips.
// The memory-bound loops (MsaStats::loops, msa/loop_optimizer.h): each lies
// within the schedule with at least 3 iterations of at least one step, its
// steady-state times are finite, >= 0 and at most the whole run's estimate,
// and a time without the optimizer is given only for a chosen loop.
absl::Status CheckLoops(const Plan& plan) {
  const MsaStats& m = *plan.msa;
  for (std::size_t i = 0; i < m.loops.size(); ++i) {
    const LoopStats& l = m.loops[i];
    const std::string loop = absl::StrCat("the MSA statistics' loop ", i);
    TimeStep steps = 0, end = 0;
    if (l.period < 1 || l.iterations < 3 || __builtin_mul_overflow(l.period, l.iterations, &steps) ||
        __builtin_add_overflow(l.start, steps, &end) || end > plan.time_steps) {
      return Violation(absl::StrCat(loop, " (start ", l.start, ", period ", l.period, ", ",
                                    l.iterations, " iterations) does not lie in the schedule's ",
                                    plan.time_steps, " steps with at least 3 iterations"));
    }
    for (const std::optional<double>& t : {std::optional<double>(l.steady_state_iteration_s),
                                           l.steady_state_without_s}) {
      if (t && (!std::isfinite(*t) || *t < 0 || *t > m.estimated_time_s)) {
        return Violation(absl::StrCat(loop, " reports a steady-state iteration of ", Seconds(*t),
                                      ", not a finite time in [0, estimated_time_s]"));
      }
    }
    if (l.steady_state_without_s && !l.chosen) {
      return Violation(absl::StrCat(loop, " reports a time without the loop optimizer but the "
                                          "plan was not made with it (chosen: false)"));
    }
  }
  return absl::OkStatus();
}

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
  if (m.time_bound_s && (!std::isfinite(*m.time_bound_s) || *m.time_bound_s < 0)) {
    return Violation(absl::StrCat("the MSA statistics report time_bound_s = ",
                                  Seconds(*m.time_bound_s), ", not a finite time >= 0"));
  }
  constexpr double kSlack = 1e-9;
  if (m.estimated_time_s < m.time_all_fast_s * (1 - kSlack)) {
    return Violation(absl::StrCat("the MSA statistics report estimated_time_s = ",
                                  Seconds(m.estimated_time_s), ", below time_all_fast_s = ",
                                  Seconds(m.time_all_fast_s),
                                  " (every buffer in fast memory, the fastest possible)"));
  }
  if (m.time_bound_s && m.estimated_time_s < *m.time_bound_s * (1 - kSlack)) {
    return Violation(absl::StrCat("the MSA statistics report estimated_time_s = ",
                                  Seconds(m.estimated_time_s), ", below time_bound_s = ",
                                  Seconds(*m.time_bound_s),
                                  " (no plan with this fast memory is faster)"));
  }
  // A baseline that does not fit is no layout the planner could have kept.
  if (m.time_all_default_fits && m.estimated_time_s > m.time_all_default_s * (1 + kSlack)) {
    return Violation(absl::StrCat("the MSA statistics report estimated_time_s = ",
                                  Seconds(m.estimated_time_s), ", above time_all_default_s = ",
                                  Seconds(m.time_all_default_s),
                                  " (every buffer in default memory; a plan is never slower)"));
  }
  return absl::OkStatus();
}

// Max over time of the bytes of home-space segments of buffers homed in
// the pools `in_group` marks (a sub-allocation's bytes are its container's:
// not counted twice). O(n log n).
Bytes MaxLiveBytesOf(const BufferSet& buffers, const Plan& plan, const std::vector<bool>& in_group) {
  std::map<std::pair<std::string, MemorySpace>, std::size_t> by_key;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    by_key.emplace(std::make_pair(plan.pools[i].name, plan.pools[i].space), i);
  }
  std::vector<std::pair<TimeStep, Bytes>> deltas;  // (time, +size at start / -size after end)
  const HomeSpaces homes(buffers, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.inside()) continue;  // its bytes are its container's (rule 13)
    const MemorySpace home = homes(id);
    auto found = by_key.find({plan.placements[id].pool, home});
    if (found == by_key.end() || !in_group[found->second]) continue;
    for (const Allocation& a : plan.placements[id].allocations) {
      if (a.space != home) continue;
      deltas.emplace_back(a.start, b.size);
      deltas.emplace_back(a.end + 1, -b.size);
    }
  }
  std::sort(deltas.begin(), deltas.end());
  Bytes live = 0, max_live = 0;
  for (const auto& [time, delta] : deltas) {
    live += delta;
    max_live = std::max(max_live, live);
  }
  return max_live;
}

// The plan's peak and lower bound describe the transient pools of the
// default space: without regions the one pool "transient"; with regions also
// the slabs and transient result reservations (pools with time ranges).
absl::Status CheckPlanFigures(const BufferSet& buffers, const Plan& plan) {
  std::vector<bool> in_group(plan.pools.size(), false);
  std::optional<std::size_t> only;
  std::size_t count = 0;
  std::optional<Bytes> low, high;
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    const PoolInfo& pool = plan.pools[i];
    // Program pools are named after their lifetime; region allocations
    // (pools with a time range) carry it.
    const bool transient = pool.start ? pool.lifetime == Lifetime::kTransient
                                      : pool.name == LifetimeName(Lifetime::kTransient);
    if (pool.space != kDefaultSpace || !transient) continue;
    in_group[i] = true;
    only = i;
    ++count;
    low = std::min(low.value_or(pool.offset), pool.offset);
    high = std::max(high.value_or(pool.offset + pool.size), pool.offset + pool.size);
  }
  const Bytes peak = count == 0 ? 0 : *high - *low;
  const Bytes lower_bound = count == 0 ? 0
                            : count == 1 && !plan.pools[*only].start
                                ? plan.pools[*only].lower_bound
                                : MaxLiveBytesOf(buffers, plan, in_group);
  if (plan.peak != peak) {
    return Violation(absl::StrCat("the plan reports peak ", CountOf(plan.peak, "byte"),
                                  " but the default space's transient pools span ", peak));
  }
  if (plan.lower_bound != lower_bound) {
    return Violation(absl::StrCat("the plan reports lower bound ",
                                  CountOf(plan.lower_bound, "byte"),
                                  " but the default space's transient pools have ", lower_bound));
  }
  if (!plan.msa) {
    if (!plan.copies.empty()) {
      return Violation(absl::StrCat("the plan has ",
                                    CountOf(plan.copies.size(), "async copy", "async copies"),
                                    " but no MSA statistics"));
    }
    if (auto moved = FirstMovedSegment(buffers, plan)) {
      return Violation(absl::StrCat(SegmentRef(buffers, plan, moved->first, moved->second),
                                    " lies outside the buffer's home space, which only memory "
                                    "space assignment does, but the plan has no MSA statistics"));
    }
    return absl::OkStatus();
  }
  if (absl::Status s = CheckMsaTimes(*plan.msa); !s.ok()) return s;
  if (absl::Status s = CheckLoops(plan); !s.ok()) return s;
  std::int64_t prefetches = 0, evictions = 0;
  Bytes prefetch_bytes = 0, eviction_bytes = 0;
  std::int64_t sliced = 0, slices = 0, blocks = 0;
  Bytes window_bytes = 0;
  for (const WindowPrefetch& w : plan.window_prefetches) {
    if (__builtin_add_overflow(window_bytes, w.bytes, &window_bytes)) {
      window_bytes = std::numeric_limits<Bytes>::max();
    }
  }
  for (const AsyncCopy& c : plan.copies) {
    const bool prefetch = c.kind == CopyKind::kPrefetch;
    ++(prefetch ? prefetches : evictions);
    Bytes& bytes = prefetch ? prefetch_bytes : eviction_bytes;
    if (__builtin_add_overflow(bytes, c.bytes, &bytes)) bytes = std::numeric_limits<Bytes>::max();
    if (prefetch && c.slice_count > 1) {
      ++slices;
      if (c.slice_index == 0) ++sliced;
    }
    if (c.block) ++blocks;
  }
  const std::tuple<const char*, std::int64_t, std::int64_t> figures[] = {
      {"prefetches", plan.msa->prefetches, prefetches},
      {"evictions", plan.msa->evictions, evictions},
      {"prefetch_bytes", plan.msa->prefetch_bytes, prefetch_bytes},
      {"eviction_bytes", plan.msa->eviction_bytes, eviction_bytes},
      {"sliced_prefetches", plan.msa->sliced_prefetches, sliced},
      {"prefetch_slices", plan.msa->prefetch_slices, slices},
      {"window_prefetches", plan.msa->window_prefetches,
       static_cast<std::int64_t>(plan.window_prefetches.size())},
      {"window_prefetch_bytes", plan.msa->window_prefetch_bytes, window_bytes},
      {"block_prefetches", plan.msa->block_prefetches, blocks},
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
