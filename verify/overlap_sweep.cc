// Rule 3 of verify/verifier.h: the address-overlap sweep.
//
// Each segment takes its bytes at its buffer's live steps: all of its time
// range, minus the buffer's dead steps when the program is known
// (verify/program_liveness.h) or the input states them (a CSV's gaps). With
// input windows (a CSV's `L-U@LO:HI` gaps) a segment takes only bytes
// [offset + LO, offset + HI) during a window's steps. Events are the starts
// and ends of these live pieces in time order; at one time step all
// starts come before all ends, because closed intervals that meet at a step
// share it. Each memory space keeps its live chunks in a map keyed by their
// first byte. The live chunks are pairwise disjoint (each was checked on
// entry), so a new chunk [lo, hi) overlaps some live chunk iff it overlaps
// the live chunk with the greatest first byte below lo or the one with the
// least first byte >= lo.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

struct SegmentKey {
  BufferId buffer;
  std::int32_t index;  // into the buffer's allocations
};

struct Event {
  TimeStep time;
  int phase;  // 0: live piece starts, 1: live piece ends (after the step)
  SegmentKey segment;
  Bytes lo;  // the piece's bytes relative to the segment's offset: [lo, hi)
  Bytes hi;
  auto Key() const { return std::tie(time, phase, segment.buffer, segment.index, lo); }
};

// Adds start/end events for the steps of [first, last] outside `dead`
// (sorted, disjoint): the segment's bytes [0, size) are taken only then,
// and only [w.lo, w.hi) during the steps of a window of `windows` (sorted,
// disjoint from each other and from `dead`).
void AddLivePieces(TimeStep first, TimeStep last, std::span<const StepRange> dead,
                   std::span<const OccupancyWindow> windows, Bytes size, SegmentKey key,
                   std::vector<Event>& events) {
  const auto add = [&](TimeStep from, TimeStep to, Bytes lo, Bytes hi) {
    if (lo >= hi) return;  // no bytes taken
    events.push_back(Event{from, 0, key, lo, hi});
    events.push_back(Event{to, 1, key, lo, hi});
  };
  // A live piece, split at the windows inside it.
  const auto add_live = [&](TimeStep from, TimeStep to) {
    for (const OccupancyWindow& w : windows) {
      if (w.steps.last < from) continue;
      if (w.steps.first > to) break;
      if (w.steps.first > from) add(from, w.steps.first - 1, 0, size);
      const TimeStep until = std::min(to, w.steps.last);
      add(std::max(from, w.steps.first), until, w.lo, w.hi);
      from = until + 1;
    }
    if (from <= to) add(from, to, 0, size);
  };
  TimeStep from = first;
  for (const StepRange& d : dead) {
    if (d.last < from) continue;
    if (d.first > last) break;
    if (d.first > from) add_live(from, d.first - 1);
    from = d.last + 1;
  }
  if (from <= last) add_live(from, last);
}

}  // namespace

absl::Status CheckNoOverlap(const BufferSet& buffers, const Plan& plan,
                            const std::vector<std::vector<StepRange>>& dead, bool input_windows) {
  static const std::vector<StepRange> kAlwaysLive;
  static const std::vector<OccupancyWindow> kNoWindows;
  std::vector<Event> events;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.size == 0) continue;  // occupies no bytes
    // A sub-allocation lies inside its container's bytes while the container
    // is live (rule 13, checked before): any other segment meeting it meets
    // the container, which the sweep holds; its container's owner lays out
    // what is nested inside.
    if (b.inside) continue;
    const std::vector<StepRange>& gaps =
        static_cast<std::size_t>(id) < dead.size() ? dead[id] : kAlwaysLive;
    const std::span<const OccupancyWindow> windows =
        input_windows ? std::span<const OccupancyWindow>(b.windows) : kNoWindows;
    const std::vector<Allocation>& segs = plan.placements[id].allocations;
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(segs.size()); ++k) {
      AddLivePieces(segs[k].start, segs[k].end, gaps, windows, b.size, {id, k}, events);
    }
  }
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.Key() < y.Key(); });

  struct LiveChunk {
    Bytes hi;
    SegmentKey segment;
    bool in_window;  // a window's bytes, not the whole segment
  };
  std::map<MemorySpace, std::map<Bytes, LiveChunk>> live;
  for (const Event& e : events) {
    const Allocation& a = plan.placements[e.segment.buffer].allocations[e.segment.index];
    std::map<Bytes, LiveChunk>& chunks = live[a.space];
    const Bytes lo = a.offset + e.lo;
    const Bytes hi = a.offset + e.hi;
    const bool in_window = e.lo != 0 || e.hi != buffers.buffers[e.segment.buffer].size;
    if (e.phase == 1) {
      chunks.erase(lo);
      continue;
    }
    auto next = chunks.lower_bound(lo);
    std::vector<std::pair<Bytes, LiveChunk>> candidates;
    if (next != chunks.begin()) candidates.push_back(*std::prev(next));
    if (next != chunks.end()) candidates.push_back(*next);
    for (const auto& [other_lo, other] : candidates) {
      if (other_lo < hi && lo < other.hi) {
        return Violation(absl::StrCat(
            SegmentRef(buffers, plan, e.segment.buffer, e.segment.index), " overlaps ",
            SegmentRef(buffers, plan, other.segment.buffer, other.segment.index), " at time ",
            e.time,
            // The segments' extents overstate what a window holds: name
            // the bytes both hold then.
            in_window || other.in_window
                ? absl::StrCat(", where both hold bytes [", std::max(lo, other_lo), ", ",
                               std::min(hi, other.hi), ")")
                : std::string()),
            e.segment.buffer);
      }
    }
    chunks.emplace(lo, LiveChunk{hi, e.segment, in_window});
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
