// Rule 15 of verify/verifier.h, staged copies (AsyncCopy::via): the chunk
// each holds in its intermediate space between its legs (the legs' links
// are checked with the other copies' in verify/hierarchy_checks.cc).
#include <algorithm>
#include <cstddef>
#include <string>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// The chunk is reserved from the copy's issue (step 0 for one issued before
// the first op) through its done.
struct Chunk {
  MemorySpace space;
  Bytes offset;
  Bytes bytes;
  TimeStep start;
  TimeStep end;
};

Chunk ChunkOf(const AsyncCopy& c) {
  return Chunk{c.via->space, c.via->offset, c.bytes, std::max<TimeStep>(c.start, 0), c.done};
}

bool Meets(const Chunk& x, MemorySpace space, Bytes offset, Bytes bytes, TimeStep start,
           TimeStep end) {
  return x.space == space && x.offset < offset + bytes && offset < x.offset + x.bytes &&
         x.start <= end && start <= x.end;
}

std::string ChunkRef(const BufferSet& buffers, const Plan& plan, std::size_t index) {
  const Chunk k = ChunkOf(plan.copies[index]);
  return absl::StrCat("the staging chunk of ", CopyRef(buffers, plan, index), " (bytes [",
                      k.offset, ", ", k.offset + k.bytes, ") of space ", k.space, " during [",
                      k.start, ", ", k.end, "])");
}

}  // namespace

absl::Status CheckStagingChunks(const BufferSet& buffers, const Plan& plan,
                                const HierarchyRules* rules) {
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    if (!c.via) continue;
    if (rules == nullptr) {
      return Violation(absl::StrCat(CopyRef(buffers, plan, i),
                                    " is staged, which only a plan on a memory hierarchy may be"),
                       c.buffer);
    }
    const Chunk k = ChunkOf(c);
    const auto rule = std::find_if(rules->spaces.begin(), rules->spaces.end(),
                                   [&](const HierarchySpaceRule& s) { return s.id == k.space; });
    const auto space = std::find_if(plan.spaces.begin(), plan.spaces.end(),
                                    [&](const SpaceInfo& s) { return s.id == k.space; });
    if (rule == rules->spaces.end() || space == plan.spaces.end()) {
      return Violation(absl::StrCat(ChunkRef(buffers, plan, i),
                                    " lies in a space that is not a level of the plan's hierarchy"),
                       c.buffer);
    }
    const Bytes alignment = std::max<Bytes>(1, space->alignment);
    const Bytes plan_alignment = std::max<Bytes>(1, plan.alignment);
    if (k.offset < 0 || k.offset % alignment != 0 || k.offset % plan_alignment != 0 ||
        k.offset + k.bytes > rule->capacity || k.start >= k.end) {
      return Violation(absl::StrCat(ChunkRef(buffers, plan, i), " is not inside level '",
                                    rule->name, "': its offset must be >= 0 and a multiple of ",
                                    alignment, " and ", plan_alignment, ", it must end by byte ",
                                    rule->capacity, " and the copy must be done after its start"),
                       c.buffer);
    }
    for (BufferId id = 0; id < static_cast<BufferId>(plan.placements.size()); ++id) {
      const AllocationList& segs = plan.placements[static_cast<std::size_t>(id)].allocations;
      const Bytes size = buffers.buffers[static_cast<std::size_t>(id)].size;
      for (std::size_t s = 0; s < segs.size(); ++s) {
        const Allocation& a = segs[s];
        if (Meets(k, a.space, a.offset, size, a.start, a.end)) {
          return Violation(absl::StrCat(ChunkRef(buffers, plan, i), " meets ",
                                        SegmentRef(buffers, plan, id, s)),
                           c.buffer);
        }
      }
    }
    for (const WindowPrefetch& w : plan.window_prefetches) {
      if (Meets(k, w.space, w.offset, w.bytes, std::max<TimeStep>(w.start, 0), w.done)) {
        return Violation(absl::StrCat(ChunkRef(buffers, plan, i), " meets the window chunk of ",
                                      BufferRef(buffers, w.buffer)),
                         c.buffer);
      }
    }
    for (std::size_t j = i + 1; j < plan.copies.size(); ++j) {
      if (!plan.copies[j].via) continue;
      const Chunk other = ChunkOf(plan.copies[j]);
      if (Meets(k, other.space, other.offset, other.bytes, other.start, other.end)) {
        return Violation(absl::StrCat(ChunkRef(buffers, plan, i), " and ",
                                      ChunkRef(buffers, plan, j), " hold the same bytes at one time"),
                         c.buffer);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
