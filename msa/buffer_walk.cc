#include "msa/buffer_walk.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "msa/sliced_prefetch.h"

namespace memplan {
namespace {

// Where the buffer's data is during the walk.
struct WalkState {
  bool definition_pending = false;  // the defining access is not placed yet
  bool in_alternate = false;        // attempt.segments.back() holds current data
  bool default_current = false;     // the default copy holds current data
  TimeStep last_write = kNoId;      // last write while in alternate memory
  TimeStep touched = 0;             // last step a new alternate segment must not cover
  // The same, not counting reads by while or call ops (no data is touched
  // there; an exit segment, done inside the loop, may cover such a read).
  TimeStep data_touched = 0;
  // The step that decides where the current segment may extend: its start,
  // for an exit segment the step after its loop, for a result produced
  // inside branches the conditional's own step (msa/control_scopes.h).
  TimeStep anchor = 0;
  // The segment was opened by a copy: its data is a value of the anchor's
  // computation, visible only there and in what that computation calls.
  bool copy_anchored = false;
};

// Failures seen while deciding one segment.
struct SegmentFlags {
  bool out_of_memory = false;
  bool copy_limited = false;
};

// A sliced prefetch chosen for one segment (msa/sliced_prefetch.h).
struct SlicePlan {
  std::vector<ByteSlice> slices;  // each slice's bytes, slice 0 first
  std::vector<TimeStep> starts;   // each slice's copy start, non-decreasing
  TimeStep opened = 0;            // the whole segment's start: max(last start, 0)
  Bytes offset = 0;               // the segment's offset
  TimeStep end = 0;               // the segment's end
};

class Walker {
 public:
  Walker(AllocatorState& state, BufferId id, BufferAttempt& attempt,
         const std::vector<bool>& default_only)
      : s_(state), scopes_(state.problem.scopes), b_(state.problem.buffers[id]), id_(id), at_(attempt),
        acc_(b_.accesses) {
    for (std::size_t i = 0; i < default_only.size() && i < acc_.size(); ++i) {
      if (default_only[i]) acc_[i].alternate_ok = false;
    }
    if (b_.boundary) KeepUnevictableWritesInDefault();
  }

  void Run() {
    const std::vector<BufferAccess>& acc = acc_;
    writes_before_.assign(acc.size() + 1, 0);
    refusals_before_.assign(acc.size() + 1, 0);
    for (std::size_t k = 0; k < acc.size(); ++k) {
      writes_before_[k + 1] = writes_before_[k] + (acc[k].write ? 1 : 0);
      refusals_before_[k + 1] = refusals_before_[k] + (acc[k].alternate_ok ? 0 : 1);
    }
    // A buffer that exists before its first op (a parameter) is live before
    // a loop that starts at that op's step.
    live_since_ = b_.defined_by_op ? b_.start : b_.start - 1;
    WalkState st;
    std::size_t first = 0;
    if (b_.defined_by_op) {
      st.definition_pending = true;
      st.touched = acc.front().time;
      st.data_touched = st.touched;
      first = 1;
    } else {
      st.default_current = true;
      // An entry parameter's data is there before the first op: its first
      // prefetch may be issued before that op (start -1).
      const bool early = b_.entry_parameter && b_.start == 0 && s_.config.prefetch_before_first_op;
      st.touched = early ? -2 : b_.start - 1;
      st.data_touched = st.touched;
    }
    if (b_.policy == AltPolicy::kReadCopies) at_.needs_default = true;
    if (first >= acc.size()) at_.needs_default = true;
    for (std::size_t i = first; i < acc.size(); ++i) {
      if (!Segment(i, st)) {
        at_.must_undo = true;
        return;
      }
    }
    // The program boundary needs the data in default memory: evict what
    // was written in alternate memory before the live range ends.
    if (b_.boundary && st.in_alternate && !st.default_current && !Evict(b_.end + 1, st)) {
      at_.must_undo = true;
    }
  }

 private:
  // A boundary buffer's write may use alternate memory only if an eviction
  // can follow it: an own step after the write and before the next access
  // that refuses alternate memory (else the end of the live range).
  void KeepUnevictableWritesInDefault() {
    const LocalTimeline& timeline = s_.problem.timeline;
    TimeStep limit = b_.end;
    for (std::size_t k = acc_.size(); k-- > 0;) {
      BufferAccess& a = acc_[k];
      if (a.write && a.alternate_ok && timeline.OwnStepAtOrBefore(a.time, limit) <= a.time) {
        a.alternate_ok = false;
      }
      if (!a.alternate_ok) limit = a.time - 1;
    }
  }

