// Byte arenas for the plan executor (execute/executor.h): one array of real
// bytes per memory space, written with data patterns and read back.
//
// A *writer* is one write of data (an op's result, a caller's input, a
// region command's range); its *tag* is a 64-bit word derived from its id.
// The pattern of a writer over a buffer puts at buffer position p (bytes
// from the buffer's base) byte p % 8 of the tag, so the pattern travels with
// the buffer when a copy moves it to another offset or space. Fills and
// checks run at memset/memcmp speed: a 64 KiB block of the repeated tag is
// copied or compared per step.
//
// Beside the bytes each arena keeps a *shadow*: which writer last wrote each
// byte range (an interval map, moved along with the bytes by copies). It is
// used only to name the culprit when the bytes do not hold what a reader
// expects; pass or fail is decided by the bytes.
//
// Example: a 16-byte buffer at offset 8 written by writer 3 holds tag(3)
// twice at [8, 24); a copy of it to offset 40 of another space puts the same
// 16 bytes at [40, 56), and its shadow names writer 3 there.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "ir/units.h"

namespace memplan {

// The 64-bit pattern word of writer `writer` (a mix of its id, never 0).
std::uint64_t WriterTag(std::int64_t writer);

// One memory space's bytes and shadow.
class Arena {
 public:
  // An arena of `size` bytes (>= 0), every byte 0 and written by nobody.
  explicit Arena(Bytes size);

  Bytes size() const { return static_cast<Bytes>(bytes_.size()); }

  // Writes writer `writer`'s pattern into [address, address + length), whose
  // first byte is at position `position` of its buffer (the pattern phase).
  // The range must lie inside the arena.
  void Fill(Bytes address, Bytes length, Bytes position, std::int64_t writer);

  // The first address in [address, address + length) whose byte differs from
  // writer `writer`'s pattern (phase as Fill), or nullopt when all match.
  std::optional<Bytes> FirstMismatch(Bytes address, Bytes length, Bytes position,
                                     std::int64_t writer) const;

  // Copies `length` bytes from `from` of `source` to `to` of this arena
  // (the arenas may be the same; the ranges may overlap), shadow included;
  // the copied bytes' mover becomes `mover` (an async copy's index).
  void CopyFrom(const Arena& source, Bytes from, Bytes to, Bytes length, std::int64_t mover);

  // Who put byte `address` there: the writer whose data it holds (-1 when no
  // writer wrote it) and the copy that last moved that data here (-1 when it
  // was written in place).
  struct Origin {
    std::int64_t writer = -1;
    std::int64_t mover = -1;
  };
  Origin OriginAt(Bytes address) const;

 private:
  struct ShadowPiece {
    Bytes end = 0;
    std::int64_t writer = -1;
    std::int64_t mover = -1;
  };
  // Sets the shadow of [begin, end) to `writer` moved by `mover` (writer -1: nobody).
  void SetShadow(Bytes begin, Bytes end, std::int64_t writer, std::int64_t mover = -1);
  // Splits the shadow piece containing `address` so that one begins there.
  void SplitShadowAt(Bytes address);

  std::vector<std::uint8_t> bytes_;
  std::map<Bytes, ShadowPiece> shadow_;  // disjoint pieces by begin; gaps: nobody
};

}  // namespace memplan
