// Test-only exhaustive offset packing for tiny inputs (<= 12 items): the
// lowest peak over every placement order, each item dropped onto the items
// placed before it that it overlaps in time (aligned up; fixed items at their
// offset). Every packing can be pushed down into one that some order
// produces this way, so the minimum over orders is the optimum. Orders that
// differ only by swapping neighbours that do not overlap in time give the
// same placement, so only one of them is tried; a branch is cut when, at some
// step, the top of the placed items live then plus the sizes of the unplaced
// ones live then (which all go above them) reaches the best peak so far, and
// the search ends when a packing meets the max-live bound. Items are live over [start, end] (gaps ignored, as in
// the exact solver). Returns -1 if no order is valid (fixed items collide).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "packing/packer.h"

namespace memplan::testing {

class BruteForcePacking {
 public:
  BruteForcePacking(const std::vector<PackItem>& items, Bytes alignment) : items_(items) {
    for (const PackItem& item : items) {
      align_.push_back(std::max<Bytes>({item.alignment, alignment, 1}));
    }
    offset_.assign(items.size(), 0);
    placed_.assign(items.size(), false);
  }

  Bytes Optimum() {
    best_ = -1;
    max_live_ = CompletionBound(0);  // nothing placed: the max-live bound
    Search(-1, 0, 0);
    return best_;
  }

 private:
  bool Overlap(std::size_t a, std::size_t b) const {
    return items_[a].start <= items_[b].end && items_[b].start <= items_[a].end;
  }
  bool Empty(std::size_t i) const { return items_[i].size <= 0; }

  // The peak any completion of the current placement reaches at least.
  Bytes CompletionBound(Bytes peak) const {
    TimeStep horizon = 0;
    for (const PackItem& item : items_) horizon = std::max(horizon, item.end + 1);
    for (TimeStep t = 0; t < horizon; ++t) {
      Bytes top = 0, unplaced = 0;
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (Empty(i) || items_[i].start > t || items_[i].end < t) continue;
        if (placed_[i]) {
          top = std::max(top, offset_[i] + items_[i].size);
        } else {
          unplaced += items_[i].size;
        }
      }
      peak = std::max(peak, top + unplaced);
    }
    return peak;
  }

  void Search(int previous, std::size_t count, Bytes peak) {
    if (best_ >= 0 && (best_ == max_live_ || CompletionBound(peak) >= best_)) return;
    std::size_t live_items = 0;
    for (std::size_t i = 0; i < items_.size(); ++i) live_items += Empty(i) ? 0 : 1;
    if (count == live_items) {
      best_ = peak;
      return;
    }
    for (std::size_t j = 0; j < items_.size(); ++j) {
      if (placed_[j] || Empty(j)) continue;
      if (previous >= 0 && static_cast<int>(j) < previous && !Overlap(j, previous)) continue;
      Bytes top = 0;
      for (std::size_t k = 0; k < items_.size(); ++k) {
        if (placed_[k] && Overlap(j, k)) top = std::max(top, offset_[k] + items_[k].size);
      }
      Bytes at = (top + align_[j] - 1) / align_[j] * align_[j];
      if (items_[j].fixed_offset()) {
        if (top > *items_[j].fixed_offset()) continue;
        at = *items_[j].fixed_offset();
      } else if (HitsUnplacedFixed(j, at)) {
        continue;
      }
      placed_[j] = true;
      offset_[j] = at;
      Search(static_cast<int>(j), count + 1, std::max(peak, at + items_[j].size));
      placed_[j] = false;
    }
  }

  bool HitsUnplacedFixed(std::size_t j, Bytes at) const {
    for (std::size_t c = 0; c < items_.size(); ++c) {
      if (placed_[c] || Empty(c) || !items_[c].fixed_offset() || !Overlap(j, c)) continue;
      const Bytes f = *items_[c].fixed_offset();
      if (at < f + items_[c].size && f < at + items_[j].size) return true;
    }
    return false;
  }

  const std::vector<PackItem>& items_;
  std::vector<Bytes> align_;
  std::vector<Bytes> offset_;
  std::vector<bool> placed_;
  Bytes best_ = -1;
  Bytes max_live_ = 0;
};

}  // namespace memplan::testing