  // Decides the segment ending at access i; false if the attempt must be undone.
  bool Segment(std::size_t i, WalkState& st) {
    const BufferAccess& a = acc_[i];
    const TimeStep prev = i > 0 ? acc_[i - 1].time : b_.start - 1;
    SegmentFlags flags;

    if (st.definition_pending) {
      st.definition_pending = false;
      // A result produced inside branches and live after the conditional
      // keeps one chunk from here through its first access after the
      // conditional: every branch writes it there (msa/control_scopes.h).
      const std::optional<TimeStep> left = scopes_.BranchesLeft(prev, b_.end);
      const TimeStep anchor = left ? *left + 1 : prev;
      const std::size_t reach = left ? AccessIndex(anchor) : i;
      if (b_.policy == AltPolicy::kAnywhere && a.alternate_ok && NoCopyThrough(i, reach)) {
        if (std::optional<Fit> fit = LookAheadFit(prev, reach, anchor)) {
          Open(fit->offset, prev, fit->end);
          st.anchor = anchor;
          st.copy_anchored = false;
          st.in_alternate = true;
          st.last_write = prev;
          Arrive(a, st);
          return true;
        }
        flags.out_of_memory = true;
      }
      st.default_current = true;
      at_.needs_default = true;
    } else if (st.in_alternate) {
      BufferAttempt::Segment& seg = at_.segments.back();
      // A segment that entered a loop already covers the loop's accesses.
      if (a.time <= seg.end) {
        Arrive(a, st);
        return true;
      }
      const std::optional<TimeStep> end = scopes_.SegmentEnd(st.anchor, a.time);
      if (end && (!st.copy_anchored || Within(a.time, st.anchor)) &&
          AlternateOkThrough(seg.end, *end) &&
          s_.picker->AllowsNoCopy(b_.size, prev + 1, a.time)) {
        if (s_.heap.FreeUntil(seg.offset, b_.size, seg.end + 1, *end) == *end) {
          Extend(*end);
          Arrive(a, st);
          return true;
        }
        flags.out_of_memory = true;
      }
    }

    if (st.in_alternate) {
      if (!st.default_current && !Evict(a.time, st)) return false;
      st.in_alternate = false;
      st.touched = std::max(st.touched, at_.segments.back().end);
      st.data_touched = std::max(st.data_touched, at_.segments.back().end);
    }
    if (a.alternate_ok && !a.control && PrefetchForLoops(i, st, flags)) return true;
    at_.needs_default = true;
    at_.out_of_memory |= flags.out_of_memory;
    at_.copy_limited |= flags.copy_limited;
    st.touched = std::max(st.touched, a.time);
    if (!a.control) st.data_touched = st.touched;
    return true;
  }

  // Prefetches for access i, minding the loops and conditionals the buffer
  // enters to reach it: the first access inside such a region first tries a
  // prefetch done before the region whose chunk stays for the whole region
  // (one offset before, inside and after it); a prefetch inside a loop
  // serves one iteration, one inside a branch that branch's own uses, and
  // either is allowed only when the region never writes the buffer (the
  // default copy then stays current, so leaving needs no eviction). Before
  // a conditional, the use's own saving does not count as overlap: the
  // copy is done before the conditional, and the use runs only in its
  // branch (a loop's use runs every iteration, so it keeps counting).
  bool PrefetchForLoops(std::size_t i, WalkState& st, SegmentFlags& flags) {
    const BufferAccess& a = acc_[i];
    const std::optional<ControlScopes::Region> loop = scopes_.OutermostEntered(live_since_, a.time);
    if (loop) {
      if (st.touched < loop->first) {
        const TimeStep done = s_.problem.timeline.OwnStepAtOrBefore(loop->last + 1, loop->first - 1);
        if (done != kNoId && done > st.touched + 1 &&
            Prefetch(i, st.touched + 1, done, std::nullopt, flags, loop->loop)) {
          Arrived(a, st, st.touched + 1);
          return true;
        }
      }
      if (WrittenWithin(loop->first, loop->last)) return false;
    }
    if (Prefetch(i, st.touched + 1, a.time, std::nullopt, flags)) {
      Arrived(a, st, st.touched + 1);
      return true;
    }
    if (loop) return false;
    // The read follows a loop the buffer is passed through (accessed
    // inside, so the body has it): a prefetch at the end of the loop's body,
    // repeated every iteration, leaves the loop with the data in alternate
    // memory (an exit segment).
    const std::optional<ControlScopes::Region> left = scopes_.LastLoopBefore(a.time);
    if (!left || left->first <= live_since_ || left->last < st.data_touched ||
        left->body_first > left->last || AccessIndex(left->first) == AccessIndex(left->last + 1)) {
      return false;
    }
    const TimeStep done = s_.problem.timeline.OwnStepAtOrBefore(left->last, left->last);
    const TimeStep earliest = std::max(st.data_touched + 1, left->body_first);
    if (done == kNoId || !scopes_.DirectlyInBody(*left, done) ||
        !Prefetch(i, earliest, done, left, flags)) {
      return false;
    }
    Arrived(a, st, left->last + 1);
    return true;
  }

