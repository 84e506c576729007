// SkylinePacker::RunBySweep: the skyline packing of skyline.h in
// O(n log^2 n), whatever the overlap (skyline.h has the rule; this file the
// way it is computed above the scan limit).
//
// The placements' offsets never decrease (each step takes the lowest floor,
// and placing only raises floors), so the packing is a sweep upward through
// the address space. At the sweep's level F, a slot is *low* when the
// skyline there is at most F; maximal runs of low slots are *runs*. Every
// pending item's floor is at least F, so an item whose slots lie inside a
// run has floor exactly AlignUp(F, its alignment): it is a candidate at F
// when its alignment divides F. Each step places the least-ranked candidate
// at F, which splits its run around it and makes its slots a *high segment*
// of height F + size; when no candidate is left, F rises to the next
// height at which one can be (the lowest high segment, or the next multiple
// of an alignment that has items inside a run), and the high segments it
// reaches become low and merge with their neighbouring runs.
//
// A run's least-ranked candidate is a ContainedRanges query (per alignment
// class), asked once when the run is made: at most 2 runs per placement and
// 1 per high segment that turns low, so O(n) queries of O(log^2 n) each.
// The lazy queue this replaces refreshed a stale floor once per later
// placement under the item, up to the number of overlapping pairs.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <optional>
#include <queue>
#include <variant>
#include <vector>

#include "packing/contained_ranges.h"
#include "packing/length_class_ranges.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/radix_queue.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

// Above this many ranges one LeastInside may check one by one
// (LengthClassRanges::TailBound), a class keeps the range tree, whose query
// is O(log^2 n) whatever the ranges; up to it the length classes, which
// answer the same in a fraction of the memory (about 20 B a range against
// 16 B a range per tree level) and remove faster.
constexpr std::int64_t kTailLimit = 256;

// The index of one alignment class's pending items.
class RangeIndex {
 public:
  RangeIndex(std::vector<ContainedRanges::Range> ranges, std::int32_t ranks, std::int32_t slots)
      : index_(MakeIndex(std::move(ranges), ranks, slots)) {}
  std::optional<std::int32_t> LeastInside(std::int32_t a, std::int32_t b) const {
    return std::visit([&](const auto& index) { return index.LeastInside(a, b); }, index_);
  }
  ContainedRanges::Range Remove(std::int32_t rank) {
    return std::visit([&](auto& index) { return index.Remove(rank); }, index_);
  }

 private:
  using Index = std::variant<LengthClassRanges, ContainedRanges>;
  static Index MakeIndex(std::vector<ContainedRanges::Range> ranges, std::int32_t ranks,
                         std::int32_t slots) {
    LengthClassRanges::SortByClassAndStart(ranges);
    if (LengthClassRanges::TailBound(ranges) <= kTailLimit) {
      return Index(std::in_place_type<LengthClassRanges>, std::move(ranges), ranks);
    }
    return Index(std::in_place_type<ContainedRanges>, std::move(ranges), ranks, slots);
  }
  Index index_;
};

// One alignment class: the pending items of one effective alignment, and the
// best candidate of each run (least rank first; stale entries are skipped).
struct AlignmentClass {
  Bytes alignment = 1;
  std::vector<ContainedRanges::Range> ranges;
  std::optional<RangeIndex> index;
  struct Best {
    std::int32_t rank;
    std::int32_t run_start;
    std::uint32_t run_version;
    bool operator>(const Best& other) const { return rank > other.rank; }
  };
  std::priority_queue<Best, std::vector<Best>, std::greater<Best>> best;
};

// A high segment: slots [first, end), whose skyline is above the level.
struct HighSegment {
  std::int32_t first;
  std::int32_t end;
};

}  // namespace

