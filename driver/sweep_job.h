// The job behind `memplan sweep`: one verified plan (RunPlanJob) per point of
// a grid of symbolic-dim bindings (e.g. batch sizes) and fast-memory sizes,
// reduced to the figures a sweep table shows.
//
// Example: dims {batch: [1, 2, 4]} and fast memory [256 KiB, 1 MiB] give six
// points, in this order: (batch=1, 256 KiB), (batch=1, 1 MiB), (batch=2,
// 256 KiB), ... — the first dim varies slowest, fast memory fastest.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/plan_job.h"
#include "ir/units.h"
#include "report/sweep/sweep_row.h"

namespace memplan {

// The values one dim takes in a sweep, in the order given.
struct SweepDim {
  std::string name;
  std::vector<std::int64_t> values;  // non-empty
  // The leading dim of every graph input (LoadOptions::batch), named
  // "batch"; only as the first dim.
  bool batch = false;
};

// The cartesian product of `dims` (first dim slowest) and `fast_memory`
// (fastest; an empty list means one point per dims binding with no fast
// memory size of its own). With no dims and no sizes: one empty point.
// A value given twice (`batch=1,2,1`, `1MiB,1048576`) is one point, at its
// first place: each point is planned once.
std::vector<SweepPoint> SweepGrid(const std::vector<SweepDim>& dims,
                                  const std::vector<Bytes>& fast_memory);

// Plans `input_path` at every point with `base` (its output paths must be
// unset; its load dims are kept and the point's bindings added or replaced;
// a point's fast memory needs `base.msa`). Points are planned in order,
// `on_point(i, n)` (if set) is called before point i of n, for progress.
// A point that does not fit --capacity is a row with `over_capacity` set
// and, when the point plans without the limits, that plan's figures (the
// bytes it needs). Errors: the first point's error that is not a capacity
// failure, with the
// point appended (" (sweep point --dim batch=4)"); InvalidArgument when
// `base` names an output or a point has fast memory but `base.msa` is unset.
absl::StatusOr<std::vector<SweepRow>> RunSweepJob(
    const std::string& input_path, const PlanJobOptions& base,
    const std::vector<SweepPoint>& points,
    const std::function<void(size_t, size_t)>& on_point = nullptr);

}  // namespace memplan
