// IntervalTree: the chunks already placed in one memory space, indexed by their
// live range so that "which chunks are live at some time in [s, e]?" is cheap.
//
// A treap (binary search tree on (start, handle) whose nodes also obey a heap
// order on pseudo-random priorities) keeps the expected depth at O(log n)
// whatever the insertion order; the priorities come from a fixed hash of a
// per-tree counter, so the shape (and every visit order) is deterministic.
// Each node also stores the largest `end` in its subtree, which lets a query
// skip every subtree whose chunks all die before `s` (the augmentation of
// XLA's BufferIntervalTree, packing.md §2.3, here on a balanced tree).
//
// Worked example: insert A = [0,3] @0 (10 B), B = [2,5] @10 (20 B),
// C = [6,9] @0 (30 B). ForEachOverlapping(4, 6) visits B then C (in start
// order): A ends at 3 < 4. ForEachOverlapping(3, 3) visits A and B (ranges
// are closed, so [0,3] and [3,3] overlap). After Remove(handle of B),
// ForEachOverlapping(4, 6) visits only C.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/units.h"

namespace memplan {

// A chunk of address space [offset, offset + size) reserved during the closed
// time range [start, end].
struct PlacedChunk {
  TimeStep start = 0;
  TimeStep end = 0;
  Bytes offset = 0;
  Bytes size = 0;
};

class IntervalTree {
 public:
  // Identifies an inserted chunk until it is removed.
  using Handle = std::int32_t;

  // Adds `chunk` (chunk.start <= chunk.end); returns its handle. Expected
  // O(log n).
  Handle Insert(const PlacedChunk& chunk);

  // Removes the chunk `handle` (which must be live); its handle may be reused
  // by a later Insert. Expected O(log n).
  void Remove(Handle handle);

  // The chunk stored under a live `handle`.
  const PlacedChunk& chunk(Handle handle) const { return nodes_[handle].chunk; }

  // Number of chunks currently stored.
  std::int64_t size() const { return size_; }

  // Removes every chunk (keeps the node storage for reuse).
  void Clear();

  // Calls visit(const PlacedChunk&) for every chunk whose closed range
  // intersects [s, e] (chunk.end >= s and chunk.start <= e), in order of
  // (start, handle). Expected O((k + 1) log n) for k visited chunks, and near
  // O(log n + k) when the chunks' ranges are short compared with the span.
  template <typename Visitor>
  void ForEachOverlapping(TimeStep s, TimeStep e, Visitor&& visit) const {
    Visit(root_, s, e, visit);
  }

 private:
  static constexpr Handle kNil = -1;

  struct Node {
    PlacedChunk chunk;
    TimeStep max_end = 0;     // max chunk.end over this subtree
    std::uint64_t priority = 0;  // heap order: parent priority >= child priority
    Handle left = kNil;
    Handle right = kNil;
  };

  template <typename Visitor>
  void Visit(Handle h, TimeStep s, TimeStep e, Visitor& visit) const {
    while (h != kNil) {
      const Node& node = nodes_[h];
      if (node.max_end < s) return;
      Visit(node.left, s, e, visit);
      if (node.chunk.start > e) return;  // the right subtree starts even later
      if (node.chunk.end >= s) visit(node.chunk);
      h = node.right;
    }
  }

  // True if node a sorts before node b by (start, handle).
  bool Less(Handle a, Handle b) const;
  void Update(Handle h);
  // Splits the subtree `h` into nodes ordered before `key` and the rest.
  void Split(Handle h, Handle key, Handle& before, Handle& after);
  // Joins two subtrees where every node of `a` sorts before every node of `b`.
  Handle Merge(Handle a, Handle b);
  // Removes node `target` from the subtree `h`; returns the new subtree root.
  Handle RemoveFrom(Handle h, Handle target);

  std::vector<Node> nodes_;
  std::vector<Handle> free_;  // handles of removed nodes, reused by Insert
  Handle root_ = kNil;
  std::int64_t size_ = 0;
  std::uint64_t next_priority_seed_ = 0;
};

}  // namespace memplan
