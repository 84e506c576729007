#include "packing/online_best_fit.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "packing/pack_support.h"

namespace memplan {
namespace {

// The free blocks of one address space: finite blocks indexed both by offset
// (to merge a freed block with its neighbours) and by (size, offset) (for the
// best-fit lookup), plus the unbounded block [top, inf).
class FreeBlocks {
 public:
  // Best-fit offset for `size` > 0 bytes aligned to `alignment`; reserves it.
  Bytes Take(Bytes size, Bytes alignment) {
    // Blocks of at least size + alignment - 1 bytes always fit; smaller ones
    // fit only if their start happens to be aligned well enough. A few of
    // those are probed first, which keeps a lookup O(log n) even when many
    // blocks are too small once aligned.
    constexpr int kProbes = 4;
    auto it = by_size_.lower_bound({size, std::numeric_limits<Bytes>::min()});
    for (int probe = 0; probe < kProbes && it != by_size_.end(); ++probe, ++it) {
      if (Fits(*it, size, alignment)) return Split(it, size, alignment);
    }
    it = by_size_.lower_bound({size + alignment - 1, std::numeric_limits<Bytes>::min()});
    if (it != by_size_.end()) return Split(it, size, alignment);
    const Bytes offset = AlignUp(top_, alignment);
    if (offset > top_) Insert(top_, offset);
    top_ = offset + size;
    return offset;
  }

  // Frees [offset, end), merging it with adjacent free blocks.
  void Give(Bytes offset, Bytes end) {
    auto next = by_offset_.lower_bound(offset);
    if (next != by_offset_.begin()) {
      auto prev = std::prev(next);
      if (prev->second == offset) {
        offset = prev->first;
        Erase(prev);
      }
    }
    if (next != by_offset_.end() && next->first == end) {
      end = next->second;
      Erase(next);
    }
    if (end == top_) {
      top_ = offset;
    } else {
      Insert(offset, end);
    }
  }

 private:
  using SizeKey = std::pair<Bytes, Bytes>;  // (size, offset)

  static bool Fits(const SizeKey& block, Bytes size, Bytes alignment) {
    return AlignUp(block.second, alignment) + size <= block.second + block.first;
  }

  // Reserves `size` bytes at the aligned start of the block `it`; the
  // alignment padding and the tail stay free.
  Bytes Split(std::set<SizeKey>::iterator it, Bytes size, Bytes alignment) {
    const Bytes start = it->second;
    const Bytes end = start + it->first;
    Erase(by_offset_.find(start));
    const Bytes offset = AlignUp(start, alignment);
    if (offset > start) Insert(start, offset);
    if (offset + size < end) Insert(offset + size, end);
    return offset;
  }

  void Insert(Bytes offset, Bytes end) {
    by_offset_.emplace(offset, end);
    by_size_.emplace(end - offset, offset);
  }

  void Erase(std::map<Bytes, Bytes>::iterator it) {
    by_size_.erase({it->second - it->first, it->first});
    by_offset_.erase(it);
  }

  std::map<Bytes, Bytes> by_offset_;  // offset -> end
  std::set<SizeKey> by_size_;
  Bytes top_ = 0;  // everything at or above is free
};

}  // namespace

PackResult OnlineBestFitPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<std::int32_t> by_start;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i])) by_start.push_back(static_cast<std::int32_t>(i));
  }
  std::vector<std::int32_t> by_end = by_start;
  auto length = [&](std::int32_t i) { return EndOf(items[i]) - items[i].start; };
  std::sort(by_start.begin(), by_start.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_tuple(items[a].start, -items[a].size, -length(a), a) <
           std::make_tuple(items[b].start, -items[b].size, -length(b), b);
  });
  std::sort(by_end.begin(), by_end.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_pair(EndOf(items[a]), a) < std::make_pair(EndOf(items[b]), b);
  });

  std::vector<Bytes> offsets(items.size(), 0);
  FreeBlocks free;
  std::size_t freed = 0;
  for (std::int32_t i : by_start) {
    const PackItem& item = items[i];
    // An item ending before this start began earlier, so it is placed.
    for (; freed < by_end.size() && EndOf(items[by_end[freed]]) < item.start; ++freed) {
      const std::int32_t j = by_end[freed];
      free.Give(offsets[j], offsets[j] + items[j].size);
    }
    offsets[i] = free.Take(item.size, EffectiveAlignment(item, alignment));
  }
  return MakePackResult(items, std::move(offsets), "online-best-fit");
}

}  // namespace memplan
