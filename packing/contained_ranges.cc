#include "packing/contained_ranges.h"

#include <algorithm>
#include <bit>
#include <tuple>
#include <utility>

namespace memplan {
namespace {

std::int64_t Key(std::int32_t r, std::int32_t rank) {
  return static_cast<std::int64_t>(r) << 32 | static_cast<std::int64_t>(rank);
}

// The number of keys in [first, first + count) below `key` (sorted keys);
// branch-free, as the searches are the structure's hot path.
std::int32_t CountBelow(const std::int64_t* first, std::int32_t count, std::int64_t key) {
  if (count == 0) return 0;
  const std::int64_t* base = first;
  for (std::int32_t n = count; n > 1; n -= n / 2) {
    base = base[n / 2 - 1] < key ? base + n / 2 : base;
  }
  return static_cast<std::int32_t>(base - first) + (*base < key ? 1 : 0);
}

}  // namespace

ContainedRanges::ContainedRanges(std::vector<Range> ranges, std::int32_t ranks,
                                 std::int32_t slots)
    : by_l_(std::move(ranges)), position_(static_cast<std::size_t>(ranks), -1),
      first_at_(static_cast<std::size_t>(slots) + 1) {
  std::sort(by_l_.begin(), by_l_.end(), [](const Range& x, const Range& y) {
    return std::tie(x.l, x.rank) < std::tie(y.l, y.rank);
  });
  const auto n = static_cast<std::int32_t>(by_l_.size());
  for (std::int32_t i = 0; i < n; ++i) position_[by_l_[i].rank] = i;
  for (std::int32_t slot = 0, i = 0; slot <= slots; ++slot) {
    while (i < n && by_l_[i].l < slot) ++i;
    first_at_[slot] = i;
  }

  // Level k sorts each block of 2^(kScanLog + k) ranges by (r, rank): sort
  // the first level's blocks, then merge pairs of blocks for the next.
  std::vector<std::int64_t> keys(by_l_.size());
  for (std::int32_t i = 0; i < n; ++i) keys[i] = Key(by_l_[i].r, by_l_[i].rank);
  std::vector<std::int64_t> merged(keys.size());
  for (std::int32_t k = 0;; ++k) {
    const std::int32_t size = std::int32_t{1} << (kScanLog + k);
    if (size > n) break;
    for (std::int32_t begin = 0; begin < n; begin += size) {
      const std::int32_t end = std::min(n, begin + size);
      if (k == 0) {
        std::sort(keys.begin() + begin, keys.begin() + end);
      } else {
        const std::int32_t mid = std::min(n, begin + size / 2);
        std::merge(keys.begin() + begin, keys.begin() + mid, keys.begin() + mid,
                   keys.begin() + end, merged.begin() + begin);
      }
    }
    if (k > 0) keys.swap(merged);
    keys_.push_back(keys);
    tree_.emplace_back(keys.size(), kNone);
    const std::int32_t level = k;
    for (std::int32_t begin = 0; begin < n; begin += size) {
      const std::int32_t s = std::min(size, n - begin);
      std::int32_t* inner = tree_.back().data() + begin;
      for (std::int32_t x = s - 1; x >= 1; --x) {
        const std::int32_t left = 2 * x < s ? inner[2 * x] : RankAt(level, begin + 2 * x - s);
        const std::int32_t right =
            2 * x + 1 < s ? inner[2 * x + 1] : RankAt(level, begin + 2 * x + 1 - s);
        inner[x] = std::min(left, right);
      }
    }
  }
  // Where each range sits on every level, a range's levels side by side (a
  // removal reads them all).
  const auto levels = static_cast<std::int64_t>(keys_.size());
  where_.resize(static_cast<std::size_t>(n * levels));
  for (std::int64_t level = 0; level < levels; ++level) {
    for (std::int32_t p = 0; p < n; ++p) {
      where_[position_[keys_[level][p] & 0xffffffff] * levels + level] = p;
    }
  }
}

std::int32_t ContainedRanges::RankAt(std::int32_t level, std::int32_t pos) const {
  return static_cast<std::int32_t>(keys_[level][pos] & 0xffffffff);
}

std::int32_t ContainedRanges::BlockPrefixMin(std::int32_t level, std::int32_t block,
                                             std::int32_t count) const {
  // The block is whole (queries use whole blocks only): s = its size.
  const std::int32_t s = std::int32_t{1} << (kScanLog + level);
  const std::int32_t begin = block * s;
  const std::int32_t* inner = tree_[level].data() + begin;
  const auto value = [&](std::int32_t x) {
    return x >= s ? RankAt(level, begin + x - s) : inner[x];
  };
  std::int32_t best = kNone;
  for (std::int32_t lo = s, hi = s + count; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) best = std::min(best, value(lo++));
    if (hi & 1) best = std::min(best, value(--hi));
  }
  return best;
}

