#include "driver/staging_layout.h"

#include <algorithm>
#include <map>
#include <optional>

#include "msa/alternate_heap.h"

namespace memplan {

bool PlaceStagingChunks(Plan& plan, bool keep_offsets) {
  // Per intermediate space: the chunks packed so far above its pools.
  std::map<MemorySpace, AlternateHeap> heaps;
  std::map<MemorySpace, Bytes> base;
  for (AsyncCopy& c : plan.copies) {
    if (!c.via) continue;
    auto space = std::find_if(plan.spaces.begin(), plan.spaces.end(),
                              [&](const SpaceInfo& s) { return s.id == c.via->space; });
    if (space == plan.spaces.end()) return false;
    const Bytes capacity = space->capacity.value_or(kMaxTotalBytes);
    if (!keep_offsets) {
      auto heap = heaps.find(space->id);
      if (heap == heaps.end()) {
        const Bytes alignment = AlignmentLcm(std::max<Bytes>(1, space->alignment),
                                             std::max<Bytes>(1, plan.alignment))
                                    .value_or(space->alignment);
        const Bytes bottom = (space->peak + alignment - 1) / alignment * alignment;
        if (bottom > capacity) return false;
        base[space->id] = bottom;
        heap = heaps.emplace(space->id, AlternateHeap(capacity - bottom, alignment)).first;
      }
      const auto [from, to] = StagingSteps(c);
      const std::optional<Bytes> offset = heap->second.BestFit(from, to, c.bytes);
      if (!offset) return false;
      heap->second.Commit(from, to, *offset, c.bytes);
      c.via->offset = base[space->id] + *offset;
    }
    if (c.via->offset + c.bytes > capacity) return false;
    space->peak = std::max(space->peak, c.via->offset + c.bytes);
  }
  return true;
}

}  // namespace memplan
