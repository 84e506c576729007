#include "packing/length_class_ranges.h"

#include <algorithm>
#include <bit>
#include <tuple>
#include <utility>

namespace memplan {
namespace {

int ClassOf(const ContainedRanges::Range& range) {
  return std::bit_width(static_cast<std::uint32_t>(range.r - range.l)) - 1;
}

void SortByClassAndStart(std::vector<ContainedRanges::Range>& ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ContainedRanges::Range& x, const ContainedRanges::Range& y) {
              return std::tuple(ClassOf(x), x.l, x.rank) < std::tuple(ClassOf(y), y.l, y.rank);
            });
}

}  // namespace

LengthClassRanges::LengthClassRanges(std::vector<Range> ranges, std::int32_t ranks)
    : position_(static_cast<std::size_t>(ranks), -1) {
  SortByClassAndStart(ranges);
  const auto n = static_cast<std::int32_t>(ranges.size());
  l_.resize(ranges.size());
  r_.resize(ranges.size());
  tree_.assign(2 * ranges.size(), kNone);
  for (std::int32_t p = 0; p < n; ++p) {
    const Range& range = ranges[p];
    l_[p] = range.l;
    r_[p] = range.r;
    tree_[n + p] = range.rank;
    position_[range.rank] = p;
    const std::int32_t length = range.r - range.l;
    if (p == 0 || ClassOf(ranges[p - 1]) != ClassOf(range)) {
      classes_.push_back({p, p, length, length});
    }
    LengthClass& c = classes_.back();
    c.end = p + 1;
    c.shortest = std::min(c.shortest, length);
    c.longest = std::max(c.longest, length);
  }
  for (std::int32_t x = n - 1; x >= 1; --x) tree_[x] = std::min(tree_[2 * x], tree_[2 * x + 1]);
}

std::int32_t LengthClassRanges::LeastIn(std::int32_t lo, std::int32_t hi) const {
  const auto n = static_cast<std::int32_t>(l_.size());
  std::int32_t best = kNone;
  for (lo += n, hi += n; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) best = std::min(best, tree_[lo++]);
    if (hi & 1) best = std::min(best, tree_[--hi]);
  }
  return best;
}

std::optional<std::int32_t> LengthClassRanges::LeastInside(std::int32_t a,
                                                           std::int32_t b) const {
  const auto n = static_cast<std::int32_t>(l_.size());
  std::int32_t best = kNone;
  for (const LengthClass& c : classes_) {
    if (c.shortest > b - a) break;  // classes ascend in length
    const std::int32_t* first = l_.data() + c.begin;
    const std::int32_t* last = l_.data() + c.end;
    // Starts in [a, b - longest] end by b; in (b - longest, b - shortest]
    // they may; after b - shortest they cannot.
    const std::int32_t* lo = std::lower_bound(first, last, a);
    const std::int32_t* whole = std::upper_bound(lo, last, b - c.longest);
    const std::int32_t* tail = std::upper_bound(whole, last, b - c.shortest);
    const auto lo_at = static_cast<std::int32_t>(lo - l_.data());
    const auto whole_at = static_cast<std::int32_t>(whole - l_.data());
    const auto tail_at = static_cast<std::int32_t>(tail - l_.data());
    if (lo_at < whole_at) best = std::min(best, LeastIn(lo_at, whole_at));
    for (std::int32_t p = whole_at; p < tail_at; ++p) {
      if (r_[p] <= b) best = std::min(best, tree_[n + p]);
    }
  }
  if (best == kNone) return std::nullopt;
  return best;
}

void LengthClassRanges::Remove(std::int32_t rank) {
  const auto n = static_cast<std::int32_t>(l_.size());
  std::int32_t x = n + position_[rank];
  tree_[x] = kNone;
  for (x /= 2; x >= 1; x /= 2) {
    const std::int32_t least = std::min(tree_[2 * x], tree_[2 * x + 1]);
    if (tree_[x] == least) break;  // the ancestors above are unchanged too
    tree_[x] = least;
  }
}

std::int64_t LengthClassRanges::TailBound(std::vector<Range> ranges) {
  SortByClassAndStart(ranges);
  std::int64_t bound = 0;
  const auto n = static_cast<std::int64_t>(ranges.size());
  for (std::int64_t begin = 0; begin < n;) {
    std::int64_t end = begin;
    std::int32_t shortest = INT32_MAX;
    std::int32_t longest = 0;
    while (end < n && ClassOf(ranges[end]) == ClassOf(ranges[begin])) {
      shortest = std::min(shortest, ranges[end].r - ranges[end].l);
      longest = std::max(longest, ranges[end].r - ranges[end].l);
      ++end;
    }
    // The most starts in a window (x - width, x] of this class, by two
    // pointers over the sorted starts.
    const std::int32_t width = longest - shortest;
    std::int64_t most = 0;  // width 0: no tail (every range ends by b or none does)
    for (std::int64_t first = begin, p = begin; width > 0 && p < end; ++p) {
      while (ranges[first].l <= ranges[p].l - width) ++first;
      most = std::max(most, p - first + 1);
    }
    bound += most;
    begin = end;
  }
  return bound;
}

}  // namespace memplan
