// Rule 8 of verify/verifier.h: a buffer's data is produced in one place.
#include <cstddef>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {

absl::Status CheckSingleOrigin(const BufferSet& buffers, const Plan& plan) {
  // Segments opened by a copy: (buffer, space, start) of each copy's
  // destination (rule 4 made that segment exist and unique).
  std::set<std::pair<BufferId, std::pair<MemorySpace, TimeStep>>> opened;
  for (const AsyncCopy& c : plan.copies) opened.insert({c.buffer, {c.to_space, OpenedAt(c)}});
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    const AllocationList& segs = plan.placements[id].allocations;
    std::optional<std::size_t> origin;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].start != b.start || opened.count({id, {segs[k].space, segs[k].start}}) > 0) {
        continue;
      }
      if (origin) {
        return Violation(absl::StrCat(
            SegmentRef(buffers, plan, id, *origin), " and ", SegmentRef(buffers, plan, id, k),
            " both hold the data from the buffer's start ", b.start,
            ", but it is produced in one place: the second needs an async copy"));
      }
      origin = k;
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
