#include "ir/buffer_set.h"

#include <algorithm>

namespace memplan {

std::vector<StepRange> LivePieces(const Buffer& buffer, TimeStep first, TimeStep last) {
  std::vector<StepRange> pieces;
  for (const StepRange& gap : buffer.gaps()) {
    if (first > last) break;
    if (gap.last < first) continue;
    if (gap.first > last) break;
    if (gap.first > first) pieces.push_back({first, gap.first - 1});
    first = gap.last + 1;
  }
  if (first <= last) pieces.push_back({first, last});
  return pieces;
}

std::vector<HeldPiece> HeldPieces(const Buffer& buffer) {
  std::vector<HeldPiece> held;
  auto w = buffer.windows().begin();
  for (const StepRange& live : LivePieces(buffer, buffer.start, buffer.end)) {
    TimeStep from = live.first;
    // Windows are sorted and each lies within one live piece (they are
    // disjoint from the gaps): one pass over them serves every piece.
    for (; w != buffer.windows().end() && w->steps.first <= live.last; ++w) {
      if (w->steps.last < from) continue;
      if (w->steps.first > from) held.push_back({{from, w->steps.first - 1}, 0, buffer.size});
      const TimeStep until = std::min(live.last, w->steps.last);
      held.push_back({{std::max(from, w->steps.first), until}, w->lo, w->hi});
      from = until + 1;
    }
    if (from <= live.last) held.push_back({{from, live.last}, 0, buffer.size});
  }
  return held;
}

bool ExactSearchReadsGapsAsLive(const BufferSet& buffers) {
  return std::any_of(buffers.buffers.begin(), buffers.buffers.end(), [](const Buffer& b) {
    return b.lifetime == Lifetime::kTransient && (!b.space || *b.space == kDefaultSpace) &&
           !b.fixed_offset() && (!b.gaps().empty() || !b.windows().empty());
  });
}

}  // namespace memplan
