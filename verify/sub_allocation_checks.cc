// Rule 13 of verify/verifier.h: sub-allocations (Buffer::inside) stay inside
// their containers. With this rule the overlap sweep (rule 3) may leave them
// out: their bytes are their container's at every step they are live.
#include <cstddef>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// Whether a range of `ranges` (sorted, disjoint) meets [first, last].
bool RangesMeetSteps(std::span<const StepRange> ranges, TimeStep first, TimeStep last) {
  for (const StepRange& r : ranges) {
    if (r.first <= last && first <= r.last) return true;
  }
  return false;
}

}  // namespace

absl::Status CheckSubAllocations(const BufferSet& buffers, const Plan& plan,
                                 const BufferDeadSteps& dead, bool input_windows) {
  const auto n = static_cast<BufferId>(buffers.buffers.size());
  for (BufferId id = 0; id < n; ++id) {
    const Buffer& b = buffers.buffers[id];
    if (!b.inside()) continue;
    const BufferId c = b.inside()->container;
    const Bytes at = b.inside()->offset;
    if (c < 0 || c >= n || c == id) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " is nested inside buffer id ", c,
                                    ", which is not another buffer of the input"));
    }
    const Buffer& container = buffers.buffers[c];
    if (container.inside()) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " is nested inside ",
                                    BufferRef(buffers, c), ", itself nested: one level only"));
    }
    if (at < 0 || at > container.size || b.size > container.size - at) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " (", CountOf(b.size, "byte"),
                                    ") is nested at byte ", at, " of ", BufferRef(buffers, c),
                                    " (", CountOf(container.size, "byte"),
                                    "): it does not fit inside"));
    }
    if (b.start < container.start || b.end > container.end) {
      return Violation(absl::StrCat(BufferRef(buffers, id), " (live [", b.start, ", ", b.end,
                                    "]) is nested inside ", BufferRef(buffers, c), " (live [",
                                    container.start, ", ", container.end,
                                    "]), which is not live whenever it is"));
    }
    const std::span<const StepRange> container_dead = dead.Of(c);
    const AllocationList& outer = plan.placements[c].allocations;
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      const Allocation& s = segs[k];
      bool held = false;
      for (const Allocation& o : outer) {
        held = held || (o.space == s.space && o.start <= s.start && s.end <= o.end &&
                        s.offset == o.offset + at);
      }
      if (!held) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k),
                                      " is not at byte ", at, " of a segment of ",
                                      BufferRef(buffers, c),
                                      " that covers its time range in its space, where it is "
                                      "nested"));
      }
      // The container must hold every byte then: no dead step, no window.
      bool partial = RangesMeetSteps(container_dead, s.start, s.end);
      for (const OccupancyWindow& w : container.windows()) {
        partial = partial || (input_windows && w.steps.first <= s.end && s.start <= w.steps.last);
      }
      if (partial) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k), " is nested inside ",
                                      BufferRef(buffers, c),
                                      ", which does not hold all of its bytes at every step of it"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
