// Message fragments shared by the verifier's checks, so every violation names
// buffers, segments and copies the same way.
#pragma once

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan::verify_internal {

// "buffer 'a' (id 3)". `id` must be a valid index.
std::string BufferRef(const BufferSet& buffers, BufferId id);

// "buffer 'a' (id 3) allocation 1 (space 0, bytes [64, 128), time [2, 5])".
// The byte range uses the buffer's size; `id` and `index` must be valid.
std::string SegmentRef(const BufferSet& buffers, const Plan& plan, BufferId id,
                       std::size_t index);

// "copy 2 (prefetch of buffer 'a' (id 3) from space 0 to space 1, time [3, 5])";
// the copy's buffer id must be valid.
std::string CopyRef(const BufferSet& buffers, const Plan& plan, std::size_t index);

// "prefetch" or "eviction".
std::string CopyKindName(CopyKind kind);

// The FailedPrecondition status every violation is reported with.
absl::Status Violation(const std::string& message);

// A violation about buffer `about` (the buffer `message` names first): the
// status also carries its id, which ViolationBuffer (verifier.h) reads.
absl::Status Violation(const std::string& message, BufferId about);

}  // namespace memplan::verify_internal
