// FreeBlocks: the free space of one address space while allocations and
// frees are replayed in time order, the state of a runtime allocator's
// best-fit free list (online_best_fit.h; ONNX Runtime's memory pattern,
// peers/onnxruntime_pattern.h).
//
// Free space below the top (the end of the highest reserved byte) is kept as
// maximal free blocks, indexed both by offset (a freed block merges with its
// free neighbours) and by (size, offset) (best-fit lookup); everything at or
// above the top is one unbounded free block. Freeing the highest block
// lowers the top to the end of the next reserved byte below it.
//
// Example: TakeTop(10, 1) -> 0, TakeTop(20, 1) -> 10, TakeTop(5, 1) -> 30
// (top 35). Give(0, 10): free block [0,10). Give(30, 35): the top drops to
// 30. BestFit(8, 1) -> the block at 0 (10 B); BestFit(12, 1) -> none.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "ir/units.h"

namespace memplan {

class FreeBlocks {
 public:
  // A free block below the top that can hold a request.
  struct Fit {
    Bytes block_offset = 0;  // where the free block begins
    Bytes block_size = 0;    // its bytes
    Bytes offset = 0;        // the request's aligned offset inside it
  };

  // The smallest free block below the top that holds `size` > 0 bytes at an
  // offset that is a multiple of `alignment` (ties: the lower block), or
  // nullopt. O(log n): blocks of at least size + alignment - 1 bytes always
  // fit; a few smaller ones are probed first in case their start is aligned.
  std::optional<Fit> BestFit(Bytes size, Bytes alignment) const;

  // Reserves `size` bytes at fit.offset (fit from BestFit, nothing changed
  // since); the alignment padding and the tail stay free. O(log n).
  Bytes TakeAt(const Fit& fit, Bytes size);

  // Reserves `size` bytes at the top rounded up to `alignment`; the padding
  // becomes a free block. O(log n).
  Bytes TakeTop(Bytes size, Bytes alignment);

  // Reserves [offset, end) with offset >= top() (a fixed item's bytes,
  // packing/fixed_items.h); the bytes between the top and offset become a
  // free block. O(log n).
  void Reserve(Bytes offset, Bytes end);

  // BestFit, else TakeTop: the smallest block that fits, else the top.
  Bytes Take(Bytes size, Bytes alignment);

  // Frees [offset, end) (reserved before), merging it with adjacent free
  // blocks; the top drops when it was the highest reserved byte. O(log n).
  void Give(Bytes offset, Bytes end);

  // Everything at or above this offset is free.
  Bytes top() const { return top_; }

 private:
  using SizeKey = std::pair<Bytes, Bytes>;  // (size, offset)

  void Insert(Bytes offset, Bytes end);
  void Erase(std::map<Bytes, Bytes>::iterator it);

  std::map<Bytes, Bytes> by_offset_;  // offset -> end
  std::set<SizeKey> by_size_;
  Bytes top_ = 0;
};

}  // namespace memplan
