#include "msa/buffer_walk.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace memplan {
namespace {

// Where the buffer's data is during the walk.
struct WalkState {
  bool definition_pending = false;  // the defining access is not placed yet
  bool in_alternate = false;        // attempt.segments.back() holds current data
  bool default_current = false;     // the default copy holds current data
  TimeStep last_write = kNoId;      // last write while in alternate memory
  TimeStep touched = 0;             // last step a new alternate segment must not cover
};

// Failures seen while deciding one segment.
struct SegmentFlags {
  bool out_of_memory = false;
  bool copy_limited = false;
};

class Walker {
 public:
  Walker(AllocatorState& state, BufferId id, BufferAttempt& attempt,
         const std::vector<bool>& default_only)
      : s_(state), b_(state.problem.buffers[id]), id_(id), at_(attempt), acc_(b_.accesses) {
    for (std::size_t i = 0; i < default_only.size() && i < acc_.size(); ++i) {
      if (default_only[i]) acc_[i].alternate_ok = false;
    }
  }

  void Run() {
    const std::vector<BufferAccess>& acc = acc_;
    WalkState st;
    std::size_t first = 0;
    if (b_.defined_by_op) {
      st.definition_pending = true;
      st.touched = acc.front().time;
      first = 1;
    } else {
      st.default_current = true;
      st.touched = b_.start - 1;
    }
    if (b_.policy == AltPolicy::kReadCopies) at_.needs_default = true;
    if (first >= acc.size()) at_.needs_default = true;
    for (std::size_t i = first; i < acc.size(); ++i) {
      if (!Segment(i, st)) {
        at_.must_undo = true;
        return;
      }
    }
  }

 private:
  // Decides the segment ending at access i; false if the attempt must be undone.
  bool Segment(std::size_t i, WalkState& st) {
    const BufferAccess& a = acc_[i];
    const TimeStep prev = i > 0 ? acc_[i - 1].time : b_.start - 1;
    SegmentFlags flags;

    if (st.definition_pending) {
      st.definition_pending = false;
      if (b_.policy == AltPolicy::kAnywhere && a.alternate_ok &&
          s_.picker->AllowsNoCopy(b_.size, prev + 1, a.time)) {
        if (std::optional<Bytes> offset = LookAheadFit(prev, i)) {
          Open(*offset, prev, a.time);
          st.in_alternate = true;
          st.last_write = prev;
          Arrive(a, st);
          return true;
        }
        flags.out_of_memory = true;
      }
      st.default_current = true;
      at_.needs_default = true;
    } else if (st.in_alternate && a.alternate_ok && s_.picker->AllowsNoCopy(b_.size, prev + 1, a.time)) {
      BufferAttempt::Segment& seg = at_.segments.back();
      if (s_.heap.FreeUntil(seg.offset, b_.size, seg.end + 1, a.time) == a.time) {
        Extend(a.time);
        Arrive(a, st);
        return true;
      }
      flags.out_of_memory = true;
    }

    if (st.in_alternate) {
      if (!st.default_current && !Evict(a.time, st)) return false;
      st.in_alternate = false;
      st.touched = std::max(st.touched, at_.segments.back().end);
    }
    if (a.alternate_ok && Prefetch(i, st.touched + 1, flags)) {
      st.in_alternate = true;
      st.last_write = kNoId;
      Arrive(a, st);
      return true;
    }
    at_.needs_default = true;
    at_.out_of_memory |= flags.out_of_memory;
    at_.copy_limited |= flags.copy_limited;
    st.touched = std::max(st.touched, a.time);
    return true;
  }

  // The access is served from the alternate segment that now covers it.
  void Arrive(const BufferAccess& a, WalkState& st) {
    if (a.write) {
      st.last_write = a.time;
      st.default_current = false;
    }
    st.touched = a.time;
  }

  // Best-fit offset for [start, accesses[i]] that stays free as far ahead as
  // the buffer could stay resident without a copy.
  std::optional<Bytes> LookAheadFit(TimeStep start, std::size_t i) const {
    const std::vector<BufferAccess>& acc = acc_;
    std::size_t last = i;
    while (last + 1 < acc.size() && acc[last + 1].alternate_ok &&
           s_.picker->AllowsNoCopy(b_.size, acc[last].time, acc[last + 1].time)) {
      ++last;
    }
    for (std::size_t k = last + 1; k-- > i;) {
      if (std::optional<Bytes> offset = s_.heap.BestFit(start, acc[k].time, b_.size)) return offset;
    }
    return std::nullopt;
  }

