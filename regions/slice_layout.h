// Offsets of the slices inside one region allocation, as size expressions
// (ir/size_expr.h), so that one layout is valid for every binding of the
// program's dims. Three layouts:
//
//  * StackLayout — slices never share memory (result reservations and
//    constant uploads; IREE packs these with all-[0,0] lifetimes): laid end
//    to end, each offset aligned to OA, each size padded to RA.
//  * InOrderLayout — IREE's LayoutSlices (iree-stream-layout-slices):
//    static slices by best fit in definition order (packing/ "in-order");
//    dynamic slices share only with slices of an identical size expression
//    whose lifetimes are disjoint (first-fit bins), stacked after the static
//    part. Reproduces IREE's offsets: the layoutStatic example (sizes 100,
//    100, 100, 200, 200, 100 at [0,1] [1,2] [2,3] [0,4] [5,6] [5,8],
//    OA = RA = 16) gives offsets 0, 112, 0, 224, 0, 208 and total 432.
//  * OrientedLayout / PackedLayout — memplan's: slices are packed at the
//    dims' planning point (sizes there are the largest any binding gives,
//    since every size is non-decreasing in every dim); for every pair of
//    slices live at the same time that packing fixes which one lies below.
//    Offsets are then the longest path over that orientation:
//        offset(i) = align(max over j below i, live with i, of offset(j) + padded(j), OA)
//    which keeps every pair of simultaneously live slices disjoint for
//    *every* binding, while slices that are never live together share
//    memory whatever their sizes — dynamic with dynamic of a different
//    size, static with dynamic (IREE shares neither). At the planning point
//    each offset is at most the packed one, so the total is at most the
//    packer's. Static layouts keep the packer's offsets as they are.
//
// Every layout returns offsets that are multiples of OA and a total padded
// to RA. Costs: StackLayout O(n); InOrderLayout O(n log n + p) (p pairs
// of static slices live together) plus O(n * bins) for dynamic ones;
// OrientedLayout O(n log n) when static, else O(n^2) liveness tests plus
// O(p * t) expression work for p pairs of slices live together and t <= 8
// terms per max (SizeExpr::MaxWithin) — symbolic sizes occur in small,
// dynamic regions; static ones never take this path.
#pragma once

#include <string>
#include <vector>

#include "ir/size_expr.h"
#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

struct LayoutItem {
  SizeExpr size;          // bytes (unpadded)
  TimeStep start = 0;     // closed live range; items live at a common step conflict
  TimeStep end = 0;
};

struct LayoutOptions {
  Bytes offset_alignment = 64;  // OA: every offset is a multiple (>= 1)
  Bytes range_alignment = 64;   // RA: every size is padded to a multiple (>= 1)
  std::vector<std::int64_t> planning_point;  // per DimId (ir/dims.h)
  DimBox box;                                // the dims' ranges, for MaxWithin
  double time_limit_seconds = 0;  // PackedLayout with exact: the search's limit (0: default)
};

struct LayoutResult {
  std::vector<SizeExpr> offsets;  // parallel to the items
  SizeExpr total;                 // align(max(offset + padded size), RA)
  std::string algorithm;          // "stack", "in-order", or the packing algorithm's name
  // PackedLayout with exact: the search stopped at its time limit (seconds,
  // default_time_limit when none was given) before it proved its packing
  // optimal.
  bool search_stopped = false;
  double search_time_limit_seconds = 0;
  bool search_default_time_limit = false;
};

LayoutResult StackLayout(const std::vector<LayoutItem>& items, const LayoutOptions& options);

LayoutResult InOrderLayout(const std::vector<LayoutItem>& items, const LayoutOptions& options);

// Symbolic offsets for `items` oriented by `planning_offsets` (their offsets
// at the planning point, e.g. a packing of the padded sizes there; every pair
// of items live together must be disjoint at those offsets).
LayoutResult OrientedLayout(const std::vector<LayoutItem>& items,
                            const std::vector<Bytes>& planning_offsets,
                            const LayoutOptions& options, std::string algorithm);

// Packs the padded sizes at the planning point with `algorithm`
// (packing/packer.h), then OrientedLayout.
LayoutResult PackedLayout(const std::vector<LayoutItem>& items, PackingAlgorithm algorithm,
                          const LayoutOptions& options);

// Item i's padded size at the planning point (0 on overflow, which the
// input limits rule out).
Bytes PlanningBytes(const LayoutItem& item, const LayoutOptions& options);

}  // namespace memplan
