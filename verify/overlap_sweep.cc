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
#include <array>
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
#include "ir/counting_sort.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

struct SegmentKey {
  BufferId buffer;
  std::int32_t index;  // into the buffer's allocations
};

// A start or end of a live piece that takes a window's bytes [lo, hi) of
// its segment (relative to the segment's offset).
struct Event {
  TimeStep time;
  int phase;  // 0: live piece starts, 1: live piece ends (after the step)
  SegmentKey segment;
  Bytes lo;
  Bytes hi;
  auto Key() const { return std::tie(time, phase, segment.buffer, segment.index, lo); }
};

// The same for a piece that takes all of its segment's bytes (nearly every
// piece), in 16 bytes: at 10^7 buffers 320 MB of events instead of 800 MB.
struct WholeEvent {
  TimeStep time;
  BufferId buffer;
  std::uint32_t index_phase;  // segment index << 1 | phase
  int phase() const { return static_cast<int>(index_phase & 1); }
  std::int32_t index() const { return static_cast<std::int32_t>(index_phase >> 1); }
  // Event::Key with lo = 0.
  auto Key() const { return std::make_tuple(time, phase(), buffer, index(), Bytes{0}); }
};
static_assert(sizeof(WholeEvent) == 16);

// Adds start/end events for the steps of [first, last] outside `dead`
// (sorted, disjoint): the segment's bytes [0, size) are taken only then,
// and only [w.lo, w.hi) during the steps of a window of `windows` (sorted,
// disjoint from each other and from `dead`).
void AddLivePieces(TimeStep first, TimeStep last, std::span<const StepRange> dead,
                   std::span<const OccupancyWindow> windows, Bytes size, SegmentKey key,
                   std::vector<WholeEvent>& whole, std::vector<Event>& events) {
  const auto add = [&](TimeStep from, TimeStep to, Bytes lo, Bytes hi) {
    if (lo >= hi) return;  // no bytes taken
    if (lo == 0 && hi == size) {
      const auto index = static_cast<std::uint32_t>(key.index) << 1;
      whole.push_back(WholeEvent{from, key.buffer, index});
      whole.push_back(WholeEvent{to, key.buffer, index | 1});
      return;
    }
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

// Sorts by Key(). The events were added by buffer, then segment index, and
// no segment has two with one (time, phase); so when the times span at most
// about two steps an event (every compiler trace), a stable counting sort by
// (time, phase) gives the same order in O(n + span), where the comparison
// sort took 2 s at 10^7 buffers.
void SortWholeEvents(std::vector<WholeEvent>& whole) {
  if (whole.empty()) return;
  TimeStep lo = whole.front().time;
  TimeStep hi = lo;
  for (const WholeEvent& e : whole) {
    lo = std::min(lo, e.time);
    hi = std::max(hi, e.time);
  }
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span > 2 * static_cast<std::uint64_t>(whole.size()) + 4096) {
    std::sort(whole.begin(), whole.end(),
              [](const WholeEvent& x, const WholeEvent& y) { return x.Key() < y.Key(); });
    return;
  }
  StableSortBySmallKey(whole, 2 * (static_cast<std::size_t>(span) + 1), [&](const WholeEvent& e) {
    return 2 * static_cast<std::size_t>(e.time - lo) + static_cast<std::size_t>(e.phase());
  });
}

}  // namespace

absl::Status CheckNoOverlap(const BufferSet& buffers, const Plan& plan,
                            const BufferDeadSteps& dead, bool input_windows) {
  std::size_t segments = 0;
  for (const BufferPlacement& p : plan.placements) segments += p.allocations.size();
  std::vector<WholeEvent> whole;
  whole.reserve(2 * segments);  // the usual number: one piece per segment
  std::vector<Event> events;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.size == 0) continue;  // occupies no bytes
    // A sub-allocation lies inside its container's bytes while the container
    // is live (rule 13, checked before): any other segment meeting it meets
    // the container, which the sweep holds; its container's owner lays out
    // what is nested inside.
    if (b.inside()) continue;
    const std::span<const OccupancyWindow> windows =
        input_windows ? std::span<const OccupancyWindow>(b.windows())
                      : std::span<const OccupancyWindow>();
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(segs.size()); ++k) {
      AddLivePieces(segs[k].start, segs[k].end, dead.Of(id), windows, b.size, {id, k}, whole,
                    events);
    }
  }
  SortWholeEvents(whole);
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.Key() < y.Key(); });

  struct LiveChunk {
    Bytes hi;
    SegmentKey segment;
    bool in_window;  // a window's bytes, not the whole segment
  };
  std::map<MemorySpace, std::map<Bytes, LiveChunk>> live;
  // One event, of either list, in the order of their keys.
  const auto visit = [&](TimeStep time, int phase, SegmentKey segment, Bytes piece_lo,
                         Bytes piece_hi) -> absl::Status {
    const Allocation& a = plan.placements[segment.buffer].allocations[segment.index];
    std::map<Bytes, LiveChunk>& chunks = live[a.space];
    const Bytes lo = a.offset + piece_lo;
    const Bytes hi = a.offset + piece_hi;
    const bool in_window = piece_lo != 0 || piece_hi != buffers.buffers[segment.buffer].size;
    if (phase == 1) {
      chunks.erase(lo);
      return absl::OkStatus();
    }
    auto next = chunks.lower_bound(lo);
    std::array<std::map<Bytes, LiveChunk>::const_iterator, 2> candidates;
    std::size_t count = 0;
    if (next != chunks.begin()) candidates[count++] = std::prev(next);
    if (next != chunks.end()) candidates[count++] = next;
    for (std::size_t c = 0; c < count; ++c) {
      const auto& [other_lo, other] = *candidates[c];
      if (other_lo < hi && lo < other.hi) {
        return Violation(absl::StrCat(
            SegmentRef(buffers, plan, segment.buffer, segment.index), " overlaps ",
            SegmentRef(buffers, plan, other.segment.buffer, other.segment.index), " at time ",
            time,
            // The segments' extents overstate what a window holds: name
            // the bytes both hold then.
            in_window || other.in_window
                ? absl::StrCat(", where both hold bytes [", std::max(lo, other_lo), ", ",
                               std::min(hi, other.hi), ")")
                : std::string()),
            segment.buffer);
      }
    }
    chunks.emplace(lo, LiveChunk{hi, segment, in_window});
    return absl::OkStatus();
  };
  std::size_t w = 0, e = 0;
  while (w < whole.size() || e < events.size()) {
    absl::Status s;
    if (e == events.size() || (w < whole.size() && whole[w].Key() < events[e].Key())) {
      const WholeEvent& x = whole[w++];
      s = visit(x.time, x.phase(), {x.buffer, x.index()}, 0,
                buffers.buffers[x.buffer].size);
    } else {
      const Event& x = events[e++];
      s = visit(x.time, x.phase, x.segment, x.lo, x.hi);
    }
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
