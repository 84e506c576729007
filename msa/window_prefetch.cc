#include "msa/window_prefetch.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "msa/residency.h"

namespace memplan {
namespace {

// A chunk of alternate memory held over the closed steps [start, end].
struct Held {
  Bytes offset = 0;
  Bytes bytes = 0;
  TimeStep start = 0;
  TimeStep end = 0;
};

// Every chunk of alternate memory the assignment holds: segments (sizes
// rounded up to the alignment), the early reservations of sliced
// prefetches (the whole segment's chunk from the first slice's start, a
// superset of what the slices reserve) and the cross-program prefetch's
// reservation after its last read.
std::vector<Held> HeldChunks(const ProgramAnalysis& analysis, const MsaResult& result,
                             Bytes alignment) {
  const std::vector<Buffer>& buffers = analysis.buffers.buffers;
  std::vector<Held> held;
  for (std::size_t b = 0; b < result.alternate.size(); ++b) {
    const Bytes size = AlignUp(buffers[b].size, alignment);
    for (const Allocation& a : result.alternate[b]) held.push_back({a.offset, size, a.start, a.end});
  }
  for (const AsyncCopy& c : result.copies) {
    if (c.slice_count <= 1) continue;
    const Bytes size = AlignUp(buffers[static_cast<std::size_t>(c.buffer)].size, alignment);
    for (const Allocation& a : result.alternate[static_cast<std::size_t>(c.buffer)]) {
      if (a.start <= c.done && c.done <= a.end) {
        held.push_back({a.offset, size, std::max<TimeStep>(c.start, 0), a.start});
      }
    }
  }
  if (result.cross_program_prefetch && !result.cross_program_prefetch->freed) {
    const CrossProgramPrefetch& x = *result.cross_program_prefetch;
    held.push_back({x.offset, AlignUp(buffers[static_cast<std::size_t>(x.buffer)].size, alignment),
                    x.reserved_from, analysis.schedule.time_steps - 1});
  }
  return held;
}

// The lowest aligned offset at which `bytes` fit within `capacity` beside
// every chunk of `held` that shares a step with [start, end]; -1 if none.
Bytes FirstFit(const std::vector<Held>& held, Bytes bytes, TimeStep start, TimeStep end,
               Bytes capacity, Bytes alignment) {
  std::vector<std::pair<Bytes, Bytes>> busy;  // [offset, offset + bytes)
  for (const Held& h : held) {
    if (h.start <= end && start <= h.end && h.bytes > 0) busy.emplace_back(h.offset, h.offset + h.bytes);
  }
  std::sort(busy.begin(), busy.end());
  Bytes offset = 0;
  for (const auto& [lo, hi] : busy) {
    if (offset + bytes <= lo) break;
    offset = std::max(offset, AlignUp(hi, alignment));
  }
  return offset + bytes <= capacity ? offset : -1;
}

// Per step: whether every op there belongs to the entry computation.
std::vector<bool> EntryOnlySteps(const Program& program, const ProgramAnalysis& analysis) {
  std::vector<bool> entry(static_cast<std::size_t>(std::max<TimeStep>(analysis.schedule.time_steps, 0)),
                          true);
  for (OpId op : analysis.schedule.order) {
    const TimeStep t = analysis.schedule.op_time[static_cast<std::size_t>(op)];
    if (t >= 0 && static_cast<std::size_t>(t) < entry.size() &&
        program.ops[static_cast<std::size_t>(op)].computation != program.entry) {
      entry[static_cast<std::size_t>(t)] = false;
    }
  }
  return entry;
}

// The access of `buffer` at step `t`, or nullptr.
const BufferAccess* AccessAt(const MsaBuffer& buffer, TimeStep t) {
  auto it = std::lower_bound(buffer.accesses.begin(), buffer.accesses.end(), t,
                             [](const BufferAccess& a, TimeStep time) { return a.time < time; });
  return it != buffer.accesses.end() && it->time == t ? &*it : nullptr;
}

// Whether a window of `b` may serve a read at step `t` (the rule in the header).
bool Windowable(const MsaProblem& problem, const MsaResult& result, BufferId b, TimeStep t,
                Bytes window_bytes) {
  const MsaBuffer& mb = problem.buffers[static_cast<std::size_t>(b)];
  if (mb.size <= window_bytes || !mb.windowable) return false;
  const BufferAccess* access = AccessAt(mb, t);
  if (access == nullptr || access->write || access->control) return false;
  for (const Allocation& a : result.alternate[static_cast<std::size_t>(b)]) {
    if (a.start <= t) return false;
  }
  return true;
}

// The copy-start for a window done at `t` of a buffer live from `first`.
// -1 when no entry-only run of steps reaches back from t.
TimeStep WindowStart(const CostModel& cost, const std::vector<bool>& entry_only, TimeStep first,
                     TimeStep t, double copy_seconds) {
  if (!entry_only[static_cast<std::size_t>(t)]) return -1;
  TimeStep s = t - 1;
  const TimeStep lowest = std::max<TimeStep>(first, 0);
  if (s < lowest || !entry_only[static_cast<std::size_t>(s)]) return -1;
  while (cost.ElapsedBetween(s, t) < copy_seconds && s > lowest &&
         entry_only[static_cast<std::size_t>(s - 1)]) {
    --s;
  }
  return s;
}

double AlternateBytesOf(const CostModel& cost, OpId op, std::span<const int> operands,
                        std::span<const int> results) {
  double bytes = 0;
  for (int i : operands) bytes += cost.OperandBytesAccessed(op, i);
  for (int i : results) bytes += cost.ResultBytesAccessed(op, i);
  return bytes;
}

}  // namespace

double WindowedOpElapsed(const CostModel& cost, OpId op, std::span<const int> operands_in_alternate,
                         std::span<const int> results_in_alternate,
                         std::span<const WindowPrefetch* const> windows,
                         const std::vector<Buffer>& buffers) {
  if (windows.empty()) return cost.OpElapsed(op, operands_in_alternate, results_in_alternate);
  double bytes = AlternateBytesOf(cost, op, operands_in_alternate, results_in_alternate);
  for (const WindowPrefetch* w : windows) {
    const Bytes size = buffers[static_cast<std::size_t>(w->buffer)].size;
    if (size <= 0) continue;
    const double fraction = static_cast<double>(std::min(w->bytes, size)) / static_cast<double>(size);
    bytes += fraction * cost.OperandBytesAccessed(op, w->operand);
  }
  return cost.OpElapsedWithAlternateBytes(op, bytes);
}

std::vector<WindowPrefetch> PlanWindowPrefetches(const Program& program,
                                                 const ProgramAnalysis& analysis,
                                                 const CostModel& cost, const MsaProblem& problem,
                                                 const MsaResult& result, Bytes window_bytes,
                                                 Bytes fast_memory_bytes, Bytes alignment) {
  std::vector<WindowPrefetch> windows;
  if (window_bytes <= 0 || analysis.schedule.time_steps <= 1) return windows;
  alignment = std::max<Bytes>(alignment, 1);
  const AlternateResidency residency(result);
  const std::vector<bool> entry_only = EntryOnlySteps(program, analysis);
  std::vector<Held> held = HeldChunks(analysis, result, alignment);
  const double copy_seconds = cost.CopySeconds(window_bytes);
  const std::vector<Buffer>& buffers = analysis.buffers.buffers;
  std::vector<int> operands, results;
  for (OpId op : analysis.schedule.order) {
    const Op& o = program.ops[static_cast<std::size_t>(op)];
    const TimeStep t = analysis.schedule.op_time[static_cast<std::size_t>(op)];
    if (o.kind != OpKind::kCompute || t < 1) continue;
    const OpBuffers& ob = analysis.op_buffers[static_cast<std::size_t>(op)];
    residency.AlternatePositions(ob, t, operands, results);
    std::vector<const WindowPrefetch*> mine;
    std::vector<WindowPrefetch> placed;
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      const BufferId b = ob.operands[i];
      if (b == kNoId || !Windowable(problem, result, b, t, window_bytes)) continue;
      if (std::any_of(placed.begin(), placed.end(),
                      [&](const WindowPrefetch& w) { return w.buffer == b; })) {
        continue;
      }
      WindowPrefetch w;
      w.buffer = b;
      w.op = op;
      w.operand = static_cast<std::int32_t>(i);
      w.done = t;
      w.bytes = window_bytes;
      // Strictly faster with this window than with the ones placed so far.
      mine.clear();
      for (const WindowPrefetch& p : placed) mine.push_back(&p);
      const double before = WindowedOpElapsed(cost, op, operands, results, mine, buffers);
      mine.push_back(&w);
      const double after = WindowedOpElapsed(cost, op, operands, results, mine, buffers);
      if (!(after < before)) continue;
      w.start = WindowStart(cost, entry_only, problem.buffers[static_cast<std::size_t>(b)].start, t,
                            copy_seconds);
      if (w.start < 0) continue;
      w.offset = FirstFit(held, window_bytes, w.start, t, fast_memory_bytes, alignment);
      if (w.offset < 0) continue;
      held.push_back({w.offset, window_bytes, w.start, t});
      placed.push_back(w);
    }
    windows.insert(windows.end(), placed.begin(), placed.end());
  }
  std::sort(windows.begin(), windows.end(), [](const WindowPrefetch& a, const WindowPrefetch& b) {
    return std::tie(a.done, a.op, a.operand) < std::tie(b.done, b.op, b.operand);
  });
  return windows;
}

std::vector<Bytes> AutoWindowSizes(Bytes fast_memory_bytes) {
  std::vector<Bytes> sizes;
  for (Bytes divisor : kAutoWindowDivisors) {
    if (fast_memory_bytes / divisor >= 1) sizes.push_back(fast_memory_bytes / divisor);
  }
  return sizes;
}

}  // namespace memplan
