// Which slices of a region's transient slab go to a fast slab in fast
// memory, and where they sit there. The choice is by benefit per byte (the
// seconds a run saves with the slice in fast memory, from the caller's cost
// model, over its padded size), so the few bytes of fast memory go to the
// slices the region's commands access most:
//  1. candidates: static slices (a dynamic size would tie the fast slab's
//     size to the dims) with a benefit > 0 whose padded size fits;
//  2. in decreasing benefit per byte (ties: item order), a candidate is
//     taken when the taken slices' max live bytes stay within the capacity;
//  3. the taken slices are laid out like a slab (the layout's alignment
//     combined with the fast memory's); while the layout's total exceeds the
//     capacity, the taken slice of lowest benefit per byte is dropped and
//     the rest laid out again.
// Deterministic. Cost: O(n log n) plus one layout per dropped slice.
//
// A region's captured copies (regions/captured_copies.h) are items here too,
// with their net benefit: copies and slices compete for the same bytes.
//
// Example: slices of 8192 bytes each, benefits 3e-7, 1e-7 and 2e-7 s, all
// live together, capacity 16384: slices 0 and 2 at offsets 0 and 8192.
#pragma once

#include <cstddef>
#include <vector>

#include "packing/packer.h"
#include "regions/slice_layout.h"

namespace memplan {

struct FastSlabChoice {
  std::vector<std::size_t> fast;  // indices into the items, ascending
  LayoutResult layout;            // offsets parallel to `fast`; total <= capacity
};

// `items` are a slab's slices, `benefit` their seconds saved (parallel),
// `capacity` the fast memory's bytes and `layout` the slab's layout options
// with the fast memory's offset alignment. `in_order` lays out as IREE does
// (InOrderLayout), else PackedLayout with `algorithm`. No candidate: an
// empty choice.
FastSlabChoice ChooseFastSlices(const std::vector<LayoutItem>& items,
                                const std::vector<double>& benefit, Bytes capacity,
                                const LayoutOptions& layout, bool in_order,
                                PackingAlgorithm algorithm);

}  // namespace memplan
