#include "driver/fixed_offsets.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <vector>

#include "fmt/format.h"
#include "ir/plural.h"

namespace memplan {
namespace {

// A held piece of a fixed buffer: it takes bytes [lo, hi) (absolute) during
// `steps`.
struct FixedPiece {
  BufferId buffer;
  StepRange steps;
  Bytes lo;
  Bytes hi;
};

struct SweepEvent {
  TimeStep time;
  int phase;  // 0: a piece ended the step before; 1: a piece starts
  std::int32_t piece;
  auto Key() const { return std::tie(time, phase, piece); }
};

std::string Describe(const Buffer& b) {
  return fmt::format("'{}' (offset {}, {})", b.name, *b.fixed_offset(), CountOf(b.size, "byte"));
}

}  // namespace

absl::Status CheckFixedOffsetsDisjoint(const BufferSet& buffers) {
  std::vector<FixedPiece> pieces;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    // A sub-allocation shares its container's bytes by design (Buffer::inside).
    if (!b.fixed_offset() || b.size <= 0 || b.inside()) continue;
    for (const HeldPiece& held : HeldPieces(b)) {
      pieces.push_back({id, held.steps, *b.fixed_offset() + held.lo, *b.fixed_offset() + held.hi});
    }
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

  // Per memory space: first byte -> piece, for the live fixed chunks.
  std::map<MemorySpace, std::map<Bytes, std::int32_t>> live;
  for (const SweepEvent& e : events) {
    const FixedPiece& piece = pieces[e.piece];
    const Buffer& b = buffers.buffers[piece.buffer];
    std::map<Bytes, std::int32_t>& chunks = live[b.space.value_or(kDefaultSpace)];
    if (e.phase == 0) {
      chunks.erase(piece.lo);
      continue;
    }
    std::optional<std::int32_t> other;
    auto next = chunks.lower_bound(piece.lo);
    if (next != chunks.end() && next->first < piece.hi) other = next->second;
    if (!other && next != chunks.begin() && pieces[std::prev(next)->second].hi > piece.lo) {
      other = std::prev(next)->second;
    }
    if (other) {
      const FixedPiece* first = &pieces[*other];
      const FixedPiece* second = &piece;
      if (first->buffer > second->buffer) std::swap(first, second);
      return absl::FailedPreconditionError(fmt::format(
          "fixed offsets collide: buffers {} and {} both hold bytes [{}, {}) at steps {} to {}",
          Describe(buffers.buffers[first->buffer]), Describe(buffers.buffers[second->buffer]),
          std::max(first->lo, second->lo), std::min(first->hi, second->hi),
          std::max(first->steps.first, second->steps.first),
          std::min(first->steps.last, second->steps.last)));
    }
    chunks.emplace(piece.lo, e.piece);
  }
  return absl::OkStatus();
}

}  // namespace memplan
