#include "packing/exact/alignment_waste.h"

#include <algorithm>
#include <limits>

namespace memplan::exact {

Bytes MinStackTop(Bytes floor, const std::vector<StackBuffer>& buffers,
                  std::vector<Bytes>& scratch) {
  Bytes total = 0;
  for (const StackBuffer& b : buffers) total += b.size;
  Bytes best = floor + total;
  for (std::size_t first = 0; first < buffers.size(); ++first) {
    const Bytes a = buffers[first].alignment;
    if (buffers[first].fixed || a <= 1) continue;
    // Each distinct alignment once: skip it if an earlier buffer had it.
    bool seen = false;
    for (std::size_t k = 0; k < first && !seen; ++k) {
      seen = !buffers[k].fixed && buffers[k].alignment == a;
    }
    if (seen) continue;
    scratch.clear();
    Bytes fillers = 0;
    bool all_aligned = true;
    for (const StackBuffer& b : buffers) {
      const bool in_class = !b.fixed && b.alignment % a == 0;
      if (in_class) {
        if (b.size % a != 0) scratch.push_back(a - b.size % a);
      } else {
        all_aligned = false;
        if (b.fixed || b.size % a != 0) ++fillers;
      }
    }
    Bytes waste = 0;
    const auto wasting = static_cast<Bytes>(scratch.size()) - 1 - fillers;
    if (wasting > 0) {
      std::sort(scratch.begin(), scratch.end());
      for (Bytes k = 0; k < wasting; ++k) waste += scratch[static_cast<std::size_t>(k)];
    }
    const Bytes base = all_aligned ? (floor + a - 1) / a * a : floor;
    best = std::max(best, base + total + waste);
  }
  return best;
}

Bytes ExactStackTop(const std::vector<StackBuffer>& buffers, const std::vector<Interval>& fixed) {
  const std::size_t k = buffers.size();
  const std::size_t subsets = std::size_t{1} << k;
  // The lowest offset >= from where `b` fits between the fixed intervals
  // (sorted by start): one pass, the offset only rises.
  const auto lowest = [&](Bytes from, const StackBuffer& b) {
    Bytes offset = (from + b.alignment - 1) / b.alignment * b.alignment;
    for (const Interval& f : fixed) {
      if (offset < f.end && offset + b.size > f.begin) {
        offset = (f.end + b.alignment - 1) / b.alignment * b.alignment;
      }
    }
    return offset;
  };
  std::vector<Bytes> top(subsets, std::numeric_limits<Bytes>::max());
  top[0] = 0;
  for (std::size_t mask = 0; mask < subsets; ++mask) {
    if (top[mask] == std::numeric_limits<Bytes>::max()) continue;
    for (std::size_t b = 0; b < k; ++b) {
      if ((mask >> b) & 1) continue;
      const Bytes next = lowest(top[mask], buffers[b]) + buffers[b].size;
      Bytes& slot = top[mask | (std::size_t{1} << b)];
      slot = std::min(slot, next);
    }
  }
  Bytes result = top[subsets - 1];
  for (const Interval& f : fixed) result = std::max(result, f.end);
  return result;
}

}  // namespace memplan::exact