  void Open(Bytes offset, TimeStep start, TimeStep end) {
    at_.segments.push_back({offset, start, end});
    at_.chunks.push_back(s_.heap.Commit(start, end, offset, b_.size));
  }

  void Extend(TimeStep end) {
    BufferAttempt::Segment& seg = at_.segments.back();
    at_.chunks.push_back(s_.heap.Commit(seg.end + 1, end, seg.offset, b_.size));
    seg.end = end;
  }

  void AddCopy(CopyKind kind, TimeStep start, TimeStep done) {
    const bool prefetch = kind == CopyKind::kPrefetch;
    at_.copies.push_back(AsyncCopy{id_, kind, prefetch ? kDefaultSpace : kAlternateSpace,
                                   prefetch ? kAlternateSpace : kDefaultSpace, start, done, b_.size});
    at_.copy_handles.push_back(s_.limits.Add(kind, start, done));
    if (s_.bandwidth) at_.bandwidth_usage.push_back(s_.bandwidth->Consume(start, done, CopySeconds()));
  }

  double CopySeconds() const { return s_.cost.CopySeconds(b_.size); }

  // True if a copy over [start, done] passes the outstanding limit and the
  // copy bandwidth.
  bool CopyFits(CopyKind kind, TimeStep start, TimeStep done, std::int64_t limit) const {
    if (s_.limits.ExceedsLimit(kind, start, done, limit)) return false;
    return !s_.bandwidth || s_.bandwidth->Fits(start, done, CopySeconds());
  }

  // Copies the current alternate data to default memory before step `next`.
  bool Evict(TimeStep next, WalkState& st) {
    BufferAttempt::Segment& seg = at_.segments.back();
    const TimeStep start = st.last_write;
    const TimeStep latest_done = s_.problem.timeline.OwnStepAtOrBefore(next, next - 1);
    TimeStep done = std::min(std::max(s_.picker->EvictionDone(b_.size, start, latest_done), seg.end),
                             latest_done);
    if (done > seg.end) {
      const TimeStep free = s_.heap.FreeUntil(seg.offset, b_.size, seg.end + 1, done);
      const TimeStep reach = s_.problem.timeline.OwnStepAtOrBefore(next, free);
      if (reach > seg.end) Extend(reach);
    }
    done = seg.end;
    const std::int64_t limit = s_.options.max_outstanding_evictions;
    st.default_current = true;
    at_.needs_default = true;
    if (done > start && CopyFits(CopyKind::kEviction, start, done, limit)) {
      AddCopy(CopyKind::kEviction, start, done);
      return true;
    }
    // Try one-step evictions between consecutive own steps inside the range.
    const std::vector<TimeStep>& steps = s_.problem.timeline.StepsOfOwner(next);
    auto it = std::lower_bound(steps.begin(), steps.end(), start);
    for (; it != steps.end() && std::next(it) != steps.end() && *std::next(it) <= done; ++it) {
      if (CopyFits(CopyKind::kEviction, *it, *std::next(it), limit)) {
        AddCopy(CopyKind::kEviction, *it, *std::next(it));
        return true;
      }
    }
    return false;
  }

  // With FIFO ordering, a prefetch that would have to complete after an
  // already committed one nested inside it completes with that one instead
  // (the reference's copy-done reordering, one attempt).
  TimeStep FifoDone(const PrefetchRequest& request) const {
    const TimeStep latest = s_.picker->LatestStart(request);
    if (latest < request.earliest_start) return request.done;
    const auto conflict = s_.limits.FifoConflict(latest, request.done);
    if (!conflict || conflict->second >= request.done) return request.done;
    const TimeStep moved = s_.problem.timeline.OwnStepAtOrBefore(request.done, conflict->second);
    return moved > request.earliest_start ? moved : request.done;
  }

