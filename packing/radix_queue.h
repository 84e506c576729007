// RadixQueue: a monotone priority queue of (key, value) pairs -- a radix
// heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the
// shortest path problem", J. ACM 37(2), 1990). Monotone: every key pushed is
// at least the last key popped, as in the skyline sweep (skyline_sweep.cc),
// whose level only rises and whose new high segments sit above it.
//
// Entries live in 65 buckets by the highest bit in which their key differs
// from the last key popped. A pop that finds bucket 0 empty takes the least
// key of the first non-empty bucket and moves that bucket's entries down.
// Each entry moves down at most 64 times and every move is a sequential
// append, so at 10^6-10^7 entries a pop costs a few cache lines where a
// binary heap touches one per level, most of them outside the cache.
//
// MinKey only looks: it changes no bucket, so a caller may read the least
// key, decide not to pop, and still push keys below it (but not below the
// last key popped).
//
// Cost: Push O(1); PopMin O(64) amortized per entry; MinKey O(1) amortized
// (the first call after a pop scans one bucket; its answer is kept until
// the next pop); memory one entry per queued pair plus the buckets' spare
// capacity.
//
// Order: entries with equal keys come out in an unspecified but
// deterministic order (it depends only on the calls made).
//
// Example: Push(5, a), Push(3, b), Push(9, c): MinKey() = 3, PopMin() = b;
// then Push(4, d) is allowed (4 >= 3), Push(2, e) is not.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace memplan {

template <typename Value>
class RadixQueue {
 public:
  using Key = std::uint64_t;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // Queues `value` under `key`; key >= the last key popped (0 at first).
  void Push(Key key, Value value) {
    assert(key >= last_);
    const std::size_t b = BucketOf(key);
    buckets_[b].push_back({key, std::move(value)});
    if (b > 0 && least_ && key < *least_) least_ = key;
    ++size_;
  }

  // The least key queued; the queue must not be empty.
  Key MinKey() {
    assert(size_ > 0);
    if (!buckets_[0].empty()) return last_;
    if (!least_) {
      const auto& bucket = buckets_[FirstNonEmpty()];
      Key least = bucket.front().first;
      for (const auto& entry : bucket) least = std::min(least, entry.first);
      least_ = least;
    }
    return *least_;
  }

  // Removes and returns a value with the least key; the queue must not be
  // empty.
  Value PopMin() {
    if (buckets_[0].empty()) {
      // The least key lies in the first non-empty bucket; measured from it,
      // that bucket's entries fall into lower buckets and the others keep
      // theirs (they differ from it in the same highest bit as before).
      const std::size_t b = FirstNonEmpty();
      last_ = MinKey();
      least_.reset();
      for (auto& entry : buckets_[b]) buckets_[BucketOf(entry.first)].push_back(std::move(entry));
      buckets_[b].clear();
    }
    Value value = std::move(buckets_[0].back().second);
    buckets_[0].pop_back();
    --size_;
    return value;
  }

 private:
  std::size_t BucketOf(Key key) const {
    return static_cast<std::size_t>(std::bit_width(key ^ last_));
  }
  std::size_t FirstNonEmpty() const {
    std::size_t b = 0;
    while (buckets_[b].empty()) ++b;
    return b;
  }

  std::array<std::vector<std::pair<Key, Value>>, 65> buckets_;
  Key last_ = 0;
  std::optional<Key> least_;  // the least key outside bucket 0, once MinKey has looked
  std::size_t size_ = 0;
};

}  // namespace memplan
