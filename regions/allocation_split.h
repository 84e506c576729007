// --max-allocation-size: splitting one region allocation into several that
// each stay within the limit (IREE leaves this open for result reservations
// and transient slabs, iree-org/iree #23924; only its constant packing splits).
// Sizes are compared at the dims' planning point, the largest any binding
// gives, so a split holds for every binding. An item larger than the limit
// gets an allocation of its own, marked over_limit (the caller warns).
#pragma once

#include <cstddef>
#include <vector>

#include "regions/slice_layout.h"

namespace memplan {

struct SplitGroup {
  std::vector<std::size_t> items;        // indices into the input, ascending
  bool over_limit = false;               // one item larger than the limit
  std::vector<Bytes> planning_offsets;   // SplitPacked: a layout within the limit, parallel to items
};

// Items that never share (stacked end to end), in input order: a new group
// starts when the next item would take the group past `limit`. O(n).
std::vector<SplitGroup> SplitStacked(const std::vector<LayoutItem>& items,
                                     const LayoutOptions& options, Bytes limit);

// Items that may share by lifetime: first fit, largest padded size first
// (ties: input order), each into the first group with a gap that keeps it
// below `limit` (lowest aligned offset clear of the group's items live with
// it). O(n * g * c) for g groups and c items live together.
std::vector<SplitGroup> SplitPacked(const std::vector<LayoutItem>& items,
                                    const LayoutOptions& options, Bytes limit);

}  // namespace memplan
