#include "driver/sweep_job.h"

#include <set>

#include "fmt/format.h"
#include "driver/msa_job.h"

namespace memplan {

namespace {

// `values` without repeats, each at its first place: O(n log n).
template <typename T>
std::vector<T> FirstOfEach(const std::vector<T>& values) {
  std::set<T> seen;
  std::vector<T> kept;
  for (const T& v : values) {
    if (seen.insert(v).second) kept.push_back(v);
  }
  return kept;
}

}  // namespace

std::vector<SweepPoint> SweepGrid(const std::vector<SweepDim>& dims,
                                  const std::vector<Bytes>& fast_memory_given) {
  std::vector<SweepPoint> points(1);
  for (const SweepDim& dim : dims) {
    const std::vector<std::int64_t> values = FirstOfEach(dim.values);
    std::vector<SweepPoint> next;
    next.reserve(points.size() * values.size());
    for (const SweepPoint& point : points) {
      for (std::int64_t value : values) {
        SweepPoint extended = point;
        extended.dims.emplace_back(dim.name, value);
        extended.batch_first = extended.batch_first || dim.batch;
        next.push_back(std::move(extended));
      }
    }
    points = std::move(next);
  }
  const std::vector<Bytes> fast_memory = FirstOfEach(fast_memory_given);
  if (fast_memory.empty()) return points;
  std::vector<SweepPoint> sized;
  sized.reserve(points.size() * fast_memory.size());
  for (const SweepPoint& point : points) {
    for (Bytes bytes : fast_memory) {
      SweepPoint with_size = point;
      with_size.fast_memory = bytes;
      sized.push_back(std::move(with_size));
    }
  }
  return sized;
}

namespace {

SweepRow RowOf(const SweepPoint& point, const PlanJobResult& result) {
  const Plan& plan = result.plan;
  SweepRow row;
  row.point = point;
  for (const SpaceInfo& info : plan.spaces) {
    if (info.id == kDefaultSpace) row.default_bytes = info.peak;
    if (info.id != kAlternateSpace) continue;
    row.alternate_bytes = info.peak;
    // A fast memory sized by --target alone: the size the plan used.
    if (!row.point.fast_memory) row.point.fast_memory = info.capacity;
  }
  row.peak = plan.peak;
  row.lower_bound = plan.lower_bound;
  row.msa = plan.msa;
  if (plan.msa) row.captured_speedup = CapturedSpeedup(*plan.msa);
  row.time_steps = plan.time_steps;
  row.buffers = static_cast<std::int64_t>(result.input.buffers.buffers.size());
  row.verified = plan.verified;
  row.search_status = plan.search_status;
  row.search_time_limit_seconds = plan.search_time_limit_seconds;
  row.search_default_time_limit = plan.search_default_time_limit;
  return row;
}

}  // namespace

absl::StatusOr<std::vector<SweepRow>> RunSweepJob(
    const std::string& input_path, const PlanJobOptions& base,
    const std::vector<SweepPoint>& points, const std::function<void(size_t, size_t)>& on_point) {
  if (base.json_path || base.svg_path || base.html_path || base.emit_ir_path || base.profile_path) {
    return absl::InvalidArgumentError("memplan: error: a sweep writes no plan files");
  }
  std::vector<SweepRow> rows;
  rows.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    if (on_point) on_point(i, points.size());
    const SweepPoint& point = points[i];
    PlanJobOptions options = base;
    options.measure_aliasing = false;
    for (std::size_t d = 0; d < point.dims.size(); ++d) {
      const auto& [name, value] = point.dims[d];
      if (d == 0 && point.batch_first) {
        options.load.batch = value;
      } else {
        options.load.dims[name] = value;
      }
    }
    if (point.fast_memory) {
      if (!options.msa) {
        return absl::InvalidArgumentError(
            "memplan: error: a sweep point has a fast-memory size but no fast memory is planned");
      }
      options.msa->fast_memory_bytes = *point.fast_memory;
    }
    absl::StatusOr<PlanJobResult> result = RunPlanJob(input_path, options);
    if (result.ok()) {
      rows.push_back(RowOf(point, *result));
      continue;
    }
    const std::string where =
        point.dims.empty() && !point.fast_memory
            ? std::string()
            : fmt::format(" (sweep point {})", DescribeSweepPoint(point));
    if (result.status().code() == absl::StatusCode::kResourceExhausted) {
      // The bytes the point needs: the same point planned without the
      // limits (capacities only check a finished plan; they do not steer it).
      // A fast-memory failure (a pinned buffer too large) has no such plan.
      PlanJobOptions unlimited = options;
      unlimited.pools.capacity.reset();
      unlimited.pools.pool_capacity.clear();
      absl::StatusOr<PlanJobResult> needed = RunPlanJob(input_path, unlimited);
      SweepRow row;
      if (needed.ok()) {
        row = RowOf(point, *needed);
      } else {
        row.point = point;
      }
      row.over_capacity = std::string(result.status().message());
      rows.push_back(std::move(row));
      continue;
    }
    return absl::Status(result.status().code(), std::string(result.status().message()) + where);
  }
  return rows;
}

}  // namespace memplan
