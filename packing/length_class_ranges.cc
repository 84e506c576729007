#include "packing/length_class_ranges.h"

#include <algorithm>
#include <bit>
#include <tuple>
#include <utility>

#include "ir/counting_sort.h"

namespace memplan {
namespace {

// About this many ranges per directory bucket: enough to keep the directory
// small (1 entry per 4 ranges, 1 byte a range), few enough that the search
// inside a bucket stays within a cache line or two.
constexpr std::int64_t kStartsPerBucket = 4;

int ClassOf(const ContainedRanges::Range& range) {
  return std::bit_width(static_cast<std::uint32_t>(range.r - range.l)) - 1;
}

bool ByClassAndStart(const ContainedRanges::Range& x, const ContainedRanges::Range& y) {
  return std::tuple(ClassOf(x), x.l, x.rank) < std::tuple(ClassOf(y), y.l, y.rank);
}

}  // namespace

// The skyline sweep gives its ranges in rank order with starts below 2 per
// range: then two stable counting passes (by start, then by class) give
// the order in O(n + starts), where the comparison sort took 1-2 s at 10^7
// ranges.
void LengthClassRanges::SortByClassAndStart(std::vector<Range>& ranges) {
  if (std::is_sorted(ranges.begin(), ranges.end(), ByClassAndStart)) return;
  const auto by_rank = [](const Range& x, const Range& y) { return x.rank < y.rank; };
  std::int32_t max_start = 0;
  for (const Range& range : ranges) max_start = std::max(max_start, range.l);
  const auto n = static_cast<std::int64_t>(ranges.size());
  if (max_start < 0 || max_start > 2 * n + 4096 ||
      !std::is_sorted(ranges.begin(), ranges.end(), by_rank)) {
    std::sort(ranges.begin(), ranges.end(), ByClassAndStart);
    return;
  }
  StableSortBySmallKey(ranges, static_cast<std::size_t>(max_start) + 1,
                       [](const Range& range) { return range.l; });
  StableSortBySmallKey(ranges, 32, ClassOf);
}

LengthClassRanges::LengthClassRanges(std::vector<Range> ranges, std::int32_t ranks) {
  SortByClassAndStart(ranges);
  const auto n = static_cast<std::int32_t>(ranges.size());
  l_.resize(ranges.size());
  r_.resize(ranges.size());
  std::vector<std::int32_t> ranks_by_position(ranges.size());
  for (std::int32_t p = 0; p < n; ++p) {
    const Range& range = ranges[p];
    l_[p] = range.l;
    r_[p] = range.r;
    ranks_by_position[p] = range.rank;
    const std::int32_t length = range.r - range.l;
    if (p == 0 || ClassOf(ranges[p - 1]) != ClassOf(range)) {
      classes_.push_back({p, p, length, length});
    }
    LengthClass& c = classes_.back();
    c.end = p + 1;
    c.shortest = std::min(c.shortest, length);
    c.longest = std::max(c.longest, length);
  }
  // Freed before position_ is made: two skyline lanes build their indexes
  // at once, and at 10^6 ranges this moment was the plan's memory peak.
  ranges = std::vector<Range>();
  position_.assign(static_cast<std::size_t>(ranks), -1);
  for (std::int32_t p = 0; p < n; ++p) position_[ranks_by_position[p]] = p;
  tree_ = WideMinTree(std::move(ranks_by_position));
  for (LengthClass& c : classes_) BuildDirectory(c);
}

void LengthClassRanges::BuildDirectory(LengthClass& c) {
  c.first_start = l_[c.begin];
  const std::int64_t span = std::int64_t{l_[c.end - 1]} - c.first_start + 1;
  const std::int64_t want = std::max<std::int64_t>(1, (c.end - c.begin) / kStartsPerBucket);
  while ((span >> c.shift) > want) ++c.shift;
  c.buckets = static_cast<std::int32_t>(((span - 1) >> c.shift) + 1);
  c.directory_at = static_cast<std::int32_t>(directory_.size());
  std::int32_t p = c.begin;
  for (std::int32_t b = 0; b < c.buckets; ++b) {
    const std::int64_t bucket_start = c.first_start + (std::int64_t{b} << c.shift);
    while (p < c.end && l_[p] < bucket_start) ++p;
    directory_.push_back(p);
  }
  directory_.push_back(c.end);
}

std::int32_t LengthClassRanges::FirstStartAtLeast(const LengthClass& c, std::int32_t x) const {
  if (x <= c.first_start) return c.begin;
  const std::int64_t bucket = (std::int64_t{x} - c.first_start) >> c.shift;
  if (bucket >= c.buckets) return c.end;
  const std::int32_t* entry = directory_.data() + c.directory_at + bucket;
  return static_cast<std::int32_t>(
      std::lower_bound(l_.data() + entry[0], l_.data() + entry[1], x) - l_.data());
}

std::int32_t LengthClassRanges::FirstStartAtLeastFrom(std::int32_t from, std::int32_t end,
                                                      std::int32_t x) const {
  // Gallop: the answer is usually a few positions on, in the lines the
  // previous search just read.
  std::int32_t step = 1;
  std::int32_t lo = from;
  while (lo + step < end && l_[lo + step - 1] < x) {
    lo += step;
    step *= 2;
  }
  const std::int32_t hi = std::min(end, lo + step);
  return static_cast<std::int32_t>(std::lower_bound(l_.data() + lo, l_.data() + hi, x) -
                                   l_.data());
}

std::optional<std::int32_t> LengthClassRanges::LeastInside(std::int32_t a,
                                                           std::int32_t b) const {
  std::int32_t best = kNone;
  for (const LengthClass& c : classes_) {
    if (c.shortest > b - a) break;  // classes ascend in length
    // Starts in [a, b - longest] end by b; in (b - longest, b - shortest]
    // they may; after b - shortest they cannot.
    const std::int32_t lo_at = FirstStartAtLeast(c, a);
    const std::int32_t whole_at = FirstStartAtLeastFrom(lo_at, c.end, b - c.longest + 1);
    const std::int32_t tail_at = FirstStartAtLeastFrom(whole_at, c.end, b - c.shortest + 1);
    best = std::min(best, tree_.Least(lo_at, whole_at));
    for (std::int32_t p = whole_at; p < tail_at; ++p) {
      if (r_[p] <= b) best = std::min(best, tree_.At(p));
    }
  }
  if (best == kNone) return std::nullopt;
  return best;
}

LengthClassRanges::Range LengthClassRanges::Remove(std::int32_t rank) {
  const std::int32_t p = position_[rank];
  tree_.Remove(p);
  return {l_[p], r_[p], rank};
}

std::int64_t LengthClassRanges::TailBound(const std::vector<Range>& ranges) {
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