  // Prefetches the data for access i, starting no earlier than `earliest`.
  bool Prefetch(std::size_t i, TimeStep earliest, SegmentFlags& flags) {
    const BufferAccess& a = acc_[i];
    if (earliest >= a.time) return false;
    PrefetchRequest request{b_.size, earliest, a.time, a.saving_s};
    const bool fifo = s_.options.enforce_prefetch_fifo;
    if (fifo) request.done = FifoDone(request);
    s_.picker->Begin(request);
    const std::int64_t limit = s_.options.max_outstanding_prefetches;
    const int wanted = std::max(1, s_.config.fragmentation_candidates);
    int feasible = 0;
    TimeStep exhausted = earliest - 1;  // every start <= this runs out of memory
    std::optional<TimeStep> best_start;
    Bytes best_offset = 0;
    Bytes best_room = std::numeric_limits<Bytes>::max();
    while (!s_.picker->Done() && feasible < wanted) {
      const TimeStep start = s_.picker->Next();
      if (start <= exhausted) continue;
      if (fifo && s_.limits.FifoConflict(start, request.done)) {
        flags.copy_limited = true;
        continue;
      }
      if (!CopyFits(CopyKind::kPrefetch, start, request.done, limit)) {
        flags.copy_limited = true;
        continue;
      }
      const std::optional<Bytes> offset = LookAheadFit(start, i);
      if (!offset) {
        flags.out_of_memory = true;
        exhausted = std::max(exhausted, start);
        continue;
      }
      ++feasible;
      const Bytes room = wanted > 1 ? s_.heap.HoleRoom(*offset, b_.size, start, a.time) : 0;
      if (room < best_room) {
        best_start = start;
        best_offset = *offset;
        best_room = room;
      }
    }
    if (!best_start) return false;
    Open(best_offset, *best_start, a.time);
    AddCopy(CopyKind::kPrefetch, *best_start, request.done);
    return true;
  }

  AllocatorState& s_;
  const MsaBuffer& b_;
  const BufferId id_;
  BufferAttempt& at_;
  std::vector<BufferAccess> acc_;  // b_.accesses with the default-only sites applied
};

}  // namespace

void WalkBuffer(AllocatorState& state, BufferId id, BufferAttempt& attempt,
                const std::vector<bool>& default_only) {
  Walker(state, id, attempt, default_only).Run();
}

std::vector<std::size_t> InefficientAccesses(const AllocatorState& state, BufferId id,
                                             const BufferAttempt& attempt, double ratio) {
  std::vector<std::size_t> sites;
  if (!(ratio > 0)) return sites;
  const MsaBuffer& b = state.problem.buffers[id];
  for (const BufferAttempt::Segment& seg : attempt.segments) {
    std::int64_t copies = 0;
    for (const AsyncCopy& c : attempt.copies) {
      const bool opens = c.kind == CopyKind::kPrefetch && c.start == seg.start;
      const bool drains = c.kind == CopyKind::kEviction && seg.start <= c.start && c.start <= seg.end;
      copies += opens || drains ? 1 : 0;
    }
    if (copies == 0) continue;
    auto first = std::lower_bound(b.accesses.begin(), b.accesses.end(), seg.start,
                                  [](const BufferAccess& a, TimeStep t) { return a.time < t; });
    double used = 0;
    for (auto it = first; it != b.accesses.end() && it->time <= seg.end; ++it) used += it->used_bytes;
    if (used >= ratio * static_cast<double>(copies * b.size)) continue;
    for (auto it = first; it != b.accesses.end() && it->time <= seg.end; ++it) {
      sites.push_back(static_cast<std::size_t>(it - b.accesses.begin()));
    }
  }
  return sites;
}

void UndoAttempt(AllocatorState& state, BufferAttempt& attempt) {
  for (IntervalTree::Handle h : attempt.chunks) state.heap.Uncommit(h);
  for (const AsyncCopyLimits::Handle& h : attempt.copy_handles) state.limits.Remove(h);
  for (const CopyBandwidth::Usage& u : attempt.bandwidth_usage) state.bandwidth->Release(u);
  attempt = BufferAttempt{};
}

void KeepAttempt(AllocatorState& state, BufferId id, const BufferAttempt& attempt) {
  const Bytes size = state.problem.buffers[id].size;
  for (const BufferAttempt::Segment& seg : attempt.segments) {
    state.blocks.push_back(AltBlock{id, seg.start, seg.end, seg.offset, size, -1, false});
  }
  state.copies.insert(state.copies.end(), attempt.copies.begin(), attempt.copies.end());
  state.needs_default[id] = attempt.needs_default;
}

}  // namespace memplan