  void Arrived(const BufferAccess& a, WalkState& st, TimeStep anchor) {
    st.anchor = std::max(anchor, at_.segments.back().start);
    st.copy_anchored = true;
    st.in_alternate = true;
    st.last_write = kNoId;
    Arrive(a, st);
  }

  // True if step t lies in the span of the computation owning step
  // `anchor` (that computation or one it calls).
  bool Within(TimeStep t, TimeStep anchor) const {
    const ComputationId c = s_.problem.timeline.owner(anchor);
    if (c < 0 || static_cast<std::size_t>(c) >= s_.problem.spans.size()) return true;
    const ComputationSpan& span = s_.problem.spans[c];
    return span.first <= t && t <= span.last;
  }

  // Index of the first access at or after time t.
  std::size_t AccessIndex(TimeStep t) const {
    const std::vector<BufferAccess>& acc = acc_;
    return static_cast<std::size_t>(
        std::lower_bound(acc.begin(), acc.end(), t,
                         [](const BufferAccess& x, TimeStep time) { return x.time < time; }) -
        acc.begin());
  }

  // True if some access in [first, last] writes the buffer.
  bool WrittenWithin(TimeStep first, TimeStep last) const {
    return writes_before_[AccessIndex(last + 1)] > writes_before_[AccessIndex(first)];
  }

  // True if the data may stay in alternate memory without a copy from
  // access i-1 through access `last` (>= i; false past the last access):
  // the picker allows every gap and every access may use alternate memory.
  bool NoCopyThrough(std::size_t i, std::size_t last) const {
    if (last >= acc_.size() || !AlternateOkThrough(acc_[i - 1].time, acc_[last].time)) return false;
    for (std::size_t k = i; k <= last; ++k) {
      if (!s_.picker->AllowsNoCopy(b_.size, acc_[k - 1].time + 1, acc_[k].time)) return false;
    }
    return true;
  }

  // The loop optimizer's preferred start for this buffer's prefetch done at
  // `done` when it is an own step of done's computation (or -1 there) in
  // [earliest, done - 1]; else nullopt.
  std::optional<TimeStep> PreferredStart(TimeStep earliest, TimeStep done) const {
    const LoopPlan* loop = s_.config.loop;
    if (!loop) return std::nullopt;
    const TimeStep start = loop->preferred_start[static_cast<std::size_t>(id_)];
    if (start == kNoId || start < earliest || start >= done) return std::nullopt;
    const std::vector<TimeStep>& starts = s_.problem.timeline.StartsOfOwner(done);
    if (!std::binary_search(starts.begin(), starts.end(), start)) return std::nullopt;
    return start;
  }

  // True if every access in (after, through] may use alternate memory.
  bool AlternateOkThrough(TimeStep after, TimeStep through) const {
    return refusals_before_[AccessIndex(through + 1)] == refusals_before_[AccessIndex(after + 1)];
  }

  // The access is served from the alternate segment that now covers it.
  void Arrive(const BufferAccess& a, WalkState& st) {
    if (a.write) {
      st.last_write = a.time;
      st.default_current = false;
    }
    st.touched = a.time;
    st.data_touched = a.time;
  }

