#include "packing/interval_tree.h"

#include <algorithm>

#include "packing/pack_support.h"

namespace memplan {

bool IntervalTree::Less(Handle a, Handle b) const {
  const TimeStep sa = nodes_[a].chunk.start;
  const TimeStep sb = nodes_[b].chunk.start;
  return sa < sb || (sa == sb && a < b);
}

void IntervalTree::Update(Handle h) {
  Node& node = nodes_[h];
  node.max_end = node.chunk.end;
  if (node.left != kNil) node.max_end = std::max(node.max_end, nodes_[node.left].max_end);
  if (node.right != kNil) node.max_end = std::max(node.max_end, nodes_[node.right].max_end);
}

void IntervalTree::Split(Handle h, Handle key, Handle& before, Handle& after) {
  if (h == kNil) {
    before = after = kNil;
    return;
  }
  if (Less(h, key)) {
    Split(nodes_[h].right, key, nodes_[h].right, after);
    before = h;
  } else {
    Split(nodes_[h].left, key, before, nodes_[h].left);
    after = h;
  }
  Update(h);
}

IntervalTree::Handle IntervalTree::Merge(Handle a, Handle b) {
  if (a == kNil) return b;
  if (b == kNil) return a;
  if (nodes_[a].priority >= nodes_[b].priority) {
    nodes_[a].right = Merge(nodes_[a].right, b);
    Update(a);
    return a;
  }
  nodes_[b].left = Merge(a, nodes_[b].left);
  Update(b);
  return b;
}

IntervalTree::Handle IntervalTree::Insert(const PlacedChunk& chunk) {
  Handle h;
  if (free_.empty()) {
    h = static_cast<Handle>(nodes_.size());
    nodes_.emplace_back();
  } else {
    h = free_.back();
    free_.pop_back();
  }
  Node& node = nodes_[h];
  node.chunk = chunk;
  node.max_end = chunk.end;
  node.priority = Mix64(next_priority_seed_++);
  node.left = node.right = kNil;
  Handle before;
  Handle after;
  Split(root_, h, before, after);
  root_ = Merge(Merge(before, h), after);
  ++size_;
  return h;
}

IntervalTree::Handle IntervalTree::RemoveFrom(Handle h, Handle target) {
  if (h == target) return Merge(nodes_[h].left, nodes_[h].right);
  Node& node = nodes_[h];
  if (Less(target, h)) {
    node.left = RemoveFrom(node.left, target);
  } else {
    node.right = RemoveFrom(node.right, target);
  }
  Update(h);
  return h;
}

void IntervalTree::Remove(Handle handle) {
  root_ = RemoveFrom(root_, handle);
  free_.push_back(handle);
  --size_;
}

void IntervalTree::Clear() {
  nodes_.clear();
  free_.clear();
  root_ = kNil;
  size_ = 0;
  next_priority_seed_ = 0;
}

}  // namespace memplan
