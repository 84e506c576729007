// The reads of a resource's bytes since their last write, for rule 5 of
// verify/region_checks.h: a write must come after every such read by another
// step in happens-before (a read still running when the bytes change reads
// the wrong data). Per byte, only reads none of the others happen before are
// kept: if a happens before b, and b before the write, so does a. The sets
// are antichains of steps, small in practice (unordered readers of one
// value). Cost: O(log M + pieces * set size) per read or write, for M
// intervals (verify/interval_map.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/units.h"
#include "verify/happens_before.h"
#include "verify/interval_map.h"

namespace memplan::region_verify {

struct Reader {
  std::size_t step;
  std::size_t command;  // index in the step's commands
  bool operator==(const Reader&) const = default;
};

class PendingReads {
 public:
  PendingReads(const HappensBefore& hb, std::size_t resources) : hb_(hb), reads_(resources) {}

  // Notes that `reader` reads [begin, end) of `resource`.
  void Add(std::int32_t resource, Bytes begin, Bytes end, Reader reader);

  // The first read of [begin, end) of `resource` by a step other than `step`
  // that does not happen before it.
  std::optional<Reader> Unordered(std::int32_t resource, Bytes begin, Bytes end,
                                  std::size_t step) const;

  // Forgets the reads of [begin, end): the bytes are written.
  void Clear(std::int32_t resource, Bytes begin, Bytes end) {
    reads_[resource].Assign(begin, end, {});
  }

 private:
  using Readers = std::vector<Reader>;

  const HappensBefore& hb_;
  std::vector<IntervalMap<Readers>> reads_;  // per resource
};

}  // namespace memplan::region_verify
