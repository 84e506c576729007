#include "packing/live_profile.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "packing/pack_support.h"

namespace memplan {
namespace {

// Item indices of non-empty items sorted by `key`.
template <typename Key>
std::vector<std::int32_t> SortedBy(const std::vector<PackItem>& items, Key key) {
  std::vector<std::int32_t> idx;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i])) idx.push_back(static_cast<std::int32_t>(i));
  }
  std::sort(idx.begin(), idx.end(),
            [&](std::int32_t a, std::int32_t b) { return key(items[a]) < key(items[b]); });
  return idx;
}

// The distinct start times of non-empty items, ascending, and the live bytes
// at each. The live-bytes step function only rises at a start, so its maximum
// over any closed range [s, e] is reached at one of these times (or at s).
struct StartProfile {
  std::vector<TimeStep> times;
  std::vector<Bytes> live;
};

StartProfile ProfileAtStarts(const std::vector<PackItem>& items) {
  const auto by_start = SortedBy(items, [](const PackItem& it) { return it.start; });
  const auto by_end = SortedBy(items, [](const PackItem& it) { return EndOf(it); });
  StartProfile profile;
  Bytes live = 0;
  std::size_t s = 0;
  std::size_t e = 0;
  while (s < by_start.size()) {
    const TimeStep t = items[by_start[s]].start;
    for (; s < by_start.size() && items[by_start[s]].start == t; ++s) live += items[by_start[s]].size;
    for (; e < by_end.size() && EndOf(items[by_end[e]]) < t; ++e) live -= items[by_end[e]].size;
    profile.times.push_back(t);
    profile.live.push_back(live);
  }
  return profile;
}


}  // namespace

std::optional<std::pair<TimeStep, TimeStep>> DenseSpan(const std::vector<PackItem>& items) {
  TimeStep lo = std::numeric_limits<TimeStep>::max();
  TimeStep hi = std::numeric_limits<TimeStep>::min();
  std::uint64_t count = 0;
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    lo = std::min(lo, item.start);
    hi = std::max(hi, EndOf(item) + 1);
    ++count;
  }
  if (count == 0) return std::nullopt;
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span > 2 * count + 4096) return std::nullopt;
  return std::make_pair(lo, hi);
}

bool AnyItemHasGaps(const std::vector<PackItem>& items) {
  return std::any_of(items.begin(), items.end(),
                     [](const PackItem& item) { return !item.gaps().empty(); });
}

Bytes MaxLiveBytes(const std::vector<PackItem>& items) {
  if (const auto span = DenseSpan(items)) {
    const auto [lo, hi] = *span;
    std::vector<Bytes> delta(static_cast<std::size_t>(hi - lo) + 1, 0);
    for (const PackItem& item : items) {
      if (IsEmpty(item)) continue;
      const TimeStep end = EndOf(item);
      delta[item.start - lo] += item.size;
      delta[end + 1 - lo] -= item.size;
      for (const StepRange& gap : item.gaps()) {
        if (gap.first <= item.start || gap.last >= end || gap.first > gap.last) continue;
        delta[gap.first - lo] -= item.size;
        delta[gap.last + 1 - lo] += item.size;
      }
    }
    Bytes best = 0;
    Bytes live = 0;
    for (const Bytes d : delta) best = std::max(best, live += d);
    return best;
  }
  // (time, delta) events of the live-bytes step function: an item arrives at
  // its start and leaves after its end; a gap takes it away for its steps.
  std::vector<std::pair<TimeStep, Bytes>> events;
  // Reserved: growing would hold up to 3 events per item at once.
  std::size_t count = 0;
  for (const PackItem& item : items) count += IsEmpty(item) ? 0 : 2 * (1 + item.gaps().size());
  events.reserve(count);
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    const TimeStep end = EndOf(item);
    events.emplace_back(item.start, item.size);
    events.emplace_back(end + 1, -item.size);
    for (const StepRange& gap : item.gaps()) {
      if (gap.first <= item.start || gap.last >= end || gap.first > gap.last) continue;
      events.emplace_back(gap.first, -item.size);
      events.emplace_back(gap.last + 1, item.size);
    }
  }
  std::sort(events.begin(), events.end());
  Bytes best = 0;
  Bytes live = 0;
  for (std::size_t i = 0; i < events.size();) {
    const TimeStep t = events[i].first;
    for (; i < events.size() && events[i].first == t; ++i) live += events[i].second;
    best = std::max(best, live);
  }
  return best;
}