std::optional<std::int32_t> ContainedRanges::LeastInside(std::int32_t a, std::int32_t b) const {
  std::int32_t pos = first_at_[a];
  const std::int32_t hi = first_at_[b];
  std::int32_t best = kNone;
  const auto levels = static_cast<std::int32_t>(keys_.size());
  const std::int64_t past_b = Key(b + 1, 0);  // keys of ranges ending after b
  while (pos < hi) {
    // The largest whole block that starts at pos and ends by hi: its size
    // divides pos and is at most hi - pos.
    const int fits = std::bit_width(static_cast<std::uint32_t>(hi - pos)) - 1;
    const int aligned = pos == 0 ? 31 : std::countr_zero(static_cast<std::uint32_t>(pos));
    const std::int32_t level = std::min(std::min(fits, aligned) - kScanLog, levels - 1);
    if (level < 0) {  // scanned
      const Range& range = by_l_[pos];
      if (range.r <= b) best = std::min(best, range.rank);  // a removed one's r is kNone
      ++pos;
      continue;
    }
    const std::int32_t s = std::int32_t{1} << (kScanLog + level);
    const std::int64_t* keys = keys_[level].data() + pos;
    // Skip the search when the block cannot improve on `best` (its least
    // rank, the min-tree's root) or when every range of it ends by b.
    const std::int32_t least = tree_[level][pos + 1];
    if (least < best && keys[0] < past_b) {
      if (keys[s - 1] < past_b) {
        best = least;
      } else {
        best = std::min(best, BlockPrefixMin(level, pos / s, CountBelow(keys, s, past_b)));
      }
    }
    pos += s;
  }
  if (best == kNone) return std::nullopt;
  return best;
}

ContainedRanges::Range ContainedRanges::Remove(std::int32_t rank) {
  const std::int32_t index = position_[rank];
  const Range removed = by_l_[index];
  by_l_[index].r = kNone;
  const auto n = static_cast<std::int32_t>(by_l_.size());
  const auto levels = static_cast<std::int32_t>(keys_.size());
  const std::int32_t* where = where_.data() + static_cast<std::int64_t>(index) * levels;
  for (std::int32_t level = 0; level < levels; ++level) {
    const std::int32_t size = std::int32_t{1} << (kScanLog + level);
    const std::int32_t at = where[level];
    const std::int32_t begin = at / size * size;
    const std::int32_t s = std::min(size, n - begin);
    // Its key keeps its r (the block stays sorted by r) and takes rank
    // kNone, so the min-trees pass over it.
    keys_[level][at] |= kNone;
    std::int32_t* inner = tree_[level].data() + begin;
    for (std::int32_t x = (s + at - begin) / 2; x >= 1; x /= 2) {
      const std::int32_t left = 2 * x < s ? inner[2 * x] : RankAt(level, begin + 2 * x - s);
      const std::int32_t right =
          2 * x + 1 < s ? inner[2 * x + 1] : RankAt(level, begin + 2 * x + 1 - s);
      inner[x] = std::min(left, right);
    }
  }
  return removed;
}

}  // namespace memplan