  struct Fit {
    Bytes offset = 0;
    TimeStep end = 0;  // the segment's end for access i (loops may extend it)
  };

  // Best-fit offset for [start, accesses[i]] that stays free as far ahead as
  // the buffer could stay resident without a copy. Every range is extended
  // to a legal segment end (msa/control_scopes.h) for a segment anchored at
  // `anchor` (its start, or the step after the branches an origin segment
  // leaves) whose accesses all may use alternate memory.
  std::optional<Fit> LookAheadFit(TimeStep start, std::size_t i) const {
    return LookAheadFit(start, i, start);
  }
  std::optional<Fit> LookAheadFit(TimeStep start, std::size_t i, TimeStep anchor) const {
    const std::vector<BufferAccess>& acc = acc_;
    auto legal_end = [&](std::size_t k) -> std::optional<TimeStep> {
      const std::optional<TimeStep> end = scopes_.SegmentEnd(anchor, acc[k].time);
      if (!end || !AlternateOkThrough(acc[k].time, *end)) return std::nullopt;
      return end;
    };
    const std::optional<TimeStep> own_end = legal_end(i);
    if (!own_end) return std::nullopt;
    std::size_t last = i;
    while (last + 1 < acc.size() && acc[last + 1].alternate_ok && Within(acc[last + 1].time, anchor) &&
           s_.picker->AllowsNoCopy(b_.size, acc[last].time, acc[last + 1].time) &&
           legal_end(last + 1)) {
      ++last;
    }
    for (std::size_t k = last + 1; k-- > i;) {
      const TimeStep end = std::max(*legal_end(k), *own_end);
      if (std::optional<Bytes> offset = s_.heap.BestFit(start, end, b_.size)) {
        return Fit{*offset, *own_end};
      }
    }
    return std::nullopt;
  }

  // A chunk for an exit segment [start, accesses[i]] of `loop` that is also
  // free during the loop's condition.
  std::optional<Fit> ExitFit(TimeStep start, std::size_t i, const ControlScopes::Region& loop) const {
    const TimeStep end = acc_[i].time;
    const std::optional<TimeStep> legal = scopes_.SegmentEnd(loop.last + 1, end);
    if (!legal || !AlternateOkThrough(end, *legal)) return std::nullopt;
    const std::optional<Bytes> offset = s_.heap.BestFit(start, *legal, b_.size);
    if (!offset) return std::nullopt;
    if (loop.body_first > loop.first &&
        s_.heap.FreeUntil(*offset, b_.size, loop.first, loop.body_first - 1) != loop.body_first - 1) {
      return std::nullopt;
    }
    return Fit{*offset, *legal};
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
    AddCopy(kind, start, done, ByteSlice{0, b_.size}, 0, 1);
  }

  // Adds one copy of the buffer's bytes `slice` (slice `index` of `count`).
  void AddCopy(CopyKind kind, TimeStep start, TimeStep done, ByteSlice slice, std::int32_t index,
               std::int32_t count) {
    const bool prefetch = kind == CopyKind::kPrefetch;
    at_.copies.push_back(AsyncCopy{id_, kind, prefetch ? kDefaultSpace : kAlternateSpace,
                                   prefetch ? kAlternateSpace : kDefaultSpace, start, done,
                                   slice.bytes, index, count, slice.offset});
    at_.copy_handles.push_back(s_.limits.Add(kind, start, done));
    if (s_.bandwidth) {
      at_.bandwidth_usage.push_back(s_.bandwidth->Consume(start, done, s_.cost.CopySeconds(slice.bytes)));
    }
  }

  // Removes the last `n` copies AddCopy added.
  void DropCopies(std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      at_.copies.pop_back();
      s_.limits.Remove(at_.copy_handles.back());
      at_.copy_handles.pop_back();
      if (s_.bandwidth) {
        s_.bandwidth->Release(at_.bandwidth_usage.back());
        at_.bandwidth_usage.pop_back();
      }
    }
  }

  double CopySeconds() const { return s_.cost.CopySeconds(b_.size); }

  // True if a copy over [start, done] passes the outstanding limit and the
  // copy bandwidth.
  bool CopyFits(CopyKind kind, TimeStep start, TimeStep done, std::int64_t limit) const {
    return CopyFits(kind, start, done, limit, b_.size);
  }
  bool CopyFits(CopyKind kind, TimeStep start, TimeStep done, std::int64_t limit, Bytes bytes) const {
    if (s_.limits.ExceedsLimit(kind, start, done, limit)) return false;
    return !s_.bandwidth || s_.bandwidth->Fits(start, done, s_.cost.CopySeconds(bytes));
  }

