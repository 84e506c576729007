#include "verify/describe.h"

#include <limits>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "verify/verifier.h"

namespace memplan::verify_internal {

std::string BufferRef(const BufferSet& buffers, BufferId id) {
  return absl::StrCat("buffer '", buffers.buffers[id].name.str(), "' (id ", id, ")");
}

std::string SegmentRef(const BufferSet& buffers, const Plan& plan, BufferId id,
                       std::size_t index) {
  const Allocation& a = plan.placements[id].allocations[index];
  const Bytes size = buffers.buffers[id].size;
  // Segments are described before their offset is range-checked; avoid
  // overflowing while printing the end of an absurd offset.
  const std::string end = a.offset > std::numeric_limits<Bytes>::max() - size
                              ? absl::StrCat(a.offset, "+", size)
                              : absl::StrCat(a.offset + size);
  return absl::StrCat(BufferRef(buffers, id), " allocation ", index, " (space ", a.space,
                      ", bytes [", a.offset, ", ", end, "), time [", a.start, ", ", a.end, "])");
}

std::string CopyKindName(CopyKind kind) {
  return kind == CopyKind::kPrefetch ? "prefetch" : "eviction";
}

std::string CopyRef(const BufferSet& buffers, const Plan& plan, std::size_t index) {
  const AsyncCopy& c = plan.copies[index];
  return absl::StrCat("copy ", index, " (", CopyKindName(c.kind), " of ",
                      BufferRef(buffers, c.buffer), " from space ", c.from_space,
                      c.via ? absl::StrCat(" via space ", c.via->space) : std::string(),
                      " to space ", c.to_space, ", time [", c.start, ", ", c.done, "])");
}

absl::Status Violation(const std::string& message) {
  return absl::FailedPreconditionError(message);
}

absl::Status Violation(const std::string& message, BufferId about) {
  absl::Status status = absl::FailedPreconditionError(message);
  status.SetPayload(kViolationBufferPayload, absl::Cord(absl::StrCat(about)));
  return status;
}

}  // namespace memplan::verify_internal