std::optional<std::vector<Bytes>> SkylinePacker::RunBySweep(
    const std::vector<std::int32_t>& priority, Bytes cutoff, double work_limit, double* work,
    DeadlinePoll& poll) const {
  const auto ranks = static_cast<std::int32_t>(priority.size());
  std::vector<AlignmentClass> classes;
  {
    // Each class's ranges are reserved once, for the items of its
    // alignment: grown by doubling they took up to twice their 12 bytes an
    // item, in both skyline lanes at once (at 10^7 items a peak of the plan).
    std::map<Bytes, std::int64_t> items_of;
    for (const PackItem& item : items_) ++items_of[EffectiveAlignment(item, alignment_)];
    // Classes numbered in rank order of their first item; looked up per
    // item, not stored per rank (4 bytes an item at the sweep's peak).
    std::map<Bytes, std::int32_t> by_alignment;
    for (std::int32_t rank = 0; rank < ranks; ++rank) {
      const std::int32_t i = priority[rank];
      const Bytes alignment = EffectiveAlignment(items_[i], alignment_);
      auto [it, added] =
          by_alignment.try_emplace(alignment, static_cast<std::int32_t>(by_alignment.size()));
      if (added) {
        classes.emplace_back().alignment = alignment;
        classes.back().ranges.reserve(static_cast<std::size_t>(items_of[alignment]));
      }
      classes[it->second].ranges.push_back({first_slot_[i], end_slot_[i], rank});
    }
  }
  for (AlignmentClass& c : classes) {
    c.index.emplace(std::move(c.ranges), ranks, static_cast<std::int32_t>(slots_));
  }
  const double step_work = SkylineSweepStepWork(ranks, static_cast<std::int64_t>(slots_));

  // The runs, by slot: run_end[s] is the end of the run starting at s (-1:
  // none), run_version[s] its version (its heap entries carry it), and
  // start_at_end[e] the start of the run ending at e (-1: none).
  std::vector<std::int32_t> run_end(slots_ + 1, -1);
  std::vector<std::uint32_t> run_version(slots_ + 1, 0);
  std::vector<std::int32_t> start_at_end(slots_ + 1, -1);
  std::uint32_t versions = 0;
  const auto make_run = [&](std::int32_t start, std::int32_t end) {
    run_end[start] = end;
    run_version[start] = ++versions;
    start_at_end[end] = start;
  };
  const auto erase_run = [&](std::int32_t start) {
    start_at_end[run_end[start]] = -1;
    run_end[start] = -1;
  };
  const auto ask = [&](std::int32_t start) {
    for (AlignmentClass& c : classes) {
      if (std::optional<std::int32_t> rank = c.index->LeastInside(start, run_end[start])) {
        c.best.push({*rank, start, run_version[start]});
      }
    }
    *work += step_work * static_cast<double>(classes.size());
  };
  // Drops the entries of runs that have changed since they were asked.
  const auto clean = [&](AlignmentClass& c) {
    while (!c.best.empty()) {
      const AlignmentClass::Best& top = c.best.top();
      if (run_end[top.run_start] >= 0 && run_version[top.run_start] == top.run_version) {
        return true;
      }
      c.best.pop();
    }
    return false;
  };

  std::vector<Bytes> offsets = InitialOffsets(items_);
  // By height; the level only rises and new segments sit above it.
  RadixQueue<HighSegment> high;
  Bytes level = 0;
  if (slots_ > 0) {
    make_run(0, static_cast<std::int32_t>(slots_));
    ask(0);
  }
  // The runs a level rise made, with their versions.
  std::vector<std::pair<std::int32_t, std::uint32_t>> reached;
  for (std::int32_t placed = 0; placed < ranks;) {
    if (*work > work_limit || poll.Passed()) return std::nullopt;
    // The least-ranked candidate at this level.
    AlignmentClass* chosen = nullptr;
    for (AlignmentClass& c : classes) {
      if (level % c.alignment != 0 || !clean(c)) continue;
      if (!chosen || c.best.top().rank < chosen->best.top().rank) chosen = &c;
    }
    if (chosen) {
      const AlignmentClass::Best best = chosen->best.top();
      // The item's size and slots are read where they are kept (its record,
      // the index) rather than from a copy in rank order: at 10^7 items the
      // copies were 16 bytes an item in each of the two skyline lanes.
      const std::int32_t i = priority[best.rank];
      const Bytes top = level + items_[i].size;
      if (top >= cutoff) return std::nullopt;
      offsets[i] = level;
      const ContainedRanges::Range removed = chosen->index->Remove(best.rank);
      const std::int32_t first = removed.l;  // its slots [first, end)
      const std::int32_t end = removed.r;
      *work += step_work;
      ++placed;
      const std::int32_t split_end = run_end[best.run_start];
      erase_run(best.run_start);
      if (best.run_start < first) {
        make_run(best.run_start, first);
        ask(best.run_start);
      }
      if (end < split_end) {
        make_run(end, split_end);
        ask(end);
      }
      high.Push(static_cast<std::uint64_t>(top), {first, end});
      continue;
    }
    // No candidate: rise to the next level where one can be.
    Bytes next = std::numeric_limits<Bytes>::max();
    if (!high.empty()) next = static_cast<Bytes>(high.MinKey());
    for (AlignmentClass& c : classes) {
      if (clean(c)) next = std::min(next, AlignUp(level + 1, c.alignment));
    }
    level = next;
    reached.clear();
    while (!high.empty() && static_cast<Bytes>(high.MinKey()) <= level) {
      const HighSegment segment = high.PopMin();
      std::int32_t start = segment.first;
      std::int32_t end = segment.end;
      if (const std::int32_t before = start_at_end[segment.first]; before >= 0) {
        start = before;
        erase_run(before);
      }
      if (run_end[segment.end] >= 0) {
        end = run_end[segment.end];
        erase_run(segment.end);
      }
      make_run(start, end);
      reached.emplace_back(start, run_version[start]);
    }
    // Ask the runs the rise made that no later merge absorbed.
    for (const auto& [start, version] : reached) {
      if (run_end[start] >= 0 && run_version[start] == version) ask(start);
    }
  }
  return offsets;
}

}  // namespace memplan
