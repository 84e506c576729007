// Rule 10 of verify/verifier.h: data written outside the default space comes
// back by an eviction started after the write, when the default space is
// read again or the buffer crosses the program boundary.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"
#include "verify/program_liveness.h"

namespace memplan::verify_internal {
namespace {

// The steps at which a buffer is held outside its home space: its other
// spaces' segments merged into sorted, disjoint closed ranges.
std::vector<StepRange> OutsideHome(std::span<const Allocation> segs, MemorySpace home) {
  std::vector<StepRange> ranges;
  for (const Allocation& a : segs) {
    if (a.space != home) ranges.push_back({a.start, a.end});
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const StepRange& x, const StepRange& y) { return x.first < y.first; });
  std::vector<StepRange> merged;
  for (const StepRange& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().last + 1) {
      merged.back().last = std::max(merged.back().last, r.last);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

// The first use of `b` after step `after` that no range of `outside` covers
// (a read from the default space), or nullopt. O(ranges x log uses).
std::optional<TimeStep> DefaultReadAfter(const Buffer& b, const std::vector<StepRange>& outside,
                                         TimeStep after) {
  auto use = std::upper_bound(b.use_times().begin(), b.use_times().end(), after);
  while (use != b.use_times().end()) {
    auto r = std::upper_bound(outside.begin(), outside.end(), *use,
                              [](TimeStep t, const StepRange& x) { return t < x.first; });
    if (r == outside.begin() || std::prev(r)->last < *use) return *use;
    use = std::upper_bound(use, b.use_times().end(), std::prev(r)->last);
  }
  return std::nullopt;
}

}  // namespace

absl::Status CheckWritesEvicted(const BufferSet& buffers, const Plan& plan, const Program& program) {
  const std::vector<BufferWrites> writes = WriteSteps(program, buffers);
  std::vector<std::vector<const AsyncCopy*>> evictions(buffers.buffers.size());
  for (const AsyncCopy& c : plan.copies) {
    if (c.kind == CopyKind::kEviction) evictions[c.buffer].push_back(&c);
  }
  const HomeSpaces homes(buffers, plan);
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    const std::vector<TimeStep>& steps = writes[id].steps;
    // A pinned buffer's home is its pinned space, wherever it is written.
    if (b.space || steps.empty()) continue;
    const AllocationList& segs = plan.placements[id].allocations;
    const MemorySpace home = homes(id);
    const std::vector<StepRange> outside = OutsideHome(segs, home);
    for (std::size_t k = 0; k < segs.size(); ++k) {
      const Allocation& s = segs[k];
      if (s.space == home) continue;
      // The last write into this segment: from then only it holds the data.
      auto it = std::upper_bound(steps.begin(), steps.end(), s.end);
      if (it == steps.begin() || *std::prev(it) < s.start) continue;
      const TimeStep last_write = *std::prev(it);
      const std::optional<TimeStep> read = DefaultReadAfter(b, outside, last_write);
      if (!writes[id].boundary && !read) continue;
      const bool evicted =
          std::any_of(evictions[id].begin(), evictions[id].end(), [&](const AsyncCopy* c) {
            return c->from_space == s.space && c->start >= last_write && c->start <= s.end;
          });
      if (evicted) continue;
      return Violation(absl::StrCat(
          BufferRef(buffers, id), " is written at time ", last_write, " in ",
          SegmentRef(buffers, plan, id, k), " but no eviction from it starts at or after that write",
          read ? absl::StrCat(", although ",
                              home == kDefaultSpace ? std::string("the default space")
                                                    : absl::StrCat("its home space ", home),
                              " is read at time ", *read)
               : std::string(", although it holds an entry parameter or result, whose data must "
                             "end in the default space")));
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
