#include "packing/wide_min_tree.h"

#include <algorithm>
#include <utility>

namespace memplan {
namespace {

std::int32_t LeastOf(const std::int32_t* first, const std::int32_t* last) {
  std::int32_t least = WideMinTree::kAbsent;
  for (; first < last; ++first) least = std::min(least, *first);
  return least;
}

std::size_t RoundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

WideMinTree::WideMinTree(std::vector<std::int32_t> keys) : size_(keys.size()) {
  keys.resize(RoundUp(std::max<std::size_t>(keys.size(), 1), kFanOut), kAbsent);
  levels_.push_back(std::move(keys));
  while (levels_.back().size() > kFanOut) {
    const std::vector<std::int32_t>& below = levels_.back();
    std::vector<std::int32_t> level(RoundUp(below.size() / kFanOut, kFanOut), kAbsent);
    for (std::size_t i = 0; i < below.size() / kFanOut; ++i) {
      level[i] = LeastOf(below.data() + i * kFanOut, below.data() + (i + 1) * kFanOut);
    }
    levels_.push_back(std::move(level));
  }
}

std::int32_t WideMinTree::Least(std::int32_t lo, std::int32_t hi) const {
  std::int32_t least = kAbsent;
  for (const std::vector<std::int32_t>& level : levels_) {
    if (lo >= hi) break;
    const std::int32_t* keys = level.data();
    if (lo / kFanOut == (hi - 1) / kFanOut) return std::min(least, LeastOf(keys + lo, keys + hi));
    // The partial nodes at both ends here; the whole nodes between, above.
    const std::int32_t lo_up = (lo + kFanOut - 1) / kFanOut;
    const std::int32_t hi_up = hi / kFanOut;
    least = std::min(least, LeastOf(keys + lo, keys + lo_up * kFanOut));
    least = std::min(least, LeastOf(keys + hi_up * kFanOut, keys + hi));
    lo = lo_up;
    hi = hi_up;
  }
  return least;
}

void WideMinTree::Remove(std::int32_t p) {
  levels_[0][static_cast<std::size_t>(p)] = kAbsent;
  for (std::size_t k = 0; k + 1 < levels_.size(); ++k) {
    const std::int32_t node = p / kFanOut;
    const std::int32_t* children = levels_[k].data() + node * kFanOut;
    const std::int32_t least = LeastOf(children, children + kFanOut);
    std::int32_t& parent = levels_[k + 1][static_cast<std::size_t>(node)];
    if (parent == least) break;  // the ancestors above are unchanged too
    parent = least;
    p = node;
  }
}

}  // namespace memplan
