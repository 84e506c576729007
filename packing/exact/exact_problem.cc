#include "packing/exact/exact_problem.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "packing/pack_support.h"

namespace memplan::exact {
namespace {

// The section times: every last step of a non-empty item, sorted and unique.
// Section k is the set of items live at step times[k], a maximal set of
// items live together (MiniMalloc's sweep keeps only these cross sections:
// two items overlap in time iff both are live at the end step of the one
// that ends first).
std::vector<TimeStep> SectionTimes(const std::vector<PackItem>& items) {
  std::vector<TimeStep> times;
  times.reserve(items.size());
  for (const PackItem& item : items) {
    if (!IsEmpty(item)) times.push_back(EndOf(item));
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

// The first section at or after step t.
std::int32_t SectionAtOrAfter(const std::vector<TimeStep>& times, TimeStep t) {
  return static_cast<std::int32_t>(std::lower_bound(times.begin(), times.end(), t) -
                                   times.begin());
}

// Fills overlaps, fixed_overlaps and equal_previous of every buffer.
void LinkBuffers(Subproblem& problem) {
  std::vector<SearchBuffer>& buffers = problem.buffers;
  const auto n = static_cast<std::int32_t>(buffers.size());
  std::vector<std::int32_t> by_first(static_cast<std::size_t>(n));
  std::iota(by_first.begin(), by_first.end(), 0);
  std::sort(by_first.begin(), by_first.end(), [&](std::int32_t a, std::int32_t b) {
    return std::tie(buffers[a].first_section, a) < std::tie(buffers[b].first_section, b);
  });
  for (std::int32_t k = 0; k < n; ++k) {
    const std::int32_t i = by_first[k];
    for (std::int32_t m = k + 1; m < n; ++m) {
      const std::int32_t j = by_first[m];
      if (buffers[j].first_section > buffers[i].last_section) break;
      buffers[i].overlaps.push_back(j);
      buffers[j].overlaps.push_back(i);
    }
  }
  for (SearchBuffer& buffer : buffers) {
    std::sort(buffer.overlaps.begin(), buffer.overlaps.end());
    for (std::int32_t j : buffer.overlaps) {
      if (buffers[j].fixed_offset) buffer.fixed_overlaps.push_back(j);
    }
    std::sort(buffer.fixed_overlaps.begin(), buffer.fixed_overlaps.end(),
              [&](std::int32_t a, std::int32_t b) {
                return std::tie(*buffers[a].fixed_offset, a) < std::tie(*buffers[b].fixed_offset, b);
              });
  }
  // Interchangeable buffers: equal key, consecutive after sorting.
  std::vector<std::int32_t> by_key(static_cast<std::size_t>(n));
  std::iota(by_key.begin(), by_key.end(), 0);
  const auto key = [&](std::int32_t i) {
    const SearchBuffer& b = buffers[i];
    return std::make_tuple(b.fixed_offset.has_value(), b.size, b.alignment, b.first_section,
                           b.last_section, i);
  };
  std::sort(by_key.begin(), by_key.end(),
            [&](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
  for (std::int32_t k = 1; k < n; ++k) {
    const SearchBuffer& prev = buffers[by_key[k - 1]];
    SearchBuffer& cur = buffers[by_key[k]];
    if (!cur.fixed_offset && !prev.fixed_offset && prev.size == cur.size &&
        prev.alignment == cur.alignment && prev.first_section == cur.first_section &&
        prev.last_section == cur.last_section) {
      cur.equal_previous = by_key[k - 1];
    }
  }
}

}  // namespace

ReducedProblem ReduceProblem(const std::vector<PackItem>& items, Bytes alignment) {
  ReducedProblem reduced;
  reduced.item_count = items.size();
  const std::vector<TimeStep> times = SectionTimes(items);
  if (times.empty()) return reduced;
  const auto sections = static_cast<std::int32_t>(times.size());
  // crossing[k] > 0 iff some item covers both section k and k + 1.
  std::vector<std::int32_t> crossing(static_cast<std::size_t>(sections) + 1, 0);
  std::vector<std::int32_t> first(items.size()), last(items.size());
  std::vector<std::int32_t> order;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (IsEmpty(items[i])) continue;
    first[i] = SectionAtOrAfter(times, items[i].start);
    last[i] = SectionAtOrAfter(times, EndOf(items[i]));
    ++crossing[static_cast<std::size_t>(first[i])];
    --crossing[static_cast<std::size_t>(last[i])];
    order.push_back(static_cast<std::int32_t>(i));
  }
  // Subproblem number of each section: a new one starts after a cut point.
  std::vector<std::int32_t> part(static_cast<std::size_t>(sections), 0);
  std::vector<std::int32_t> part_first_section = {0};
  std::int32_t open = 0;
  for (std::int32_t k = 0; k < sections; ++k) {
    if (k > 0) {
      part[k] = part[k - 1];
      if (open == 0) {
        ++part[k];
        part_first_section.push_back(k);
      }
    }
    open += crossing[static_cast<std::size_t>(k)];
  }
  const std::size_t parts = part_first_section.size();
  std::vector<Subproblem> all(parts);
  std::vector<std::int32_t> part_last_section(parts, 0);
  for (std::int32_t i : order) {
    const PackItem& item = items[static_cast<std::size_t>(i)];
    const std::int32_t p = part[first[i]];
    const std::int32_t base = part_first_section[static_cast<std::size_t>(p)];
    SearchBuffer buffer;
    buffer.size = item.size;
    buffer.alignment = EffectiveAlignment(item, alignment);
    buffer.first_section = first[i] - base;
    buffer.last_section = last[i] - base;
    buffer.length = EndOf(item) - item.start + 1;
    buffer.fixed_offset = item.fixed_offset();
    Subproblem& sub = all[static_cast<std::size_t>(p)];
    sub.buffers.push_back(buffer);
    sub.item_index.push_back(i);
    sub.sections = std::max(sub.sections, buffer.last_section + 1);
  }
  for (Subproblem& sub : all) {
    if (sub.buffers.empty()) continue;
    LinkBuffers(sub);
    reduced.subproblems.push_back(std::move(sub));
  }
  return reduced;
}

Bytes SubproblemMaxLive(const Subproblem& problem) {
  std::vector<Bytes> delta(static_cast<std::size_t>(problem.sections) + 1, 0);
  for (const SearchBuffer& b : problem.buffers) {
    delta[static_cast<std::size_t>(b.first_section)] += b.size;
    delta[static_cast<std::size_t>(b.last_section) + 1] -= b.size;
  }
  Bytes live = 0, best = 0;
  for (std::int32_t k = 0; k < problem.sections; ++k) {
    live += delta[static_cast<std::size_t>(k)];
    best = std::max(best, live);
  }
  return best;
}

Bytes SubproblemLowerBound(const Subproblem& problem) {
  const Bytes max_live = SubproblemMaxLive(problem);
  std::size_t spans = 0;
  bool aligned = false;
  for (const SearchBuffer& b : problem.buffers) {
    spans += static_cast<std::size_t>(b.last_section - b.first_section + 1);
    aligned = aligned || b.alignment > 1;
  }
  if (!aligned || spans > (std::size_t{1} << 24)) return max_live;
  std::vector<std::vector<StackBuffer>> stacks(static_cast<std::size_t>(problem.sections));
  std::vector<std::vector<Interval>> fixed(static_cast<std::size_t>(problem.sections));
  for (const SearchBuffer& b : problem.buffers) {
    for (std::int32_t s = b.first_section; s <= b.last_section; ++s) {
      const auto si = static_cast<std::size_t>(s);
      stacks[si].push_back({b.size, b.alignment, b.fixed_offset.has_value()});
      if (b.fixed_offset) fixed[si].push_back({*b.fixed_offset, *b.fixed_offset + b.size});
    }
  }
  Bytes bound = max_live;
  std::vector<Bytes> scratch;
  std::vector<StackBuffer> movable;
  // The subset dynamic programs share a budget of about 2^26 steps.
  std::size_t budget = std::size_t{1} << 26;
  for (std::size_t s = 0; s < stacks.size(); ++s) {
    bound = std::max(bound, MinStackTop(0, stacks[s], scratch));
    movable.clear();
    for (const StackBuffer& b : stacks[s]) {
      if (!b.fixed) movable.push_back(b);
    }
    const std::size_t cost = (std::size_t{1} << std::min(movable.size(), std::size_t{40})) *
                             (movable.size() + 1) * (fixed[s].size() + 1);
    if (movable.size() > kExactStackLimit || cost > budget) continue;
    budget -= cost;
    std::sort(fixed[s].begin(), fixed[s].end(),
              [](const Interval& x, const Interval& y) { return x.begin < y.begin; });
    bound = std::max(bound, ExactStackTop(movable, fixed[s]));
  }
  return bound;
}

Bytes AddToPeakGranularity(Bytes g, Bytes size, Bytes alignment,
                           const std::optional<Bytes>& fixed_offset) {
  g = std::gcd(g, std::max<Bytes>(size, 0));
  if (alignment > 1) g = std::gcd(g, alignment);
  if (fixed_offset) g = std::gcd(g, *fixed_offset);
  return g;
}

Bytes PeakGranularity(const Subproblem& problem) {
  Bytes g = 0;
  for (const SearchBuffer& b : problem.buffers) {
    g = AddToPeakGranularity(g, b.size, b.alignment, b.fixed_offset);
  }
  return g < 1 ? 1 : g;
}

}  // namespace memplan::exact
