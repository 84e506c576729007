#include "driver/fixed_offsets.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <vector>

#include "fmt/format.h"

namespace memplan {
namespace {

// A live piece of a fixed buffer: its bytes are taken during [first, last].
struct FixedPiece {
  BufferId buffer;
  StepRange steps;
};

struct SweepEvent {
  TimeStep time;
  int phase;  // 0: a piece ended the step before; 1: a piece starts
  std::int32_t piece;
  auto Key() const { return std::tie(time, phase, piece); }
};

std::string Describe(const Buffer& b) {
  return fmt::format("'{}' (offset {}, {} bytes)", b.name, *b.fixed_offset, b.size);
}

}  // namespace

absl::Status CheckFixedOffsetsDisjoint(const BufferSet& buffers) {
  std::vector<FixedPiece> pieces;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    // A sub-allocation shares its container's bytes by design (Buffer::inside).
    if (!b.fixed_offset || b.size <= 0 || b.inside) continue;
    for (const StepRange& steps : LivePieces(b, b.start, b.end)) pieces.push_back({id, steps});
  }
  if (pieces.size() < 2) return absl::OkStatus();
  std::vector<SweepEvent> events;
  events.reserve(2 * pieces.size());
  for (std::int32_t p = 0; p < static_cast<std::int32_t>(pieces.size()); ++p) {
    events.push_back({pieces[p].steps.first, 1, p});
    events.push_back({pieces[p].steps.last + 1, 0, p});
  }
  std::sort(events.begin(), events.end(),
            [](const SweepEvent& x, const SweepEvent& y) { return x.Key() < y.Key(); });

  const auto buffer_of = [&](std::int32_t p) -> const Buffer& {
    return buffers.buffers[pieces[p].buffer];
  };
  // Per memory space: offset -> piece, for the live fixed chunks.
  std::map<MemorySpace, std::map<Bytes, std::int32_t>> live;
  for (const SweepEvent& e : events) {
    const Buffer& b = buffer_of(e.piece);
    std::map<Bytes, std::int32_t>& chunks = live[b.space.value_or(kDefaultSpace)];
    const Bytes lo = *b.fixed_offset;
    const Bytes hi = lo + b.size;
    if (e.phase == 0) {
      chunks.erase(lo);
      continue;
    }
    std::optional<std::int32_t> other;
    auto next = chunks.lower_bound(lo);
    if (next != chunks.end() && next->first < hi) other = next->second;
    if (!other && next != chunks.begin()) {
      auto prev = std::prev(next);
      if (*buffer_of(prev->second).fixed_offset + buffer_of(prev->second).size > lo) {
        other = prev->second;
      }
    }
    if (other) {
      std::int32_t first = *other, second = e.piece;
      if (pieces[first].buffer > pieces[second].buffer) std::swap(first, second);
      const Buffer& x = buffer_of(first);
      const Buffer& y = buffer_of(second);
      const Bytes shared_lo = std::max(*x.fixed_offset, *y.fixed_offset);
      const Bytes shared_hi = std::min(*x.fixed_offset + x.size, *y.fixed_offset + y.size);
      const TimeStep from = std::max(pieces[first].steps.first, pieces[second].steps.first);
      const TimeStep to = std::min(pieces[first].steps.last, pieces[second].steps.last);
      return absl::FailedPreconditionError(fmt::format(
          "fixed offsets collide: buffers {} and {} both hold bytes [{}, {}) at steps {} to {}",
          Describe(x), Describe(y), shared_lo, shared_hi, from, to));
    }
    chunks.emplace(lo, e.piece);
  }
  return absl::OkStatus();
}

}  // namespace memplan
