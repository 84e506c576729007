#include "execute/machine.h"

#include <algorithm>

#include "fmt/format.h"
#include "ir/home_spaces.h"

namespace memplan {

ExecutionMachine::ExecutionMachine(const BufferSet& buffers, const Plan& plan,
                                   ExecuteReport& report)
    : buffers_(buffers),
      plan_(plan),
      report_(report),
      content_(buffers.buffers.size()),
      home_(buffers.buffers.size(), kDefaultSpace) {
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    copies_by_done_.emplace(plan.copies[i].done, i);
  }
  for (std::size_t i = 0; i < plan.window_prefetches.size(); ++i) {
    windows_by_done_.emplace(plan.window_prefetches[i].done, i);
  }
  const PlanHomeSpaces homes(buffers, plan);
  for (std::size_t b = 0; b < home_.size(); ++b) home_[b] = homes(static_cast<BufferId>(b));
}

absl::Status ExecutionMachine::AllocateArenas(Bytes max_bytes) {
  std::map<MemorySpace, Bytes> sizes;
  for (const SpaceInfo& space : plan_.spaces) sizes[space.id] = 0;
  for (std::size_t b = 0; b < plan_.placements.size() && b < buffers_.buffers.size(); ++b) {
    for (const Allocation& a : plan_.placements[b].allocations) {
      Bytes& size = sizes[a.space];
      size = std::max(size, a.offset + buffers_.buffers[b].size);
    }
  }
  for (const PoolInfo& pool : plan_.pools) {
    Bytes& size = sizes[pool.space];
    size = std::max(size, pool.offset + pool.size);
  }
  for (const WindowPrefetch& w : plan_.window_prefetches) {
    Bytes& size = sizes[w.space];
    size = std::max(size, w.offset + w.bytes);
  }
  Bytes total = 0;
  std::string parts;
  for (const auto& [space, size] : sizes) {
    total += size;
    parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", SpaceName(space), size);
  }
  if (total > max_bytes) {
    return absl::InvalidArgumentError(fmt::format(
        "running this plan needs {} bytes of arenas ({}), over the executor's limit of {} bytes",
        total, parts, max_bytes));
  }
  for (const auto& [space, size] : sizes) arenas_.emplace(space, Arena(size));
  report_.arena_bytes = total;
  return absl::OkStatus();
}

std::int64_t ExecutionMachine::NewWriter(std::string what, std::string by) {
  writers_.push_back(Writer{std::move(what), std::move(by)});
  ++report_.writes;
  return static_cast<std::int64_t>(writers_.size()) - 1;
}

std::string ExecutionMachine::DescribeWriter(std::int64_t writer) const {
  if (writer < 0 || writer >= static_cast<std::int64_t>(writers_.size())) {
    return "no data (nothing was written there)";
  }
  const Writer& w = writers_[static_cast<std::size_t>(writer)];
  return fmt::format("data of {} (written by {})", w.what, w.by);
}

MemorySpace ExecutionMachine::HomeSpace(BufferId buffer) const {
  if (buffer < 0 || static_cast<std::size_t>(buffer) >= home_.size()) return kDefaultSpace;
  return home_[static_cast<std::size_t>(buffer)];
}

std::string ExecutionMachine::DescribeBuffer(BufferId buffer) const {
  return fmt::format("buffer '{}'", buffers_.buffers[static_cast<std::size_t>(buffer)].name);
}

Arena* ExecutionMachine::ArenaOf(MemorySpace space) {
  auto it = arenas_.find(space);
  return it == arenas_.end() ? nullptr : &it->second;
}

const Allocation* ExecutionMachine::SegmentIn(BufferId buffer, MemorySpace space,
                                              TimeStep time) const {
  if (buffer < 0 || static_cast<std::size_t>(buffer) >= plan_.placements.size()) return nullptr;
  for (const Allocation& a : plan_.placements[static_cast<std::size_t>(buffer)].allocations) {
    if (a.space == space && a.start <= time && time <= a.end) return &a;
  }
  return nullptr;
}