std::vector<Bytes> MaxLiveDuring(const std::vector<PackItem>& items) {
  const StartProfile profile = ProfileAtStarts(items);
  const std::size_t m = profile.times.size();
  // Bottom-up segment tree for range max over the profile.
  std::vector<Bytes> tree(2 * m, 0);
  for (std::size_t i = 0; i < m; ++i) tree[m + i] = profile.live[i];
  for (std::size_t i = m; i-- > 1;) tree[i] = std::max(tree[2 * i], tree[2 * i + 1]);

  std::vector<Bytes> result(items.size(), 0);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (IsEmpty(items[i])) continue;
    // Profile times within [start, end]; the item's own start is among them.
    std::size_t lo = std::lower_bound(profile.times.begin(), profile.times.end(), items[i].start) -
                     profile.times.begin();
    std::size_t hi = std::upper_bound(profile.times.begin(), profile.times.end(), EndOf(items[i])) -
                     profile.times.begin();
    Bytes best = 0;
    for (lo += m, hi += m; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) best = std::max(best, tree[lo++]);
      if (hi & 1) best = std::max(best, tree[--hi]);
    }
    result[i] = best;
  }
  return result;
}

std::int64_t IntersectingPairs(const std::vector<PackItem>& items) {
  // Item i meets every j with start_j <= end_i except those with
  // end_j < start_i (which also start before end_i); i itself is counted too.
  if (const auto span = DenseSpan(items)) {
    const auto [lo, hi] = *span;
    // started[t - lo]: starts <= t; ended[t - lo]: ends < t.
    std::vector<std::uint32_t> started(static_cast<std::size_t>(hi - lo) + 1, 0);
    std::vector<std::uint32_t> ended(started.size(), 0);
    std::int64_t count = 0;
    for (const PackItem& item : items) {
      if (IsEmpty(item)) continue;
      ++started[item.start - lo];
      ++ended[EndOf(item) + 1 - lo];
      ++count;
    }
    for (std::size_t t = 1; t < started.size(); ++t) {
      started[t] += started[t - 1];
      ended[t] += ended[t - 1];
    }
    std::int64_t ordered = 0;
    for (const PackItem& item : items) {
      if (IsEmpty(item)) continue;
      ordered += static_cast<std::int64_t>(started[EndOf(item) - lo]) -
                 static_cast<std::int64_t>(ended[item.start - lo]);
    }
    return (ordered - count) / 2;
  }
  std::vector<TimeStep> starts;
  std::vector<TimeStep> ends;
  starts.reserve(items.size());
  ends.reserve(items.size());
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    starts.push_back(item.start);
    ends.push_back(EndOf(item));
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  // The first count depends only on end_i and the second only on start_i, so
  // each can be summed over its own sorted list.
  // Both lists are sorted, so each count comes from a pointer that only
  // moves forward (a merge, not a binary search per item).
  std::int64_t ordered = 0;
  std::size_t started = 0;  // starts <= ends[i]
  std::size_t ended = 0;    // ends < starts[i]
  for (std::size_t i = 0; i < starts.size(); ++i) {
    while (started < starts.size() && starts[started] <= ends[i]) ++started;
    while (ended < ends.size() && ends[ended] < starts[i]) ++ended;
    ordered += static_cast<std::int64_t>(started) - static_cast<std::int64_t>(ended);
  }
  return (ordered - static_cast<std::int64_t>(starts.size())) / 2;
}

std::vector<TimeStep> SortedBoundaries(const std::vector<PackItem>& items) {
  std::vector<TimeStep> bounds;
  bounds.reserve(2 * items.size());
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    bounds.push_back(item.start);
    bounds.push_back(EndOf(item) + 1);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  return bounds;
}

std::int64_t TimeSlots(const std::vector<PackItem>& items) {
  std::int64_t boundaries = 0;
  if (const auto span = DenseSpan(items)) {
    const auto [lo, hi] = *span;
    std::vector<bool> boundary(static_cast<std::size_t>(hi - lo) + 1, false);
    for (const PackItem& item : items) {
      if (IsEmpty(item)) continue;
      boundary[item.start - lo] = true;
      boundary[EndOf(item) + 1 - lo] = true;
    }
    boundaries = std::count(boundary.begin(), boundary.end(), true);
  } else {
    boundaries = static_cast<std::int64_t>(SortedBoundaries(items).size());
  }
  return std::max<std::int64_t>(boundaries - 1, 0);
}

}  // namespace memplan