  // Adds the slice copies of `plan` one by one (each counted against the
  // limits and the DMA queue with the ones before it); false, with none
  // added, if one does not fit. With `keep` false they are removed again
  // (a feasibility test).
  bool AddSliceCopies(const SlicePlan& plan, TimeStep done, bool keep) {
    const std::int64_t limit = s_.options.max_outstanding_prefetches;
    const auto count = static_cast<std::int32_t>(plan.slices.size());
    for (std::int32_t k = 0; k < count; ++k) {
      if (!CopyFits(CopyKind::kPrefetch, plan.starts[k], done, limit, plan.slices[k].bytes)) {
        DropCopies(static_cast<std::size_t>(k));
        return false;
      }
      AddCopy(CopyKind::kPrefetch, plan.starts[k], done, plan.slices[k], k, count);
    }
    if (!keep) DropCopies(plan.slices.size());
    return true;
  }

  // A sliced prefetch for access i started at `start` and done before
  // `done` (msa/sliced_prefetch.h): the slices' staggered starts and the
  // whole buffer's chunk from the last slice's start, with every earlier
  // slice's bytes free from its own start. nullopt when slicing does not
  // apply, a slice copy does not fit the limits, or no such chunk is free.
  std::optional<SlicePlan> SlicedFit(std::size_t i, TimeStep start, TimeStep done) {
    SlicePlan plan;
    plan.slices = SliceBuffer(b_.size, s_.config.max_slices, s_.options.sliced_prefetch,
                              s_.heap.alignment());
    if (plan.slices.size() < 2) return std::nullopt;
    plan.starts = PickSliceStarts(plan.slices.size(), start, done,
                                  s_.problem.timeline.StepsOfOwner(done),
                                  [&](TimeStep a, TimeStep b) { return s_.cost.ElapsedBetween(a, b); });
    plan.opened = std::max<TimeStep>(plan.starts.back(), 0);
    // Staggering that leaves every slice at the first start saves nothing.
    if (plan.opened == std::max<TimeStep>(start, 0)) return std::nullopt;
    const std::optional<Fit> fit = LookAheadFit(plan.opened, i);
    if (!fit) return std::nullopt;
    // Whether the whole chunk at `base` is free from the segment's start and
    // each earlier slice's bytes from its own start.
    const auto fits = [&](Bytes base) {
      if (base < 0 || base + b_.size > s_.heap.capacity()) return false;
      if (base != fit->offset && !s_.heap.IsFree(base, b_.size, plan.opened, fit->end)) return false;
      for (std::size_t k = 0; k < plan.slices.size(); ++k) {
        const TimeStep from = std::max<TimeStep>(plan.starts[k], 0);
        if (from < plan.opened &&
            !s_.heap.IsFree(base + plan.slices[k].offset, plan.slices[k].bytes, from, plan.opened - 1)) {
          return false;
        }
      }
      return true;
    };
    // Layouts: slice 0 (the earliest) at the lowest bytes, else at the
    // highest; bases: the whole buffer's best fit, else the one that puts
    // slice 0 at its own best fit (from its start through the segment's end).
    const std::vector<ByteSlice> in_byte_order = plan.slices;
    bool found = false;
    for (int reversed = 0; reversed < 2 && !found; ++reversed) {
      plan.slices = in_byte_order;
      if (reversed) std::reverse(plan.slices.begin(), plan.slices.end());
      std::optional<Bytes> base;
      if (fits(fit->offset)) {
        base = fit->offset;
      } else if (const std::optional<Bytes> first = s_.heap.BestFit(
                     std::max<TimeStep>(plan.starts[0], 0), fit->end, plan.slices[0].bytes);
                 first && fits(*first - plan.slices[0].offset)) {
        base = *first - plan.slices[0].offset;
      }
      if (base) {
        plan.offset = *base;
        found = true;
      }
    }
    if (!found) return std::nullopt;
    if (!AddSliceCopies(plan, done, /*keep=*/false)) return std::nullopt;
    plan.end = fit->end;
    return plan;
  }