const Allocation* ExecutionMachine::SegmentAt(BufferId buffer, TimeStep time) const {
  if (buffer < 0 || static_cast<std::size_t>(buffer) >= plan_.placements.size()) return nullptr;
  const MemorySpace home = HomeSpace(buffer);
  const Allocation* found = nullptr;
  for (const Allocation& a : plan_.placements[static_cast<std::size_t>(buffer)].allocations) {
    if (a.start > time || time > a.end) continue;
    if (a.space != home) return &a;
    if (found == nullptr) found = &a;
  }
  return found;
}

absl::Status ExecutionMachine::AdvanceTo(TimeStep time) {
  if (time == now_) return absl::OkStatus();
  now_ = time;
  return PerformCopiesDone(time);
}

absl::Status ExecutionMachine::PerformCopiesDone(TimeStep time) {
  auto [first, last] = copies_by_done_.equal_range(time);
  for (auto it = first; it != last; ++it) {
    if (absl::Status s = PerformCopy(it->second); !s.ok()) return s;
  }
  auto [window, windows_end] = windows_by_done_.equal_range(time);
  for (; window != windows_end; ++window) {
    if (absl::Status s = PerformWindow(window->second); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ExecutionMachine::PerformWindow(std::size_t index) {
  const WindowPrefetch& w = plan_.window_prefetches[index];
  const std::string name = DescribeCopy(plan_.copies.size() + index);
  // As a prefetch: the source holds the data until done - 1.
  const TimeStep source_time = std::max<TimeStep>({w.start, w.done - 1, 0});
  const Allocation* from = SegmentAt(w.buffer, source_time);
  if (from == nullptr) {
    return absl::FailedPreconditionError(fmt::format(
        "{} has no source: the plan gives the buffer no segment at step {}", name, source_time));
  }
  Arena* source = ArenaOf(from->space);
  Arena* target = ArenaOf(w.space);
  if (target == nullptr || w.offset < 0 || w.bytes > target->size() - w.offset ||
      w.bytes > buffers_.buffers[static_cast<std::size_t>(w.buffer)].size) {
    return absl::FailedPreconditionError(fmt::format(
        "{} goes to bytes [{}, {}) of {} memory, outside what the plan uses there", name,
        w.offset, w.offset + w.bytes, SpaceName(w.space)));
  }
  target->CopyFrom(*source, from->offset, w.offset, w.bytes,
                   static_cast<std::int64_t>(plan_.copies.size() + index));
  ++report_.copies;
  return absl::OkStatus();
}

absl::Status ExecutionMachine::CheckWindows(OpId op, const std::string& reader) {
  for (std::size_t i = 0; i < plan_.window_prefetches.size(); ++i) {
    const WindowPrefetch& w = plan_.window_prefetches[i];
    if (w.op != op) continue;
    const std::string what = fmt::format("the window of operand {} ({} bytes of {})", w.operand,
                                         w.bytes, DescribeBuffer(w.buffer));
    if (absl::Status s = CheckRaw(w.space, w.offset, w.buffer, 0, w.bytes, reader, what); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

std::string ExecutionMachine::DescribeCopy(std::size_t index) const {
  if (index >= plan_.copies.size()) {
    const WindowPrefetch& w = plan_.window_prefetches[index - plan_.copies.size()];
    return fmt::format("the window prefetch of {} (start {}, done {})", DescribeBuffer(w.buffer),
                       w.start, w.done);
  }
  const AsyncCopy& copy = plan_.copies[index];
  const char* kind = copy.kind == CopyKind::kPrefetch ? "prefetch" : "eviction";
  return fmt::format("the {} of {} (start {}, done {})", kind, DescribeBuffer(copy.buffer),
                     copy.start, copy.done);
}

absl::Status ExecutionMachine::PerformCopy(std::size_t index) {
  const AsyncCopy& copy = plan_.copies[index];
  const std::string name = DescribeCopy(index);
  // The source holds the data until done - 1 (or at the start of a copy
  // done at its start step, the cross-program prefetch).
  const TimeStep source_time = std::max<TimeStep>({copy.start, copy.done - 1, 0});
  const Allocation* from = SegmentIn(copy.buffer, copy.from_space, source_time);
  const Allocation* to = SegmentIn(copy.buffer, copy.to_space, copy.done);
  if (from == nullptr) {
    return absl::FailedPreconditionError(fmt::format(
        "{} has no source: the plan gives it no segment in {} memory at step {}", name,
        SpaceName(copy.from_space), source_time));
  }
  if (to == nullptr) {
    return absl::FailedPreconditionError(fmt::format(
        "{} has no destination: the plan gives it no segment in {} memory at step {}", name,
        SpaceName(copy.to_space), copy.done));
  }
  Arena* source = ArenaOf(from->space);
  Arena* target = ArenaOf(to->space);
  // A slice of a sliced prefetch moves its byte range only (ir/plan.h).
  const Bytes size = copy.slice_count > 1 ? copy.bytes
                                          : buffers_.buffers[static_cast<std::size_t>(copy.buffer)].size;
  target->CopyFrom(*source, from->offset + copy.slice_offset, to->offset + copy.slice_offset, size,
                   static_cast<std::int64_t>(index));
  ++report_.copies;
  return absl::OkStatus();
}

absl::Status ExecutionMachine::WriteRaw(MemorySpace space, Bytes address, Bytes length,
                                        Bytes position, std::int64_t writer) {
  Arena* arena = ArenaOf(space);
  if (arena == nullptr || address < 0 || length > arena->size() - address) {
    return absl::FailedPreconditionError(fmt::format(
        "{} go to bytes [{}, {}) of {} memory, outside what the plan uses there",
        DescribeWriter(writer), address, address + length, SpaceName(space)));
  }
  arena->Fill(address, length, ((position % 8) + 8) % 8, writer);
  report_.bytes_written += length;
  return absl::OkStatus();
}

absl::Status ExecutionMachine::CopyRaw(MemorySpace from_space, Bytes from, MemorySpace to_space,
                                       Bytes to, Bytes length, const std::string& what) {
  Arena* source = ArenaOf(from_space);
  Arena* target = ArenaOf(to_space);
  if (source == nullptr || target == nullptr || from < 0 || to < 0 ||
      length > source->size() - from || length > target->size() - to) {
    return absl::FailedPreconditionError(fmt::format(
        "{} moves bytes [{}, {}) of {} memory to [{}, {}) of {} memory, outside what the plan "
        "uses there",
        what, from, from + length, SpaceName(from_space), to, to + length, SpaceName(to_space)));
  }
  target->CopyFrom(*source, from, to, length, -1);
  return absl::OkStatus();
}

void ExecutionMachine::ClearContent(BufferId buffer, Bytes lo, Bytes hi) {
  std::vector<Piece>& pieces = content_[static_cast<std::size_t>(buffer)];
  std::vector<Piece> kept;
  kept.reserve(pieces.size() + 1);
  for (const Piece& p : pieces) {
    if (p.hi <= lo || p.lo >= hi) {
      kept.push_back(p);
      continue;
    }
    if (p.lo < lo) kept.push_back({p.lo, lo, p.writer});
    if (p.hi > hi) kept.push_back({hi, p.hi, p.writer});
  }
  pieces = std::move(kept);
}

void ExecutionMachine::SetContent(BufferId buffer, Bytes lo, Bytes hi, std::int64_t writer) {
  if (lo >= hi) return;
  ClearContent(buffer, lo, hi);
  std::vector<Piece>& pieces = content_[static_cast<std::size_t>(buffer)];
  pieces.push_back({lo, hi, writer});
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.lo < b.lo; });
}

absl::Status ExecutionMachine::WriteBuffer(BufferId buffer, Bytes lo, Bytes hi,
                                           std::int64_t writer, bool in_home) {
  if (lo >= hi) return absl::OkStatus();
  const Allocation* segment =
      in_home ? SegmentIn(buffer, HomeSpace(buffer), now_) : SegmentAt(buffer, now_);
  if (segment == nullptr) {
    return absl::FailedPreconditionError(fmt::format(
        "{} are written at step {}, but the plan gives {} no segment at that step",
        DescribeWriter(writer), now_, DescribeBuffer(buffer)));
  }
  if (absl::Status s = WriteRaw(segment->space, segment->offset + lo, hi - lo, lo, writer); !s.ok()) {
    return s;
  }
  SetContent(buffer, lo, hi, writer);
  return absl::OkStatus();
}

absl::Status ExecutionMachine::CheckBuffer(BufferId buffer, Bytes lo, Bytes hi,
                                           const std::string& reader, const std::string& what,
                                           bool in_home) {
  if (lo >= hi) return absl::OkStatus();
  const Allocation* segment =
      in_home ? SegmentIn(buffer, HomeSpace(buffer), now_) : SegmentAt(buffer, now_);
  if (segment == nullptr) {
    return absl::FailedPreconditionError(
        fmt::format("{} reads {}, but the plan gives {} no segment at step {}", reader, what,
                    DescribeBuffer(buffer), now_));
  }
  return CheckRaw(segment->space, segment->offset + lo, buffer, lo, hi, reader, what);
}

absl::Status ExecutionMachine::CheckRaw(MemorySpace space, Bytes address, BufferId buffer,
                                        Bytes lo, Bytes hi, const std::string& reader,
                                        const std::string& what, bool unwritten_ok) {
  Arena* arena = ArenaOf(space);
  if (arena == nullptr || address < 0 || hi - lo > arena->size() - address) {
    return absl::FailedPreconditionError(
        fmt::format("{} reads {} at bytes [{}, {}) of {} memory, outside what the plan uses there",
                    reader, what, address, address + (hi - lo), SpaceName(space)));
  }
  Bytes covered = lo;
  for (const Piece& p : content_[static_cast<std::size_t>(buffer)]) {
    if (p.hi <= lo || p.lo >= hi) continue;
    const Bytes begin = std::max(p.lo, lo);
    const Bytes end = std::min(p.hi, hi);
    if (begin > covered && !unwritten_ok) break;
    const Bytes at = address + (begin - lo);
    report_.bytes_checked += end - begin;
    if (std::optional<Bytes> bad = arena->FirstMismatch(at, end - begin, begin, p.writer)) {
      // Name the copy that brought the wrong data, when one did: it is the
      // cause, the reader only the symptom.
      const Arena::Origin culprit = arena->OriginAt(*bad);
      std::string found =
          culprit.writer == p.writer ? std::string("other bytes") : DescribeWriter(culprit.writer);
      if (culprit.mover >= 0 && culprit.writer != p.writer) {
        found += fmt::format(", moved there by {}", DescribeCopy(static_cast<std::size_t>(culprit.mover)));
      }
      return absl::FailedPreconditionError(fmt::format(
          "{} reads {}: byte {} of {} memory (byte {} of {}) holds {}, not {}", reader, what, *bad,
          SpaceName(space), begin + (*bad - at), DescribeBuffer(buffer), found,
          DescribeWriter(p.writer)));
    }
    covered = end;
  }
  if (covered < hi && !unwritten_ok) {
    return absl::FailedPreconditionError(fmt::format(
        "{} reads {}, but bytes [{}, {}) of {} were never written before", reader, what, covered,
        hi, DescribeBuffer(buffer)));
  }
  return absl::OkStatus();
}

}  // namespace memplan
