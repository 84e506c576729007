#include "packing/chunk_finder.h"

#include <algorithm>

namespace memplan {

std::optional<Bytes> ChunkFinder::ChooseHole(Bytes size, Bytes alignment, Bytes capacity) const {
  std::sort(scratch_.begin(), scratch_.end(),
            [](const Span& a, const Span& b) { return a.offset < b.offset; });

  std::optional<Bytes> best;
  Bytes best_room = std::numeric_limits<Bytes>::max();
  Bytes used_end = 0;  // end of the highest chunk seen so far
  for (const Span& span : scratch_) {
    if (span.offset > used_end) {
      const Bytes candidate = AlignUp(used_end, alignment);
      const Bytes room = span.offset - candidate;
      if (room >= size && room < best_room && candidate + size <= capacity) {
        best = candidate;
        best_room = room;
        if (room == size) return best;  // nothing can fit more tightly
      }
    }
    used_end = std::max(used_end, span.end);
  }
  if (best) return best;
  const Bytes top = AlignUp(used_end, alignment);
  if (top + size > capacity) return std::nullopt;
  return top;
}

}  // namespace memplan
