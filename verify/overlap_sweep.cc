// Rule 3 of verify/verifier.h: the address-overlap sweep.
//
// Each segment takes its bytes at its buffer's live steps: all of its time
// range, minus the buffer's dead steps when the program is known
// (verify/program_liveness.h). Events are the starts and ends of these live
// pieces in time order; at one time step all
// starts come before all ends, because closed intervals that meet at a step
// share it. Each memory space keeps its live chunks in a map keyed by offset.
// The live chunks are pairwise disjoint (each was checked on entry), so a new
// chunk [lo, hi) overlaps some live chunk iff it overlaps the live chunk with
// the greatest offset below lo or the one with the least offset >= lo.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <tuple>
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
  auto Key() const { return std::tie(time, phase, segment.buffer, segment.index); }
};

// Adds start/end events for the steps of [first, last] outside `dead`
// (sorted, disjoint): the segment's bytes are taken only then.
void AddLivePieces(TimeStep first, TimeStep last, const std::vector<StepRange>& dead,
                   SegmentKey key, std::vector<Event>& events) {
  TimeStep from = first;
  for (const StepRange& d : dead) {
    if (d.last < from) continue;
    if (d.first > last) break;
    if (d.first > from) {
      events.push_back(Event{from, 0, key});
      events.push_back(Event{d.first - 1, 1, key});
    }
    from = d.last + 1;
  }
  if (from <= last) {
    events.push_back(Event{from, 0, key});
    events.push_back(Event{last, 1, key});
  }
}

}  // namespace

absl::Status CheckNoOverlap(const BufferSet& buffers, const Plan& plan,
                            const std::vector<std::vector<StepRange>>& dead) {
  static const std::vector<StepRange> kAlwaysLive;
  std::vector<Event> events;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    if (buffers.buffers[id].size == 0) continue;  // occupies no bytes
    const std::vector<StepRange>& gaps =
        static_cast<std::size_t>(id) < dead.size() ? dead[id] : kAlwaysLive;
    const std::vector<Allocation>& segs = plan.placements[id].allocations;
    for (std::int32_t k = 0; k < static_cast<std::int32_t>(segs.size()); ++k) {
      AddLivePieces(segs[k].start, segs[k].end, gaps, {id, k}, events);
    }
  }
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.Key() < y.Key(); });

  std::map<MemorySpace, std::map<Bytes, SegmentKey>> live;
  for (const Event& e : events) {
    const Allocation& a = plan.placements[e.segment.buffer].allocations[e.segment.index];
    std::map<Bytes, SegmentKey>& chunks = live[a.space];
    if (e.phase == 1) {
      chunks.erase(a.offset);
      continue;
    }
    const Bytes hi = a.offset + buffers.buffers[e.segment.buffer].size;
    auto next = chunks.lower_bound(a.offset);
    std::vector<SegmentKey> candidates;
    if (next != chunks.begin()) candidates.push_back(std::prev(next)->second);
    if (next != chunks.end()) candidates.push_back(next->second);
    for (const SegmentKey& other : candidates) {
      const Allocation& o = plan.placements[other.buffer].allocations[other.index];
      const Bytes other_hi = o.offset + buffers.buffers[other.buffer].size;
      if (o.offset < hi && a.offset < other_hi) {
        return Violation(absl::StrCat(
            SegmentRef(buffers, plan, e.segment.buffer, e.segment.index), " overlaps ",
            SegmentRef(buffers, plan, other.buffer, other.index), " at time ", e.time));
      }
    }
    chunks.emplace(a.offset, e.segment);
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
