#include "msa/alternate_heap.h"

#include <algorithm>

namespace memplan {

AlternateHeap::AlternateHeap(Bytes capacity, Bytes alignment)
    : capacity_(capacity), alignment_(std::max<Bytes>(1, alignment)) {}

std::optional<Bytes> AlternateHeap::BestFit(TimeStep start, TimeStep end, Bytes size) const {
  return finder_.FindBestFit(tree_, start, end, size, alignment_, capacity_);
}

bool AlternateHeap::IsFree(Bytes offset, Bytes size, TimeStep start, TimeStep end) const {
  if (offset + size > capacity_) return false;
  bool free = true;
  tree_.ForEachOverlapping(start, end, [&](const PlacedChunk& c) {
    if (c.size > 0 && c.offset < offset + size && offset < c.offset + c.size) free = false;
  });
  return free;
}

TimeStep AlternateHeap::FreeUntil(Bytes offset, Bytes size, TimeStep start, TimeStep limit) const {
  if (limit < start) return start - 1;
  if (offset + size > capacity_) return start - 1;
  TimeStep until = limit;
  tree_.ForEachOverlapping(start, limit, [&](const PlacedChunk& c) {
    if (c.size > 0 && c.offset < offset + size && offset < c.offset + c.size) {
      until = std::min(until, std::max(c.start, start) - 1);
    }
  });
  return until;
}

Bytes AlternateHeap::HoleRoom(Bytes offset, Bytes size, TimeStep start, TimeStep end) const {
  Bytes below = 0;
  Bytes above = capacity_;
  tree_.ForEachOverlapping(start, end, [&](const PlacedChunk& c) {
    if (c.size <= 0) return;
    if (c.offset + c.size <= offset) below = std::max(below, c.offset + c.size);
    if (c.offset >= offset + size) above = std::min(above, c.offset);
  });
  return above - below - size;
}

IntervalTree::Handle AlternateHeap::Commit(TimeStep start, TimeStep end, Bytes offset, Bytes size) {
  return tree_.Insert(PlacedChunk{start, end, offset, size});
}

void AlternateHeap::Uncommit(IntervalTree::Handle handle) { tree_.Remove(handle); }

}  // namespace memplan