  // Reserves each slice's chunk from its start until the whole segment
  // (already open) begins.
  void CommitSliceChunks(const SlicePlan& plan) {
    for (std::size_t k = 0; k < plan.slices.size(); ++k) {
      const TimeStep from = std::max<TimeStep>(plan.starts[k], 0);
      if (from >= plan.opened) continue;
      at_.chunks.push_back(s_.heap.Commit(from, plan.opened - 1, plan.offset + plan.slices[k].offset,
                                          plan.slices[k].bytes));
    }
  }

  // Copies the current alternate data to default memory before step `next`.
  // The copy runs on the own steps of the computation that opened the
  // segment (so it never crosses into or out of a loop) and starts at or
  // after the last write.
  bool Evict(TimeStep next, WalkState& st) {
    BufferAttempt::Segment& seg = at_.segments.back();
    const LocalTimeline& timeline = s_.problem.timeline;
    const std::vector<TimeStep>& steps = timeline.StepsOfOwner(st.anchor);
    st.default_current = true;
    at_.needs_default = true;
    auto first = std::lower_bound(steps.begin(), steps.end(), st.last_write);
    const TimeStep latest_done = timeline.OwnStepAtOrBefore(st.anchor, next - 1);
    if (first == steps.end() || latest_done == kNoId || latest_done <= *first) return false;
    const TimeStep start = *first;
    // The source chunk is reserved through done - 1 (the copy completes
    // before the op at done), so the eviction may run until the step after
    // the segment's end at no cost in memory.
    auto after_end = std::lower_bound(steps.begin(), steps.end(), seg.end + 1);
    const TimeStep covered = after_end == steps.end() ? latest_done : *after_end;
    TimeStep done =
        std::min(std::max(s_.picker->EvictionDone(b_.size, start, latest_done), covered), latest_done);
    if (done - 1 > seg.end) {
      const TimeStep free = s_.heap.FreeUntil(seg.offset, b_.size, seg.end + 1, done - 1);
      const TimeStep reach = timeline.OwnStepAtOrBefore(st.anchor, free);
      if (reach > seg.end) Extend(reach);
    }
    done = timeline.OwnStepAtOrBefore(st.anchor, std::min(done, seg.end + 1));
    const std::int64_t limit = s_.options.max_outstanding_evictions;
    if (done > start && CopyFits(CopyKind::kEviction, start, done, limit)) {
      AddCopy(CopyKind::kEviction, start, done);
      return true;
    }
    // Try one-step evictions between consecutive own steps inside the range.
    for (auto it = first; it != steps.end() && std::next(it) != steps.end() && *std::next(it) <= done;
         ++it) {
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

  // Prefetches the data for access i, starting no earlier than `earliest`
  // and done before step `done` (<= the access's step). With `exit`, the
  // copy runs inside that loop's body and its segment outlives the loop
  // (msa/control_scopes.h): the chunk is also held over the loop's condition.
  // Without `count_use_saving`, the use's own saving is no overlap.
  bool Prefetch(std::size_t i, TimeStep earliest, TimeStep done,
                const std::optional<ControlScopes::Region>& exit, SegmentFlags& flags,
                bool count_use_saving = true) {
    const BufferAccess& a = acc_[i];
    if (earliest >= done) return false;
    PrefetchRequest request{b_.size, earliest, done, count_use_saving ? a.saving_s : 0};
    const bool fifo = s_.options.enforce_prefetch_fifo;
    if (fifo) request.done = FifoDone(request);
    s_.picker->Begin(request);
    const std::int64_t limit = s_.options.max_outstanding_prefetches;
    const int wanted = std::max(1, s_.config.fragmentation_candidates);
    int feasible = 0;
    TimeStep exhausted = earliest - 1;  // every start <= this runs out of memory
    std::optional<TimeStep> best_start;
    Bytes best_offset = 0;
    TimeStep best_end = a.time;
    Bytes best_room = std::numeric_limits<Bytes>::max();
    // Slicing: not for loop-exit prefetches (their chunk is also held over
    // the loop's condition) nor under FIFO ordering.
    const bool slicing = s_.config.max_slices >= 2 && !exit && !fifo;
    std::optional<SlicePlan> best_slices;
    // The loop optimizer's start, if any, is tried before the picker's.
    std::optional<TimeStep> preferred = PreferredStart(request.earliest_start, request.done);
    const std::optional<TimeStep> tried = preferred;
    while ((preferred || !s_.picker->Done()) && feasible < wanted) {
      TimeStep start = 0;
      if (preferred) {
        start = *preferred;
        preferred.reset();
      } else {
        start = s_.picker->Next();
        if (start == tried) continue;
      }
      if (start <= exhausted) continue;
      if (fifo && s_.limits.FifoConflict(start, request.done)) {
        flags.copy_limited = true;
        continue;
      }
      // A sliced solution is preferred where one exists, as XLA does.
      if (slicing) {
        if (std::optional<SlicePlan> sliced = SlicedFit(i, start, request.done)) {
          ++feasible;
          const Bytes room =
              wanted > 1 ? s_.heap.HoleRoom(sliced->offset, b_.size, sliced->opened, sliced->end) : 0;
          if (room < best_room) {
            best_start = start;
            best_offset = sliced->offset;
            best_end = sliced->end;
            best_room = room;
            best_slices = std::move(sliced);
          }
          continue;
        }
      }
      if (!CopyFits(CopyKind::kPrefetch, start, request.done, limit)) {
        flags.copy_limited = true;
        continue;
      }
      // A copy issued before the first op (start -1) reserves its chunk
      // from step 0: nothing runs before it.
      const TimeStep opened = std::max<TimeStep>(start, 0);
      const std::optional<Fit> fit = exit ? ExitFit(opened, i, *exit) : LookAheadFit(opened, i);
      if (!fit) {
        flags.out_of_memory = true;
        // A sliced prefetch from an earlier start may still fit.
        if (!slicing) exhausted = std::max(exhausted, start);
        continue;
      }
      ++feasible;
      const Bytes room = wanted > 1 ? s_.heap.HoleRoom(fit->offset, b_.size, opened, fit->end) : 0;
      if (room < best_room) {
        best_start = start;
        best_offset = fit->offset;
        best_end = fit->end;
        best_room = room;
        best_slices.reset();
      }
    }
    if (!best_start) return false;
    if (best_slices) {
      Open(best_offset, best_slices->opened, best_end);
      CommitSliceChunks(*best_slices);
      AddSliceCopies(*best_slices, request.done, /*keep=*/true);
      return true;
    }
    Open(best_offset, std::max<TimeStep>(*best_start, 0), best_end);
    if (exit && exit->body_first > exit->first) {
      at_.reservations.push_back({best_offset, exit->first, exit->body_first - 1});
      at_.reserved_for.push_back(at_.segments.size() - 1);
      at_.chunks.push_back(s_.heap.Commit(exit->first, exit->body_first - 1, best_offset, b_.size));
    }
    AddCopy(CopyKind::kPrefetch, *best_start, request.done);
    return true;
  }

  AllocatorState& s_;
  const ControlScopes& scopes_;
  const MsaBuffer& b_;
  const BufferId id_;
  BufferAttempt& at_;
  std::vector<BufferAccess> acc_;  // b_.accesses with the default-only sites applied
  std::vector<int> writes_before_;    // per access index: writes before it
  std::vector<int> refusals_before_;  // per access index: accesses before it not alternate_ok
  TimeStep live_since_ = 0;           // the buffer holds data after this step
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
      const bool opens =
          c.kind == CopyKind::kPrefetch && std::max<TimeStep>(c.start, 0) == seg.start;
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
  const std::size_t first_block = state.blocks.size();
  for (const BufferAttempt::Segment& seg : attempt.segments) {
    state.blocks.push_back(AltBlock{id, seg.start, seg.end, seg.offset, size, -1, false});
  }
  // A reservation keeps its exit segment's offset when repacked: one group,
  // numbered by the segment's block.
  for (std::size_t k = 0; k < attempt.reservations.size(); ++k) {
    const BufferAttempt::Segment& r = attempt.reservations[k];
    const std::size_t owner = first_block + attempt.reserved_for[k];
    const auto group = static_cast<std::int32_t>(owner);
    state.blocks[owner].group = group;
    state.blocks.push_back(AltBlock{id, r.start, r.end, r.offset, size, group, true});
  }
  state.copies.insert(state.copies.end(), attempt.copies.begin(), attempt.copies.end());
  state.needs_default[id] = attempt.needs_default;
}

}  // namespace memplan
