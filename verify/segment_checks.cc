// Rules 1 and 2 of verify/verifier.h: plan shape and per-buffer segments.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

absl::Status CheckShape(const BufferSet& buffers, const Plan& plan) {
  if (plan.placements.size() != buffers.buffers.size()) {
    return Violation(absl::StrCat("the plan places ", CountOf(plan.placements.size(), "buffer"),
                                  " but the input has ", buffers.buffers.size()));
  }
  if (plan.time_steps != buffers.time_steps) {
    return Violation(absl::StrCat("the plan has ", CountOf(plan.time_steps, "time step"),
                                  " but the input has ", buffers.time_steps));
  }
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.size < 0) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " has negative size ", b.size));
    }
    if (b.alignment < 1) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " has alignment ", b.alignment,
                                    " (must be at least 1)"));
    }
    if (b.start < 0 || b.start > b.end || b.end >= buffers.time_steps) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " has live range [", b.start, ", ",
                                    b.end, "] outside [0, ", buffers.time_steps, ")"));
    }
  }
  std::set<MemorySpace> spaces;
  for (const SpaceInfo& space : plan.spaces) {
    if (!spaces.insert(space.id).second) {
      return Violation(absl::StrCat("space ", space.id, " is declared twice"));
    }
    if (space.alignment < 1) {
      return Violation(absl::StrCat("space ", space.id, " has alignment ", space.alignment,
                                    " (must be at least 1)"));
    }
  }
  std::set<std::pair<std::string, MemorySpace>> pools;
  for (const PoolInfo& pool : plan.pools) {
    if (!pools.insert({pool.name, pool.space}).second) {
      return Violation(
          absl::StrCat("pool '", pool.name, "' in space ", pool.space, " is declared twice"));
    }
  }
  return absl::OkStatus();
}

const SpaceInfo* Declared(const Plan& plan, MemorySpace space) {
  auto it = std::find_if(plan.spaces.begin(), plan.spaces.end(),
                         [space](const SpaceInfo& s) { return s.id == space; });
  return it == plan.spaces.end() ? nullptr : &*it;
}

absl::Status CheckSegment(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options,
                          BufferId id, std::size_t index) {
  const Buffer& b = buffers.buffers[id];
  const Allocation& a = plan.placements[id].allocations[index];
  // Formatted only for a violation: this runs once per segment.
  const auto seg = [&] { return SegmentRef(buffers, plan, id, index); };
  // Each violation here is about this buffer (ViolationBuffer, verifier.h).
  const auto violation = [id](const std::string& message) { return Violation(message, id); };
  if (a.start > a.end) return violation(seg() + " starts after it ends");
  if (a.start < b.start || a.end > LastHeldStep(buffers, b)) {
    return violation(absl::StrCat(seg(), " lies outside the buffer's live range [", b.start, ", ",
                                  b.end, "]",
                                  LastHeldStep(buffers, b) > b.end
                                      ? absl::StrCat(" (its storage outlives the run: up to step ",
                                                     LastHeldStep(buffers, b), ")")
                                      : ""));
  }
  const SpaceInfo* space = Declared(plan, a.space);
  if (!space) {
    return violation(absl::StrCat(seg(), " is in space ", a.space, ", which the plan does not declare"));
  }
  if (b.space && a.space != *b.space) {
    return violation(absl::StrCat(seg(), " is not in space ", *b.space,
                                  ", where the buffer is pinned"));
  }
  if (a.offset < 0) return violation(seg() + " has a negative offset");
  if (a.offset > std::numeric_limits<Bytes>::max() - b.size) {
    return violation(seg() + " ends beyond the largest representable offset");
  }
  const std::pair<Bytes, const char*> alignments[] = {
      {b.alignment, "the buffer's alignment"},
      {plan.alignment, "the plan's alignment"},
      {options.alignment, "the required alignment"},
  };
  for (const auto& [alignment, what] : alignments) {
    if (alignment > 1 && a.offset % alignment != 0) {
      return violation(absl::StrCat(seg(), ": offset ", a.offset, " is not a multiple of ", what,
                                    " ", alignment));
    }
  }
  if (space->alignment > 1 && a.offset % space->alignment != 0) {
    return violation(absl::StrCat(seg(), ": offset ", a.offset, " is not a multiple of ", space->alignment,
                                  ", the alignment of memory space ", a.space));
  }
  // A fixed offset is part of the input: the buffer's bytes in its home
  // space are exactly there.
  if (b.fixed_offset() && a.space == b.space.value_or(kDefaultSpace) &&
      a.offset != *b.fixed_offset()) {
    return violation(absl::StrCat(seg(), ": offset ", a.offset,
                                  " is not the buffer's fixed offset ", *b.fixed_offset()));
  }
  if (auto cap = options.capacity.find(a.space); cap != options.capacity.end()) {
    if (a.offset + b.size > cap->second) {
      return violation(absl::StrCat(seg(), " ends at byte ", a.offset + b.size,
                                    ", beyond the capacity ", cap->second, " of space ", a.space));
    }
  }
  return absl::OkStatus();
}

// The buffer's segments cover its live range, and two of its segments in one
// space never share a time step.
absl::Status CheckCoverage(const BufferSet& buffers, const Plan& plan, BufferId id) {
  const Buffer& b = buffers.buffers[id];
  const AllocationList& segs = plan.placements[id].allocations;
  TimeStep covered_to = b.start - 1;  // every step up to here is covered
  if (segs.size() == 1) {  // the usual plan: nothing to sort, no two segments
    if (segs[0].start <= covered_to + 1) covered_to = std::max(covered_to, segs[0].end);
    if (covered_to >= b.end) return absl::OkStatus();
  }
  std::vector<std::size_t> order(segs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::tie(segs[x].start, x) < std::tie(segs[y].start, y);
  });
  for (std::size_t i : order) {
    if (segs[i].start > covered_to + 1) break;
    covered_to = std::max(covered_to, segs[i].end);
  }
  if (covered_to < b.end) {
    return Violation(absl::StrCat(BufferRef(buffers, id), " is resident in no space at time ",
                                  covered_to + 1, " of its live range [", b.start, ", ", b.end,
                                  "]"));
  }

  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::tie(segs[x].space, segs[x].start, x) < std::tie(segs[y].space, segs[y].start, y);
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const Allocation& prev = segs[order[k - 1]];
    const Allocation& next = segs[order[k]];
    // Sorted by start within a space; disjoint so far, so only the previous
    // segment can reach into the next.
    if (prev.space == next.space && next.start <= prev.end) {
      const auto [first, second] = std::minmax(order[k - 1], order[k]);
      return Violation(absl::StrCat(BufferRef(buffers, id), " has allocations ", first, " and ",
                                    second, " both in space ", next.space, " at time ",
                                    next.start));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckShapeAndSegments(const BufferSet& buffers, const Plan& plan,
                                   const VerifyOptions& options) {
  if (absl::Status s = CheckShape(buffers, plan); !s.ok()) return s;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    for (std::size_t k = 0; k < plan.placements[id].allocations.size(); ++k) {
      if (absl::Status s = CheckSegment(buffers, plan, options, id, k); !s.ok()) return s;
    }
    if (absl::Status s = CheckCoverage(buffers, plan, id); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
