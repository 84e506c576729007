#include "verify/pending_reads.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace memplan::region_verify {

void PendingReads::Add(std::int32_t resource, Bytes begin, Bytes end, Reader reader) {
  IntervalMap<Readers>& map = reads_[resource];
  std::vector<std::tuple<Bytes, Bytes, Readers>> pieces;  // assigned after the visit
  map.Visit(begin, end, [&](const IntervalMap<Readers>::Piece& piece) {
    Readers readers = piece.tag ? *piece.tag : Readers{};
    // Reads that happen before this one are implied by it.
    std::erase_if(readers, [&](const Reader& r) { return hb_.Precedes(r.step, reader.step); });
    if (std::none_of(readers.begin(), readers.end(),
                     [&](const Reader& r) { return r.step == reader.step; })) {
      readers.push_back(reader);
    }
    pieces.emplace_back(piece.begin, piece.end, std::move(readers));
    return true;
  });
  for (auto& [lo, hi, readers] : pieces) map.Assign(lo, hi, readers);
}

std::optional<Reader> PendingReads::Unordered(std::int32_t resource, Bytes begin, Bytes end,
                                              std::size_t step) const {
  std::optional<Reader> found;
  reads_[resource].Visit(begin, end, [&](const IntervalMap<Readers>::Piece& piece) {
    if (!piece.tag) return true;
    for (const Reader& r : *piece.tag) {
      if (r.step != step && !hb_.Precedes(r.step, step)) {
        found = r;
        return false;
      }
    }
    return true;
  });
  return found;
}

}  // namespace memplan::region_verify
