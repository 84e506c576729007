// An ordered map from disjoint half-open byte intervals to tags; bytes no
// interval covers carry no tag. Assignment splits the intervals it cuts and
// merges equal neighbours, so the map holds O(assignments) intervals however
// large the byte range (slabs can be gigabytes: never one entry per byte).
// Used by the shadow execution of region plans (verify/region_checks.h).
#pragma once

#include <algorithm>
#include <iterator>
#include <map>

#include "ir/units.h"

namespace memplan::region_verify {

template <typename Tag>
class IntervalMap {
 public:
  // [begin, end) clipped to a visit; `tag` is null for untagged bytes.
  struct Piece {
    Bytes begin;
    Bytes end;
    const Tag* tag;
  };

  // Tags [begin, end) with `tag`. O(log M + intervals replaced).
  void Assign(Bytes begin, Bytes end, const Tag& tag) {
    if (begin >= end) return;
    Split(begin);
    Split(end);
    auto first = map_.lower_bound(begin);
    map_.erase(first, map_.lower_bound(end));
    auto it = map_.emplace(begin, Entry{end, tag}).first;
    if (auto next = std::next(it);
        next != map_.end() && next->first == end && next->second.tag == tag) {
      it->second.end = next->second.end;
      map_.erase(next);
    }
    if (it != map_.begin()) {
      if (auto prev = std::prev(it); prev->second.end == begin && prev->second.tag == tag) {
        prev->second.end = it->second.end;
        map_.erase(it);
      }
    }
  }

  // Calls fn(Piece) for the maximal tagged and untagged pieces of [begin,
  // end) in address order until fn returns false. O(log M + pieces).
  template <typename Fn>
  void Visit(Bytes begin, Bytes end, Fn fn) const {
    auto it = map_.upper_bound(begin);
    if (it != map_.begin() && std::prev(it)->second.end > begin) --it;
    Bytes at = begin;
    while (at < end) {
      if (it == map_.end() || it->first >= end) {
        fn(Piece{at, end, nullptr});
        return;
      }
      if (it->first > at) {
        if (!fn(Piece{at, it->first, nullptr})) return;
        at = it->first;
      }
      const Bytes stop = std::min(it->second.end, end);
      if (!fn(Piece{at, stop, &it->second.tag})) return;
      at = stop;
      ++it;
    }
  }

 private:
  struct Entry {
    Bytes end;
    Tag tag;
  };

  // Makes `at` an interval boundary (an interval across it is cut in two).
  void Split(Bytes at) {
    auto it = map_.upper_bound(at);
    if (it == map_.begin()) return;
    --it;
    if (it->first < at && it->second.end > at) {
      map_.emplace(at, Entry{it->second.end, it->second.tag});
      it->second.end = at;
    }
  }

  std::map<Bytes, Entry> map_;  // interval begin -> (end, tag); disjoint
};

}  // namespace memplan::region_verify
