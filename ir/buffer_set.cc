#include "ir/buffer_set.h"

namespace memplan {

std::vector<StepRange> LivePieces(const Buffer& buffer, TimeStep first, TimeStep last) {
  std::vector<StepRange> pieces;
  for (const StepRange& gap : buffer.gaps) {
    if (first > last) break;
    if (gap.last < first) continue;
    if (gap.first > last) break;
    if (gap.first > first) pieces.push_back({first, gap.first - 1});
    first = gap.last + 1;
  }
  if (first <= last) pieces.push_back({first, last});
  return pieces;
}

}  // namespace memplan
