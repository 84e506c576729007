#include "packing/free_blocks.h"

#include <iterator>
#include <limits>

namespace memplan {

std::optional<FreeBlocks::Fit> FreeBlocks::BestFit(Bytes size, Bytes alignment) const {
  const auto fit_of = [&](const SizeKey& block) -> std::optional<Fit> {
    const Bytes offset = AlignUp(block.second, alignment);
    if (offset + size > block.second + block.first) return std::nullopt;
    return Fit{block.second, block.first, offset};
  };
  // Blocks smaller than size + alignment - 1 fit only when their start is
  // aligned well enough; probing a few keeps the lookup O(log n) even when
  // many are too small once aligned.
  constexpr int kProbes = 4;
  auto it = by_size_.lower_bound({size, std::numeric_limits<Bytes>::min()});
  for (int probe = 0; probe < kProbes && it != by_size_.end(); ++probe, ++it) {
    if (std::optional<Fit> fit = fit_of(*it)) return fit;
  }
  it = by_size_.lower_bound({size + alignment - 1, std::numeric_limits<Bytes>::min()});
  if (it != by_size_.end()) return fit_of(*it);
  return std::nullopt;
}

Bytes FreeBlocks::TakeAt(const Fit& fit, Bytes size) {
  const Bytes end = fit.block_offset + fit.block_size;
  Erase(by_offset_.find(fit.block_offset));
  if (fit.offset > fit.block_offset) Insert(fit.block_offset, fit.offset);
  if (fit.offset + size < end) Insert(fit.offset + size, end);
  return fit.offset;
}

Bytes FreeBlocks::TakeTop(Bytes size, Bytes alignment) {
  const Bytes offset = AlignUp(top_, alignment);
  if (offset > top_) Insert(top_, offset);
  top_ = offset + size;
  return offset;
}

void FreeBlocks::Reserve(Bytes offset, Bytes end) {
  if (offset > top_) Insert(top_, offset);
  top_ = end;
}

Bytes FreeBlocks::Take(Bytes size, Bytes alignment) {
  if (std::optional<Fit> fit = BestFit(size, alignment)) return TakeAt(*fit, size);
  return TakeTop(size, alignment);
}

void FreeBlocks::Give(Bytes offset, Bytes end) {
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

void FreeBlocks::Insert(Bytes offset, Bytes end) {
  by_offset_.emplace(offset, end);
  by_size_.emplace(end - offset, offset);
}

void FreeBlocks::Erase(std::map<Bytes, Bytes>::iterator it) {
  by_size_.erase({it->second - it->first, it->first});
  by_offset_.erase(it);
}

}  // namespace memplan
